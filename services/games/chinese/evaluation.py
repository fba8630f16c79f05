"""Chinese Poker hands: the 3-card front, the 3-vs-5 segment order, automatic wins.

CP-2: a front hand ranks only as high card, pair or three of a kind. Segment codes of 3-
and 5-card hands share the standard rank code (``rankcode``): category first, then ranks
in order of significance, the missing kickers of a 3-card hand counting below any card,
so a 3-card hand whose cards are all matched by a 5-card hand loses to it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import product

from services.games.cards import rank_of, suit_of
from services.games.evaluation import standard
from services.games.evaluation.rankcode import pack
from services.games.evaluation.reference import STANDARD, check_cards

AUTO_WINS: tuple[str, ...] = ("dragon", "six_pairs", "three_flushes", "three_straights")
SEGMENT_SIZES: tuple[int, int, int] = (3, 5, 5)  # CP-2: front, middle, back


def rank3(cards: Sequence[str]) -> int:
    """Front-hand code (CP-2): trips, pair or high card; straights and flushes don't count."""
    check_cards(cards, 52, (3,))
    groups = sorted(
        Counter(rank_of(c) for c in cards).items(), key=lambda rc: (rc[1], rc[0]), reverse=True
    )
    ordered = [rank for rank, _ in groups]
    top_count = groups[0][1]
    category = {3: "three_of_a_kind", 2: "one_pair", 1: "high_card"}[top_count]
    return pack(STANDARD.category_value(category), ordered)


def segment_rank(cards: Sequence[str]) -> int:
    """Code of a front (3 cards) or middle/back (5 cards), comparable across sizes (CP-2)."""
    if len(cards) == 3:
        return rank3(cards)
    if len(cards) == 5:
        return standard.rank5(cards)
    raise ValueError(f"a segment has 3 or 5 cards, got {len(cards)}")


def category(rank: int) -> str:
    return standard.category(rank)


def describe(rank: int) -> str:
    return standard.describe(rank)


def auto_wins(cards13: Sequence[str]) -> set[str]:
    """The CP-7 automatic wins the 13 cards make (whatever way the player set them)."""
    check_cards(cards13, 52, (13,))
    wins: set[str] = set()
    ranks = Counter(rank_of(c) for c in cards13)
    if len(ranks) == 13:
        wins.add("dragon")
    # CP-7: four of a kind counts as two pairs; a count of n holds n // 2 disjoint pairs.
    if sum(count // 2 for count in ranks.values()) >= 6:
        wins.add("six_pairs")
    if _splits_into_flushes(Counter(suit_of(c) for c in cards13)):
        wins.add("three_flushes")
    if _splits_into_straights(ranks):
        wins.add("three_straights")
    return wins


def _splits_into_flushes(suits: Counter[str]) -> bool:
    """A 3/5/5 split exists with every segment of one suit (a straight flush counts)."""
    for chosen in product("cdhs", repeat=3):
        need: Counter[str] = Counter()
        for suit, size in zip(chosen, SEGMENT_SIZES, strict=True):
            need[suit] += size
        if need == suits:
            return True
    return False


def _straight_windows(length: int) -> list[tuple[int, ...]]:
    """Rank runs of ``length`` with the ace high or low, never around the corner (CP-3)."""
    windows = [tuple(range(low, low + length)) for low in range(2, 16 - length)]
    windows.append((14, *range(2, length + 1)))
    return windows


def _splits_into_straights(ranks: Counter[int]) -> bool:
    """A 3/5/5 split exists with every segment a straight; suits are irrelevant, so a
    straight flush counts as a straight (CP-7). Only rank multiplicities matter: any
    three windows whose rank counts add up to the hand's can be filled with its cards."""
    fronts = _straight_windows(3)
    fives = _straight_windows(5)
    for front in fronts:
        for middle in fives:
            for back in fives:
                if Counter(front) + Counter(middle) + Counter(back) == ranks:
                    return True
    return False
