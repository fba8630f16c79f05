"""SURV-5 information sharing (Russian Poker): play-or-fold decisions that follow the
dealer's hidden cards.

A box decides to play or fold (RP-3) seeing its own cards and the dealer's one up card.
Whether the dealer qualifies (RP-5, Ace-King or better) depends on the four cards it
cannot see. A box that plays when the dealer will not qualify (and collects the Ante) and
folds when the dealer will qualify is doing better than is possible without seeing them.

The test, per player: every decision is put in a stratum of what the box *could* see —
the up card's rank and the RP-7 paytable line of the box's own hand at the moment it
decided (after any exchange or bought card). Within a stratum, an honest decision is
independent of the hidden qualification, so given the stratum's margins (``n`` decisions,
``f`` folds, ``q`` dealer qualifications) the number of "fold and dealer qualifies" is
hypergeometric; summed over strata, its exact distribution is the convolution of the
strata's (the stratified exact test). The p-value is ``P(T >= t)``.

Run in ``review()`` (the convolution is too costly to redo every hand; the test is
per player, so it does not depend on other tables either way). Limitation: within a
stratum the box's own cards slightly change the odds of the dealer's (card removal);
that effect is far below the thresholds at realistic volumes, see docs/surveillance.md.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import combinations

from services.adjudicator.table import Alert
from services.events.contract import ActionEvent, CardDealtEvent, DrawEvent, Event
from services.games.evaluation.russian import dealer_qualifies, paytable_category
from services.games.evaluation.standard import rank5
from services.surveillance.alerting import Evidence, sorted_tables, surv_alert
from services.surveillance.facts import HandFacts, HandRef
from services.surveillance.gate import AlertGate
from services.surveillance.profile import Collusion

CODE = "INFORMATION_SHARING"


@dataclass(frozen=True)
class BoxDecision:
    seat: int
    folded: bool
    stratum: tuple[str, str]  # (dealer's up-card rank, the box's paytable line)


@dataclass(frozen=True)
class RussianDecisions:
    dealer_qualifies: bool
    decisions: tuple[BoxDecision, ...]


def _line(cards: list[str]) -> str | None:
    if len(cards) == 5:
        return paytable_category(cards)
    if len(cards) == 6:
        best = max(combinations(cards, 5), key=rank5)
        return paytable_category(best)
    return None


def russian_decisions(events: Iterable[Event]) -> RussianDecisions | None:
    """The boxes' play/fold decisions and what they could see; None if the dealer's five
    cards or the up card are not all known."""
    holding: dict[int, list[str]] = {}
    dealer: list[str | None] = []
    up: list[str] = []
    decided: list[BoxDecision] = []
    seen: set[int] = set()
    for e in events:
        if isinstance(e, CardDealtEvent):
            if e.data.to == "dealer" and len(dealer) < 5:
                dealer.append(e.data.card)
                if e.data.face_up and e.data.card is not None:
                    up.append(e.data.card)
            elif e.data.to == "seat" and e.data.seat is not None and e.data.card is not None:
                holding.setdefault(e.data.seat, []).append(e.data.card)
        elif isinstance(e, DrawEvent):
            cards = holding.setdefault(e.data.seat, [])
            for card in e.data.discarded:
                if card in cards:
                    cards.remove(card)
            cards.extend(e.data.received)
        elif (isinstance(e, ActionEvent) and e.data.action in ("fold", "play")
              and e.data.seat not in seen and len(up) == 1):
            seen.add(e.data.seat)
            line = _line(holding.get(e.data.seat, []))
            if line is not None:
                decided.append(BoxDecision(e.data.seat, e.data.action == "fold",
                                           (up[0][0], line)))
    if len(dealer) != 5 or len(up) != 1 or any(c is None for c in dealer):
        return None
    return RussianDecisions(dealer_qualifies([c for c in dealer if c is not None]),
                            tuple(decided))


@dataclass
class Stratum:
    """One player's decisions in one visible situation, and how the hidden cards fell."""

    decisions: int = 0
    folds: int = 0
    qualified: int = 0
    fold_and_qualified: int = 0


@dataclass
class _Player:
    strata: dict[tuple[str, str], Stratum] = field(default_factory=dict)
    evidence: Evidence | None = None
    last: HandRef | None = None


