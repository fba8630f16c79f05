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


def test_twelve_of_twelve_to_one_of_six_players_alerts_on_the_twelfth() -> None:
    """Dealer D1, six players A-F every hand. Hands 5, 10, ..., 60 overpay A (seat 1) by
    25; hand 7 underpays A by 5 (not in A's favour: ignored). Every seat is paid every
    hand, so A holds 1/6 of the dealer's payouts (SURV-2's chances), and k of k favourable mispays has P(X >= k | k, 1/6) = 6^-k. The look grid
    from min_count 5, growing by 50%: 5, 8, 12, with thresholds 1e-6 * 6 / (pi^2 (j+1)^2)
    = 6.079e-7, 1.520e-7, 6.755e-8. At 5: 6^-5 = 1.29e-4, no. At 8: 6^-8 = 5.954e-7 >
    1.520e-7 (under one threshold of 1e-6 it would have alerted here), no. At 12:
    6^-12 = 4.594e-10 <= 6.755e-8: alert, on hand 60 (A 60 of the dealer's 360
    payouts)."""
    engine = SurveillanceEngine(surveillance_config(HOUSE))
    hands = [hand(n, mispays={1: 25} if n % 5 == 0 else ({1: -5} if n == 7 else {}))
             for n in range(1, 61)]
    alerts = feed(engine, hands)
    assert len(alerts) == 1
    alert = alerts[0]
    assert (alert.code, alert.rule, alert.severity) == ("SWEETHEARTING", "SURV-2", "critical")
    assert (alert.table_id, alert.hand_id) == ("T1", "T1-000060")
    ev = alert.evidence
    assert ev is not None
    assert (ev["dealer"], ev["player"], ev["count"], ev["dealer_events"], ev["look"]) == (
        "D1", "A", 12, 12, 2)
    assert (ev["chance"], ev["player_chances"], ev["dealer_chances"]) == ("payouts", 60, 360)
    assert ev["expected_count"] == pytest.approx(2.0)  # 12 * 60 / 360
    assert ev["strata"] == [{"stratum": "hcf", "player_chances": 60, "dealer_chances": 360,
                             "dealer_events": 12, "count": 12}]
    assert ev["p_value"] == pytest.approx(6.0**-12, rel=1e-9)
    assert ev["threshold"] == pytest.approx(6.755e-8, rel=1e-3)
    assert ev["p_value_budget"] == 1e-6
    assert ev["chips"] == 12 * 25
    assert ev["rate_with_player"] == pytest.approx(12 / 60)
    assert ev["rate_with_others"] == 0.0
    assert [h["hand_id"] for h in ev["hands"]] == [f"T1-{n:06d}" for n in range(5, 61, 5)]
    assert ev["seats"] == [1]
    # Every favourable MISPAY is the hand record's only finding: position 0.
    assert alert.findings == [f"T1/T1-{n:06d}/0" for n in range(5, 61, 5)]
    assert (alert.subject, alert.parties) == ("dealer:D1", ["dealer:D1", "player:A"])
    assert alert.alert_id == "SURV-2/dealer=D1/player=A/count=12"


def test_at_chinese_poker_the_collections_the_dealer_moves_are_the_payouts() -> None:
    """Chinese Poker has no payout events: the players settle among themselves (CP-4),
    the dealer moving each ``collection`` to the seat that won it. Six players, each
    paid one collection a hand (seat s pays seat s+1); hands 5, 10, ..., 60 overpay A.
    A holds 1/6 of the dealer's payouts, as in the HCF case above: alert on hand 60 at
    6^-12. Counted by payout events only, A's one chance was each mispay itself (12 of
    the dealer's 12 payouts, p = 1): a Chinese table's sweetheart was never found (QA)."""
    engine = SurveillanceEngine(surveillance_config(HOUSE))
    collections = [("collection", {"seat": s, "amount": 1, "to": f"seat:{s % 6 + 1}",
                                   "kind": "points"}) for s in range(1, 7)]
    hands = [hand(n, game="chinese", events=collections, paid=[],
                  mispays={1: 25} if n % 5 == 0 else {}) for n in range(1, 61)]
    alerts = feed(engine, hands)
    assert [(a.hand_id, a.evidence["count"] if a.evidence else None) for a in alerts] == [
        ("T1-000060", 12)]
    ev = alerts[0].evidence
    assert ev is not None
    assert ev["strata"] == [{"stratum": "chinese", "player_chances": 60,
                             "dealer_chances": 360, "dealer_events": 12, "count": 12}]
    assert ev["p_value"] == pytest.approx(6.0**-12, rel=1e-9)


