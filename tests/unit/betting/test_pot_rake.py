"""GEN-10 pot rake schedule (issue #21), computed by hand: a percentage of the pot, rounded
to the room's chip unit, capped by the players dealt in, a minimum pot, no flop no drop.

The schedule throughout (chips in cents): 5%, in multiples of 5 cents, at most 100 with 2
players, 200 with 3 or 4, 300 with 5 or more.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from services.games.betting import (
    PotRakeCap,
    PotRakeHand,
    PotRakeSchedule,
    RakePolicy,
    pot_rake,
    settle,
)


def schedule(rounding: str = "down", minimum_pot: int = 0, no_flop_no_drop: bool = True,
             numerator: int = 5) -> PotRakeSchedule:
    return PotRakeSchedule(numerator, 100, 5, rounding, minimum_pot, no_flop_no_drop,  # type: ignore[arg-type]
                           [PotRakeCap(5, 300), PotRakeCap(3, 200), PotRakeCap(2, 100)])


def policy(sched: PotRakeSchedule, players: int = 6, flop: bool = True) -> RakePolicy:
    return RakePolicy("none", 0, True, "stack", sched, PotRakeHand(players, flop))


@pytest.mark.parametrize(("pot", "players", "rake"), [
    (2500, 2, 100),   # 5% = 125, heads-up cap 100
    (2500, 3, 125),   # 125, under the cap of 200
    (10000, 4, 200),  # 500, capped at 200 (3 or 4 players)
    (10000, 6, 300),  # 500, capped at 300 (5 or more)
    (1000, 9, 50),    # 50, under every cap
])
def test_each_cap_by_players_dealt(pot: int, players: int, rake: int) -> None:
    assert pot_rake(policy(schedule(), players), pot).amount == rake


@pytest.mark.parametrize(("pot", "rounding", "rake"), [
    (253, "down", 10),     # 12.65 -> 10
    (253, "nearest", 15),  # 12.65 is nearer 15 than 10
    (253, "up", 15),
    (250, "down", 10),     # 12.5: exactly half way
    (250, "nearest", 15),  # half up
    (240, "nearest", 10),  # 12.0 -> 10 (2.4 units)
    (200, "up", 10),       # exactly 10: nothing to round
])
def test_rounding_to_the_chip_unit(pot: int, rounding: str, rake: int) -> None:
    assert pot_rake(policy(schedule(rounding)), pot).amount == rake


def test_minimum_pot_and_no_flop_no_drop() -> None:
    """No rake on a pot below the minimum (99 < 100); none before the flop unless the
    schedule drops anyway (then 5% of 1000 = 50)."""
    assert pot_rake(policy(schedule(minimum_pot=100)), 99).amount == 0
    assert pot_rake(policy(schedule(minimum_pot=100)), 100).amount == 5
    no_flop = pot_rake(policy(schedule(), flop=False), 1000)
    assert no_flop.amount == 0 and "no flop, no drop" in no_flop.why
    assert pot_rake(policy(schedule(no_flop_no_drop=False), flop=False), 1000).amount == 50


def test_no_schedule_no_rake() -> None:
    """house-v1 posts none: ``rate_numerator = 0`` is no schedule at all."""
    assert not schedule(numerator=0).posted
    assert pot_rake(RakePolicy("none", 0, True, "stack"), 1000).amount == 0


def test_rake_off_the_top_main_pot_first_before_the_award() -> None:
    """Seats 1 and 2 put in 1000 each, seat 3 put in 400 and is all-in: main pot 1200
    (all three), side pot 1200 (seats 1 and 2). 5% of 2400 = 120, capped at 200 for 3
    players: 120 off the main pot (1080 left). Seat 3's best hand wins the main pot,
    seat 1 the side pot. Nets: 3: 1080 - 400 = +680; 1: 1200 - 1000 = +200; 2: -1000;
    house 120 (sum 0)."""
    result = settle({1: 1000, 2: 1000, 3: 400}, set(), {1: 5, 2: 4, 3: 9}, 3,
                    policy(schedule(), players=3), {1: 0, 2: 0, 3: 0})
    assert result.net == {1: 200, 2: -1000, 3: 680}
    assert result.pot_rake.amount == 120 and result.house == 120
    assert [a.amount for a in result.awards] == [1080, 1200]


def test_invalid_schedules_do_not_load() -> None:
    with pytest.raises(ValueError, match="most players down"):
        PotRakeSchedule(5, 100, 5, "down", 0, True, [PotRakeCap(2, 100), PotRakeCap(5, 300)])
    with pytest.raises(ValueError, match="denominator"):
        PotRakeSchedule(5, 0, 5, "down", 0, True, [])
    with pytest.raises(ValueError, match="unit"):
        PotRakeSchedule(5, 100, 0, "down", 0, True, [])


@given(pot=st.integers(0, 10**9), players=st.integers(2, 10),
       rounding=st.sampled_from(["down", "nearest", "up"]))
def test_the_rake_is_a_whole_number_of_units_within_cap_and_pot(
        pot: int, players: int, rounding: str) -> None:
    amount = pot_rake(policy(schedule(rounding), players), pot).amount
    assert amount % 5 == 0 or amount == pot
    assert 0 <= amount <= min(pot, 300)
    cap = {2: 100, 3: 200, 4: 200}.get(players, 300)
    # within one unit (5 chips) of the exact 5% (in hundredths of a chip), or the cap
    assert abs(amount * 100 - min(pot * 5, cap * 100)) < 5 * 100
