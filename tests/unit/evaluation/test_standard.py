"""Standard 52-card ranking: hand-built hands whose categories and order are known poker."""

from __future__ import annotations

from itertools import pairwise

import pytest

from services.games.evaluation import standard

# Weakest to strongest; each line beats the one before (hand-ordered from poker rules).
ASCENDING = [
    ("7c 5d 4h 3s 2c", "high_card", "High card, seven"),
    ("Ac Kd Qh Js 9c", "high_card", "High card, ace"),
    ("2c 2d 5h 4s 3c", "one_pair", "One pair, twos"),
    ("Ac Ad Kh Qs Jc", "one_pair", "One pair, aces"),
    ("3c 3d 2h 2s 4c", "two_pair", "Two pair, threes and twos"),
    ("9c 9d 4h 4s Kd", "two_pair", "Two pair, nines and fours"),
    ("Ac Ad Kh Ks Qc", "two_pair", "Two pair, aces and kings"),
    ("2c 2d 2h 4s 3c", "three_of_a_kind", "Three of a kind, twos"),
    ("Ac Ad Ah Ks Qc", "three_of_a_kind", "Three of a kind, aces"),
    ("5c 4d 3h 2s Ac", "straight", "Straight, five high"),
    ("6c 5d 4h 3s 2c", "straight", "Straight, six high"),
    ("Ac Kd Qh Js Tc", "straight", "Straight, ace high"),
    ("7h 5h 4h 3h 2h", "flush", "Flush, seven high"),
    ("Kh 9h 7h 4h 2h", "flush", "Flush, king high"),
    ("Ah Kh Qh Jh 9h", "flush", "Flush, ace high"),
    ("2c 2d 2h 3s 3c", "full_house", "Full house, twos over threes"),
    ("Kc Kd Kh 7s 7c", "full_house", "Full house, kings over sevens"),
    ("Ac Ad Ah Ks Kc", "full_house", "Full house, aces over kings"),
    ("2c 2d 2h 2s 3c", "four_of_a_kind", "Four of a kind, twos"),
    ("Ac Ad Ah As Kc", "four_of_a_kind", "Four of a kind, aces"),
    ("5d 4d 3d 2d Ad", "straight_flush", "Straight flush, five high"),
    ("9s 8s 7s 6s 5s", "straight_flush", "Straight flush, nine high"),
    ("Ks Qs Js Ts 9s", "straight_flush", "Straight flush, king high"),
    ("As Ks Qs Js Ts", "straight_flush", "Royal flush"),
]


def hand(text: str) -> list[str]:
    return text.split()


@pytest.mark.parametrize(("cards", "category", "description"), ASCENDING)
def test_category_and_description(cards: str, category: str, description: str) -> None:
    code = standard.rank5(hand(cards))
    assert standard.category(code) == category
    assert standard.describe(code) == description


def test_ascending_list_is_strictly_increasing() -> None:
    codes = [standard.rank5(hand(cards)) for cards, _, _ in ASCENDING]
    assert all(a < b for a, b in pairwise(codes))


def test_only_the_ace_high_straight_flush_is_royal() -> None:
    assert standard.is_royal(standard.rank5(hand("As Ks Qs Js Ts")))
    assert not standard.is_royal(standard.rank5(hand("Ks Qs Js Ts 9s")))
    assert not standard.is_royal(standard.rank5(hand("Ac Kd Qh Js Tc")))


@pytest.mark.parametrize(
    ("left", "right"),
    [
        ("Ac Kd 9h 7s 3c", "Ad Kc 9s 7h 3d"),  # same ranks, other suits
        ("5c 4d 3h 2s Ac", "5h 4s 3c 2d Ad"),  # two wheels
        ("Kh 9h 7h 4h 2h", "Ks 9s 7s 4s 2s"),  # same flush ranks
    ],
)
def test_ties_are_exactly_equal(left: str, right: str) -> None:
    assert standard.rank5(hand(left)) == standard.rank5(hand(right))


@pytest.mark.parametrize(
    ("lower", "higher"),
    [
        ("Ac Kd 9h 7s 3c", "Ac Kd 9h 7s 4c"),  # fifth kicker decides
        ("9c 9d 4h 4s 2d", "9c 9d 4h 4s 3d"),  # two pair kicker
        ("9c 9d 4h 4s Kd", "9c 9d 5h 5s 2d"),  # second pair before kicker
        ("Kc Kd Kh 2s 2c", "Ac Ad Ah 2h 2d"),  # trips rank before pair rank
        ("Kc Kd Kh Qs Qc", "Ac Ad Ah 2h 2d"),
    ],
)
def test_tie_breaks_in_order_of_significance(lower: str, higher: str) -> None:
    assert standard.rank5(hand(lower)) < standard.rank5(hand(higher))


def test_best_rank_of_seven_picks_the_flush_over_the_straight() -> None:
    """Hearts 2,5,7,9,K make a flush; 5-6-7-8-9 is also a straight; flush is higher."""
    cards = hand("2h 5h 7h 9h Kh 6c 8d")
    assert standard.category(standard.best_rank(cards)) == "flush"
    assert standard.best_rank(cards) == standard.rank5(hand("Kh 9h 7h 5h 2h"))


def test_best_rank_of_seven_with_two_trips_is_a_full_house() -> None:
    """Trips of kings and of fours: kings full of fours (best pair out of the fours)."""
    code = standard.best_rank(hand("Kc Kd Kh 4s 4c 4d Ah"))
    assert standard.describe(code) == "Full house, kings over fours"


def test_best_rank_of_six_for_a_six_card_straight() -> None:
    """4-5-6-7-8-9: the nine-high straight, not the eight-high."""
    assert standard.describe(standard.best_rank(hand("4c 5d 6h 7s 8c 9d"))) == (
        "Straight, nine high"
    )


def test_best_five_orders_cards_by_significance() -> None:
    """Wheel: the ace is shown last; full house: trips before the pair."""
    code, five = standard.best_five(hand("As 2c 3d 4h 5s Kd Kc"))
    assert standard.describe(code) == "Straight, five high"
    assert five == ("5s", "4h", "3d", "2c", "As")
    code, five = standard.best_five(hand("7s Kc 7c Kd Kh 2d 3c"))
    assert standard.describe(code) == "Full house, kings over sevens"
    assert five == ("Kc", "Kd", "Kh", "7s", "7c")  # equal ranks keep input order


@pytest.mark.parametrize(
    "cards",
    [
        ["As", "Ks", "Qs", "Js"],  # four cards
        ["As", "Ks", "Qs", "Js", "As"],  # duplicate
        ["As", "Ks", "Qs", "Js", "1s"],  # not a card
        ["As", "Ks", "Qs", "Js", "Ts", "9s", "8s", "7s"],  # eight cards
    ],
)
def test_invalid_hands_are_rejected(cards: list[str]) -> None:
    with pytest.raises(ValueError):
        standard.best_rank(cards)
