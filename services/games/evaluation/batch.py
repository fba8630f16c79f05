"""numpy evaluators over arrays of hands, for statistics and exhaustive checks.

Hands are integer arrays of shape (N, n), n = 5, 6 or 7, holding card indices
(``tables.card_index``: 4 * (rank - 2) + suit, suits c, d, h, s). The algorithm is the
one of ``fast`` (see ``tables``) done column by column: gather and add the card keys,
look the rank-key sum up in a dense table of hand classes, and patch the few flushed
hands from the flush table. Work is done in chunks that stay in cache.

The exhaustive enumerations (``all_category_counts``, ``all_flush_lengths7``) avoid
materialising every hand: in colexicographic order the (n-2)-card combinations whose
cards are all below ``c`` are exactly the first C(c, n-2) of them, so each n-card hand
is one such prefix plus its two highest cards, and a prefix's key sums are computed once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from math import comb

import numpy as np
import numpy.typing as npt

from services.games.cards import DECKS
from services.games.evaluation.rankcode import CATEGORY_SHIFT
from services.games.evaluation.reference import SHORT_DECK_RANKINGS, STANDARD, Ranking
from services.games.evaluation.tables import (
    FLUSH_BITS,
    FLUSH_OFFSET,
    HAND_SIZES,
    RANK_SHIFT,
    build_tables,
    card_index,
)

Int64Array = npt.NDArray[np.int64]
IntArray = npt.NDArray[np.integer]
CardArray = npt.NDArray[np.uint8]
CHUNK = 1 << 16
# Key of a card index outside the deck: any hand holding one sums to a negative total.
INVALID_KEY = -(1 << 58)
# Per card index: one suit nibble (flush lengths) and the rank bit (flush masks).
SUIT_KEYS = np.array([1 << (4 * (i & 3)) for i in range(52)], dtype=np.int64)
RANK_BITS = np.array([1 << (i >> 2) for i in range(52)], dtype=np.int64)


@dataclass(frozen=True)
class Lookup:
    """Dense tables for one ranking and one hand size."""

    ranking: Ranking
    size: int
    keys: Int64Array  # (256,) key per card index (uint8 range); INVALID_KEY off the deck
    classes: npt.NDArray[np.uint16]  # rank-key sum -> hand class
    class_codes: Int64Array  # hand class -> rank code
    flush_codes: Int64Array  # 13-bit rank mask -> flush / straight flush code


@cache
def lookup_for(ranking: Ranking, size: int) -> Lookup:
    if size not in HAND_SIZES:
        raise ValueError(f"hands of 5, 6 or 7 cards, not {size}")
    tables = build_tables(ranking)
    sums, codes = tables.sums[size], tables.codes[size]
    class_codes, inverse = np.unique(codes, return_inverse=True)
    classes = np.zeros(int(sums.max()) + 1, dtype=np.uint16)
    classes[sums] = inverse
    keys = np.full(256, INVALID_KEY, dtype=np.int64)
    in_deck = tables.card_keys >= 0
    keys[:52][in_deck] = tables.card_keys[in_deck]
    return Lookup(ranking, size, keys, classes, class_codes.astype(np.int64), tables.flush_codes)


def encode(hands: Sequence[Sequence[str]]) -> npt.NDArray[np.uint8]:
    """Wire-string hands to an (N, n) array of card indices."""
    index = {card: card_index(card) for card in DECKS[52]}
    return np.array([[index[card] for card in hand] for hand in hands], dtype=np.uint8)


def rank_hands(hands: IntArray, ranking: Ranking = STANDARD, validate: bool = True) -> Int64Array:
    """Rank codes (same as ``reference.best_rank``) of an (N, n) array of hands.

    With ``validate`` (default) a ValueError is raised if any hand holds a card outside
    the ranking's deck or the same card twice; without it such hands get meaningless
    codes, which is for trusted input (own enumerations) only.
    """
    hands = np.asarray(hands)
    if hands.ndim != 2:
        raise ValueError(f"hands must be a 2-d array (N, n), got shape {hands.shape}")
    lookup = lookup_for(ranking, hands.shape[1])
    if validate and hands.size and (hands.min() < 0 or hands.max() > 51):
        raise ValueError("card indices run from 0 to 51")
    cards = hands.astype(np.uint8, copy=False)
    out = np.empty(len(cards), dtype=np.int64)
    for start in range(0, len(cards), CHUNK):
        chunk = cards[start : start + CHUNK]
        columns = np.ascontiguousarray(chunk.T)  # contiguous columns gather faster
        if validate:
            _check_distinct(columns)
        totals = lookup.keys[columns[0]] + FLUSH_OFFSET
        for column in columns[1:]:
            totals += lookup.keys[column]
        if validate and (totals < 0).any():
            raise ValueError(f"a hand holds a card outside the {ranking.deck_size}-card deck")

        def masks(rows: Int64Array, suits: Int64Array, chunk: CardArray = chunk) -> Int64Array:
            return _flush_masks(chunk[rows], suits)

        out[start : start + CHUNK] = codes_from_totals(lookup, totals, masks)
    return out


def rank7(hands: IntArray, validate: bool = True) -> Int64Array:
    """Standard best-five codes of an (N, 7) array."""
    return rank_hands(_expect_size(hands, 7), STANDARD, validate)


def rank5(hands: IntArray, validate: bool = True) -> Int64Array:
    """Standard codes of an (N, 5) array."""
    return rank_hands(_expect_size(hands, 5), STANDARD, validate)


def _expect_size(hands: IntArray, size: int) -> IntArray:
    hands = np.asarray(hands)
    if hands.ndim != 2 or hands.shape[1] != size:
        raise ValueError(f"expected an (N, {size}) array, got shape {hands.shape}")
    return hands


def short_deck_rank(hands: IntArray, deck_size: int, validate: bool = True) -> Int64Array:
    """FCD-10 rank codes of hands from the 32- or 36-card deck."""
    if deck_size not in SHORT_DECK_RANKINGS:
        raise ValueError(f"short deck has 32 or 36 cards, not {deck_size}")
    return rank_hands(hands, SHORT_DECK_RANKINGS[deck_size], validate)


def codes_from_totals(
    lookup: Lookup,
    totals: Int64Array,
    flush_masks: Callable[[Int64Array, Int64Array], Int64Array],
) -> Int64Array:
    """Rank codes from key totals (offset included); ``flush_masks(rows, suits)`` gives
    the rank mask of suit ``suits[i]`` in hand ``rows[i]`` for the flushed hands."""
    codes: Int64Array = lookup.class_codes[lookup.classes[totals >> RANK_SHIFT]]
    flushed = np.flatnonzero(totals & FLUSH_BITS)
    if flushed.size:
        codes[flushed] = lookup.flush_codes[flush_masks(flushed, _flush_suit(totals[flushed]))]
    return codes


def _flush_suit(totals: Int64Array) -> Int64Array:
    bits = totals & FLUSH_BITS
    return (bits >= 0x80).astype(np.int64) + (bits >= 0x800) + (bits >= 0x8000)


def _flush_masks(hands: npt.NDArray[np.uint8], suits: Int64Array) -> Int64Array:
    mask = np.zeros(len(hands), dtype=np.int64)
    for column in range(hands.shape[1]):
        cards = hands[:, column]
        mask += np.where((cards & 3) == suits, RANK_BITS[cards], 0)
    return mask


def _check_distinct(columns: npt.NDArray[np.uint8]) -> None:
    """Compare every pair of columns: byte compares on contiguous columns are much
    cheaper than building a 52-bit set per hand."""
    for i in range(len(columns)):
        for j in range(i + 1, len(columns)):
            if (columns[i] == columns[j]).any():
                raise ValueError("a hand holds the same card twice")


def category_counts(codes: Int64Array, ranking: Ranking = STANDARD) -> dict[str, int]:
    """How many codes fall in each category (royal flushes counted as straight flushes)."""
    counts = np.bincount(codes >> CATEGORY_SHIFT, minlength=len(ranking.categories))
    return {name: int(counts[i]) for i, name in enumerate(ranking.categories)}


# --- exhaustive enumeration ------------------------------------------------------


@cache
def colex_combinations(n: int, k: int) -> npt.NDArray[np.uint8]:
    """All k-subsets of range(n) as rows, in colexicographic order (by largest element,
    then the next, ...): the subsets of range(m) are the first C(m, k) rows."""
    rows = np.arange(n, dtype=np.uint8).reshape(n, 1)
    for size in range(2, k + 1):
        parts = [
            np.hstack(
                [
                    rows[: comb(top, size - 1)],
                    np.full((comb(top, size - 1), 1), top, dtype=np.uint8),
                ]
            )
            for top in range(size - 1, n)
        ]
        rows = np.vstack(parts)
    return rows


def _deck_indices(ranking: Ranking) -> npt.NDArray[np.uint8]:
    return np.array(sorted(card_index(card) for card in DECKS[ranking.deck_size]), dtype=np.uint8)


def all_category_counts(ranking: Ranking = STANDARD, size: int = 7) -> dict[str, int]:
    """Category counts of the best five of every ``size``-card hand of the deck."""
    lookup = lookup_for(ranking, size)
    deck = _deck_indices(ranking)
    base = deck[colex_combinations(len(deck), size - 2)]  # card indices, colex order
    base_totals = lookup.keys[base].sum(axis=1) + FLUSH_OFFSET
    base_masks = [np.where((base & 3) == suit, RANK_BITS[base], 0).sum(axis=1) for suit in range(4)]
    counts = np.zeros(len(ranking.categories), dtype=np.int64)
    for high in range(size - 1, len(deck)):
        for second in range(size - 2, high):
            prefix = comb(second, size - 2)
            extra = (int(deck[second]), int(deck[high]))
            totals = base_totals[:prefix] + int(lookup.keys[extra[0]] + lookup.keys[extra[1]])

            def masks(
                rows: Int64Array, suits: Int64Array, extra: tuple[int, int] = extra
            ) -> Int64Array:
                mask = np.choose(suits, [m[rows] for m in base_masks])
                for card in extra:
                    mask += np.where(suits == (card & 3), 1 << (card >> 2), 0)
                return mask

            codes = codes_from_totals(lookup, totals, masks)
            counts += np.bincount(codes >> CATEGORY_SHIFT, minlength=len(counts))
    return {name: int(counts[i]) for i, name in enumerate(ranking.categories)}


def flush_lengths7(hands: IntArray) -> npt.NDArray[np.int64]:
    """HCF-6 flush length (most cards of one suit) of each 7-card hand."""
    hands = np.asarray(hands)
    totals = SUIT_KEYS[hands].sum(axis=1)
    return _longest_suit(totals)


def _longest_suit(suit_totals: Int64Array) -> Int64Array:
    nibbles = [(suit_totals >> (4 * suit)) & 0xF for suit in range(4)]
    longest: Int64Array = np.maximum(
        np.maximum(nibbles[0], nibbles[1]), np.maximum(nibbles[2], nibbles[3])
    )
    return longest


def all_flush_lengths7() -> dict[int, int]:
    """How many of the C(52, 7) seven-card hands have each flush length (HCF-6)."""
    base = colex_combinations(52, 5)
    base_totals = SUIT_KEYS[base].sum(axis=1)
    counts = np.zeros(8, dtype=np.int64)
    for high in range(6, 52):
        for second in range(5, high):
            totals = base_totals[: comb(second, 5)] + int(SUIT_KEYS[second] + SUIT_KEYS[high])
            counts += np.bincount(_longest_suit(totals), minlength=8)
    return {length: int(counts[length]) for length in range(8) if counts[length]}
