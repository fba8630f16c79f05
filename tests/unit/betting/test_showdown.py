"""FCD-9 showdown order and FCD-11 odd chip."""

from services.games.betting import Pot, award_pots, split_pot
from tests.unit.betting.helpers import config, new_hand, play


def test_odd_chip_to_first_winner_left_of_button() -> None:
    """Pot 25 split by seats 2 and 5, button 3: clockwise from the button the first
    winner is 5 (13), then 2 (12)."""
    assert split_pot(25, [2, 5], 3) == {5: 13, 2: 12}


def test_two_odd_chips_one_each_clockwise() -> None:
    """Pot 11 among 1, 2, 3 with button 2: 11 = 3 x 3 + 2; seats 3 and 1 (the first two
    left of the button) get 4, seat 2 gets 3."""
    assert split_pot(11, [1, 2, 3], 2) == {3: 4, 1: 4, 2: 3}


def test_mucked_hand_cannot_win_while_another_shows() -> None:
    """Seat 1 has no strength (mucked); seat 2 shows anything: seat 2 wins the 30."""
    awards = award_pots([Pot(30, (1, 2), 15)], {1: None, 2: 3}, button=1)
    assert awards[0].winners == (2,) and awards[0].shares == {2: 30}


def test_last_aggressor_shows_first() -> None:
    """After the draw seat 3 bets and is called by 1 and 2: seat 3 shows first, then
    clockwise 1, 2."""
    hand = new_hand(config("no"), {1: 50, 2: 50, 3: 50}, button=1)
    play(hand, [(1, "call", 2), (2, "call", 1), (3, "check", None)])
    hand.next_round()
    play(hand, [(2, "check", None), (3, "bet", 4), (1, "call", 4), (2, "call", 4)])
    hand.close_round()
    assert hand.showdown_order() == [3, 1, 2]


def test_nobody_bet_first_active_left_of_button_shows_first() -> None:
    """All check after the draw: first active left of button 3 is seat 1."""
    hand = new_hand(config("no"), {1: 50, 2: 50, 3: 50}, button=3)
    play(hand, [(3, "call", 2), (1, "call", 1), (2, "check", None)])
    hand.next_round()
    play(hand, [(1, "check", None), (2, "check", None), (3, "check", None)])
    hand.close_round()
    assert hand.showdown_order() == [1, 2, 3]
