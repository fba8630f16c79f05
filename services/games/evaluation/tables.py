"""Lookup tables behind the fast evaluators (``fast`` single calls, ``batch`` arrays).

The idea: give every card an integer *key* so that the sum of a hand's keys identifies
the hand up to suit permutation of everything except flushes.

- Rank part (``key >> 16``): one of ``RANK_KEYS`` per rank, chosen so that the sums of
  every multiset of up to 7 ranks (each rank at most four times) are all different
  (checked when the tables are built). A sum therefore names the rank multiset, and a
  table maps it to the best non-flush rank code.
- Suit part (low 16 bits): one nibble per suit counting that suit's cards. Starting the
  nibbles at 3 (``FLUSH_OFFSET``, added once per hand) makes bit 3 of a nibble set
  exactly when that suit holds 5 or more cards (``FLUSH_BITS``): the flush test is one
  AND. With 5 to 7 cards a five-card flush excludes four of a kind and full house, so a
  flushed hand's value is the best flush or straight flush of that suit's ranks, looked
  up by the suit's 13-bit rank mask.

The rank codes in the tables are computed here with numpy from rank multiplicities, by
code independent of ``reference``; the tests check the two agree on every 5-card hand.
The keys' layout (the constants, ``card_index``) lives in ``keys``, which needs no numpy:
``fast`` imports it eagerly and this module only when it builds its first tables.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache

import numpy as np
import numpy.typing as npt

from services.games.cards import DECKS, rank_of
from services.games.evaluation.keys import (  # re-exported: the layout lives in keys
    FLUSH_BITS,
    FLUSH_OFFSET,
    HAND_SIZES,
    RANK_KEYS,
    RANK_SHIFT,
    SUIT_BITS,
    SUIT_INDEX,
    SUIT_OF_FLUSH_BIT,
    card_index,
)
from services.games.evaluation.rankcode import CATEGORY_SHIFT
from services.games.evaluation.reference import Ranking

Int64Array = npt.NDArray[np.int64]


__all__ = [
    "FLUSH_BITS", "FLUSH_OFFSET", "HAND_SIZES", "RANK_KEYS", "RANK_SHIFT", "SUIT_BITS",
    "SUIT_INDEX", "SUIT_OF_FLUSH_BIT", "Tables", "build_tables", "card_index",
    "highest_rank_table", "rank_multisets", "straight_windows",
]  # fmt: skip


@dataclass(frozen=True)
class Tables:
    """Everything the fast paths need for one ranking."""

    ranking: Ranking
    deck_ranks: tuple[int, ...]  # rank values of the deck, lowest first
    card_keys: Int64Array  # (52,) key per card index; -1 for cards outside the deck
    flush_codes: Int64Array  # (8192,) code of the best flush/SF in a rank mask, else 0
    sums: dict[int, Int64Array] = field(default_factory=dict)  # size -> rank-key sums
    codes: dict[int, Int64Array] = field(default_factory=dict)  # size -> non-flush codes


@cache
def build_tables(ranking: Ranking) -> Tables:
    deck = DECKS[ranking.deck_size]
    deck_ranks = tuple(sorted({rank_of(card) for card in deck}))
    card_keys = np.full(52, -1, dtype=np.int64)
    for card in deck:
        position = deck_ranks.index(rank_of(card))
        suit = SUIT_INDEX[card[1]]
        card_keys[card_index(card)] = (RANK_KEYS[position] << RANK_SHIFT) | (
            1 << (SUIT_BITS * suit)
        )
    windows = straight_windows(ranking, deck_ranks)
    tables = Tables(ranking, deck_ranks, card_keys, _flush_codes(ranking, windows))
    values = np.array(deck_ranks, dtype=np.int64)
    keys = np.array(RANK_KEYS[: len(deck_ranks)], dtype=np.int64)
    all_counts = rank_multisets(len(deck_ranks), max(HAND_SIZES))
    for size in HAND_SIZES:
        counts = all_counts[all_counts.sum(axis=1) == size]
        sums = counts @ keys
        if len(np.unique(sums)) != len(sums):
            raise AssertionError(f"rank keys collide for {size}-card hands")
        tables.sums[size] = sums
        tables.codes[size] = _nonflush_codes(counts, values, ranking, windows)
    return tables


def straight_windows(ranking: Ranking, deck_ranks: tuple[int, ...]) -> list[tuple[int, int]]:
    """(stored top, rank mask) of every straight, highest first; ace-low last."""
    low = deck_ranks[0]
    windows = [(top, _mask(range(top - 4, top + 1))) for top in range(14, low + 3, -1)]
    windows.append((ranking.ace_low_top, _mask(ranking.ace_low_straight)))
    return windows


def _mask(ranks: Iterable[int]) -> int:
    return sum(1 << (rank - 2) for rank in ranks)


def rank_multisets(n_ranks: int, max_size: int) -> Int64Array:
    """All count vectors (rows) over ``n_ranks`` ranks adding up to at most ``max_size``
    cards, each rank at most four times."""
    rows = np.zeros((1, 0), dtype=np.int64)
    for _ in range(n_ranks):
        total = rows.sum(axis=1)
        grown = [
            np.hstack(
                [rows[total + c <= max_size], np.full((int((total + c <= max_size).sum()), 1), c)]
            )
            for c in range(5)
        ]
        rows = np.vstack(grown)
    return rows


@cache
def highest_rank_table() -> Int64Array:
    """Rank value (2..14) of the highest bit of a 13-bit rank mask; 0 for an empty mask."""
    masks = np.arange(1 << 13)
    out = np.zeros(1 << 13, dtype=np.int64)
    for bit in range(13):
        out[(masks >> bit) & 1 == 1] = bit + 2
    return out


def _pack(category: int, *ranks: Int64Array | int) -> Int64Array:
    code: Int64Array | np.int64 = np.int64(category)
    for slot in range(5):
        code = (code << 4) | (ranks[slot] if slot < len(ranks) else 0)
    return np.asarray(code, dtype=np.int64)


def _straight_tops(masks: Int64Array, windows: list[tuple[int, int]]) -> Int64Array:
    top = np.zeros(masks.shape, dtype=np.int64)
    for value, window in reversed(windows):  # lowest first, so higher straights overwrite
        top = np.where((masks & window) == window, value, top)
    return top


def _nonflush_codes(
    counts: Int64Array, values: Int64Array, ranking: Ranking, windows: list[tuple[int, int]]
) -> Int64Array:
    """Best non-flush code of each rank multiset, from its groups sorted by
    (multiplicity, rank) descending."""
    highest = highest_rank_table()
    score = np.where(counts > 0, counts * 16 + values, 0)
    groups = -np.sort(-score, axis=1)
    r = [groups[:, j] % 16 for j in range(5)]
    c = [groups[:, j] // 16 for j in range(5)]
    present = ((counts > 0).astype(np.int64) << (values - 2)).sum(axis=1)
    top = _straight_tops(present, windows)
    cat = ranking.category_value

    def without(mask: Int64Array, *ranks: Int64Array) -> Int64Array:
        for rank in ranks:
            mask = mask & ~(np.int64(1) << (rank - 2))
        return mask

    choices = [
        (c[0] == 4, _pack(cat("four_of_a_kind"), r[0], highest[without(present, r[0])])),
        ((c[0] == 3) & (c[1] >= 2), _pack(cat("full_house"), r[0], r[1])),
        (top > 0, _pack(cat("straight"), top)),
        (c[0] == 3, _pack(cat("three_of_a_kind"), r[0], r[1], r[2])),
        (
            (c[0] == 2) & (c[1] == 2),
            _pack(cat("two_pair"), r[0], r[1], highest[without(present, r[0], r[1])]),
        ),
        (c[0] == 2, _pack(cat("one_pair"), r[0], r[1], r[2], r[3])),
    ]
    high = _pack(cat("high_card"), *r)
    return np.select([cond for cond, _ in choices], [code for _, code in choices], high)


def _flush_codes(ranking: Ranking, windows: list[tuple[int, int]]) -> Int64Array:
    """Code of the best hand in one suit holding the ranks of ``mask`` (>= 5 ranks)."""
    highest = highest_rank_table()
    masks = np.arange(1 << 13, dtype=np.int64)
    tops = []
    rest = masks
    for _ in range(5):
        rank = highest[rest]
        tops.append(rank)
        rest = np.where(rank > 0, rest & ~(np.int64(1) << np.maximum(rank - 2, 0)), rest)
    straight_top = _straight_tops(masks, windows)
    category = ranking.category_value
    codes = np.where(
        straight_top > 0,
        _pack(category("straight_flush"), straight_top),
        _pack(category("flush"), *tops),
    )
    popcount = sum((masks >> bit) & 1 for bit in range(13))
    return np.where(popcount >= 5, codes, 0).astype(np.int64)


assert CATEGORY_SHIFT == 20  # _pack lays out the same 5 x 4-bit slots as rankcode.pack
