"""Chinese Poker: front hands and the 3-vs-5 comparison (CP-2), automatic wins (CP-7)."""

from __future__ import annotations

import pytest

from services.games.chinese import evaluation as chinese


def cards(text: str) -> list[str]:
    return text.split()


@pytest.mark.parametrize(
    ("front", "category"),
    [
        ("Ks Qs Js", "high_card"),  # suited run: no straight, no flush in front (CP-2)
        ("Ah 2h 3h", "high_card"),
        ("9c 9d Kh", "one_pair"),
        ("7c 7d 7h", "three_of_a_kind"),
    ],
)
def test_front_categories(front: str, category: str) -> None:
    assert chinese.category(chinese.rank3(cards(front))) == category


@pytest.mark.parametrize(
    ("front", "five"),
    [
        ("Ah Kd Qc", "As Kh Qd 3c 2s"),  # A-K-Q matched; the five-card hand has more kickers
        ("9c 9d Kh", "9h 9s Kc 3d 2d"),  # pair and kicker matched
        ("9c 9d Kh", "Tc Td 2h 3s 4d"),  # higher pair
        ("Ac Ad Ah", "2c 2d 2h 3s 3c"),  # full house beats trips
        ("Ac Ad Kh", "3c 3d 2h 2s 4c"),  # two pair beats one pair
    ],
)
def test_front_below_five_card_segment(front: str, five: str) -> None:
    assert chinese.segment_rank(cards(front)) < chinese.segment_rank(cards(five))


@pytest.mark.parametrize(
    ("front", "five"),
    [
        ("Ah Kd Qc", "As Kh Jd Tc 8s"),  # queen beats jack in the third slot
        ("9c 9d Kh", "9h 9s Qc Jd Td"),  # king kicker beats queen kicker
        ("7c 7d 7h", "6c 6d 6s Ac Kd"),  # higher trips
    ],
)
def test_front_above_five_card_segment(front: str, five: str) -> None:
    assert chinese.segment_rank(cards(front)) > chinese.segment_rank(cards(five))


def test_segment_rank_rejects_other_sizes() -> None:
    with pytest.raises(ValueError):
        chinese.segment_rank(cards("Ac Kd Qh Js"))


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        # A to K in mixed suits: a dragon; A-2-3 + 4-8 + 9-K also makes three straights.
        ("Ac 2d 3h 4s 5c 6d 7h 8s 9c Td Jh Qs Kc", {"dragon", "three_straights"}),
        # Six pairs with quads as two pairs: 2222 33 44 55 66 + K.
        ("2c 2d 2h 2s 3c 3d 4h 4s 5c 5d 6h 6s Kc", {"six_pairs"}),
        # Five pairs and trips: 5 + 1 disjoint pairs.
        ("2c 2d 3h 3s 4c 4d 5h 5s 6c 6d Kh Ks Kc", {"six_pairs"}),
        # Five pairs and three singles: not six pairs.
        ("2c 2d 3h 3s 4c 4d 5h 5s 6c 6d 9h Ks Ac", set()),
        # Suits 3 clubs / 5 diamonds / 5 hearts: three flushes. No 3 and two 2s: every
        # straight window holding a 2 needs the 3, so no three straights.
        ("2c 7c Kc 2d 5d 9d Jd Ad 4h 6h 8h Th Qh", {"three_flushes"}),
        # Suits 8 spades + 5 hearts: spades split 3 + 5. No queen and two kings: every
        # window holding a king needs the queen.
        ("2s 3s 5s 7s 9s Js Ks As 4h 6h 8h Th Kh", {"three_flushes"}),
        # Suits 4/4/5: no split.
        ("2s 3s 5s 7s 9c Jc Kc Ac 4h 6h 8h Th Kh", set()),
    ],
)
def test_auto_wins(hand: str, expected: set[str]) -> None:
    assert chinese.auto_wins(cards(hand)) == expected


def test_straight_flushes_count_as_both() -> None:
    """Front Q-K-A clubs, middle 5-9 diamonds, back T-A hearts: straights and flushes."""
    hand = cards("Qc Kc Ac 5d 6d 7d 8d 9d Th Jh Qh Kh Ah")
    assert chinese.auto_wins(hand) == {"three_flushes", "three_straights"}


def test_three_straights_with_repeated_ranks() -> None:
    """Q-K-A front, 9-T-J-Q-K middle, A-2-3-4-5 back (ace high and low)."""
    hand = cards("Qc Kd Ah 9s Tc Jd Qh Ks As 2c 3d 4h 5s")
    assert "three_straights" in chinese.auto_wins(hand)


def test_no_wrap_around_straight() -> None:
    """K-A-2 + A-2-3-4-5 + 9-T-J-Q-K would need the wrap K-A-2. Without it: the two 2s
    need two windows holding a 2 (A-2-3, 2-3-4 or A-2-3-4-5), and any two of those
    need two 3s, but there is one. Suits are 3/4/3/3, so no flushes either."""
    hand = cards("Kc Ad 2h As 2c 3d 4h 5s 9c Td Jh Qs Kd")
    assert chinese.auto_wins(hand) == set()
