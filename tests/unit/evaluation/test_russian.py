"""Russian Poker: paytable lines (RP-7), dealer qualification (RP-5), RP-8 combinations."""

from __future__ import annotations

import pytest

from services.games.russian import evaluation as russian


def cards(text: str) -> list[str]:
    return text.split()


@pytest.mark.parametrize(
    ("hand", "line"),
    [
        ("As Ks Qs Js Ts", "royal_flush"),
        ("9s 8s 7s 6s 5s", "straight_flush"),
        ("9s 9h 9d 9c 5s", "four_of_a_kind"),
        ("9s 9h 9d 5c 5s", "full_house"),
        ("9s 7s 4s 3s 2s", "flush"),
        ("9s 8h 7d 6c 5s", "straight"),
        ("9s 9h 9d 6c 5s", "three_of_a_kind"),
        ("9s 9h 6d 6c 5s", "two_pair"),
        ("2s 2h Kd 6c 5s", "one_pair"),
        ("As Kh 7d 6c 2s", "ace_king"),
        ("As Qh 7d 6c 2s", "nothing"),
        ("Ks Qh 7d 6c 2s", "nothing"),
    ],
)
def test_paytable_category(hand: str, line: str) -> None:
    assert russian.paytable_category(cards(hand)) == line


@pytest.mark.parametrize(
    ("hand", "qualifies"),
    [
        ("As Kh 7d 6c 2s", True),
        ("2s 2h 7d 6c 3s", True),
        ("As Qh Jd Tc 8s", False),
    ],
)
def test_dealer_qualification(hand: str, qualifies: bool) -> None:
    assert russian.dealer_qualifies(cards(hand)) is qualifies


def test_ace_king_hands_compared_by_next_card() -> None:
    """A-K-Q-... beats A-K-J-...; identical ranks push."""
    assert russian.compare(cards("As Kh Qd 3c 2s"), cards("Ad Kc Jd Tc 8s")) == 1
    assert russian.compare(cards("Ad Kc Jd Tc 8s"), cards("As Kh Qd 3c 2s")) == -1
    assert russian.compare(cards("As Kh Qd 3c 2s"), cards("Ac Kd Qh 3d 2c")) == 0


def test_two_combinations_royal_and_king_high_straight_flush() -> None:
    best, second = russian.two_combinations(cards("As Ks Qs Js Ts 9s"))
    assert set(best) == set(cards("As Ks Qs Js Ts"))
    assert second is not None and set(second) == set(cards("Ks Qs Js Ts 9s"))


def test_two_combinations_two_pair_twice() -> None:
    """A-A-K-K-7-2: best A-A-K-K-7; the best other keeps both pairs with the 2."""
    best, second = russian.two_combinations(cards("As Ah Kd Kc 7s 2d"))
    assert set(best) == set(cards("As Ah Kd Kc 7s"))
    assert second is not None and set(second) == set(cards("As Ah Kd Kc 2d"))


def test_second_combination_must_be_ace_king_or_better() -> None:
    """9-8-6-5-3-2 offsuit: nothing in any five, so no second combination."""
    best, second = russian.two_combinations(cards("9c 8d 6h 5s 3c 2d"))
    assert set(best) == set(cards("9c 8d 6h 5s 3c"))
    assert second is None


def test_second_ace_king_counts() -> None:
    """A-K-8-5-3-2: best A-K-8-5-3, second A-K-8-5-2 (Ace-King)."""
    best, second = russian.two_combinations(cards("Ac Kd 8h 5s 3c 2d"))
    assert set(best) == set(cards("Ac Kd 8h 5s 3c"))
    assert second is not None and set(second) == set(cards("Ac Kd 8h 5s 2d"))
