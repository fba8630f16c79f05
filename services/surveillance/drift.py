"""SURV-8 procedure drift: a dealer or table whose misdeal, exposed-card or mispay rate is
far above the floor's.

Per game (base rates differ: a Hold'em table exposes more cards than an HCF table), per
scope (``dealer``, ``table``) and per kind, each entity has ``n`` hands dealt and ``k``
hands with the irregularity; the floor has ``N`` and ``K`` (every entity of that scope
and game). Under "this entity drifts no more than the floor", each of the ``K`` hands
with the irregularity is the entity's with probability ``s = n / N``, so
``k ~ Binomial(K, s)`` given ``K`` (the exact conditional comparison of two rates); the
p-value is ``P(X >= k)``.

Why ``review()`` and not every hand: the floor is every other table. Testing as hands
arrive would make an alert depend on how far the other tables had got, i.e. on the
interleaving of the log; testing at review time (the end of a run, or of a shift) depends
only on the hands seen. The gate still alerts once per instance across reviews, and an
entity is tested only when its count reaches the next point of the look grid, at that
look's share of the ``p_value`` budget (``services.surveillance.looks``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from services.events.contract import Alert
from services.surveillance.alerting import Evidence, sorted_tables, surv_alert
from services.surveillance.facts import HandFacts, HandRef
from services.surveillance.gate import AlertGate
from services.surveillance.looks import Looks, spent
from services.surveillance.profile import Drift
from services.surveillance.stats import binomial_upper_tail

KINDS = ("misdeal", "exposed_card", "mispay")
CODE = "PROCEDURE_DRIFT"


def kinds_in(facts: HandFacts) -> tuple[str, ...]:
    """The irregularities of one hand (each kind counts once per hand)."""
    present = {"misdeal": facts.misdeal, "exposed_card": facts.exposed,
               "mispay": facts.mispay}
    return tuple(kind for kind in KINDS if present[kind])


@dataclass
class _Entity:
    hands: int = 0
    counts: dict[str, int] = field(default_factory=dict)
    chips: int = 0  # MISPAY amounts, either way (the mispay kind's chips at stake)
    evidence: dict[str, Evidence] = field(default_factory=dict)
    last: HandRef | None = None


class ProcedureDrift:
    def __init__(self, config: Drift, gate: AlertGate, evidence_hands: int,
                 looks: Looks) -> None:
        self.config = config
        self.gate = gate
        self.looks = looks
        self.keep = evidence_hands
        # (game, scope) -> entity id -> counters
        self.floors: dict[tuple[str, str], dict[str, _Entity]] = {}

    def observe(self, facts: HandFacts) -> None:
        game = facts.game or "unknown"
        found = kinds_in(facts)
        scopes = [("table", facts.table_id)]
        if facts.dealer is not None:
            scopes.append(("dealer", facts.dealer))
        for scope, name in scopes:
            entity = self.floors.setdefault((game, scope), {}).setdefault(name, _Entity())
            entity.hands += 1
            entity.last = facts.ref()
            entity.chips += facts.mispay_chips
            for kind in found:
                entity.counts[kind] = entity.counts.get(kind, 0) + 1
                counted = facts.mispay_findings if kind == "mispay" else ()
                entity.evidence.setdefault(kind, Evidence(self.keep)).add(
                    facts.ref(findings=counted))

    def review(self) -> list[Alert]:
        """Test every entity against its floor; alerts in a fixed (sorted) order."""
        alerts: list[Alert] = []
        for (game, scope) in sorted(self.floors):
            entities = self.floors[(game, scope)]
            floor_hands = sum(e.hands for e in entities.values())
            for kind in KINDS:
                floor_count = sum(e.counts.get(kind, 0) for e in entities.values())
                for name in sorted(entities):
                    alert = self._test(game, scope, name, entities[name], kind,
                                       floor_hands, floor_count)
                    if alert is not None:
                        alerts.append(alert)
        return alerts

    def _test(self, game: str, scope: str, name: str, entity: _Entity, kind: str,
              floor_hands: int, floor_count: int) -> Alert | None:
        cfg = self.config
        k, n = entity.counts.get(kind, 0), entity.hands
        if k < cfg.min_count or n < cfg.min_hands or n >= floor_hands:
            return None  # too little evidence, or nothing else on the floor to compare
        instance = ("SURV-8", game, scope, name, kind)
        look = self.looks.look(instance, cfg.min_count, k)
        if look is None:
            return None
        share = n / floor_hands
        p = binomial_upper_tail(k, floor_count, share)
        threshold = spent(cfg.p_value, look)
        if p > threshold or not self.gate.due(instance, k):
            return None
        self.gate.fired(instance, k)
        rest_rate = (floor_count - k) / (floor_hands - n)
        hands = list(entity.evidence[kind].hands)
        evidence = {
            "game": game, "scope": scope, scope: name, "kind": kind, "count": k,
            "hands_dealt": n, "rate": k / n, "floor_count": floor_count,
            "floor_hands": floor_hands, "rest_of_floor_rate": rest_rate,
            "expected_share": share,
            "statistic": "P(X >= count), X ~ Binomial(floor_count, hands_dealt / floor_hands)",
            "p_value": p, "threshold": threshold, "p_value_budget": cfg.p_value,
            "look": look, "min_count": cfg.min_count, "min_hands": cfg.min_hands,
            "chips": entity.chips if kind == "mispay" else 0, "tables": sorted_tables(hands),
            "hands": entity.evidence[kind].cited(),
        }
        message = (f"{game} {scope} {name}: {kind} in {k} of {n} hands ({k / n:.1%}) "
                   f"against {rest_rate:.1%} on the rest of the floor; p = {p:.2e} <= "
                   f"{threshold:.2g}")
        where = hands[-1] if hands else entity.last
        assert where is not None
        return surv_alert(where, CODE, "SURV-8", cfg.severity, message, evidence, hands)
