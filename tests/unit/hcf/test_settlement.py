"""Hand-computed High Card Flush settlements, end to end through ``adjudicate_hand``.

Seats: the designated player (DP) is seat 1 unless said otherwise; settlement goes
counter-clockwise from the right of the button, so with players 2, 3, 4 the order is
4, 3, 2. Every number below is worked out by hand in the docstring.
"""

from __future__ import annotations

from tests.unit.hcf.scenario import (
    adjudicate,
    collect,
    config,
    deal,
    ended,
    fold,
    net,
    pay,
    raise_,
    show,
    started,
    wager,
)

DP_8_HIGH = "8h 5h 2h 7c 4c 3d 6s"  # best flush: hearts 8-5-2, 3 cards 8-high
DP_9_HIGH = "9h 5h 2h 7c 4c 3d 6s"  # hearts 9-5-2, 3 cards 9-high: just qualifies
P_AK9 = "As Ks 9s 5d 4d 3c 2c"  # spades A-K-9 (3 cards)
P_872 = "8s 7s 2s Kd Qc Jd Tc"  # spades 8-7-2 (3 cards)
P_952 = "9s 5s 2s Kd Qc Jd Tc"  # spades 9-5-2: identical ranks to DP_9_HIGH


def test_dp_not_qualifying_pays_ante_and_pushes_raise() -> None:
    """HCF-7. DP 8h-5h-2h is a 3-card 8-high flush: below 9-high, the DP does not qualify.
    Seat 2 (A-K-9 of spades) Ante 10, Raise 10: Ante paid even money (+10), the Raise
    pushes (0). Seat 2 net +10, DP net -10, house 0."""
    record = adjudicate(
        config(),
        started(1, {1: 500, 2: 100}), wager(2, "ante", 10),
        deal({1: DP_8_HIGH, 2: P_AK9}, dp=1), raise_(2, 10),
        show(1, DP_8_HIGH), show(2, P_AK9), pay(2, 10), ended())
    assert net(record) == {"1": -10, "2": 10, "house": 0}
    assert record.status == "ok", record.findings


def test_dp_qualifying_and_player_winning() -> None:
    """HCF-7. DP 9-5-2 (3 cards, 9-high) qualifies. Seat 2's A-K-9 beats it (A > 9):
    Ante 10 and Raise 10 paid even money: +20; DP -20."""
    record = adjudicate(
        config(),
        started(1, {1: 500, 2: 100}), wager(2, "ante", 10),
        deal({1: DP_9_HIGH, 2: P_AK9}, dp=1), raise_(2, 10),
        show(1, DP_9_HIGH), show(2, P_AK9), pay(2, 20), ended())
    assert net(record) == {"1": -20, "2": 20, "house": 0}
    assert record.status == "ok", record.findings


def test_dp_qualifying_and_player_losing() -> None:
    """HCF-7. DP 9-5-2 qualifies; seat 2's 8-7-2 loses (8 < 9): Ante 10 and Raise 10
    go to the DP. Seat 2 -20, DP +20."""
    record = adjudicate(
        config(),
        started(1, {1: 500, 2: 100}), wager(2, "ante", 10),
        deal({1: DP_9_HIGH, 2: P_872}, dp=1), raise_(2, 10),
        show(1, DP_9_HIGH), show(2, P_872), collect(2, "ante", 10), collect(2, "raise", 10),
        ended())
    assert net(record) == {"1": 20, "2": -20, "house": 0}
    assert record.status == "ok", record.findings


def test_dp_qualifying_and_push() -> None:
    """HCF-6/7. DP hearts 9-5-2 and seat 2 spades 9-5-2: equal length, identical ranks all
    the way down: push. Nothing moves; both nets 0."""
    record = adjudicate(
        config(),
        started(1, {1: 500, 2: 100}), wager(2, "ante", 10),
        deal({1: DP_9_HIGH, 2: P_952}, dp=1), raise_(2, 10),
        show(1, DP_9_HIGH), show(2, P_952), ended())
    assert net(record) == {"1": 0, "2": 0, "house": 0}
    assert record.status == "ok", record.findings


def test_tie_broken_on_the_third_card() -> None:
    """HCF-6. DP hearts K-T-6. Seat 3 spades K-T-7 wins on the third card (7 > 6): +10
    Ante +10 Raise = +20. Seat 2 diamonds K-T-5 loses on the third card (5 < 6): -20.
    Order 3 then 2. DP: -20 + 20 = 0."""
    dp = "Kh Th 6h 7c 4c 3d 2s"
    p3 = "Ks Ts 7s 5c 4d 3c 2c"
    p2 = "Kd Td 5d 8c 9c Jc 2h"
    record = adjudicate(
        config(),
        started(1, {1: 500, 2: 100, 3: 100}), wager(2, "ante", 10), wager(3, "ante", 10),
        deal({1: dp, 2: p2, 3: p3}, dp=1), raise_(2, 10), raise_(3, 10),
        show(1, dp), show(3, p3), pay(3, 20), show(2, p2),
        collect(2, "ante", 10), collect(2, "raise", 10), ended())
    assert net(record) == {"1": 0, "2": -20, "3": 20, "house": 0}
    assert record.status == "ok", record.findings


def test_two_equal_length_flushes_the_better_one_counts() -> None:
    """HCF-6. Seat 2 holds clubs A-7-3 and spades K-Q-J (both 3 cards); A-7-3 is the
    better and counts. DP diamonds A-5-4 (3 cards, ace-high: qualifies). A-7-3 beats
    A-5-4 on the second card: +10 Ante +10 Raise = +20 (K-Q-J would have lost)."""
    dp = "Ad 5d 4d 8h 6h 9s 3s"
    p2 = "Ac 7c 3c Ks Qs Js 2d"
    record = adjudicate(
        config(),
        started(1, {1: 500, 2: 100}), wager(2, "ante", 10),
        deal({1: dp, 2: p2}, dp=1), raise_(2, 10),
        show(1, dp), show(2, p2), pay(2, 20), ended())
    assert net(record) == {"1": -20, "2": 20, "house": 0}
    assert record.status == "ok", record.findings


def test_folded_player_loses_ante_and_bonuses() -> None:
    """HCF-4. Seat 2 folds with Ante 10 and a Flush bonus 5 on the layout: both go to the
    DP, whatever the cards would have paid (a 4-card flush would pay the bonus 2:1).
    Seat 2 -15, DP +15."""
    p2 = "As Ks 9s 5s 4d 3c 2c"
    record = adjudicate(
        config(),
        started(1, {1: 500, 2: 100}), wager(2, "ante", 10), wager(2, "flush_bonus", 5),
        deal({1: DP_9_HIGH, 2: p2}, dp=1), fold(2),
        collect(2, "ante", 10), collect(2, "flush_bonus", 5), ended())
    assert net(record) == {"1": 15, "2": -15, "house": 0}
    assert record.status == "ok", record.findings
