"""Order of action: FCD-5 (first round), FCD-7 (second round), and what the engine does
after an action out of order."""

from services.games.betting import RakePolicy, settle
from tests.unit.betting.helpers import config, kinds, new_hand, play

STACKS = {1: 100, 2: 100, 3: 100, 4: 100}
NO_RAKE = RakePolicy("none", 0, True, "stack")


def test_first_round_starts_left_of_big_blind_and_cannot_check() -> None:
    """Button 1, small blind 2, big blind 3: seat 4 acts first. Facing the big blind of
    2 it may fold, call 2 or raise, but not check (FCD-5)."""
    hand = new_hand(config("no"), STACKS, button=1)
    legal = hand.legal_actions()
    assert legal is not None
    assert (legal.seat, legal.call, legal.can_check) == (4, 2, False)
    found = hand.apply(4, "check", None)
    assert kinds(found) == ["check_facing_bet"]
    assert found[0].rule == "FCD-5" and found[0].amount == 2


def test_big_blind_option_when_nobody_raised() -> None:
    """Seats 4 and 1 call 2, seat 2 completes with 1: back at the big blind (3) the bet
    is matched, so it may check (closing the round) or raise (FCD-5)."""
    hand = new_hand(config("no"), STACKS, button=1)
    assert play(hand, [(4, "call", 2), (1, "call", 2), (2, "call", 1)]) == []
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 3 and legal.can_check and legal.can_raise
    assert hand.apply(3, "check", None) == []
    assert hand.round_complete()


def test_heads_up_button_acts_first_before_the_draw_and_last_after() -> None:
    """Heads-up, button 1 is the small blind and acts first pre-draw; after the draw the
    first active player left of the button (2) acts first (FCD-5, FCD-7)."""
    hand = new_hand(config("no"), {1: 50, 2: 50}, button=1)
    assert hand.to_act() == 1
    assert play(hand, [(1, "call", 1), (2, "check", None)]) == []
    hand.next_round()
    assert hand.to_act() == 2


def test_second_round_skips_folded_seat_left_of_button() -> None:
    """Seat 2 (left of button 1) folded pre-draw, so seat 3 opens the second round."""
    hand = new_hand(config("no"), STACKS, button=1)
    play(hand, [(4, "call", 2), (1, "call", 2), (2, "fold", None), (3, "check", None)])
    hand.next_round()
    assert hand.to_act() == 3


def test_out_of_turn_is_one_finding_and_the_turn_does_not_move() -> None:
    """Seat 4 is due but seat 1 acts first: out of turn (FCD-5). Seat 4 then acts and is
    in turn (the turn was still its), so one swapped pair gives one finding."""
    hand = new_hand(config("no"), STACKS, button=1)
    first = hand.apply(1, "call", 2)
    assert kinds(first) == ["out_of_turn"] and first[0].rule == "FCD-5"
    assert hand.apply(4, "call", 2) == []
    assert hand.to_act() == 2


def test_check_facing_bet_in_second_round_cites_fcd7_and_play_continues() -> None:
    """Post-draw seat 2 bets 4; seat 3 checks facing it (FCD-7). Seat 3 keeps the 2 it
    put in before the draw and is not asked again; seat 4 and 1 call, seat 2's bet is
    then matched. Contributions: 2 -> 6, 3 -> 2, 4 -> 6, 1 -> 6."""
    hand = new_hand(config("no"), STACKS, button=1)
    play(hand, [(4, "call", 2), (1, "call", 2), (2, "call", 1), (3, "check", None)])
    hand.next_round()
    found = play(hand, [(2, "bet", 4), (3, "check", None), (4, "call", 4), (1, "call", 4)])
    assert kinds(found) == ["check_facing_bet"] and found[0].rule == "FCD-7"
    assert hand.round_complete()
    assert hand.contributions() == {1: 6, 2: 6, 3: 2, 4: 6}


def test_short_checker_can_only_win_what_it_matched() -> None:
    """Continuing the hand above, seat 3 (2 in) holds the best hand. Main pot 4 x 2 = 8
    goes to seat 3; the side pot 3 x 4 = 12 to the best of 1, 2, 4 (seat 4).
    Net: 3 -> 8 - 2 = +6; 4 -> 12 - 6 = +6; 1 and 2 -> -6."""
    hand = new_hand(config("no"), STACKS, button=1)
    play(hand, [(4, "call", 2), (1, "call", 2), (2, "call", 1), (3, "check", None)])
    hand.next_round()
    play(hand, [(2, "bet", 4), (3, "check", None), (4, "call", 4), (1, "call", 4)])
    hand.close_round()
    result = settle(hand.contributions(), hand.folded(), {1: 1, 2: 2, 3: 9, 4: 5}, 1,
                    NO_RAKE)
    assert result.net == {1: -6, 2: -6, 3: 6, 4: 6}


def test_round_closed_early_is_a_finding() -> None:
    """The table goes to the draw while seat 1 still owes a decision on the big blind."""
    hand = new_hand(config("no"), STACKS, button=1)
    hand.apply(4, "call", 2)
    found = hand.next_round()
    assert kinds(found) == ["round_incomplete"] and found[0].rule == "FCD-5"
    assert "1, 2, 3" in found[0].message


def test_action_by_folded_seat_and_last_player_fold() -> None:
    """A folded seat acting is not in the hand; the last player left folding is ignored."""
    hand = new_hand(config("no"), {1: 50, 2: 50}, button=1)
    assert hand.apply(1, "fold", None) == []
    assert kinds(hand.apply(1, "check", None)) == ["not_in_hand"]
    assert kinds(hand.apply(2, "fold", None)) == ["last_player_folded"]
    assert hand.active() == [2]


def test_big_blind_option_with_nobody_left_to_answer_is_optional() -> None:
    """SB (seat 1) is all-in posting 1, seat 3 folds: the big blind (2) has matched and
    nobody can answer a bet, so the round is complete without it; a recorded check by
    the big blind is accepted without a finding."""
    hand = new_hand(config("no"), {1: 1, 2: 50, 3: 50}, button=3)
    assert hand.apply(3, "fold", None) == []
    assert hand.round_complete()
    assert hand.apply(2, "check", None) == []
