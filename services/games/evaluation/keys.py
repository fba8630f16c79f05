"""The card keys' layout (see ``tables``), without numpy.

Why a module of its own: ``fast`` needs these constants at import time, but its tables
(``tables.build_tables``, numpy) only on the first evaluation. Keeping the constants here
lets importing the games registry (every adjudicator imports it) skip numpy and the
table build (~190 ms and ~35 MB RSS) until a hand is actually ranked.
"""

from __future__ import annotations

from services.games.cards import rank_of

# Rank keys (Cactus-Kev style "SpecialK" 7-card keys): sums of up to 7 ranks with
# multiplicity <= 4 are unique; ``tables.build_tables`` verifies it for each hand size.
RANK_KEYS: tuple[int, ...] = (
    0, 1, 5, 22, 98, 453, 2031, 8698, 22854, 83661, 262349, 636345, 1479181,
)  # fmt: skip
RANK_SHIFT = 16
SUIT_BITS = 4
FLUSH_OFFSET = 0x3333
FLUSH_BITS = 0x8888
HAND_SIZES: tuple[int, ...] = (5, 6, 7)
SUIT_OF_FLUSH_BIT: dict[int, int] = {0x8: 0, 0x80: 1, 0x800: 2, 0x8000: 3}

# Card index: 4 * (rank - 2) + suit, suits c, d, h, s (the order of cards.STANDARD_DECK,
# also the encoding phevaluator uses).
SUIT_INDEX: dict[str, int] = {"c": 0, "d": 1, "h": 2, "s": 3}


def card_index(card: str) -> int:
    return 4 * (rank_of(card) - 2) + SUIT_INDEX[card[1]]
