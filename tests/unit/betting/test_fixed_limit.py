"""FCD-8 fixed limit: small bet before the draw, big bet after, four bets a round with
the big blind as the first. A 2-4 game: blinds 1 and 2, small bet 2, big bet 4."""

from dataclasses import replace

from services.games.betting import RakePolicy, settle
from tests.unit.betting.helpers import config, kinds, new_hand, play

STACKS = {1: 100, 2: 100, 3: 100}
NO_RAKE = RakePolicy("none", 0, True, "stack")


def test_full_hand_by_hand() -> None:
    """Button 1, SB 2, BB 3. Pre-draw: 1 raises to 4 (adds 4), 2 calls (adds 3), 3 calls
    (adds 2): pot 12. Post-draw: 2 bets the big bet 4, 3 raises to 8 (adds 8), 1 folds,
    2 calls (adds 4): pot 12 + 4 + 8 + 4 = 28. Put in: 1 -> 4, 2 -> 12, 3 -> 12.
    Seat 3 wins 28: net 3 = 28 - 12 = +16, 2 = -12, 1 = -4."""
    hand = new_hand(config("fixed"), STACKS, button=1)
    assert play(hand, [(1, "raise", 4), (2, "call", 3), (3, "call", 2)]) == []
    assert hand.round_complete()
    assert hand.next_round() == []
    legal = hand.legal_actions()
    assert legal is not None and (legal.seat, legal.raise_min, legal.raise_max) == (2, 4, 4)
    assert play(hand, [(2, "bet", 4), (3, "raise", 8), (1, "fold", None), (2, "call", 4)]) == []
    hand.close_round()
    assert hand.contributions() == {1: 4, 2: 12, 3: 12}
    result = settle(hand.contributions(), hand.folded(), {2: 1, 3: 2}, 1, NO_RAKE)
    assert result.net == {1: -4, 2: -12, 3: 16}


def test_cap_with_big_blind_as_first_bet() -> None:
    """Pre-draw the big blind (2) is bet 1; 1 raises to 4 (bet 2), 2 re-raises to 6
    (bet 3, adds 5), 3 caps at 8 (bet 4, adds 6). Seat 1 may now only call 4 or fold;
    raising to 10 would be a fifth bet (FCD-8)."""
    hand = new_hand(config("fixed"), STACKS, button=1)
    assert play(hand, [(1, "raise", 4), (2, "raise", 5), (3, "raise", 6)]) == []
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 1 and legal.call == 4
    assert not legal.can_raise
    found = hand.apply(1, "raise", 6)
    assert kinds(found) == ["cap_exceeded"] and found[0].rule == "FCD-8"
    # Carried on as accepted: the bet to call is now 10 for seats 2 and 3.
    assert hand.bet_level == 10 and hand.to_act() == 2


def test_raise_not_one_unit_and_small_bet_after_draw() -> None:
    """Pre-draw a raise must go to exactly 2 + 2 = 4; seat 1 adding 5 (to 5) is wrong.
    Post-draw the bet is the big bet 4; a bet of 2 is wrong."""
    hand = new_hand(config("fixed"), STACKS, button=1)
    found = hand.apply(1, "raise", 5)
    assert kinds(found) == ["wrong_limit_amount"] and found[0].amount == 1
    hand2 = new_hand(config("fixed"), STACKS, button=1)
    play(hand2, [(1, "call", 2), (2, "call", 1), (3, "check", None)])
    hand2.next_round()
    found2 = hand2.apply(2, "bet", 2)
    assert kinds(found2) == ["wrong_limit_amount"] and found2[0].amount == -2


def test_short_all_in_raise_does_not_count_towards_cap() -> None:
    """Seat 2 has 5 chips: SB 1, then 4 behind. 1 raises to 4 (bet 2). Seat 2 all-in adds
    4, to 5: a raise of 1, short of the unit 2, so not a bet towards the cap and not a
    reopening. 3 raises to 7 (bet 3, adds 5); 1 raises to 9 (bet 4, adds 5: legal because
    3's raise was a full one); 3 then faces the cap and may only call 2."""
    hand = new_hand(config("fixed"), {1: 100, 2: 5, 3: 100}, button=1)
    assert play(hand, [(1, "raise", 4), (2, "all_in", 4)]) == []
    assert hand.bets == 2
    assert play(hand, [(3, "raise", 5), (1, "raise", 5)]) == []
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 3 and not legal.can_raise and legal.call == 2


def test_big_blind_not_counted_allows_four_raises_on_top_of_it() -> None:
    """The reading toggled (big_blind_counts_as_bet = false): before the draw the big
    blind is not one of the four bets. 1 raises to 4 (bet 1), 2 to 6 (bet 2, adds 5),
    3 to 8 (bet 3, adds 6), 1 to 10 (bet 4, adds 6): all legal. Seat 2 raising to 12
    (adds 6) is the fifth bet (FCD-8)."""
    hand = new_hand(replace(config("fixed"), big_blind_counts_as_bet=False), STACKS, 1)
    assert play(hand, [(1, "raise", 4), (2, "raise", 5), (3, "raise", 6),
                       (1, "raise", 6)]) == []
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 2 and legal.call == 4 and not legal.can_raise
    assert kinds(hand.apply(2, "raise", 6)) == ["cap_exceeded"]
