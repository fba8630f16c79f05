"""SURV-3 chip dumping (poker games): chips moved from one player to another against the
cards, read from the hole cards the table's RFID log holds.

Two lines move chips on purpose, and each is a set of decisions with a yes/no choice:

- ``fold``: the giver ``F`` faces a bet or raise having already put at least
  ``min_fold_investment_big_blinds`` big blinds in (at a fixed-limit table
  ``min_fold_investment_big_blinds_fixed_limit``: the caps bound a whole hand to 12 big
  blinds at Draw 7-A, so 10 in is a spot an honest player almost never folds in to anyone
  else, and the giver's own baseline there was empty: 66 of its 80 such decisions were
  against the taker); "yes" = it folds (the chips it put in
  go to the pot it gives up). Stratum: street, own hand class (weak, fair, strong), the
  price of a call (pot odds). Not whether its hand beats the bettor's (an honest player
  cannot see that, so it does not bias its folds) nor how much it has in: finer strata
  were measured to hide a dumper, whose folds after building a pot then make most of
  their own stratum (2% fold dumping over 3,000 hands: p 6e-7 with them, 1e-9 without).
- ``showdown``: late in the hand (hold'em turn and river, Draw 7-A after the draw), ``F``'s
  hand is beaten by the bettor's (on the river and after the draw, hopeless; on the
  turn, one card from it) and the call is dear (at least 1/4 of the pot after it);
  "yes" = it puts chips in (calls, raises). Stratum: street, own hand class, price.
  Cheap calls are left out: calling a small bet with a beaten hand is right for anyone,
  and counting them drowned a dumper's dear calls (2,500 honest cheap calls against 80
  dumped dear ones: p 0.015 with them, 2e-6 without, in the benchmark's setting).
- ``flow``: both sets together (strata kept apart by method), so a giver who mixes the
  two lines is seen as one flow of chips against the cards.

The null model is per decider and per situation: an honest player decides from its
cards and the spot, not from who bet. Within one of ``F``'s strata, which of its
decisions faced ``W`` is unrelated to which were "yes", so the "yes" decisions against
``W`` are hypergeometric given the stratum's margins; over ``F``'s strata, the stratified
exact test (``services.surveillance.stratified``), upper tail ``P(T >= t)``. A loose
player folding to an aggressive one is no evidence here: it folds the same hands in the
same spots whoever bets. Looked at when the count of "yes" decisions against ``W``
reaches the next point of the look grid from ``min_count``, once they total
``min_total_big_blinds`` (chips, in whole big blinds of each hand's table).

The count is the statistic; the chips are the threshold, the evidence and the severity.
An exact chip-weighted permutation test was measured as too costly to redo at each look.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from services.events.contract import Alert
from services.surveillance.alerting import Evidence, sorted_tables, surv_alert
from services.surveillance.facts import POKER_GAMES, HandFacts
from services.surveillance.gate import AlertGate
from services.surveillance.looks import Looks, spent
from services.surveillance.player_profiles import ProfileBook
from services.surveillance.poker_decisions import PokerDecision, hand_class
from services.surveillance.profile import ChipDumping
from services.surveillance.stratified import Stratum, stratified_test

CODE = "CHIP_DUMPING"
METHODS = ("fold", "showdown", "flow")
# A showdown decision counts from this price class up (a call of at least 1/4 of the pot
# after it): a cheap call with a beaten hand is right for anyone and only adds noise.
DEAR_PRICE = 2


@dataclass
class Tally:
    decisions: int = 0
    chosen: int = 0
    chips: int = 0  # chips of the "yes" decisions
    big_blinds: int = 0


@dataclass
class Situation:
    total: Tally = field(default_factory=Tally)
    against: dict[str, Tally] = field(default_factory=dict)


@dataclass
class PairRecord:
    """One giver -> taker, one method: the "yes" decisions and their hands."""

    evidence: Evidence
    tally: Tally = field(default_factory=Tally)


@dataclass(frozen=True)
class Choice:
    """One decision of a method: who decided, against whom, yes or no, in which stratum."""

    method: str
    seat: int
    opponent: int
    chose: bool
    chips: int
    stratum: str


def choices(d: PokerDecision, big_blind: int, min_investment: int) -> Iterator[Choice]:
    """The fold and showdown decisions among one betting decision (none, one, or both)."""
    heavy = min_investment * big_blind
    if d.facing and d.bettor is not None and d.invested >= heavy:
        yield Choice("fold", d.seat, d.bettor, d.action == "fold", d.invested,
                     f"{d.street}/{hand_class(d)}/{d.price}")
    if not d.late or not d.facing or d.price < DEAR_PRICE:
        return
    if d.bettor is not None and d.bettor in d.beaten_by:
        yield Choice("showdown", d.seat, d.bettor, d.put_in > 0, d.put_in,
                     f"{d.street}/{hand_class(d)}/{d.price}")


class ChipDumpingWatch:
    def __init__(self, config: ChipDumping, gate: AlertGate, evidence_hands: int,
                 looks: Looks, book: ProfileBook) -> None:
        self.config = config
        self.gate = gate
        self.keep = evidence_hands
        self.looks = looks
        self.book = book  # the chip flow between players, for the evidence
        # (method, decider) -> stratum -> situation; "flow" strata are "method:stratum"
        self.deciders: dict[tuple[str, str], dict[str, Situation]] = {}
        self.pairs: dict[tuple[str, str, str], PairRecord] = {}  # (method, giver, taker)

    def observe(self, facts: HandFacts) -> list[Alert]:
        bb = facts.big_blind
        if facts.game not in POKER_GAMES or not bb:
            return []
        grown: list[tuple[str, str, str, int]] = []
        heavy = (self.config.min_fold_investment_big_blinds_fixed_limit if facts.fixed_limit
                 else self.config.min_fold_investment_big_blinds)
        for d in facts.poker:
            for c in choices(d, bb, heavy):
                giver, taker = facts.players.get(c.seat), facts.players.get(c.opponent)
                if giver is None or taker is None or giver == taker:
                    continue
                for method, name in ((c.method, c.stratum), ("flow", f"{c.method}:{c.stratum}")):
                    if self._add(facts, method, giver, taker, c, name, bb):
                        entry = (method, giver, taker, c.seat)
                        if entry not in grown:
                            grown.append(entry)
        alerts = [self._test(facts, *entry) for entry in grown]
        return [a for a in alerts if a is not None]

    def _add(self, facts: HandFacts, method: str, giver: str, taker: str, c: Choice,
             name: str, bb: int) -> bool:
        """Count one decision; True when it was a "yes" against ``taker``."""
        situation = self.deciders.setdefault((method, giver), {}).setdefault(name, Situation())
        for tally in (situation.total, situation.against.setdefault(taker, Tally())):
            tally.decisions += 1
            tally.chosen += c.chose
        if not c.chose:
            return False
        key = (method, giver, taker)
        pair = self.pairs.get(key)
        if pair is None:
            pair = self.pairs[key] = PairRecord(Evidence(self.keep))
        pair.tally.decisions += 1
        pair.tally.chosen += 1
        pair.tally.chips += c.chips
        pair.tally.big_blinds += c.chips // bb
        pair.evidence.add(facts.ref(c.seat, c.chips))
        return True

    def strata(self, method: str, giver: str, taker: str) -> list[Stratum]:
        cells: list[Stratum] = []
        situations = self.deciders.get((method, giver), {})
        for name in sorted(situations):
            situation = situations[name]
            vs = situation.against.get(taker)
            if vs is not None:
                cells.append(Stratum(situation.total.decisions, situation.total.chosen,
                                     vs.decisions, vs.chosen))
        return cells

    def _test(self, facts: HandFacts, method: str, giver: str, taker: str,
              seat: int) -> Alert | None:
        cfg = self.config
        pair = self.pairs[(method, giver, taker)]
        k = pair.tally.chosen
        if pair.tally.big_blinds < cfg.min_total_big_blinds:
            return None
        instance = ("SURV-3", giver, taker, method)
        look = self.looks.look(instance, cfg.min_count, k)
        if look is None:
            return None
        cells = self.strata(method, giver, taker)
        result = stratified_test(cells)
        threshold = spent(cfg.p_value, look)
        if result.upper > threshold or not self.gate.due(instance, k):
            return None
        self.gate.fired(instance, k)
        return self._alert(facts, method, giver, taker, seat, pair, cells, result.upper,
                           result.expected, threshold, look)

    def _alert(self, facts: HandFacts, method: str, giver: str, taker: str, seat: int,
               pair: PairRecord, cells: list[Stratum], p: float, expected: float,
               threshold: float, look: int) -> Alert:
        cfg = self.config
        k = pair.tally.chosen
        hands = list(pair.evidence.hands)
        lost, won = self.book.flow(giver, taker), self.book.flow(taker, giver)
        evidence = {
            "from_player": giver, "to_player": taker, "method": method, "count": k,
            "chips": pair.tally.chips, "big_blinds": pair.tally.big_blinds,
            "decisions": sum(c.outcomes for c in cells),
            "decisions_against_anyone": sum(c.decisions for c in cells),
            "expected": expected, "strata": len(cells),
            "chips_lost_to": lost, "chips_won_from": won, "net_chip_flow": lost - won,
            "statistic": f"P(T >= count), T = sum over {giver}'s strata of hypergeometrics "
                         "(yes decisions against the taker)",
            "p_value": p, "threshold": threshold, "p_value_budget": cfg.p_value,
            "look": look, "min_count": cfg.min_count,
            "min_total_big_blinds": cfg.min_total_big_blinds,
            "min_fold_investment_big_blinds": cfg.min_fold_investment_big_blinds,
            "min_fold_investment_big_blinds_fixed_limit":
                cfg.min_fold_investment_big_blinds_fixed_limit,
            "tables": sorted_tables(hands), "hands": pair.evidence.cited(),
        }
        # ``showdown`` counts dear calls with a beaten hand at most one card from the
        # end (``PokerDecision.late``): the turn as well as the river (QA: 19 of 40 cited
        # calls were on the turn, under a message that said "the last round").
        late = "late in the hand (the turn or river; at Draw 7-A, after the draw)"
        what = {"fold": "folded after investing heavily",
                "showdown": f"paid off a beaten hand {late}",
                "flow": "lost chips against the cards (folds after investing heavily, "
                        f"calls with a beaten hand {late})"}[method]
        message = (f"player {giver} {what} to {taker} {k} times ({pair.tally.chips} chips, "
                   f"{pair.tally.big_blinds} big blinds), {expected:.1f} expected from how "
                   f"{giver} plays the same spots against others; net chip flow "
                   f"{lost - won:+d} to {taker}; p = {p:.2e} <= {threshold:.2g}")
        return surv_alert(facts.ref(seat), CODE, "SURV-3", cfg.severity, message, evidence)
