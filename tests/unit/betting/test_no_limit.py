"""FCD-8 no limit: the minimum raise, and a short all-in that does not reopen."""

from services.games.betting import BettingHand
from tests.unit.betting.helpers import config, kinds, new_hand, play


def test_minimum_raise_is_the_last_full_raise() -> None:
    """Blinds 1/2, button 1, seat 4 first. 4 raises to 6 (a raise of 4), so seat 1 must
    go to at least 6 + 4 = 10 (adds 10). Raising to 9 is 1 short (FCD-8)."""
    hand = new_hand(config("no"), {1: 100, 2: 100, 3: 100, 4: 100}, button=1)
    assert hand.apply(4, "raise", 6) == []
    legal = hand.legal_actions()
    assert legal is not None and (legal.raise_min, legal.raise_max) == (10, 100)
    found = hand.apply(1, "raise", 9)
    assert kinds(found) == ["under_minimum"] and found[0].amount == -1


def _to_second_round(stacks: dict[int, int]) -> BettingHand:
    """Button 1, SB 2, BB 3; everybody in for 2 before the draw."""
    hand = new_hand(config("no"), stacks, button=1)
    assert play(hand, [(1, "call", 2), (2, "call", 1), (3, "check", None)]) == []
    hand.next_round()
    return hand


def test_short_all_in_does_not_reopen_for_players_who_acted() -> None:
    """After the draw (stacks 98, 98, 12): seat 2 bets 10; seat 3 goes all-in for 12, a
    raise of 2, short of the full 10. Seat 1 has not acted yet: it may raise (minimum to
    12 + 10 = 22). Seat 1 calls 12. Back at seat 2, whose last action was the bet before
    the short all-in: it owes 2 and may call or fold, not raise; raising is a finding."""
    hand = _to_second_round({1: 100, 2: 100, 3: 14})
    assert play(hand, [(2, "bet", 10), (3, "all_in", 12)]) == []
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 1 and legal.can_raise and legal.raise_min == 22
    assert hand.apply(1, "call", 12) == []
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 2 and legal.call == 2 and not legal.can_raise
    found = hand.apply(2, "raise", 22)
    assert kinds(found) == ["not_reopened"] and found[0].rule == "FCD-8"


def test_full_raise_after_short_all_in_reopens() -> None:
    """Same hand, but seat 1 raises to 22 (a full raise of 10 over 12): seat 2 may raise
    again (minimum to 32, i.e. adds 32 - 10 = 22)."""
    hand = _to_second_round({1: 100, 2: 100, 3: 14})
    assert play(hand, [(2, "bet", 10), (3, "all_in", 12), (1, "raise", 22)]) == []
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 2 and legal.can_raise and legal.raise_min == 22


def test_bet_larger_than_stack_and_partial_all_in() -> None:
    """Seat 2 (98 behind) bets 120: 22 chips it does not have (GEN-2), then all-in.
    Seat 3 records all_in with 5 of its 12: the all-in left chips behind."""
    hand = _to_second_round({1: 100, 2: 100, 3: 14})
    found = hand.apply(2, "bet", 120)
    assert kinds(found) == ["over_stack"] and found[0].amount == 22 and found[0].rule == "GEN-2"
    assert hand.seats[2].all_in
    found = hand.apply(3, "all_in", 5)
    assert "all_in_not_whole_stack" in kinds(found)


def test_no_raise_when_every_opponent_is_all_in() -> None:
    """Heads-up after the draw, seat 3 all-in for 12: seat 2 may only call or fold."""
    hand = _to_second_round({1: 100, 2: 100, 3: 14})
    play(hand, [(2, "check", None), (3, "all_in", 12), (1, "fold", None)])
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 2 and legal.call == 12 and not legal.can_raise
    assert kinds(hand.apply(2, "raise", 30)) == ["no_opponent_to_raise"]


def test_no_raise_when_no_opponent_could_call_more() -> None:
    """Seat 3 is all-in for 12 after the draw; seat 1 has 98 but calls the 12 and then,
    back at seat 2, nobody else could put in more than 12 except seat 1 (98): seat 2 may
    raise. If instead seat 1 only had 10 behind (all-in short), seat 2 could not."""
    hand = _to_second_round({1: 100, 2: 100, 3: 14})
    play(hand, [(2, "check", None), (3, "all_in", 12), (1, "call", 12)])
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 2 and legal.can_raise
    short = _to_second_round({1: 12, 2: 100, 3: 14})
    play(short, [(2, "check", None), (3, "all_in", 12), (1, "all_in", 10)])
    legal = short.legal_actions()
    assert legal is not None and legal.seat == 2 and not legal.can_raise
    assert kinds(short.apply(2, "raise", 30)) == ["no_opponent_to_raise"]


def test_bet_or_raise_that_puts_in_no_more_than_the_call_is_not_a_raise() -> None:
    """After the draw (stacks 98, 98, 12): seat 2 records a 'bet' of 0 chips: no bet at
    all (NOT_A_RAISE, amount 0); the engine carries on with it as the check it is. Seat 3
    bets 10; seat 1 records a 'raise' of exactly 10, the amount owed: a call, not a
    raise (NOT_A_RAISE, amount 0). Then seat 2 owes 10 (the bet to call stayed 10)."""
    hand = _to_second_round({1: 100, 2: 100, 3: 14})
    found = hand.apply(2, "bet", 0)
    assert kinds(found) == ["not_a_raise"] and found[0].amount == 0
    assert found[0].rule == "FCD-8"
    assert hand.apply(3, "bet", 10) == []
    found = hand.apply(1, "raise", 10)
    assert kinds(found) == ["not_a_raise"] and found[0].amount == 0
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 2 and legal.call == 10