def test_realert_only_when_the_count_has_doubled() -> None:
    """The same dealer goes on overpaying A every 5th hand up to hand 140. The instance
    alerted at count 12 (hand 60); with realert_growth_percent = 100 it may alert again
    from count 24, and is looked at next at grid point 27 (after 18): hand 135. The
    re-alert lists the first one as related."""
    engine = SurveillanceEngine(surveillance_config(HOUSE))
    hands = [hand(n, mispays={1: 25} if n % 5 == 0 else {}) for n in range(1, 141)]
    alerts = feed(engine, hands)
    assert [(a.hand_id, a.evidence["count"]) for a in alerts if a.evidence] == [
        ("T1-000060", 12), ("T1-000135", 27)]
    assert alerts[1].related_alerts == ["SURV-2/dealer=D1/player=A/count=12"]


def test_a_dealer_of_many_tables_is_found_by_the_fifth_overpay() -> None:
    """D1 deals five tables of six players each (30 players, T1..T5 in turn, hands 1..50
    each, T1 last in each round); at T1 it overpays A by 1 chip in hands 10, 20, 30, 40,
    50. At hand 50 of T1, A holds 50 of D1's 1,500 payouts: share 1/30. At the 5th
    overpay (look 0): 5 of 5, p = 30^-5 = 4.115e-8 <= 6.079e-7: alert, citing the five
    MISPAY findings."""
    engine = SurveillanceEngine(surveillance_config(HOUSE))
    hands = []
    for n in range(1, 51):
        for t in (2, 3, 4, 5, 1):
            players = {s: ("A" if (t, s) == (1, 1) else f"T{t}-{s}") for s in range(1, 7)}
            overpay = {1: 1} if t == 1 and n % 10 == 0 else {}
            hands.append(hand(n, table=f"T{t}", players=players, mispays=overpay))
    alerts = feed(engine, hands)
    assert len(alerts) == 1
    ev = alerts[0].evidence
    assert ev is not None
    assert (ev["player"], ev["count"], ev["look"], ev["player_chances"],
            ev["dealer_chances"]) == ("A", 5, 0, 50, 1500)
    assert ev["p_value"] == pytest.approx(30.0**-5, rel=1e-9)
    assert alerts[0].findings == [f"T1/T1-{n:06d}/0" for n in (10, 20, 30, 40, 50)]


def test_share_matters_heads_up_table() -> None:
    """Two players only: A holds half the payouts, so 8 of 8 favourable mispays to A has
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


def test_the_drift_on_a_sweetheart_dealer_relates_its_sweethearting_alert() -> None:
    """D1 deals T1..T5 in turn, 80 hands each (400), and overpays A (T1 seat 1) by 1 chip
    in T1's hands 10, 20, .., 80; D2, D3, D4 deal 1,000 clean hands each at T6..T8.
    SURV-2 alerts at the 5th overpay (share 1/30, as above). The review then finds D1's
    mispay drift: 8 of the floor's 8 mispay hands, D1 dealt 400 of 3,400 hands:
    P(X >= 8 | Bin(8, 2/17)) = (2/17)^8 = 3.670e-8 <= 1.520e-7 (look 1 of the grid 5, 8).
    The SURV-8 on D1 lists the SURV-2 on D1 as related, and the eight MISPAY findings
    it counts; T1 (80 hands) is under min_hands, no table alert."""
    engine = SurveillanceEngine(surveillance_config(HOUSE))
    hands = []
    for n in range(1, 81):
        for t in (2, 3, 4, 5, 1):
            players = {s: ("A" if (t, s) == (1, 1) else f"T{t}-{s}") for s in range(1, 7)}
            overpay = {1: 1} if t == 1 and n % 10 == 0 else {}
            hands.append(hand(n, table=f"T{t}", players=players, mispays=overpay))
    for t, dealer in ((6, "D2"), (7, "D3"), (8, "D4")):  # six seats, as D1: one stratum
        players = {s: f"T{t}-{s}" for s in range(1, 7)}
        hands += [hand(n, table=f"T{t}", dealer=dealer, players=players)
                  for n in range(1, 1001)]
    alerts = [a for h, r in hands for a in engine.observe(h, r)] + engine.review()
    assert [(a.rule, a.subject, a.hand_id) for a in alerts] == [
        ("SURV-2", "dealer:D1", "T1-000050"), ("SURV-8", "dealer:D1", "T1-000080")]
    sweet, drift = alerts
    assert drift.evidence is not None
    assert (drift.evidence["count"], drift.evidence["hands_dealt"],
            drift.evidence["floor_hands"], drift.evidence["look"]) == (8, 400, 3400, 1)
    assert drift.evidence["p_value"] == pytest.approx((2 / 17) ** 8, rel=1e-9)
    assert drift.related_alerts == [sweet.alert_id]
    assert sweet.findings == [f"T1/T1-{n:06d}/0" for n in (10, 20, 30, 40, 50)]
    assert drift.findings == [f"T1/T1-{n:06d}/0" for n in range(10, 81, 10)]
