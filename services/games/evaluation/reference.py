"""The simple evaluators: obviously correct, slow, and the oracle for every fast path.

A five-card hand is classified straight from the definition (rank multiplicities, one
suit or not, five consecutive ranks or the deck's ace-low straight); a larger hand is the
maximum over all of its five-card subsets. The fast table-driven code in ``fast`` and
``batch`` is tested against these functions, never the other way round.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from services.games.cards import DECKS, rank_of, suit_of
from services.games.evaluation.categories import SHORT_DECK_CATEGORIES, STANDARD_CATEGORIES
from services.games.evaluation.rankcode import pack


@dataclass(frozen=True)
class Ranking:
    """One set of ranking rules: category order (worst first) and the deck."""

    name: str
    categories: tuple[str, ...]
    deck_size: int
    ace_low_straight: frozenset[int]

    def category_value(self, category: str) -> int:
        return self.categories.index(category)

    @property
    def ace_low_top(self) -> int:
        """The stored top of the ace-low straight: its highest non-ace card."""
        return max(self.ace_low_straight - {14})


STANDARD = Ranking(
    name="standard",
    categories=STANDARD_CATEGORIES,
    deck_size=52,
    ace_low_straight=frozenset({14, 2, 3, 4, 5}),  # CP-3: A-2-3-4-5 lowest straight
)

# FCD-10: flush ranks above full house; the ace plays low below the deck's lowest card.
SHORT_32 = Ranking("short_deck_32", SHORT_DECK_CATEGORIES, 32, frozenset({14, 7, 8, 9, 10}))
SHORT_36 = Ranking("short_deck_36", SHORT_DECK_CATEGORIES, 36, frozenset({14, 6, 7, 8, 9}))

SHORT_DECK_RANKINGS: dict[int, Ranking] = {32: SHORT_32, 36: SHORT_36}


def check_cards(cards: Sequence[str], deck_size: int, counts: Sequence[int]) -> None:
    """Reject anything that is not ``counts`` distinct cards of the deck."""
    if len(cards) not in counts:
        raise ValueError(f"expected {' or '.join(map(str, counts))} cards, got {len(cards)}")
    deck = DECKS[deck_size]
    for card in cards:
        if card not in deck:
            raise ValueError(f"{card!r} is not a card of the {deck_size}-card deck")
    if len(set(cards)) != len(cards):
        raise ValueError(f"duplicate card in {list(cards)}")


def straight_top(values: Sequence[int], ranking: Ranking) -> int | None:
    """Top card of the straight made by five rank values, or None."""
    distinct = set(values)
    if len(distinct) != 5:
        return None
    if distinct == ranking.ace_low_straight:
        return ranking.ace_low_top
    if max(distinct) - min(distinct) == 4:
        return max(distinct)
    return None


def rank5(cards: Sequence[str], ranking: Ranking = STANDARD) -> int:
    """Rank code of exactly five cards under ``ranking``."""
    check_cards(cards, ranking.deck_size, (5,))
    values = [rank_of(card) for card in cards]
    is_flush = len({suit_of(card) for card in cards}) == 1
    top = straight_top(values, ranking)
    # Ranks grouped by multiplicity, then by rank: the order of significance.
    groups = sorted(Counter(values).items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    ordered = [rank for rank, _ in groups]
    shape = tuple(count for _, count in groups)

    def code(category: str, ranks: Sequence[int]) -> int:
        return pack(ranking.category_value(category), ranks)

    if top is not None and is_flush:
        return code("straight_flush", [top])
    if shape == (4, 1):
        return code("four_of_a_kind", ordered)
    if shape == (3, 2):
        return code("full_house", ordered)
    if is_flush:
        return code("flush", ordered)
    if top is not None:
        return code("straight", [top])
    if shape == (3, 1, 1):
        return code("three_of_a_kind", ordered)
    if shape == (2, 2, 1):
        return code("two_pair", ordered)
    if shape == (2, 1, 1, 1):
        return code("one_pair", ordered)
    return code("high_card", ordered)


def best_five(cards: Sequence[str], ranking: Ranking = STANDARD) -> tuple[int, tuple[str, ...]]:
    """Best five-card subset of 5-7 cards: (rank code, the five cards).

    Among equally ranked subsets the first in input order wins, so the answer is
    deterministic for a given card order.
    """
    check_cards(cards, ranking.deck_size, (5, 6, 7))
    best_code = -1
    best: tuple[str, ...] = ()
    for five in combinations(cards, 5):
        code = rank5(five, ranking)
        if code > best_code:
            best_code, best = code, five
    return best_code, best


def best_rank(cards: Sequence[str], ranking: Ranking = STANDARD) -> int:
    return best_five(cards, ranking)[0]
