"""SURV-8: a dealer's or table's misdeal / exposed-card / mispay rate against the floor."""

from __future__ import annotations

import pytest

from services.surveillance import SurveillanceEngine
from services.surveillance.drift import kinds_in
from services.surveillance.facts import hand_facts
from services.surveillance.profile import surveillance_config
from tests.profiles import HOUSE
from tests.unit.surveillance.scenario import config, hand

MISDEAL = ("misdeal", {"reason": "card exposed on the deal"})


def floor(misdeals_of_first: int, misdeals_of_others: int, hands: int = 200) -> list[tuple]:  # type: ignore[type-arg]
    """Four dealers D1..D4, each at their own table T1..T4 for ``hands`` hands of HCF.
    D1 misdeals every (hands / misdeals_of_first)-th hand, the others evenly too."""
    out = []
    for i in range(1, 5):
        count = misdeals_of_first if i == 1 else misdeals_of_others
        step = hands // count
        out += [hand(n, table=f"T{i}", dealer=f"D{i}", players={1: f"P{i}a", 2: f"P{i}b"},
                     events=[MISDEAL] if n % step == 0 else [])
                for n in range(1, hands + 1)]
    return out


def test_dealer_and_table_far_above_the_floor() -> None:
    """D1 (at T1) misdeals in 25 of 200 hands; D2..D4 in 2 of 200 each. Floor: K = 31
    misdeal hands in N = 800. D1's share of hands is 1/4, so under "no drift"
    X ~ Bin(31, 1/4) and P(X >= 25) = sum_{i=25..31} C(31,i) 0.25^i 0.75^(31-i); the
    first term C(31,25) 0.25^25 0.75^6 = 736,281 * 8.8818e-16 * 0.17798 = 1.1639e-10, the
    next 169,911 * 2.2204e-16 * 0.23730 = 8.95e-12, then 5.5e-13 ...: 1.2592e-10.
    The look grid from min_count 5, growing by 50%: 5, 8, 12, 18, 27; 25 is past the
    fourth point (look 3), whose threshold is 1e-6 * 6 / (pi^2 * 16) = 3.7995e-8: alert.
    Same numbers for table T1. The rest of the floor runs at 6 / 600 = 1%. D2..D4 (2 of
    31 at share 1/4): P ~ 1."""
    engine = SurveillanceEngine(surveillance_config(HOUSE))
    for hand_input, record in floor(25, 2):
        assert [a for a in engine.observe(hand_input, record) if a.rule == "SURV-8"] == []
    alerts = engine.review()
    assert [(a.evidence["scope"], a.evidence[a.evidence["scope"]]) for a in alerts
            if a.evidence] == [("dealer", "D1"), ("table", "T1")]
    ev = alerts[0].evidence
    assert ev is not None
    assert (ev["kind"], ev["count"], ev["hands_dealt"], ev["floor_count"],
            ev["floor_hands"], ev["look"]) == ("misdeal", 25, 200, 31, 800, 3)
    assert ev["p_value"] == pytest.approx(1.2592e-10, rel=1e-4)
    assert ev["threshold"] == pytest.approx(3.7995e-8, rel=1e-4)
    assert ev["rest_of_floor_rate"] == pytest.approx(0.01)
    assert ev["rate"] == pytest.approx(0.125)
    assert len(ev["hands"]) == 25
    assert (alerts[0].rule, alerts[0].code, alerts[0].hand_id) == (
        "SURV-8", "PROCEDURE_DRIFT", "T1-000200")
    assert (alerts[0].subject, alerts[1].subject) == ("dealer:D1", "table:T1")
    # The expectation is the floor's 31 spread by D1's quarter of its hands: 7.75. It
    # read "(7.8 expected)" beside "1.0% on the rest of the floor" (QA: with 0.0% there,
    # a contradiction); it says what it spreads now.
    assert alerts[0].message == (
        "hcf dealer D1: misdeal in 25 of 200 hands (12.5%) against 1.0% on the rest of the "
        "floor; of the floor's 31 in all, 7.8 expected in these hands by their share of "
        "its hands; p = 1.26e-10 <= 3.8e-08")
    assert engine.review() == []  # alerted once; nothing new


def test_a_count_between_grid_points_is_not_looked_at_again() -> None:
    """After the review at 25 misdeals (look 3, grid point 18), more clean hands come but
    D1's count stays 25: no new look, so no new test however the floor changes."""
    engine = SurveillanceEngine(surveillance_config(HOUSE))
    for hand_input, record in floor(25, 2):
        engine.observe(hand_input, record)
    engine.review()
    assert engine.looks.last[("SURV-8", "hcf", "dealer", "D1", "misdeal")] == 3
    for n in range(201, 300):
        engine.observe(*hand(n, table="T2", dealer="D2", players={1: "P2a", 2: "P2b"}))
    assert engine.review() == []
    assert engine.looks.last[("SURV-8", "hcf", "dealer", "D1", "misdeal")] == 3


def test_uniform_floor_does_not_alert() -> None:
    """Every dealer misdeals 5 of 200: D1's P(X >= 5 | 20, 1/4) = 0.585."""
    engine = SurveillanceEngine(surveillance_config(HOUSE))
    for hand_input, record in floor(5, 5):
        engine.observe(hand_input, record)
    assert engine.review() == []


@pytest.mark.parametrize("fields", [{"min_hands": 201}, {"min_count": 26}])
def test_min_hands_and_min_count(fields: dict[str, int]) -> None:
    """The drifting floor of the first test (D1: 25 misdeals in 200 hands, p = 1.3e-10)
    is not alerted when a dealer needs 201 hands dealt, or 26 misdeals, to be judged."""
    engine = SurveillanceEngine(config(drift=fields))
    for hand_input, record in floor(25, 2):
        engine.observe(hand_input, record)
    assert engine.review() == []


def test_floor_is_per_game() -> None:
    """A Russian Poker dealer misdeals 20 of 200 hands but is the only Russian dealer: no
    floor to compare with, no alert; the HCF floor (all at 2 of 200) is uniform."""
    engine = SurveillanceEngine(surveillance_config(HOUSE))
    hands = floor(2, 2) + [hand(n, table="T9", game="russian", dealer="R1",
                                players={1: "Ra"}, events=[MISDEAL] if n % 10 == 0 else [])
                           for n in range(1, 201)]
    for hand_input, record in hands:
        engine.observe(hand_input, record)
    assert engine.review() == []


def test_kinds_read_from_one_hand() -> None:
    """A hand with a dealer-error exposure and a MISPAY counts as both kinds; a card the
    player exposed himself is not the dealer's procedure."""
    exposed = ("card_exposed", {"seat": 1, "card": "As", "cause": "dealer_error"})
    by_player = ("card_exposed", {"seat": 1, "card": "Ks", "cause": "player"})
    facts = hand_facts(*hand(1, events=[exposed], mispays={2: -10}))
    assert facts is not None and kinds_in(facts) == ("exposed_card", "mispay")
    facts = hand_facts(*hand(2, events=[by_player]))
    assert facts is not None and kinds_in(facts) == ()
