"""SURV-5 information sharing (Russian Poker): decisions that follow cards the box cannot
see — play/fold against the dealer's hidden qualification (RP-3), insurance against it
(RP-4), buying the dealer's game against the replacement card (RP-6).

One test for all three (``services.surveillance.stratified``): per player and per kind of
decision, every decision is put in a stratum of what the box *could* see
(``services.surveillance.russian_decisions`` defines the strata and the outcomes); within
a stratum an honest decision is independent of the hidden outcome, so the number of
"yes" decisions that met a favourable outcome has an exact null distribution, the
convolution of the strata's hypergeometrics. The p-value is ``P(T >= t)``.

Run in ``review()`` (the convolution is too costly to redo every hand; the test is per
player, so it does not depend on other tables either way). Limitation: for play/fold and
insurance the box's own cards slightly change the odds of the dealer's (card removal);
that effect is far below the thresholds at realistic volumes, see docs/surveillance.md.
Buying is stratified by the box's exact chance, card removal included.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from services.events.contract import Alert, Event
from services.surveillance.alerting import Evidence, sorted_tables, surv_alert
from services.surveillance.facts import HandFacts, HandRef
from services.surveillance.gate import AlertGate
from services.surveillance.looks import Looks, spent
from services.surveillance.profile import Collusion, DecisionTest
from services.surveillance.russian_decisions import (
    DECISION_KINDS,
    DecisionKind,
    russian_decisions,
)
from services.surveillance.stratified import Stratum, stratified_upper_tail

CODE = "INFORMATION_SHARING"


@dataclass(frozen=True)
class Wording:
    """How one kind of decision names its counts in the evidence and the message."""

    chose: str  # evidence: "yes" decisions
    outcome: str  # evidence: favourable outcomes
    matched: str  # evidence: "yes" met a favourable outcome
    other_match: str  # evidence: "no" met an unfavourable outcome
    strata: str  # what a stratum is
    verb: str  # "folded"
    hands: str  # "hands the dealer qualified"
    decisions: str  # "play/fold decisions"


WORDING: dict[DecisionKind, Wording] = {
    "play_fold": Wording(  # RP-3
        "folds", "dealer_qualified", "folds_when_dealer_qualified",
        "plays_when_dealer_did_not_qualify", "(up-card rank, own paytable line)",
        "folded", "hands the dealer qualified", "play/fold decisions"),
    "insurance": Wording(  # RP-4
        "insured", "dealer_did_not_qualify", "insured_when_dealer_did_not_qualify",
        "not_insured_when_dealer_qualified", "(up-card rank, own paytable line)",
        "insured", "hands the dealer did not qualify",
        "insurance decisions (three of a kind or better)"),
    "buy_dealer_game": Wording(  # RP-6
        "bought", "buying_won", "bought_when_buying_won", "declined_when_buying_lost",
        "(own paytable line, exact chance w/m that buying wins)",
        "bought the dealer's game", "hands buying won", "buy/decline decisions"),
}


@dataclass
class _Record:
    """One player's decisions of one kind."""

    strata: dict[tuple[str, ...], Stratum] = field(default_factory=dict)
    evidence: Evidence | None = None
    last: HandRef | None = None


class InformationSharing:
    def __init__(self, config: Collusion, gate: AlertGate, evidence_hands: int,
                 looks: Looks) -> None:
        self.config = config
        self.gate = gate
        self.looks = looks
        self.keep = evidence_hands
        self.records: dict[tuple[str, DecisionKind], _Record] = {}

    def thresholds(self, kind: DecisionKind) -> DecisionTest:
        return {"play_fold": self.config.play_fold, "insurance": self.config.insurance,
                "buy_dealer_game": self.config.buy_dealer_game}[kind]

    def observe(self, facts: HandFacts, events: Iterable[Event]) -> None:
        if facts.game != "russian":
            return
        for d in russian_decisions(events):
            player_id = facts.players.get(d.seat)
            if player_id is None:
                continue
            record = self.records.setdefault((player_id, d.kind), _Record())
            record.strata.setdefault(d.stratum, Stratum()).add(d.chose, d.outcome)
            record.last = facts.ref(d.seat)
            if d.chose == d.outcome:  # the decision matched the hidden cards
                if record.evidence is None:
                    record.evidence = Evidence(self.keep)
                record.evidence.add(facts.ref(d.seat))

    def review(self) -> list[Alert]:
        order = {kind: i for i, kind in enumerate(DECISION_KINDS)}
        keys = sorted(self.records, key=lambda k: (k[0], order[k[1]]))
        alerts = [self._test(name, kind, self.records[(name, kind)]) for name, kind in keys]
        return [a for a in alerts if a is not None]

    def _test(self, name: str, kind: DecisionKind, record: _Record) -> Alert | None:
        cfg, words = self.thresholds(kind), WORDING[kind]
        cells = [record.strata[k] for k in sorted(record.strata)]
        n = sum(c.decisions for c in cells)
        instance = ("SURV-5", name, kind)
        look = self.looks.look(instance, cfg.min_decisions, n)
        if look is None:
            return None
        t = sum(c.matched for c in cells)
        p, expected = stratified_upper_tail(cells, t)
        threshold = spent(cfg.p_value, look)
        if p > threshold or not self.gate.due(instance, n):
            return None
        self.gate.fired(instance, n)
        chose = sum(c.chosen for c in cells)
        outcomes = sum(c.outcomes for c in cells)
        hands = list(record.evidence.hands) if record.evidence else []
        evidence = {
            "player": name, "decision": kind, "decisions": n, words.chose: chose,
            words.outcome: outcomes, words.matched: t, "expected": expected,
            words.other_match: n - chose - outcomes + t, "strata": len(cells),
            "statistic": f"P(T >= {words.matched}), T = sum over strata {words.strata} "
                         "of hypergeometrics",
            "p_value": p, "threshold": threshold, "p_value_budget": cfg.p_value,
            "look": look, "min_decisions": cfg.min_decisions,
            "tables": sorted_tables(hands),
            "hands": record.evidence.cited() if record.evidence else [],
        }
        message = (f"player {name}: {words.verb} in {t} of the {outcomes} {words.hands} "
                   f"({expected:.1f} expected from what the box could see), over {n} "
                   f"{words.decisions}; p = {p:.2e} <= {threshold:.2g}")
        where = hands[-1] if hands else record.last
        assert where is not None
        return surv_alert(where, CODE, "SURV-5", cfg.severity, message, evidence)
