"""FCD-10 short-deck ranking for the 32-card (7-A) and 36-card (6-A) decks."""

from __future__ import annotations

import pytest

from services.games.draw7a import evaluation as short_deck


def rank(text: str, deck: int) -> int:
    return short_deck.rank5(text.split(), deck)


@pytest.mark.parametrize("deck", [32, 36])
def test_flush_beats_full_house(deck: int) -> None:
    """FCD-10: a queen-high flush beats aces full of kings."""
    flush = rank("Qh 9h 8h 7h Th", deck)
    full_house = rank("Ac Ad Ah Ks Kc", deck)
    assert short_deck.category(flush) == "flush"
    assert short_deck.category(full_house) == "full_house"
    assert flush > full_house


@pytest.mark.parametrize("deck", [32, 36])
def test_four_of_a_kind_beats_flush(deck: int) -> None:
    assert rank("7c 7d 7h 7s 8c", deck) > rank("Ah Kh Qh Jh 9h", deck)


def test_ace_low_straight_32_is_lowest_straight() -> None:
    """32 cards: A-7-8-9-T is a straight below 7-8-9-T-J and above trips of aces."""
    ace_low = rank("Ac 7d 8h 9s Tc", 32)
    assert short_deck.category(ace_low) == "straight"
    assert short_deck.describe(ace_low) == "Straight, ten high"
    assert ace_low < rank("7c 8d 9h Ts Jc", 32)
    assert ace_low > rank("Ac Ad Ah Ks Qc", 32)


def test_ace_low_straight_36() -> None:
    """36 cards: A-6-7-8-9 is the lowest straight; A-7-8-9-T is then only ace high."""
    ace_low = rank("Ac 6d 7h 8s 9c", 36)
    assert short_deck.category(ace_low) == "straight"
    assert ace_low < rank("6c 7d 8h 9s Tc", 36)
    assert short_deck.category(rank("Ac 7d 8h 9s Tc", 36)) == "high_card"


@pytest.mark.parametrize(
    ("deck", "wheel", "next_up"),
    [
        (32, "Ah 7h 8h 9h Th", "7h 8h 9h Th Jh"),
        (36, "Ah 6h 7h 8h 9h", "6h 7h 8h 9h Th"),
    ],
)
def test_suited_ace_low_straight_is_lowest_straight_flush(
    deck: int, wheel: str, next_up: str
) -> None:
    code = rank(wheel, deck)
    assert short_deck.category(code) == "straight_flush"
    assert rank("Ac Ad Ah As Kc", deck) < code < rank(next_up, deck)


def test_royal_flush_is_the_top() -> None:
    code = rank("As Ks Qs Js Ts", 32)
    assert short_deck.is_royal(code)
    assert short_deck.describe(code) == "Royal flush"


def test_best_rank_of_seven_cards() -> None:
    """7 cards with a flush in spades and a full house: the flush counts (FCD-10)."""
    code = short_deck.best_rank(["As", "Ks", "9s", "8s", "7s", "Ad", "Kd"], 32)
    assert short_deck.describe(code) == "Flush, ace high"


@pytest.mark.parametrize(
    ("cards", "deck"),
    [
        ("6c 7d 8h 9s Tc", 32),  # no sixes in 32 cards
        ("2c 7d 8h 9s Tc", 36),
        ("Ac Kd Qh Js Tc", 52),  # not a short deck
    ],
)
def test_cards_outside_the_deck_are_rejected(cards: str, deck: int) -> None:
    with pytest.raises(ValueError):
        rank(cards, deck)
