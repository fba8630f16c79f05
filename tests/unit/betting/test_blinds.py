"""FCD-3: who posts which blind, how much, and when."""

from services.games.betting import BettingHand
from tests.unit.betting.helpers import config, kinds, play


def test_owed_blinds_and_short_big_blind() -> None:
    """Button 1, small blind 2 owes 1, big blind 3 has only 1 chip: owes 1 (all-in)."""
    hand = BettingHand(config("no"), {1: 50, 2: 50, 3: 1}, 1)
    owed = [(o.kind, o.seat, o.amount) for o in hand.owed_posts()]
    assert owed == [("post_small_blind", 2, 1), ("post_big_blind", 3, 1)]


def test_wrong_seat_wrong_amount_missing_and_late() -> None:
    """Seat 1 posts the small blind that seat 2 owes (wrong seat); seat 3 posts a big
    blind of 3 instead of 2 (wrong amount; the table took 3 as the bet to call); seat 4
    calls 3 with seat 2's small blind still owed (missing); seat 2 then posts it (late).
    All cite FCD-3."""
    hand = BettingHand(config("no"), {1: 50, 2: 50, 3: 50, 4: 50}, 1)
    found = play(hand, [(1, "post_small_blind", 1), (3, "post_big_blind", 3),
                        (4, "call", 3), (2, "post_small_blind", 1)])
    assert kinds(found) == ["blind_wrong_seat", "blind_wrong_amount", "blind_missing",
                            "blind_late"]
    assert {v.rule for v in found} == {"FCD-3"}
    assert found[1].amount == 1 and found[2].seat == 2


def test_ante_is_dead_money_not_part_of_the_bet() -> None:
    """Ante 1 and blinds 1/2 (a Hold'em-style table): antes go in the pot but the bet to
    call for seat 1 is still the big blind, 2."""
    hand = BettingHand(config("no", ante=1), {1: 50, 2: 50, 3: 50}, 1)
    for owed in hand.owed_posts():
        assert hand.apply(owed.seat, owed.kind, owed.amount) == []
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 1 and legal.call == 2
    assert hand.pot_total() == 3 + 1 + 2
