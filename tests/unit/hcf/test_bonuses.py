"""HCF-8 Flush bonus and HCF-9 Straight Flush bonus paytables; HCF-10 per-hand cap.

The DP holds 8d-5d-2d (3 cards, 8-high: does not qualify), so every player's Ante 10 is
paid even money (+10) and the Raise 10 pushes; the bonus is the only other part.
"""

from __future__ import annotations

from typing import Any

import pytest

from services.games.hcf import adjudicate as hcf
from services.games.profile import RuleProfile
from tests.profiles import HOUSE
from tests.unit.hcf.scenario import (
    adjudicate,
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

DP = "8d 5d 2d 9c Jc 6h Th"


def one_bonus_hand(kind: str, cards: str, bonus_result: int) -> Any:
    """Ante 10, Raise 10, one bonus wager of 5; the table records the correct result."""
    settle = pay(2, 10)
    if bonus_result > 0:
        settle += pay(2, bonus_result, kind="bonus")
    else:
        settle += collect(2, kind, 5)
    return adjudicate(
        config(),
        started(1, {1: 10_000, 2: 1_000}), wager(2, "ante", 10), wager(2, kind, 5),
        deal({1: DP, 2: cards}, dp=1), raise_(2, 10),
        show(1, DP), show(2, cards), settle, ended())


@pytest.mark.parametrize(
    ("cards", "bonus_result"),
    [
        ("As Ks Qs 9s 7s 5s 3s", 1000),  # 7-card flush 200 to 1: 5 x 200
        ("As Ks Qs 9s 7s 5s 2h", 250),  # 6-card 50 to 1: 5 x 50
        ("As Ks Qs 9s 7s 2h 3h", 50),  # 5-card 10 to 1: 5 x 10
        ("As Ks Qs 9s 2h 3h 4h", 10),  # 4-card 2 to 1: 5 x 2
        ("As Ks Qs 2h 3h 5c 7c", -5),  # 3 cards: the bonus loses
    ],
)
def test_flush_bonus_paytable(cards: str, bonus_result: int) -> None:
    """HCF-8. Seat 2 net = +10 (Ante, DP not qualifying) + the bonus result; DP the
    opposite. E.g. 7 spades: 10 + 1000 = 1010."""
    record = one_bonus_hand("flush_bonus", cards, bonus_result)
    assert net(record) == {"1": -(10 + bonus_result), "2": 10 + bonus_result, "house": 0}
    assert record.status == "ok", record.findings


@pytest.mark.parametrize(
    ("cards", "bonus_result"),
    [
        ("2s 3s 4s 5s 6s 7s 8s", 5000),  # 7-card run 1000 to 1
        ("2s 3s 4s 5s 6s 7s Kh", 2500),  # 6 500 to 1
        ("2s 3s 4s 5s 6s 9h Kh", 500),  # 5 100 to 1 (only the highest row: not +300 +40)
        ("2s 3s 4s 5s 9h Jh Kh", 300),  # 4 60 to 1
        ("2s 3s 4s 9h Jh Kh Ac", 40),  # 3 8 to 1
        ("As 2s 3s 9h Jh Kh 7c", 40),  # A-2-3: ace low, 8 to 1
        ("Qs Ks As 9h Jh 4c 7c", 40),  # Q-K-A: ace high, 8 to 1
        ("Ks As 2s 9h Jh 4c 7c", -5),  # K-A-2 does not count: run of 2, loses
    ],
)
def test_straight_flush_bonus_paytable(cards: str, bonus_result: int) -> None:
    """HCF-9. Seat 2 net = +10 (Ante) + bonus result; e.g. 2..8 of spades: 10 + 5000."""
    record = one_bonus_hand("sf_bonus", cards, bonus_result)
    assert net(record) == {"1": -(10 + bonus_result), "2": 10 + bonus_result, "house": 0}
    assert record.status == "ok", record.findings


P3_FIVE_SPADES = "As Ks Qs 9s 7s 2h 3h"  # 5-card flush: Flush bonus 10 to 1
P2_FOUR_RUN = "2c 3c 4c 5c 9h Jh Kh"  # 2-3-4-5 of clubs: Straight Flush bonus 60 to 1


def capped_parts(p3_bonus: int, p2_bonus: int) -> list[Any]:
    return [
        started(1, {1: 10_000, 2: 1_000, 3: 1_000}),
        wager(2, "ante", 10), wager(2, "sf_bonus", 5),
        wager(3, "ante", 10), wager(3, "flush_bonus", 5),
        deal({1: DP, 2: P2_FOUR_RUN, 3: P3_FIVE_SPADES}, dp=1),
        raise_(2, 10), raise_(3, 10),
        show(1, DP), show(3, P3_FIVE_SPADES), pay(3, 10), pay(3, p3_bonus, kind="bonus"),
        show(2, P2_FOUR_RUN), pay(2, 10), pay(2, p2_bonus, kind="bonus"), ended()]


def test_bonus_cap_pro_rata() -> None:
    """HCF-10, cap 100. Paytable wins: seat 3 Flush 5 x 10 = 50, seat 2 Straight Flush
    5 x 60 = 300; total 350 > 100. Shares: seat 3 50*100/350 = 14 remainder 100 (of
    350); seat 2 300*100/350 = 85 remainder 250. Floors add to 99; the 1 chip left goes
    to the largest remainder, seat 2: 86. Nets: seat 3 10 + 14 = 24, seat 2 10 + 86 = 96,
    DP -120."""
    record = adjudicate(config(bonus_cap=100), *capped_parts(14, 86))
    assert net(record) == {"1": -120, "2": 96, "3": 24, "house": 0}
    assert record.status == "ok", record.findings


def test_bonus_cap_mispay_cites_hcf_10() -> None:
    """HCF-10. Same hand, the table ignored the cap and paid 50 and 300: seat 3 overpaid
    by 50 - 14 = 36, seat 2 by 300 - 86 = 214; both MISPAY cite HCF-10."""
    record = adjudicate(config(bonus_cap=100), *capped_parts(50, 300))
    mispays = {f.seat: f for f in record.findings if f.code == "MISPAY"}
    assert (mispays[3].rule, mispays[3].amount) == ("HCF-10", 36)
    assert (mispays[2].rule, mispays[2].amount) == ("HCF-10", 214)


THREE_FOURS = {
    1: DP,
    4: "As Ks Qs Js 3d 4d 7h",  # 4 spades
    3: "Ah Kh Qh Jh 6d 7d 2s",  # 4 hearts
    2: "Ac Kc Qc Tc 9d Td 3s",  # 4 clubs
}


def test_bonus_cap_equal_remainders_go_in_settlement_order() -> None:
    """HCF-10, cap 10. Three Flush bonuses of 5 on 4-card flushes: 2 to 1 = 10 each,
    total 30. Each share 10*10/30 = 3 remainder 10; floors 9, 1 chip left, remainders
    equal: it goes to the first in settlement order (4, 3, 2): seat 4. Nets: seat 4
    10 + 4 = 14, seats 3 and 2 10 + 3 = 13, DP -40."""
    parts = [started(1, {1: 10_000, 2: 1_000, 3: 1_000, 4: 1_000})]
    for seat in (2, 3, 4):
        parts += [wager(seat, "ante", 10), wager(seat, "flush_bonus", 5)]
    parts.append(deal(THREE_FOURS, dp=1))
    parts += [raise_(s, 10) for s in (2, 3, 4)]
    parts.append(show(1, DP))
    for seat, bonus in ((4, 4), (3, 3), (2, 3)):
        parts += [show(seat, THREE_FOURS[seat]), pay(seat, 10), pay(seat, bonus, "bonus")]
    parts.append(ended())
    record = adjudicate(config(bonus_cap=10), *parts)
    assert net(record) == {"1": -40, "2": 13, "3": 13, "4": 14, "house": 0}
    assert record.status == "ok", record.findings


def _profile_with(**hcf_fields: Any) -> RuleProfile:
    base = HOUSE
    sections = dict(base.sections)
    sections["hcf"] = {**base.sections["hcf"], **hcf_fields}
    return RuleProfile(name="house-v1-variant", sections=sections)


def test_floor_rounding_reading_leaves_the_remainder_with_the_dp() -> None:
    """HCF-10 with ``bonus_cap_rounding = "floor"``: the same three 10s capped at 10 pay
    3 each (9 in all); the DP keeps the leftover chip: DP -(30 + 9) = -39."""
    parts = [started(1, {1: 10_000, 2: 1_000, 3: 1_000, 4: 1_000})]
    for seat in (2, 3, 4):
        parts += [wager(seat, "ante", 10), wager(seat, "flush_bonus", 5)]
    parts += [deal(THREE_FOURS, dp=1), *(raise_(s, 10) for s in (2, 3, 4)), show(1, DP)]
    parts += [show(s, THREE_FOURS[s]) for s in (4, 3, 2)]
    parts.append(ended())
    outcome = hcf.adjudicate(hand(config(bonus_cap=10), *parts),
                             _profile_with(bonus_cap_rounding="floor"))
    assert outcome.net == {1: -39, 2: 13, 3: 13, 4: 13}
    assert any(step.rule == "HCF-10" for step in outcome.trace)


def test_table_posted_paytable_replaces_the_profile() -> None:
    """HCF-8 with a posted override: flush_bonus {4: 3, 5: 12}. A 4-card flush now pays
    3 to 1 on 5 = 15 (house-v1 would pay 10). Seat 2 net 10 + 15 = 25, DP -25."""
    cards = "As Ks Qs 9s 2h 3h 4h"
    record = adjudicate(
        config(paytables={"flush_bonus": {"4": 3, "5": 12}}),
        started(1, {1: 10_000, 2: 1_000}), wager(2, "ante", 10), wager(2, "flush_bonus", 5),
        deal({1: DP, 2: cards}, dp=1), raise_(2, 10),
        show(1, DP), show(2, cards), pay(2, 10), pay(2, 15, kind="bonus"), ended())
    assert net(record) == {"1": -25, "2": 25, "house": 0}
    assert record.status == "ok", record.findings


def test_decision_path_names_the_bonus_rules() -> None:
    """Issue #20: the decision path names every rule that decided an amount. A paid Flush
    bonus 5 on a five-card flush (10 to 1 = 50) is an HCF-8 step; a losing Straight Flush
    bonus 5 is an HCF-9 step: the longest run is two (9c 8c, or Ah Kh), below the
    paytable's three."""
    five_clubs = "Kc Jc 9c 8c 6c Ah Kh"  # clubs K-J-9-8-6: no three in a row
    outcome = hcf.adjudicate(hand(
        config(), started(1, {1: 500, 2: 100}), wager(2, "ante", 10),
        wager(2, "flush_bonus", 5), wager(2, "sf_bonus", 5), deal({1: DP, 2: five_clubs}, dp=1),
        raise_(2, 10), show(1, DP), show(2, five_clubs), ended()), HOUSE)
    steps = {s.rule: s.message for s in outcome.trace if s.seat == 2 and s.rule in
             ("HCF-8", "HCF-9")}
    assert steps == {"HCF-8": "Flush bonus 5: 5-card flush pays 10 to 1 = 50",
                     "HCF-9": "Straight Flush bonus 5: 2-card straight-flush run, not "
                              "on the paytable: lost"}
