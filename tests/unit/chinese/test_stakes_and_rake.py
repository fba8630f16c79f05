"""CP-10 table stakes and payment order, GEN-10 rake. Numbers worked out by hand.

The three-handed deal used throughout (point value 1): seat 1 is owed 16 by seat 2 (a
foul) and 16 by seat 3 (a scoop with bonuses); seat 2 (foul) owes seat 3 10.
"""

from __future__ import annotations

from services.games.chinese.profile import chinese_profile
from services.games.chinese.scoring import PairScore
from services.games.chinese.settlement import settle
from tests.profiles import HOUSE
from tests.unit.chinese.scenario import config, outcome
from tests.unit.chinese.test_fouls_super_bonus import BONUS_HAND, FOULED, TENS

DEAL = {1: BONUS_HAND, 2: FOULED, 3: TENS}

# Two-handed: seat 1 wins 11 points (scoop + back straight flush).
SF_SCOOP = ("Qh Qd 2s", "Ac Ad 3s 4d 5h", "5c 6c 7c 8c 9c")
LOSER = ("Ah Kd 3c", "2h 2d 6d 7d 8s", "Tc Td Th Js Jd")


def test_cp10_win_capped_by_the_winners_starting_stack() -> None:
    """11 points x 10 = 110 chips, but seat 1 started the hand with 50: it wins 50."""
    result = outcome({1: SF_SCOOP, 2: LOSER}, config(point_value=10),
                     stacks={1: 50, 2: 1000})
    assert result.net == {1: 50, 2: -50}
    assert result.seat_rules == {1: "CP-10", 2: "CP-10"}
    assert any(s.rule == "CP-10" and "capped at the 50" in s.message for s in result.trace)


def test_cp10_loser_short_of_chips_pays_clockwise_from_the_button() -> None:
    """Button 1: payments start left of it, order 2, 3, 1. Seat 2 has 20 chips and owes
    seat 3 10 and seat 1 16: pays seat 3 10, then seat 1 the 10 it has left. Seat 3 then
    pays seat 1 16. Seat 1 +26, seat 2 -20, seat 3 +10 - 16 = -6."""
    result = outcome(DEAL, stacks={1: 1000, 2: 20, 3: 1000}, button=1)
    assert result.net == {1: 26, 2: -20, 3: -6}
    assert any("has only 10 chips left" in s.message for s in result.trace)


def test_cp10_same_shortfall_with_another_button() -> None:
    """Button 3: order 1, 2, 3. Seat 2 pays seat 1 16 first, then seat 3 the 4 it has left.
    Seat 3 pays seat 1 16. Seat 1 +32, seat 2 -20, seat 3 +4 - 16 = -12."""
    result = outcome(DEAL, stacks={1: 1000, 2: 20, 3: 1000}, button=3)
    assert result.net == {1: 32, 2: -20, 3: -12}


def test_cp10_loser_pays_with_chips_it_was_paid_first() -> None:
    """Seat 3 starts with 5 chips. Its 10 from seat 2 is capped at 5 (its starting stack).
    Button 1, order 2, 3, 1: seat 2 pays seat 3 5 and seat 1 16; seat 3 now holds 10 and
    owes seat 1 16: pays 10. Seat 1 +26, seat 2 -21, seat 3 +5 - 10 = -5."""
    result = outcome(DEAL, stacks={1: 1000, 2: 1000, 3: 5}, button=1)
    assert result.net == {1: 26, 2: -21, 3: -5}


def test_cp10_loser_paying_before_it_is_paid() -> None:
    """Same stacks, button 2: order 3, 1, 2. Seat 3 pays first with its 5 chips (5 of 16 to
    seat 1), then seat 2 pays seat 3 5 (capped) and seat 1 16. Seat 1 +21, seat 2 -21,
    seat 3 -5 + 5 = 0."""
    result = outcome(DEAL, stacks={1: 1000, 2: 1000, 3: 5}, button=2)
    assert result.net == {1: 21, 2: -21, 3: 0}


def test_cp10_order_can_start_at_the_button_by_profile() -> None:
    """With ``payments.order_starts = "button"`` and button 3 the order is 3, 1, 2: seat 2
    (20 chips) pays seat 3 10 first, then seat 1 10. Seat 1 +26, seat 2 -20, seat 3 -6."""
    from services.games.chinese.adjudicate import adjudicate
    from services.games.profile import RuleProfile
    from tests.unit.chinese.scenario import make_hand

    base = HOUSE
    sections = {k: dict(v) for k, v in base.sections.items()}
    sections["chinese"]["payments"] = {"order_starts": "button"}
    profile = RuleProfile(name="variant", sections=sections)
    hand = make_hand(DEAL, stacks={1: 1000, 2: 20, 3: 1000}, button=3)
    assert adjudicate(hand, profile).net == {1: 26, 2: -20, 3: -6}


