"""HCF-4 raise caps by flush length, and the over-cap raise (only the cap is in action)."""

from __future__ import annotations

import pytest

from services.events.contract import Limits, RakeConfig, TableConfigured
from services.games.hcf import adjudicate as hcf
from services.games.hcf.profile import resolve_rules
from services.games.profile import RuleProfile
from tests.profiles import HOUSE
from tests.unit.hcf.scenario import (
    adjudicate,
    codes,
    collect,
    config,
    deal,
    ended,
    hand,
    net,
    pay,
    raise_,
    show,
    started,
    wager,
)

DP_9_HIGH = "9h 5h 2h 7c 4c 3d 6s"  # qualifies (3 cards, 9-high)


@pytest.mark.parametrize(
    ("flush_cards", "cap"),
    [(7, 30), (6, 30), (5, 20), (4, 10), (3, 10), (2, 10)],
)
def test_raise_cap_by_flush_length(flush_cards: int, cap: int) -> None:
    """HCF-4 with Ante 10: 6 or 7 cards up to 3x = 30; 5 cards 2x = 20; 4 or fewer 1x = 10."""
    cfg = TableConfigured(game="hcf", limits=Limits(min_wager=1, max_wager=100),
                          rake=RakeConfig(mode="none", fee=0), rule_profile="house-v1")
    rules = resolve_rules(HOUSE, cfg)
    assert rules.raise_cap(flush_cards, 10) == cap


@pytest.mark.parametrize(
    ("cards", "raised"),
    [
        ("As Ks Qs 9s 7s 5s 3s", 30),  # 7-card flush, 3x
        ("As Ks Qs 9s 7s 5s 3c", 30),  # 6-card flush, 3x
        ("As Ks Qs 9s 7s 3c 2c", 20),  # 5-card flush, 2x
        ("As Ks Qs 9s 3c 2c 4d", 10),  # 4-card flush, 1x
    ],
)
def test_maximum_raise_at_each_cap_is_accepted(cards: str, raised: int) -> None:
    """HCF-4/7. Every hand here has 4+ spades and beats the DP's 3-card 9-5-2, so Ante 10
    and the maximum Raise are paid even money: net +10 + raised, the DP the opposite,
    and no finding (the raise is within its cap)."""
    record = adjudicate(
        config(),
        started(1, {1: 500, 2: 100}), wager(2, "ante", 10),
        deal({1: DP_9_HIGH, 2: cards}, dp=1), raise_(2, raised),
        show(1, DP_9_HIGH), show(2, cards), pay(2, 10 + raised), ended())
    assert net(record) == {"1": -(10 + raised), "2": 10 + raised, "house": 0}
    assert record.status == "ok", record.findings


P_4_CARD = "As Ks Qs 9s 3c 2c 4d"  # 4 spades: cap 1x Ante


def test_over_cap_raise_only_cap_in_action_when_winning() -> None:
    """HCF-4 Reading. Seat 2 with a 4-card flush raises 30 on Ante 10; the cap is 10.
    Finding RAISE_OVER_CAP (excess 20). In action: Ante 10 + Raise 10, winning against the
    DP's 3-card flush: paid 20; the excess 20 stays on the layout and goes back. The table
    paid 20: seat 2 +20, DP -20, no mispay."""
    record = adjudicate(
        config(),
        started(1, {1: 500, 2: 100}), wager(2, "ante", 10),
        deal({1: DP_9_HIGH, 2: P_4_CARD}, dp=1), raise_(2, 30),
        show(1, DP_9_HIGH), show(2, P_4_CARD), pay(2, 20), ended())
    assert net(record) == {"1": -20, "2": 20, "house": 0}
    over = [f for f in record.findings if f.code == "RAISE_OVER_CAP"]
    assert len(over) == 1 and over[0].rule == "HCF-4" and over[0].amount == 20
    assert "MISPAY" not in codes(record)