def _log_comb(n: int, k: int) -> float:
    return math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)


def _hypergeometric(cell: Stratum) -> tuple[int, list[float]]:
    """Support start and pmf of "folds among the qualified" in one stratum."""
    n, f, q = cell.decisions, cell.folds, cell.qualified
    low, high = max(0, f + q - n), min(f, q)
    log_total = _log_comb(n, f)
    pmf = [math.exp(_log_comb(q, x) + _log_comb(n - q, f - x) - log_total)
           for x in range(low, high + 1)]
    return low, pmf


def stratified_upper_tail(cells: Iterable[Stratum], observed: int) -> tuple[float, float]:
    """(P(T >= observed), E[T]) for T the sum over strata of independent hypergeometrics."""
    offset, dist, expected = 0, [1.0], 0.0
    for cell in cells:
        if cell.decisions:
            expected += cell.folds * cell.qualified / cell.decisions
        low, pmf = _hypergeometric(cell)
        offset += low
        if len(pmf) == 1:
            continue
        out = [0.0] * (len(dist) + len(pmf) - 1)
        for i, a in enumerate(dist):
            if a:
                for j, b in enumerate(pmf):
                    out[i + j] += a * b
        dist = out
    start = max(observed - offset, 0)
    return min(1.0, sum(dist[start:])), expected


class InformationSharing:
    def __init__(self, config: Collusion, gate: AlertGate, evidence_hands: int) -> None:
        self.config = config
        self.gate = gate
        self.keep = evidence_hands
        self.players: dict[str, _Player] = {}

    def observe(self, facts: HandFacts, events: Iterable[Event]) -> None:
        if facts.game != "russian":
            return
        seen = russian_decisions(events)
        if seen is None:
            return
        for d in seen.decisions:
            player_id = facts.players.get(d.seat)
            if player_id is None:
                continue
            player = self.players.setdefault(player_id, _Player())
            cell = player.strata.setdefault(d.stratum, Stratum())
            cell.decisions += 1
            cell.folds += d.folded
            cell.qualified += seen.dealer_qualifies
            cell.fold_and_qualified += d.folded and seen.dealer_qualifies
            player.last = facts.ref(d.seat)
            if d.folded == seen.dealer_qualifies:  # the decision matched the hidden cards
                if player.evidence is None:
                    player.evidence = Evidence(self.keep)
                player.evidence.add(facts.ref(d.seat))

    def review(self) -> list[Alert]:
        alerts = [self._test(name, self.players[name]) for name in sorted(self.players)]
        return [a for a in alerts if a is not None]

    def _test(self, name: str, player: _Player) -> Alert | None:
        cfg = self.config
        cells = [player.strata[k] for k in sorted(player.strata)]
        n = sum(c.decisions for c in cells)
        if n < cfg.min_decisions:
            return None
        t = sum(c.fold_and_qualified for c in cells)
        p, expected = stratified_upper_tail(cells, t)
        instance = ("SURV-5", name)
        if p > cfg.p_value or not self.gate.due(instance, n):
            return None
        self.gate.fired(instance, n)
        folds = sum(c.folds for c in cells)
        qualified = sum(c.qualified for c in cells)
        hands = list(player.evidence.hands) if player.evidence else []
        evidence = {
            "player": name, "decisions": n, "folds": folds, "dealer_qualified": qualified,
            "folds_when_dealer_qualified": t, "expected": expected,
            "plays_when_dealer_did_not_qualify": n - folds - qualified + t,
            "strata": len(cells),
            "statistic": "P(T >= folds_when_dealer_qualified), T = sum over strata "
                         "(up-card rank, own paytable line) of hypergeometrics",
            "p_value": p, "threshold": cfg.p_value, "min_decisions": cfg.min_decisions,
            "tables": sorted_tables(hands), "hands": player.evidence.cited()
            if player.evidence else [],
        }
        message = (f"player {name}: folded in {t} of the {qualified} hands the dealer "
                   f"qualified ({expected:.1f} expected from what the box could see), over "
                   f"{n} play/fold decisions; p = {p:.2e} <= {cfg.p_value:g}")
        where = hands[-1] if hands else player.last
        assert where is not None
        return surv_alert(where, CODE, "SURV-5", cfg.severity, message, evidence)
