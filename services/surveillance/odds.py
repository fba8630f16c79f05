"""True odds of the SURV-6 "hits", by counting (exact fractions, no simulation).

The patterns compare a player's hit count with these probabilities, so they are derived
here from combinatorics alone, independently of the game modules and evaluators:

**HCF flush of at least L cards among a seat's 7 dealt cards** (52-card deck). A seat's
seven cards are a uniform 7-subset of the deck whatever else is dealt. Count the hands by
suit distribution ``(a, b, c, d)``, ``a+b+c+d = 7``: ``C(13,a) C(13,b) C(13,c) C(13,d)``
hands each, over ``C(52,7) = 133,784,560``. For L = 5 (at most one suit can hold 5+ of 7
cards): ``4 * (C(13,5) C(39,2) + C(13,6) C(39,1) + C(13,7))``
``= 4 * (1,287*741 + 1,716*39 + 1,716) = 4,089,228``, p = 0.030566. For L = 6:
``4 * (1,716*39 + 1,716) = 274,560``, p = 0.0020523. For L = 4: 0.2259 (computed, not
checked by hand; the two above are, in the tests).

**Five-card poker category at least C** (the five cards a Russian Poker box is dealt, a
uniform 5-subset of 52, ``C(52,5) = 2,598,960``), the textbook counts:

==================  =========================================  ==========
straight flush      10 * 4 (incl. royal)                        40
four of a kind      13 * 48                                     624
full house          13 * C(4,3) * 12 * C(4,2)                   3,744
flush               4 * C(13,5) - 40                            5,108
straight            10 * 4^5 - 40                               10,200
three of a kind     13 * C(4,3) * C(12,2) * 4^2                 54,912
two pair            C(13,2) * C(4,2)^2 * 11 * 4                 123,552
one pair            13 * C(4,2) * C(12,3) * 4^3                 1,098,240
==================  =========================================  ==========

so "straight or better" is 19,716 / 2,598,960 = 0.0075861.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from itertools import product
from math import comb

SUIT_SIZE = 13
SUITS = 4

FIVE_CARD_COUNTS: dict[str, int] = {
    "straight_flush": 10 * 4,
    "four_of_a_kind": 13 * 48,
    "full_house": 13 * comb(4, 3) * 12 * comb(4, 2),
    "flush": 4 * comb(13, 5) - 40,
    "straight": 10 * 4**5 - 40,
    "three_of_a_kind": 13 * comb(4, 3) * comb(12, 2) * 4**2,
    "two_pair": comb(13, 2) * comb(4, 2) ** 2 * 11 * 4,
    "one_pair": 13 * comb(4, 2) * comb(12, 3) * 4**3,
}
# Best first; "high_card" is the rest of the C(52,5) hands.
CATEGORY_ORDER = ("straight_flush", "four_of_a_kind", "full_house", "flush", "straight",
                  "three_of_a_kind", "two_pair", "one_pair")


@cache
def longest_suit_at_least(cards: int, length: int) -> Fraction:
    """P(some suit holds >= ``length`` of ``cards`` cards dealt from a 52-card deck)."""
    hits = sum(
        comb(SUIT_SIZE, a) * comb(SUIT_SIZE, b) * comb(SUIT_SIZE, c) * comb(SUIT_SIZE, d)
        for a, b, c, d in product(range(SUIT_SIZE + 1), repeat=SUITS)
        if a + b + c + d == cards and max(a, b, c, d) >= length
    )
    return Fraction(hits, comb(SUIT_SIZE * SUITS, cards))


def five_card_at_least(category: str) -> Fraction:
    """P(five cards from 52 make ``category`` or better)."""
    if category not in FIVE_CARD_COUNTS:
        raise ValueError(f"unknown five-card category {category!r}")
    better = CATEGORY_ORDER[: CATEGORY_ORDER.index(category) + 1]
    return Fraction(sum(FIVE_CARD_COUNTS[c] for c in better), comb(52, 5))
