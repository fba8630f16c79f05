"""SURV-4 soft play (poker games): two players who bet or raise against each other far
less than against others.

Only heads-up decisions are counted (``facts.heads_up_decisions``): with exactly two
players left, a bet or raise can only be aimed at the other one, so "against whom" needs
no guessing. For the pair {A, B}: ``n`` decisions A and B took heads-up against each
other, ``k`` of them bets/raises/all-ins; their baseline is the same two players heads-up
against everybody else, ``p0 = (aggressive_A + aggressive_B - k) / (decisions_A +
decisions_B - n)``. The p-value is ``P(X <= k)``, ``X ~ Binomial(n, p0)``, tested on the
hands where the pair met heads-up once both ``n`` and the baseline's decisions reach
``min_decisions``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from services.events.contract import Alert
from services.surveillance.alerting import Evidence, sorted_tables, surv_alert
from services.surveillance.chip_dumping import POKER_GAMES
from services.surveillance.facts import HandFacts
from services.surveillance.gate import AlertGate
from services.surveillance.profile import SoftPlay
from services.surveillance.stats import binomial_lower_tail

CODE = "SOFT_PLAY"


@dataclass
class _Tally:
    decisions: int = 0
    aggressive: int = 0


@dataclass
class _Pair:
    evidence: Evidence
    tally: _Tally = field(default_factory=_Tally)


class SoftPlayWatch:
    def __init__(self, config: SoftPlay, gate: AlertGate, evidence_hands: int) -> None:
        self.config = config
        self.gate = gate
        self.keep = evidence_hands
        self.players: dict[str, _Tally] = {}
        self.pairs: dict[tuple[str, str], _Pair] = {}  # sorted player ids

    def observe(self, facts: HandFacts) -> list[Alert]:
        if facts.game not in POKER_GAMES or not facts.heads_up:
            return []
        met: list[tuple[str, str]] = []
        for d in facts.heads_up:
            me, other = facts.players.get(d.seat), facts.players.get(d.opponent)
            if me is None or other is None or me == other:
                continue
            key = (min(me, other), max(me, other))
            pair = self.pairs.get(key)
            if pair is None:
                pair = self.pairs[key] = _Pair(Evidence(self.keep))
            tally = self.players.setdefault(me, _Tally())
            for t in (tally, pair.tally):
                t.decisions += 1
                t.aggressive += d.aggressive
            if key not in met:
                met.append(key)
                pair.evidence.add(facts.ref())
        alerts = [self._test(facts, key) for key in met]
        return [a for a in alerts if a is not None]

    def _test(self, facts: HandFacts, key: tuple[str, str]) -> Alert | None:
        cfg = self.config
        pair = self.pairs[key]
        n, k = pair.tally.decisions, pair.tally.aggressive
        a = self.players.get(key[0], _Tally())
        b = self.players.get(key[1], _Tally())
        others_n = a.decisions + b.decisions - n
        others_k = a.aggressive + b.aggressive - k
        if n < cfg.min_decisions or others_n < cfg.min_decisions or others_k == 0:
            return None
        baseline = others_k / others_n
        p = binomial_lower_tail(k, n, baseline)
        instance = ("SURV-4", *key)
        if p > cfg.p_value or not self.gate.due(instance, n):
            return None
        self.gate.fired(instance, n)
        hands = list(pair.evidence.hands)
        evidence = {
            "players": list(key), "decisions": n, "aggressive": k, "rate": k / n,
            "decisions_against_others": others_n, "aggressive_against_others": others_k,
            "rate_against_others": baseline,
            "statistic": "P(X <= aggressive), X ~ Binomial(decisions, rate_against_others)",
            "p_value": p, "threshold": cfg.p_value, "min_decisions": cfg.min_decisions,
            "tables": sorted_tables(hands), "hands": pair.evidence.cited(),
        }
        message = (f"players {key[0]} and {key[1]}: {k} bets/raises in {n} heads-up decisions "
                   f"against each other ({k / n:.1%}) against {baseline:.1%} against others; "
                   f"p = {p:.2e} <= {cfg.p_value:g}")
        return surv_alert(facts.ref(), CODE, "SURV-4", cfg.severity, message, evidence)
