"""SURV-2: one dealer's favourable mispays concentrated on one player."""

from __future__ import annotations

import random

import pytest

from services.surveillance import SurveillanceEngine
from services.surveillance.profile import surveillance_config
from tests.profiles import HOUSE
from tests.unit.surveillance.scenario import hand


def feed(engine: SurveillanceEngine, hands: list[tuple]) -> list:  # type: ignore[type-arg]
    alerts = []
    for hand_input, record in hands:
        alerts += [a for a in engine.observe(hand_input, record) if a.rule == "SURV-2"]
    return alerts


def test_eight_of_eight_to_one_of_six_players_alerts_on_the_eighth() -> None:
    """Dealer D1, six players A-F every hand. Hands 5, 10, ..., 40 overpay A (seat 1) by
    25; hand 7 underpays A by 5 (not in A's favour: ignored). A holds 40 of the dealer's
    240 seat-hands, share 1/6. After hand 35: 7 of 7 favourable mispays to A,
    P(X >= 7 | 7, 1/6) = 6^-7 = 3.57e-6 > 1e-6: no alert. After hand 40:
    6^-8 = 1/1,679,616 = 5.954e-7 <= 1e-6 and 8 >= min_count 5: alert, on hand 40."""
    engine = SurveillanceEngine(surveillance_config(HOUSE))
    hands = [hand(n, mispays={1: 25} if n % 5 == 0 else ({1: -5} if n == 7 else {}))
             for n in range(1, 41)]
    alerts = feed(engine, hands)
    assert len(alerts) == 1
    alert = alerts[0]
    assert (alert.code, alert.rule, alert.severity) == ("SWEETHEARTING", "SURV-2", "critical")
    assert (alert.table_id, alert.hand_id) == ("T1", "T1-000040")
    ev = alert.evidence
    assert ev is not None
    assert (ev["dealer"], ev["player"], ev["count"], ev["dealer_events"]) == ("D1", "A", 8, 8)
    assert (ev["player_seat_hands"], ev["dealer_seat_hands"]) == (40, 240)
    assert ev["p_value"] == pytest.approx(6.0**-8, rel=1e-9)
    assert ev["threshold"] == 1e-6
    assert ev["chips"] == 8 * 25
    assert ev["rate_with_player"] == pytest.approx(8 / 40)
    assert ev["rate_with_others"] == 0.0
    assert [h["hand_id"] for h in ev["hands"]] == [f"T1-{n:06d}" for n in range(5, 41, 5)]
    assert ev["seats"] == [1]


def test_realert_only_when_the_count_has_doubled() -> None:
    """The same dealer goes on overpaying A every 5th hand up to hand 80. The instance
    alerted at count 8 (hand 40); with realert_growth_percent = 100 it alerts again at
    count 16 (hand 80) and not at counts 9..15."""
    engine = SurveillanceEngine(surveillance_config(HOUSE))
    hands = [hand(n, mispays={1: 25} if n % 5 == 0 else {}) for n in range(1, 81)]
    alerts = feed(engine, hands)
    assert [(a.hand_id, a.evidence["count"]) for a in alerts if a.evidence] == [
        ("T1-000040", 8), ("T1-000080", 16)]


def test_share_matters_heads_up_table() -> None:
    """Two players only: A holds half the seat-hands, so 8 of 8 favourable mispays to A has
    P = 2^-8 = 3.9e-3, nowhere near 1e-6: no alert."""
    engine = SurveillanceEngine(surveillance_config(HOUSE))
    hands = [hand(n, players={1: "A", 2: "B"}, mispays={1: 25} if n % 5 == 0 else {})
             for n in range(1, 41)]
    assert feed(engine, hands) == []


def test_dealer_overpaying_everyone_alike_is_not_sweethearting() -> None:
    """Each hand overpays the next seat in turn (seat n % 6 + 1) for 120 hands: 20 of 120
    favourable mispays per player with share 1/6 -- the expected count: P(X >= 20) is
    about 0.5. (A dealer erring this much is SURV-8's concern, not SURV-2's.)"""
    engine = SurveillanceEngine(surveillance_config(HOUSE))
    hands = [hand(n, mispays={n % 6 + 1: 10}) for n in range(1, 121)]
    assert feed(engine, hands) == []


def test_evidence_split_over_dealers_does_not_add_up() -> None:
    """A is overpaid 8 times, 4 by D1 and 4 by D2: each dealer has 4 < min_count 5."""
    engine = SurveillanceEngine(surveillance_config(HOUSE))
    hands = [hand(n, dealer="D1" if n <= 40 else "D2", mispays={1: 25} if n % 10 == 0 else {})
             for n in range(1, 81)]
    assert feed(engine, hands) == []


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_honest_dealer_with_random_mispays_does_not_alert(seed: int) -> None:
    """An honest dealer: 300 hands, each with probability 0.1 a favourable mispay on a seat
    chosen uniformly. Per player about 5 of about 30, share 1/6: P-values of order 0.1-1,
    far above 1e-6 (the largest count over 6 players rarely exceeds 12, P(X >= 12 | 30,
    1/6) = 2.0e-3)."""
    rng = random.Random(seed)
    engine = SurveillanceEngine(surveillance_config(HOUSE))
    hands = [hand(n, mispays={rng.randint(1, 6): rng.randint(1, 50)} if rng.random() < 0.1
                  else {}) for n in range(1, 301)]
    assert feed(engine, hands) == []


def test_rejected_hands_are_not_counted() -> None:
    """The same 8 overpayments, but every hand's record is ``rejected``: nothing counts."""
    engine = SurveillanceEngine(surveillance_config(HOUSE))
    hands = [hand(n, status="rejected", mispays={1: 25} if n % 5 == 0 else {})
             for n in range(1, 41)]
    assert feed(engine, hands) == []
    assert engine.hands_seen == 0
