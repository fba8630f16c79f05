"""SURV-8 procedure drift: a dealer or table whose misdeal, exposed-card or mispay rate is
far above the floor's.

Per game (base rates differ: a Hold'em table exposes more cards than an HCF table), per
scope (``dealer``, ``table``) and per kind, each entity has ``n`` hands dealt and ``k``
hands with the irregularity; the floor has ``N`` and ``K`` (every entity of that scope
and game). Under "this entity drifts no more than the floor", each of the ``K`` hands
with the irregularity is the entity's with probability ``s = n / N``, so
``k ~ Binomial(K, s)`` given ``K`` (the exact conditional comparison of two rates); the
p-value is ``P(X >= k)``.

Within a game, the counts are kept per stratum, the number of seats dealt in, and the
test sums the strata: ``k ~ sum_s Binomial(K_s, n_s / N_s)`` over the strata the entity
dealt (``stats.binomial_sum_upper_tail``; one stratum is the plain binomial). Why: a
hand's chance of an irregularity may grow with the seats (seven hands dealt expose more
cards than two, and pay more boxes at a house-banked game), so a dealer or table dealing
mostly full tables on a floor of heads-up ones would otherwise be compared with a rate
it never had the chance to keep. Each entity is compared, size by size, with the floor
at the same size. (The state classes were renamed with this change, ``_Entity`` ->
``_DriftEntity``: a stored state of the earlier version is refused, ``state.StateError``.)

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
from services.surveillance.stats import binomial_sum_upper_tail

KINDS = ("misdeal", "exposed_card", "mispay")
CODE = "PROCEDURE_DRIFT"


def kinds_in(facts: HandFacts) -> tuple[str, ...]:
    """The irregularities of one hand (each kind counts once per hand)."""
    present = {"misdeal": facts.misdeal, "exposed_card": facts.exposed,
               "mispay": facts.mispay}
    return tuple(kind for kind in KINDS if present[kind])


@dataclass
class _DriftEntity:
    hands: dict[str, int] = field(default_factory=dict)  # seats dealt in -> hands
    counts: dict[str, dict[str, int]] = field(default_factory=dict)  # kind -> seats -> hands
    chips: int = 0  # chips the MISPAYs moved (the mispay kind's chips at stake)
    evidence: dict[str, Evidence] = field(default_factory=dict)
    last: HandRef | None = None


def _total(counts: dict[str, int]) -> int:
    return sum(counts.values())


class ProcedureDrift:
    def __init__(self, config: Drift, gate: AlertGate, evidence_hands: int,
                 looks: Looks) -> None:
        self.config = config
        self.gate = gate
        self.looks = looks
        self.keep = evidence_hands
        # (game, scope) -> entity id -> counters
        self.floors: dict[tuple[str, str], dict[str, _DriftEntity]] = {}

    def observe(self, facts: HandFacts) -> None:
        game = facts.game or "unknown"
        found = kinds_in(facts)
        seats = str(len(facts.players))
        scopes = [("table", facts.table_id)]
        if facts.dealer is not None:
            scopes.append(("dealer", facts.dealer))
        for scope, name in scopes:
            entity = self.floors.setdefault((game, scope), {}).setdefault(name,
                                                                          _DriftEntity())
            entity.hands[seats] = entity.hands.get(seats, 0) + 1
            entity.last = facts.ref()
            entity.chips += facts.mispay_chips
            for kind in found:
                by_seats = entity.counts.setdefault(kind, {})
                by_seats[seats] = by_seats.get(seats, 0) + 1
                counted = facts.mispay_findings if kind == "mispay" else ()
                entity.evidence.setdefault(kind, Evidence(self.keep)).add(
                    facts.ref(findings=counted))

    def review(self) -> list[Alert]:
        """Test every entity against its floor; alerts in a fixed (sorted) order."""
        alerts: list[Alert] = []
        for (game, scope) in sorted(self.floors):
            entities = self.floors[(game, scope)]
            floor_hands: dict[str, int] = {}
            for e in entities.values():
                for seats, n in e.hands.items():
                    floor_hands[seats] = floor_hands.get(seats, 0) + n
            for kind in KINDS:
                floor_count: dict[str, int] = {}
                for e in entities.values():
                    for seats, n in e.counts.get(kind, {}).items():
                        floor_count[seats] = floor_count.get(seats, 0) + n
                for name in sorted(entities):
                    alert = self._test(game, scope, name, entities[name], kind,
                                       floor_hands, floor_count)
                    if alert is not None:
                        alerts.append(alert)
        return alerts

    def _test(self, game: str, scope: str, name: str, entity: _DriftEntity, kind: str,
              floor_hands: dict[str, int], floor_count: dict[str, int]) -> Alert | None:
        cfg = self.config
        k, n = _total(entity.counts.get(kind, {})), _total(entity.hands)
        strata = sorted(entity.hands)  # the seat counts the entity dealt
        hands_there = sum(floor_hands[s] for s in strata)
        if k < cfg.min_count or n < cfg.min_hands or n >= hands_there:
            return None  # too little evidence, or nothing else on the floor to compare
        instance = ("SURV-8", game, scope, name, kind)
        look = self.looks.look(instance, cfg.min_count, k)
        if look is None:
            return None
        terms = [(floor_count.get(s, 0), entity.hands[s] / floor_hands[s]) for s in strata]
        p = binomial_sum_upper_tail(k, terms)
        threshold = spent(cfg.p_value, look)
        if p > threshold or not self.gate.due(instance, k):
            return None
        self.gate.fired(instance, k)
        count_there = sum(c for c, _ in terms)
        expected = sum(c * share for c, share in terms)
        rest_rate = (count_there - k) / (hands_there - n)
        hands = list(entity.evidence[kind].hands)
        counts = entity.counts.get(kind, {})
        evidence = {
            "game": game, "scope": scope, scope: name, "kind": kind, "count": k,
            "hands_dealt": n, "rate": k / n, "floor_count": count_there,
            "floor_hands": hands_there, "rest_of_floor_rate": rest_rate,
            "expected_count": expected,
            "strata": [{"seats": int(s), "hands_dealt": entity.hands[s],
                        "count": counts.get(s, 0), "floor_hands": floor_hands[s],
                        "floor_count": floor_count.get(s, 0)} for s in strata],
            "statistic": "P(X >= count), X = sum over seat counts of "
                         "Binomial(floor_count, hands_dealt / floor_hands)",
            "p_value": p, "threshold": threshold, "p_value_budget": cfg.p_value,
            "look": look, "min_count": cfg.min_count, "min_hands": cfg.min_hands,
            "chips": entity.chips if kind == "mispay" else 0, "tables": sorted_tables(hands),
            "hands": entity.evidence[kind].cited(),
        }
        sizes = "" if len(strata) == 1 else " at the same table sizes"
        # "(3.7 expected)" beside "0.0% on the rest of the floor" read as a contradiction
        # (QA): the expectation spreads the floor's whole count, these hands' included,
        # by their share of the floor's hands (the test's null model).
        message = (f"{game} {scope} {name}: {kind} in {k} of {n} hands ({k / n:.1%}) "
                   f"against {rest_rate:.1%} on the rest of the floor{sizes}; of the "
                   f"floor's {count_there} in all, {expected:.1f} expected in these hands by "
                   f"their share of its hands; p = {p:.2e} <= {threshold:.2g}")
        where = hands[-1] if hands else entity.last
        assert where is not None
        return surv_alert(where, CODE, "SURV-8", cfg.severity, message, evidence, hands)
