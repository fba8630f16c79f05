"""Five Card Draw 7-A short-deck ranking (FCD-10), 32- or 36-card deck.

Royal flush > straight flush > four of a kind > flush > full house > straight > three
of a kind > two pair > pair > high card. The ace also plays low: A-7-8-9-T is the lowest
straight with 32 cards, A-6-7-8-9 with 36; the suited ace-low straight is the lowest
straight flush. Rank codes are comparable only between hands ranked with the same deck
size.
"""

from __future__ import annotations

from collections.abc import Sequence

from services.games.evaluation import fast, naming, reference
from services.games.evaluation.reference import SHORT_DECK_RANKINGS, Ranking

CATEGORIES: tuple[str, ...] = reference.SHORT_32.categories


def ranking_for(deck_size: int) -> Ranking:
    try:
        return SHORT_DECK_RANKINGS[deck_size]
    except KeyError:
        raise ValueError(f"short deck has 32 or 36 cards, not {deck_size}") from None


def rank5(cards: Sequence[str], deck_size: int) -> int:
    """Rank code of exactly five cards of the ``deck_size`` deck (FCD-10)."""
    if len(cards) != 5:
        raise ValueError(f"expected 5 cards, got {len(cards)}")
    return fast.short_deck_evaluator(deck_size).rank_cards(cards)


def best_rank(cards: Sequence[str], deck_size: int) -> int:
    """Rank code of the best five of 5-7 cards of the ``deck_size`` deck (FCD-10)."""
    return fast.short_deck_evaluator(deck_size).rank_cards(cards)


def category(rank: int) -> str:
    """Category name; the category order is the same for both deck sizes."""
    return naming.category_name(rank, reference.SHORT_32)


def is_royal(rank: int) -> bool:
    return naming.is_royal(rank, reference.SHORT_32)


def describe(rank: int) -> str:
    return naming.describe(rank, reference.SHORT_32)
