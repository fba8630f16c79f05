"""High Card Flush hand values (HCF-6, HCF-7, HCF-9) on rank bitmasks.

Why bitmasks: a suit's cards are one integer with bit ``r`` set for each rank ``r``
(2..14, ace high). For two flushes of the *same length* comparing those integers is
exactly the HCF-6 comparison "highest card, then the next, and so on", because an integer
comparison looks at the highest differing bit first. So a flush value is the single int
``length << 16 | rank_mask``: a longer flush always wins, equal lengths fall through to
the rank mask, identical ranks are an equal value (a push). The best of several flushes
in one hand (two equal-length flushes, HCF-6) is simply the largest value.

Straight-flush runs (HCF-9) use the same masks: the longest run of set bits, with the ace
also set as bit 1 when it may play low and the mask doubled round the corner when a
profile allows wrap-around (house-v1 does not).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from services.games.cards import RANK_VALUE, RANKS, SUITS

_LENGTH_SHIFT = 16
_RANK_MASK = (1 << _LENGTH_SHIFT) - 1
_ACE = 14
_ACE_BIT = 1 << _ACE
_ACE_LOW_BIT = 1 << 1

# "As" -> (suit index, rank bit); built once so evaluation is two dict lookups per card.
_CARD_BITS: dict[str, tuple[int, int]] = {
    rank + suit: (s, 1 << RANK_VALUE[rank]) for rank in RANKS for s, suit in enumerate(SUITS)
}


def suit_masks(cards: Iterable[str]) -> list[int]:
    """Rank bitmask per suit (index as in ``cards.SUITS``: c d h s)."""
    masks = [0, 0, 0, 0]
    for card in cards:
        suit, bit = _CARD_BITS[card]
        masks[suit] |= bit
    return masks


def _value_of_mask(mask: int) -> int:
    return mask.bit_count() << _LENGTH_SHIFT | mask


def flush_value_of_masks(masks: list[int]) -> int:
    """HCF-6: the best flush among the suits (longest, then highest cards)."""
    c, d, h, s = masks
    return max(c.bit_count() << _LENGTH_SHIFT | c, d.bit_count() << _LENGTH_SHIFT | d,
               h.bit_count() << _LENGTH_SHIFT | h, s.bit_count() << _LENGTH_SHIFT | s)


def flush_value(cards: Iterable[str]) -> int:
    """HCF-6 hand value of a hand: higher is better, equal is a push."""
    return flush_value_of_masks(suit_masks(cards))


def best_flush_suit(cards: Iterable[str]) -> str:
    """The suit of the flush that counts (first suit in c d h s order on an exact tie)."""
    masks = suit_masks(cards)
    values = [_value_of_mask(m) for m in masks]
    return SUITS[values.index(max(values))]


def flush_length(value: int) -> int:
    """Number of cards in the flush a value describes."""
    return value >> _LENGTH_SHIFT


def flush_ranks(value: int) -> tuple[int, ...]:
    """The flush's ranks, highest first (2..14)."""
    mask = value & _RANK_MASK
    return tuple(r for r in range(_ACE, 1, -1) if mask >> r & 1)


def flush_high_card(value: int) -> int:
    """Rank of the flush's highest card (0 for an empty hand)."""
    mask = value & _RANK_MASK
    return mask.bit_length() - 1 if mask else 0


def dp_qualifies(value: int, min_cards: int, min_high_rank: int, any_high_cards: int) -> bool:
    """HCF-7: at least ``min_cards`` suited cards with the highest at least
    ``min_high_rank``; a flush of ``any_high_cards`` or more qualifies whatever its ranks.
    house-v1: 3 cards nine-high, any 4-card flush."""
    length = flush_length(value)
    if length >= any_high_cards:
        return True
    return length >= min_cards and flush_high_card(value) >= min_high_rank


def _run_and_top(mask: int) -> tuple[int, int]:
    """Longest run of consecutive set bits, and the bit index at the top of the highest
    such run (after ``run - 1`` shift-and-steps only the tops of the longest runs remain)."""
    run, tops = 0, 0
    while mask:
        tops = mask
        mask &= mask << 1
        run += 1
    return run, tops.bit_length() - 1


def straight_flush_strength_of_masks(masks: list[int], ace_low: bool, wraparound: bool) -> int:
    """HCF-9 run as one comparable int: ``length << 4 | top rank`` of the best run (the
    longest, then the one with the highest top card; A-2-3 tops at 3). Used where a run
    is compared with another hand's (the ``against_dp`` reading of HCF-10).

    ``ace_low``: the ace also plays below the two (A-2-3). ``wraparound``: runs may turn
    the corner (K-A-2, topping at 2); house-v1 says no. A run never exceeds 13 ranks.
    """
    best = 0
    for mask in masks:
        if not mask:
            continue
        if wraparound:
            # Ranks 2..14 as bits 0..12, repeated once so a run can cross from A to 2.
            base = mask >> 2
            run, top_bit = _run_and_top(base | base << 13)
            run, top = (13, _ACE) if run >= 13 else (run, top_bit % 13 + 2)
        else:
            if ace_low and mask & _ACE_BIT:
                mask |= _ACE_LOW_BIT
            run, top = _run_and_top(mask)
        best = max(best, run << 4 | top)
    return best


def straight_flush_run_of_masks(masks: list[int], ace_low: bool, wraparound: bool) -> int:
    """HCF-9: longest run of consecutive ranks in one suit (see
    ``straight_flush_strength_of_masks`` for the readings)."""
    return straight_flush_strength_of_masks(masks, ace_low, wraparound) >> 4


def straight_flush_run(cards: Iterable[str], ace_low: bool = True, wraparound: bool = False) -> int:
    """HCF-9 on a list of cards (defaults: the house-v1 reading)."""
    return straight_flush_run_of_masks(suit_masks(cards), ace_low, wraparound)


@lru_cache(maxsize=16384)
def describe_flush(value: int) -> str:
    """Plain words for reports: ``"3-card flush 9-7-2"`` (cached: a few thousand values
    cover almost every hand, and traces describe several flushes per hand)."""
    length = flush_length(value)
    ranks = "-".join(RANKS[r - 2] for r in flush_ranks(value))
    return f"{length}-card flush {ranks}" if length else "no cards"


__all__ = [
    "best_flush_suit",
    "describe_flush",
    "dp_qualifies",
    "flush_high_card",
    "flush_length",
    "flush_ranks",
    "flush_value",
    "flush_value_of_masks",
    "straight_flush_run",
    "straight_flush_run_of_masks",
    "suit_masks",
]
