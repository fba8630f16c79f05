"""One dealer's events concentrated on one player: SURV-2 (mispays) and SURV-7 (exposures).

The question is the same for both: of the ``M`` events one dealer produced, ``k`` went to
one player, who held ``n_p`` of the dealer's ``N`` seat-hands. If the dealer's events fell
on seats at one rate whatever the player (the honest dealer), each event would land on
that player with probability ``s = n_p / N``, so ``k ~ Binomial(M, s)`` given ``M`` — the
exact conditional test of "the rate with this player equals the rate with the others".
The p-value is ``P(X >= k)``. Conditioning on ``M`` needs no estimate of the dealer's base
rate, so a dealer with few events in total is judged exactly, and a dealer who errs a lot
with everyone (SURV-8's business) is not flagged here for that alone.

Tested on the hand where the pair's count grows (the only hand that can make it cross),
when the count reaches the next point of the look grid, at that look's share of the
``p_value`` budget (``services.surveillance.looks``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from services.events.contract import Alert, Severity
from services.surveillance.alerting import Evidence, sorted_tables, surv_alert
from services.surveillance.facts import HandFacts, Incident
from services.surveillance.gate import AlertGate
from services.surveillance.looks import Looks, spent
from services.surveillance.stats import binomial_upper_tail


@dataclass(frozen=True)
class ConcentrationRule:
    rule: str
    code: str
    what: str  # "favourable mispays", "exposed cards" (for messages)
    p_value: float
    min_count: int
    severity: Severity
    evidence_hands: int


@dataclass
class _Pair:
    seat_hands: int = 0
    events: int = 0
    chips: int = 0
    evidence: Evidence | None = None


@dataclass
class _Dealer:
    seat_hands: int = 0
    events: int = 0
    pairs: dict[str, _Pair] = field(default_factory=dict)


class Concentration:
    """Counters per dealer and dealer+player; ``observe`` one hand's events by seat."""

    def __init__(self, rule: ConcentrationRule, gate: AlertGate, looks: Looks) -> None:
        self.rule = rule
        self.gate = gate
        self.looks = looks
        self.dealers: dict[str, _Dealer] = {}

    def observe(self, facts: HandFacts, events: Sequence[Incident]) -> list[Alert]:
        """``events``: this hand's incidents attributed to seats."""
        dealer_id = facts.dealer
        if dealer_id is None:
            return []
        dealer = self.dealers.setdefault(dealer_id, _Dealer())
        for player in facts.players.values():
            dealer.seat_hands += 1
            dealer.pairs.setdefault(player, _Pair()).seat_hands += 1
        grown: list[tuple[str, int]] = []
        for incident in events:
            seat, chips = incident.seat, incident.chips
            if seat not in facts.players:
                continue
            player = facts.players[seat]
            pair = dealer.pairs[player]
            dealer.events += 1
            pair.events += 1
            pair.chips += chips or 0
            if pair.evidence is None:
                pair.evidence = Evidence(self.rule.evidence_hands)
            found = () if incident.finding is None else (incident.finding,)
            pair.evidence.add(facts.ref(seat, chips, found))
            if (player, seat) not in grown:
                grown.append((player, seat))
        alerts = []
        for player, seat in grown:
            alert = self._test(facts, dealer_id, dealer, player, seat)
            if alert is not None:
                alerts.append(alert)
        return alerts

    def _test(self, facts: HandFacts, dealer_id: str, dealer: _Dealer, player: str,
              seat: int) -> Alert | None:
        rule, pair = self.rule, dealer.pairs[player]
        k, m = pair.events, dealer.events
        instance = (rule.rule, dealer_id, player)
        look = self.looks.look(instance, rule.min_count, k)
        if look is None:
            return None
        share = pair.seat_hands / dealer.seat_hands
        p = binomial_upper_tail(k, m, share)
        threshold = spent(rule.p_value, look)
        if p > threshold or not self.gate.due(instance, k):
            return None
        self.gate.fired(instance, k)
        others_hands = dealer.seat_hands - pair.seat_hands
        assert pair.evidence is not None
        hands = list(pair.evidence.hands)
        evidence = {
            "dealer": dealer_id, "player": player, "count": k,
            "player_seat_hands": pair.seat_hands, "dealer_events": m,
            "dealer_seat_hands": dealer.seat_hands,
            "rate_with_player": k / pair.seat_hands,
            "rate_with_others": (m - k) / others_hands if others_hands else None,
            "expected_share": share,
            "statistic": "P(X >= count), X ~ Binomial(dealer_events, expected_share)",
            "p_value": p, "threshold": threshold, "p_value_budget": rule.p_value,
            "look": look, "min_count": rule.min_count,
            "chips": pair.chips, "tables": sorted_tables(hands),
            "seats": sorted({r.seat for r in hands if r.seat is not None}),
            "hands": pair.evidence.cited(),
        }
        message = (f"dealer {dealer_id}: {k} of {m} {rule.what} went to player {player}, "
                   f"who held {pair.seat_hands} of the dealer's {dealer.seat_hands} "
                   f"seat-hands ({share:.1%}); p = {p:.2e} <= {threshold:.2g}")
        return surv_alert(facts.ref(seat), rule.code, rule.rule, rule.severity, message,
                          evidence, hands)
