"""HCF-6 hand values, HCF-7 qualification and HCF-9 straight-flush runs, called directly."""

from __future__ import annotations

import pytest

from services.games.hcf.evaluation import (
    best_flush_suit,
    describe_flush,
    dp_qualifies,
    flush_high_card,
    flush_length,
    flush_ranks,
    flush_value,
    straight_flush_run,
)


def value(cards: str) -> int:
    return flush_value(cards.split())


def qualifies(cards: str) -> bool:
    """house-v1 HCF-7: 3 cards 9-high, or any flush of 4+."""
    return dp_qualifies(value(cards), min_cards=3, min_high_rank=9, any_high_cards=4)


def test_more_cards_beat_higher_cards() -> None:
    """HCF-6: 2-3-4-5 of clubs (4 cards, 5-high) beats A-K-Q of spades (3 cards)."""
    assert value("2c 3c 4c 5c As Ks Qs") > value("As Ks Qs 2c 3c 4d 5h")
    assert flush_length(value("2c 3c 4c 5c As Ks Qs")) == 4


def test_tie_broken_on_the_third_card() -> None:
    """HCF-6: K-T-7 beats K-T-6 (first two cards equal, third decides)."""
    assert value("Ks Ts 7s 5d 4d 3c 2c") > value("Kh Th 6h 7c 4c 3d 2s")


def test_identical_ranks_all_the_way_down_push() -> None:
    """HCF-6: 9-5-2 of spades and 9-5-2 of hearts are equal values (a push)."""
    assert value("9s 5s 2s Kd Qc Jd Tc") == value("9h 5h 2h 7c 4c 3d 6s")


def test_two_equal_length_flushes_the_better_counts() -> None:
    """HCF-6: clubs A-7-3 and spades K-Q-J are both 3 cards; A-7-3 is better (A > K), so
    the hand's value is A-7-3: it beats A-5-4 (7 > 5 on the second card), which K-Q-J
    alone would not."""
    hand = value("Ac 7c 3c Ks Qs Js 2d")
    assert flush_ranks(hand) == (14, 7, 3)
    assert hand > value("Ad 5d 4d 8h 6h 9s 3s")
    assert value("Ks Qs Js 2d 3h 4h 5c") < value("Ad 5d 4d 8h 6h 9s 3s")
    assert best_flush_suit(["Ac", "7c", "3c", "Ks", "Qs", "Js", "2d"]) == "c"


def test_longer_flush_shorter_ranks_compare_on_all_cards() -> None:
    """Equal length 4: A-9-5-2 vs A-9-5-3 — decided on the fourth card."""
    assert value("As 9s 5s 3s Kd Qd 2c") > value("Ah 9h 5h 2h Kc Qc 3d")


def test_describe_and_high_card() -> None:
    v = value("9h 5h 2h 7c 4c 3d 6s")
    assert describe_flush(v) == "3-card flush 9-5-2"
    assert flush_high_card(v) == 9


@pytest.mark.parametrize(
    ("cards", "expected"),
    [
        ("8h 5h 2h 7c 4c 3d 6s", False),  # 3-card 8-high: does not qualify
        ("9h 5h 2h 7c 4c 3d 6s", True),  # 3-card 9-high: the minimum
        ("Ah 5h 2h 7c 4c 3d 6s", True),  # 3-card ace-high
        ("5h 4h 3h 2h 7c 8d 6s", True),  # 4-card 5-high: any 4-card flush qualifies
        ("Ah Kh 7c 4c 3d 6s 2s", False),  # no 3-card flush at all (2 hearts, 2 clubs ...)
    ],
)
def test_dp_qualification(cards: str, expected: bool) -> None:
    """HCF-7: at least a three-card nine-high flush; four or more cards always."""
    assert qualifies(cards) is expected


@pytest.mark.parametrize(
    ("cards", "run"),
    [
        ("2s 3s 4s 5s 6s 7s 8s", 7),
        ("2s 3s 4s 5s 6s 7s Kh", 6),
        ("2s 3s 4s 5s 6s 9h Kh", 5),
        ("2s 3s 4s 5s 9h Jh Kh", 4),
        ("2s 3s 4s 9h Jh Kh Ac", 3),
        ("As 2s 3s 9h Jh Kh 7c", 3),  # A-2-3: the ace plays low
        ("Qs Ks As 9h Jh 4c 7c", 3),  # Q-K-A: the ace plays high
        ("Ks As 2s 9h Jh 4c 7c", 2),  # K-A-2 does not turn the corner
        ("As 2s 3s 4s 5s Ks Qs", 5),  # A-2-3-4-5 low; Q-K-A only 3
        ("9s Ts Js 9h Th Jh Qh", 4),  # two suits: the longer run (hearts 9-T-J-Q) counts
        ("2s 4s 6s 8s Ts Qs Ah", 1),
    ],
)
def test_straight_flush_runs(cards: str, run: int) -> None:
    """HCF-9: longest run of consecutive ranks in one suit, ace high or low, no wrap."""
    assert straight_flush_run(cards.split()) == run


def test_wraparound_reading_when_a_profile_allows_it() -> None:
    """A profile that allowed K-A-2 would count it as 3; house-v1 counts 2."""
    assert straight_flush_run(["Ks", "As", "2s", "9h", "Jh", "4c", "7c"], wraparound=True) == 3
    assert straight_flush_run(["Ks", "As", "2s", "9h", "Jh", "4c", "7c"], wraparound=False) == 2


def test_ace_low_off() -> None:
    """Without ace-low, A-2-3 is only the run 2-3."""
    assert straight_flush_run(["As", "2s", "3s", "9h", "Jh", "Kh", "7c"], ace_low=False) == 2