def test_gen10_rake_all() -> None:
    """Mode all, fee 2: every participant pays 2. Nets after rake: 32-2, -26-2, -6-2."""
    result = outcome(DEAL, config(rake_mode="all", fee=2))
    assert result.rake == {1: 2, 2: 2, 3: 2}
    assert result.house == 6
    assert result.net == {1: 30, 2: -28, 3: -8}


def test_gen10_rake_players_spares_the_button() -> None:
    """Mode players, button 1: seats 2 and 3 pay 2 each."""
    result = outcome(DEAL, config(rake_mode="players", fee=2), button=1)
    assert result.rake == {2: 2, 3: 2}
    assert result.net == {1: 32, 2: -28, 3: -8}


def test_gen10_rake_designated_is_the_button_for_everyone() -> None:
    """Mode designated, button 3: the player on the button pays 2 for each of the 3
    participants, itself included: 6."""
    result = outcome(DEAL, config(rake_mode="designated", fee=2), button=3)
    assert result.rake == {3: 6}
    assert result.net == {1: 32, 2: -26, 3: -12}
    assert sum(result.net.values()) + result.house == 0


def test_gen10_rake_designated_empty_button_seat() -> None:
    """Button on empty seat 4: the first participant clockwise from it (seat 1) pays 6."""
    result = outcome(DEAL, config(rake_mode="designated", fee=2), button=4)
    assert result.rake == {1: 6}


def test_gen10_rake_is_taken_before_the_settlement() -> None:
    """Mode all, fee 2, seat 2 has 20 chips: after its 2 of rake, 18 are left to pay; button
    1, order 2, 3, 1: seat 3 10, seat 1 8. Seat 3 pays seat 1 16.
    Seat 1: 8 + 16 - 2 = 22; seat 2: -20; seat 3: 10 - 16 - 2 = -8; house 6."""
    result = outcome(DEAL, config(rake_mode="all", fee=2), stacks={1: 1000, 2: 20, 3: 1000})
    assert result.net == {1: 22, 2: -20, 3: -8}
    assert result.house == 6


def test_gen10_no_rake_mode() -> None:
    result = outcome(DEAL, config(rake_mode="none", fee=5))
    assert result.rake == {} and result.house == 0


def _pairs(*owed: tuple[int, int, int]) -> list[PairScore]:
    """(loser, winner, points) -> the pairwise scores CP-10 settles."""
    return [PairScore(min(lost, won), max(lost, won), won, lost, points, "CP-4", "by hand")
            for lost, won, points in owed]


FOUR_HANDED = _pairs((3, 1, 6), (3, 2, 4), (2, 4, 5), (1, 4, 3))


def test_cp10_reading_four_handed_each_loser_pays_its_winners_in_order() -> None:
    """Issue #20's CP-10 reading, point value 10, button 2: order 3, 4, 1, 2 (the button
    pays last). Pairwise first, capped by the winner's starting stack (1: 100, 2: 30,
    3: 50, 4: 200): seat 3 owes seat 1 60 and seat 2 40 -> 30 (seat 2 started with 30);
    seat 2 owes seat 4 50; seat 1 owes seat 4 30. Then loser by loser: seat 3 (50) pays
    its winners in the same order, seat 1 first: 50 of 60, nothing left for seat 2; seat 4
    owes nothing; seat 1 (100 + 50) pays seat 4 30; seat 2 (30) pays seat 4 30 of 50.
    Nets: 1 +50 - 30 = +20, 2 -30, 3 -50, 4 +60."""
    result = settle(FOUR_HANDED, (1, 2, 3, 4), {1: 100, 2: 30, 3: 50, 4: 200}, 2, 10, {},
                    chinese_profile(HOUSE))
    assert result.net == {1: 20, 2: -30, 3: -50, 4: 60}
    assert [(t.payer, t.payee, t.owed, t.amount) for t in result.transfers] == [
        (3, 1, 60, 50), (3, 2, 30, 0), (1, 4, 30, 30), (2, 4, 50, 30)]


def test_cp10_reading_four_handed_the_button_pays_last() -> None:
    """Same scores, seat 3 starts with 100: it pays seat 1 60 and seat 2 30 in full; seat 1
    pays seat 4 30; the button (seat 2) pays last, so it has the 30 it was just paid as
    well as its own 30: seat 4 gets its 50. Nets: 1 +30, 2 +30 - 50 = -20, 3 -90, 4 +80.
    (Paying from the button first, seat 2 would have had 30 only: seat 4 +60.)"""
    result = settle(FOUR_HANDED, (1, 2, 3, 4), {1: 100, 2: 30, 3: 100, 4: 200}, 2, 10, {},
                    chinese_profile(HOUSE))
    assert result.net == {1: 30, 2: -20, 3: -90, 4: 80}
