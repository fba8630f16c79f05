"""SURV-4 soft play (poker games): two players who bet or raise against each other far
less than against others.

Only heads-up decisions count: with exactly two players left, a bet or raise can only be
aimed at the other one, so "against whom" needs no guessing.

The null model is per decider and per situation. How often a player bets depends on the
player (a maniac bets most spots, a station few) and on the spot: the street, whether it
faces a bet, whether the opponent has already checked (position), and its own cards.
Pooling the pair's rate against the others (the old test) accuses the honest opponents of
an aggressive player: he faces them in different spots than they face each other. So
each decider's heads-up decisions are put in strata ``(street, position, own hand
class)`` (weak, fair, strong: few strata, so the baseline fills in few hands). Within a
stratum, under "this player plays its partner as it plays anyone",
which of its decisions were against the partner is unrelated to which were aggressive;
given the stratum's margins the aggressive decisions against the partner are
hypergeometric. Both players' strata together give the stratified exact test
(``services.surveillance.stratified``); the p-value is the lower tail ``P(T <= t)``: too
few bets and raises against each other.

Looked at when the pair's heads-up decisions against each other reach the next point of
the look grid from ``min_decisions`` (``services.surveillance.looks``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from services.events.contract import Alert
from services.surveillance.alerting import Evidence, sorted_tables, surv_alert
from services.surveillance.facts import POKER_GAMES, HandFacts
from services.surveillance.gate import AlertGate
from services.surveillance.looks import Looks, spent
from services.surveillance.poker_decisions import PokerDecision, hand_class
from services.surveillance.profile import SoftPlay
from services.surveillance.stratified import Stratum, stratified_test

CODE = "SOFT_PLAY"


@dataclass
class Tally:
    decisions: int = 0
    aggressive: int = 0

    def add(self, aggressive: bool) -> None:
        self.decisions += 1
        self.aggressive += aggressive


@dataclass
class Situation:
    """One decider's heads-up decisions in one stratum: in all, and by opponent."""

    total: Tally = field(default_factory=Tally)
    against: dict[str, Tally] = field(default_factory=dict)


@dataclass
class PairRecord:
    evidence: Evidence
    tally: Tally = field(default_factory=Tally)


def stratum(d: PokerDecision) -> str:
    """What a heads-up decision's aggression depends on: street, position, own cards (in
    three classes, so that a player's baseline against others fills in few hands)."""
    return f"{d.street}/{d.position}/{hand_class(d)}"


class SoftPlayWatch:
    def __init__(self, config: SoftPlay, gate: AlertGate, evidence_hands: int,
                 looks: Looks) -> None:
        self.config = config
        self.gate = gate
        self.keep = evidence_hands
        self.looks = looks
        self.deciders: dict[str, dict[str, Situation]] = {}
        self.pairs: dict[tuple[str, str], PairRecord] = {}  # sorted player ids

    def observe(self, facts: HandFacts) -> list[Alert]:
        if facts.game not in POKER_GAMES:
            return []
        met: list[tuple[str, str]] = []
        for d in facts.poker:
            if d.opponent is None or not d.can_raise:  # no choice to bet or raise: no sign
                continue
            me, other = facts.players.get(d.seat), facts.players.get(d.opponent)
            if me is None or other is None or me == other:
                continue
            situation = self.deciders.setdefault(me, {}).setdefault(stratum(d), Situation())
            situation.total.add(d.aggressive)
            situation.against.setdefault(other, Tally()).add(d.aggressive)
            key = (min(me, other), max(me, other))
            pair = self.pairs.get(key)
            if pair is None:
                pair = self.pairs[key] = PairRecord(Evidence(self.keep))
            pair.tally.add(d.aggressive)
            if key not in met:
                met.append(key)
                pair.evidence.add(facts.ref())
        alerts = [self._test(facts, key) for key in met]
        return [a for a in alerts if a is not None]

    def strata(self, key: tuple[str, str]) -> list[Stratum]:
        """Both deciders' strata with decisions against each other: ``chosen`` =
        aggressive, ``outcomes`` = against the partner."""
        cells: list[Stratum] = []
        for me, other in (key, key[::-1]):
            for name in sorted(self.deciders.get(me, {})):
                situation = self.deciders[me][name]
                vs = situation.against.get(other)
                if vs is None:
                    continue
                cells.append(Stratum(situation.total.decisions, situation.total.aggressive,
                                     vs.decisions, vs.aggressive))
        return cells

    def _test(self, facts: HandFacts, key: tuple[str, str]) -> Alert | None:
        cfg = self.config
        pair = self.pairs[key]
        n, k = pair.tally.decisions, pair.tally.aggressive
        instance = ("SURV-4", *key)
        look = self.looks.look(instance, cfg.min_decisions, n)
        if look is None:
            return None
        cells = self.strata(key)
        result = stratified_test(cells)
        threshold = spent(cfg.p_value, look)
        if result.lower > threshold or not self.gate.due(instance, n):
            return None
        self.gate.fired(instance, n)
        others_n = sum(c.decisions - c.outcomes for c in cells)
        others_k = sum(c.chosen - c.matched for c in cells)
        hands = list(pair.evidence.hands)
        evidence = {
            "players": list(key), "decisions": n, "aggressive": k, "rate": k / n,
            "expected": result.expected, "decisions_against_others": others_n,
            "aggressive_against_others": others_k,
            "rate_against_others": others_k / others_n if others_n else None,
            "strata": len(cells),
            "statistic": "P(T <= aggressive), T = sum over each decider's strata "
                         "(street, position, own hand class) of hypergeometrics",
            "p_value": result.lower, "threshold": threshold, "p_value_budget": cfg.p_value,
            "look": look, "min_decisions": cfg.min_decisions,
            "tables": sorted_tables(hands), "hands": pair.evidence.cited(),
        }
        message = (f"players {key[0]} and {key[1]}: {k} bets/raises in {n} heads-up "
                   f"decisions against each other, {result.expected:.1f} expected from how "
                   f"each plays the same spots against others; p = {result.lower:.2e} <= "
                   f"{threshold:.2g}")
        return surv_alert(facts.ref(), CODE, "SURV-4", cfg.severity, message, evidence)
