"""FCD-8 pot limit, computed by hand. Blinds 1 and 2, four players, button 1
(small blind 2, big blind 3, seat 4 first). The configuration's default reading is
house-v1's, ``raise_by_pot_after_call``."""

from services.games.betting import BettingHand, PotLimitReading
from tests.unit.betting.helpers import config, kinds, new_hand, play

STACKS = {1: 200, 2: 200, 3: 200, 4: 200}
LITERAL: PotLimitReading = "total_at_most_pot_after_call"
HOUSE_V1: PotLimitReading = "raise_by_pot_after_call"


def test_maximum_raise_is_the_bet_plus_the_pot_after_the_call() -> None:
    """FCD-8 (house-v1): the largest bet or raise is the pot after the call. Blinds 1/2
    with nothing else in: seat 4 calls 2 (pot 1 + 2 + 2 = 5) and raises by 5, so its total
    goes to at most 2 + 5 = 7 (the rule book's example); minimum 2 + 2 = 4. After seat 4
    raises to 7, seat 1: pot 1 + 2 + 7 = 10, call 7, pot after the call 17, so at most
    7 + 17 = 24; minimum 7 + 5 (the last raise, 7 - 2) = 12."""
    hand = new_hand(config("pot"), STACKS, button=1)
    legal = hand.legal_actions()
    assert legal is not None and (legal.raise_min, legal.raise_max) == (4, 7)
    assert hand.apply(4, "raise", 7) == []
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 1 and (legal.raise_min, legal.raise_max) == (12, 24)


def test_maximum_raise_total_capped_at_the_pot_after_the_call() -> None:
    """The other posted reading: the raiser's total is at most the pot after the call.
    Seat 4: pot 3, call 2, pot after the call 5, so to at most 5. After seat 4 raises to
    5, seat 1: pot 8, call 5, pot after call 13 -> at most 13; minimum 5 + 3 = 8."""
    hand = new_hand(config("pot", reading=LITERAL), STACKS, button=1)
    legal = hand.legal_actions()
    assert legal is not None and (legal.raise_min, legal.raise_max) == (4, 5)
    assert hand.apply(4, "raise", 5) == []
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 1 and (legal.raise_min, legal.raise_max) == (8, 13)


def test_opening_bet_after_draw_is_at_most_the_pot() -> None:
    """Everybody calls 2 pre-draw: pot 8. After the draw nobody owes anything, so the
    first bet is at most 0 + 8 = 8 (both readings)."""
    for reading in (HOUSE_V1, LITERAL):
        hand = new_hand(config("pot", reading=reading), STACKS, button=1)
        play(hand, [(4, "call", 2), (1, "call", 2), (2, "call", 1), (3, "check", None)])
        hand.next_round()
        legal = hand.legal_actions()
        assert legal is not None and (legal.seat, legal.raise_min, legal.raise_max) == (2, 2, 8)
        found = hand.apply(2, "bet", 9)
        assert kinds(found) == ["over_pot"] and found[0].amount == 1 and found[0].rule == "FCD-8"


def test_raise_to_seven_is_legal_and_to_eight_over_the_pot() -> None:
    """The issue's example (#20): blinds 1/2, a raise to 7 is within the limit; to 8 is
    over the pot by 1, and the table took it, so seat 1 now faces 8."""
    hand = new_hand(config("pot"), STACKS, button=1)
    assert hand.apply(4, "raise", 7) == []
    hand = new_hand(config("pot"), STACKS, button=1)
    found = hand.apply(4, "raise", 8)
    assert kinds(found) == ["over_pot"] and found[0].amount == 1
    legal = hand.legal_actions()
    assert legal is not None and legal.call == 8


def test_short_stack_max_is_the_stack() -> None:
    """Seat 4 has 4 chips: the pot allows 7, so its largest raise is all-in 4, which is
    also a full raise (2 + 2)."""
    hand = BettingHand(config("pot"), {1: 200, 2: 200, 3: 200, 4: 4}, 1)
    for owed in hand.owed_posts():
        hand.apply(owed.seat, owed.kind, owed.amount)
    legal = hand.legal_actions()
    assert legal is not None and (legal.raise_min, legal.raise_max) == (4, 4)


def test_blinds_reraising_count_their_own_blind_and_the_call_first() -> None:
    """Three players, button 1 (SB 2, BB 3, seat 1 first); every raise the maximum (house-v1):
    - seat 1 calls 2: pot 1 + 2 + 2 = 5.
    - seat 2 (1 in) owes 1: pot after the call 6, so it may raise to 2 + 6 = 8, adding 7.
    - seat 3 (2 in): pot 2 + 8 + 2 = 12, owes 6: pot after the call 18, so to 8 + 18 = 26,
      adding 24.
    - seat 1 (2 in): pot 2 + 8 + 26 = 36, owes 24: pot after the call 60, so to
      26 + 60 = 86, adding 84; 85 is over by 1."""
    hand = new_hand(config("pot"), {1: 200, 2: 200, 3: 200}, button=1)
    assert hand.apply(1, "call", 2) == []
    legal = hand.legal_actions()
    assert legal is not None and (legal.seat, legal.raise_max) == (2, 7)
    assert hand.apply(2, "raise", 7) == []
    legal = hand.legal_actions()
    assert legal is not None and (legal.seat, legal.raise_max) == (3, 24)
    assert hand.apply(3, "raise", 24) == []
    legal = hand.legal_actions()
    assert legal is not None and (legal.seat, legal.call, legal.raise_max) == (1, 24, 84)
    found = hand.apply(1, "raise", 85)
    assert kinds(found) == ["over_pot"] and found[0].amount == 1


def test_blinds_reraising_total_capped_reading() -> None:
    """Same hand under the other reading (total at most the pot after the call):
    - seat 2 (1 in) owes 1: pot after the call 6, so to 6, adding 5.
    - seat 3 (2 in): pot 2 + 6 + 2 = 10, owes 4: pot after the call 14, total 14, adds 12.
    - seat 1 (2 in): pot 2 + 6 + 14 = 22, owes 12: 34, adds 32; 33 is over by 1."""
    hand = new_hand(config("pot", reading=LITERAL), {1: 200, 2: 200, 3: 200}, button=1)
    assert hand.apply(1, "call", 2) == []
    legal = hand.legal_actions()
    assert legal is not None and (legal.seat, legal.raise_max) == (2, 5)
    assert hand.apply(2, "raise", 5) == []
    legal = hand.legal_actions()
    assert legal is not None and (legal.seat, legal.raise_max) == (3, 12)
    assert hand.apply(3, "raise", 12) == []
    legal = hand.legal_actions()
    assert legal is not None and (legal.seat, legal.call, legal.raise_max) == (1, 12, 32)
    found = hand.apply(1, "raise", 33)
    assert kinds(found) == ["over_pot"] and found[0].amount == 1
