"""Cards as strings on the wire (``"As"``, ``"Td"``) and the decks of the five games.

The wire form is kept for findings and reports; evaluators convert to their own integer
encodings (``services.games.evaluation``).
"""

from __future__ import annotations

RANKS = "23456789TJQKA"
SUITS = "cdhs"
RANK_VALUE = {r: i + 2 for i, r in enumerate(RANKS)}  # 2..14, ace high

STANDARD_DECK: tuple[str, ...] = tuple(r + s for r in RANKS for s in SUITS)
SHORT_DECK_32: tuple[str, ...] = tuple(r + s for r in "789TJQKA" for s in SUITS)
SHORT_DECK_36: tuple[str, ...] = tuple(r + s for r in "6789TJQKA" for s in SUITS)

DECKS: dict[int, frozenset[str]] = {
    52: frozenset(STANDARD_DECK),
    32: frozenset(SHORT_DECK_32),
    36: frozenset(SHORT_DECK_36),
}


def rank_of(card: str) -> int:
    """Rank value 2..14 (ace high)."""
    return RANK_VALUE[card[0]]


def suit_of(card: str) -> str:
    return card[1]
