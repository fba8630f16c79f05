"""FCD-9 / FCD-11: side pots, uncalled bets, and how the pots are won."""

from services.games.betting import Pot, RakePolicy, build_pots, settle
from tests.unit.betting.helpers import config, new_hand, play

NO_RAKE = RakePolicy("none", 0, True, "stack")


def test_three_way_all_in_two_side_pots() -> None:
    """Seats 1, 2, 3 all-in for 20, 50 and 80; seat 4 (200) calls 80.
    Main pot 4 x 20 = 80 (1, 2, 3, 4); side pot 1: 3 x (50 - 20) = 90 (2, 3, 4); side pot
    2: 2 x (80 - 50) = 60 (3, 4). Total 230 = 20 + 50 + 80 + 80.
    Seat 1 has the best hand (main 80), seat 2 the second (side 1: 90), seat 4 beats 3
    (side 2: 60). Net: 1 = 80 - 20 = +60, 2 = 90 - 50 = +40, 3 = -80, 4 = 60 - 80 = -20."""
    hand = new_hand(config("no"), {1: 20, 2: 50, 3: 80, 4: 200}, button=4)
    # Button 4: SB 1, BB 2; seat 3 first.
    assert play(hand, [(3, "all_in", 80), (4, "call", 80), (1, "all_in", 19),
                       (2, "all_in", 48)]) == []
    assert hand.round_complete() and not hand.can_bet_further()
    pots = build_pots(hand.contributions(), hand.folded())
    assert pots.pots == (Pot(80, (1, 2, 3, 4), 20), Pot(90, (2, 3, 4), 50), Pot(60, (3, 4), 80))
    assert pots.refunds == {}
    result = settle(hand.contributions(), hand.folded(), {1: 40, 2: 30, 3: 10, 4: 20}, 4,
                    NO_RAKE)
    assert result.net == {1: 60, 2: 40, 3: -80, 4: -20}


def test_uncalled_bet_is_returned() -> None:
    """Heads-up after 2 each before the draw, seat 2 bets 10 and seat 1 folds: the 10 is
    uncalled and returned (refund), seat 2 wins the 4 in the pot without showing.
    Net: 2 = +2, 1 = -2."""
    hand = new_hand(config("no"), {1: 50, 2: 50}, button=1)
    play(hand, [(1, "call", 1), (2, "check", None)])
    hand.next_round()
    play(hand, [(2, "bet", 10), (1, "fold", None)])
    assert hand.hand_over()
    result = settle(hand.contributions(), hand.folded(), {}, 1, NO_RAKE)
    assert result.refunds == {2: 10}
    assert result.pots == (Pot(4, (2,), 2),)
    assert result.net == {1: -2, 2: 2}


def test_all_in_for_more_than_the_caller_has_returns_the_excess() -> None:
    """Seat 1 all-in for 100, seat 2 calls all-in with 30: 70 uncalled back to seat 1,
    pot 60."""
    build = build_pots({1: 100, 2: 30}, set())
    assert build.refunds == {1: 70} and build.pots == (Pot(60, (1, 2), 30),)


def test_folded_chips_stay_in_the_pots() -> None:
    """Seat 3 put in 40 and folded; seat 1 is all-in for 20, seat 2 put in 40.
    Main 3 x 20 = 60 (1, 2); side 2 x 20 = 40 (only 2 eligible; 3 folded)."""
    build = build_pots({1: 20, 2: 40, 3: 40}, {3})
    assert build.pots == (Pot(60, (1, 2), 20), Pot(40, (2,), 40))


def test_layer_nobody_can_win_joins_the_pot_below() -> None:
    """Irregular: seats 2 and 3 matched 40 and both folded, seat 1 (all-in 10) is left.
    The 2 x 30 = 60 above 10 has no eligible seat, so it joins the main pot: 90 to 1."""
    build = build_pots({1: 10, 2: 40, 3: 40}, {2, 3}, contenders=[1])
    assert build.pots == (Pot(90, (1,), 40),)