def test_over_cap_raise_paid_in_full_is_a_mispay() -> None:
    """HCF-4. Same hand, but the table paid the whole Raise: 10 Ante + 30 Raise = 40.
    Expected +20, recorded +40: MISPAY seat 2 amount +20 citing HCF-4 (and the DP -20)."""
    record = adjudicate(
        config(),
        started(1, {1: 500, 2: 100}), wager(2, "ante", 10),
        deal({1: DP_9_HIGH, 2: P_4_CARD}, dp=1), raise_(2, 30),
        show(1, DP_9_HIGH), show(2, P_4_CARD), pay(2, 40), ended())
    mispays = {f.seat: f for f in record.findings if f.code == "MISPAY"}
    assert mispays[2].rule == "HCF-4" and mispays[2].amount == 20
    assert mispays[1].rule == "HCF-4" and mispays[1].amount == -20


def test_over_cap_raise_losing_only_cap_collected() -> None:
    """HCF-4. Seat 2 raises 30 with 4 spades (cap 10). The DP holds 5 hearts K-J-9-5-2,
    which beats any 4-card flush. Seat 2 loses Ante 10 + Raise 10 (the capped amount) =
    20; the other 20 of the raise goes back. Seat 2 -20, DP +20."""
    dp = "Kh Jh 9h 5h 2h 7c 6d"
    record = adjudicate(
        config(),
        started(1, {1: 500, 2: 100}), wager(2, "ante", 10),
        deal({1: dp, 2: P_4_CARD}, dp=1), raise_(2, 30),
        show(1, dp), show(2, P_4_CARD), collect(2, "ante", 10), collect(2, "raise", 10),
        ended())
    assert net(record) == {"1": 20, "2": -20, "house": 0}
    assert "MISPAY" not in codes(record)
    assert "RAISE_OVER_CAP" in codes(record)


def test_raise_below_minimum_is_a_finding_and_plays_as_placed() -> None:
    """HCF-4 Reading: 1x Ante is the minimum. Seat 2 raises 5 on Ante 10 (4-card flush,
    beats the DP): RAISE_UNDER_MINIMUM (short by 5); the 5 plays: paid 10 + 5 = 15."""
    record = adjudicate(
        config(),
        started(1, {1: 500, 2: 100}), wager(2, "ante", 10),
        deal({1: DP_9_HIGH, 2: P_4_CARD}, dp=1), raise_(2, 5),
        show(1, DP_9_HIGH), show(2, P_4_CARD), pay(2, 15), ended())
    assert net(record) == {"1": -15, "2": 15, "house": 0}
    short = [f for f in record.findings if f.code == "RAISE_UNDER_MINIMUM"]
    assert short and short[0].rule == "HCF-4" and short[0].amount == 5


def test_over_cap_raise_plays_as_placed_when_the_profile_says_so() -> None:
    """HCF-4 Reading toggled (audit): ``over_cap_raise_plays = "as_placed"``. Seat 2 raises
    30 with a 4-card flush (cap 10) and beats the DP's 9-5-2: still RAISE_OVER_CAP (excess
    20), but the whole 30 plays: paid Ante 10 + Raise 30 = 40. Seat 2 +40, DP -40."""
    base = HOUSE
    profile = RuleProfile("variant", {**base.sections, "hcf": {
        **base.sections["hcf"], "over_cap_raise_plays": "as_placed"}})
    outcome = hcf.adjudicate(hand(
        config(), started(1, {1: 500, 2: 100}), wager(2, "ante", 10),
        deal({1: DP_9_HIGH, 2: P_4_CARD}, dp=1), raise_(2, 30),
        show(1, DP_9_HIGH), show(2, P_4_CARD), pay(2, 40), ended()), profile)
    assert outcome.net == {1: -40, 2: 40}
    over = [f for f in outcome.findings if f.code == "RAISE_OVER_CAP"]
    assert len(over) == 1 and over[0].amount == 20
    assert outcome.seat_rules[2] == "HCF-4"
