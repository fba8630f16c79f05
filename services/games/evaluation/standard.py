"""Standard 52-card high-hand ranking: the public API every 52-card game calls.

Cards are wire strings (``"As"``, ``"Td"``). Ranks are rank codes (``rankcode``): higher
is better, equal exactly on poker ties. A-2-3-4-5 is the lowest straight (CP-3).
``rank5``/``best_rank`` run on the lookup tables of ``fast``; ``best_five`` searches the
subsets with ``reference`` because it must name the cards. Hot loops over many hands can
call ``fast.eval7`` on card indices or ``batch.rank_hands`` on arrays.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from services.games.cards import rank_of
from services.games.evaluation import fast, naming, reference
from services.games.evaluation.rankcode import ranks_of
from services.games.evaluation.reference import STANDARD

CATEGORIES: tuple[str, ...] = STANDARD.categories


def rank5(cards: Sequence[str]) -> int:
    """Rank code of exactly five cards."""
    if len(cards) != 5:
        raise ValueError(f"expected 5 cards, got {len(cards)}")
    return fast.rank_cards(cards)


def best_rank(cards: Sequence[str]) -> int:
    """Rank code of the best five of 5, 6 or 7 cards (table-driven, see ``fast``)."""
    return fast.rank_cards(cards)


def best_five(cards: Sequence[str]) -> tuple[int, tuple[str, ...]]:
    """Best five of 5-7 cards: (rank code, the five cards in order of significance)."""
    code, five = reference.best_five(cards, STANDARD)
    return code, significance_order(five, code)


def significance_order(five: Sequence[str], code: int) -> tuple[str, ...]:
    """Cards as a report shows them: biggest group first, then by rank; in a straight
    the ace of an ace-low straight goes last ("5-4-3-2-A")."""
    counts = Counter(rank_of(card) for card in five)
    ace_low = naming.category_name(code, STANDARD) in ("straight", "straight_flush") and (
        ranks_of(code)[0] != 14 and 14 in counts
    )

    def key(card: str) -> tuple[int, int]:
        value = rank_of(card)
        if ace_low and value == 14:
            value = 1
        return counts[rank_of(card)], value

    return tuple(sorted(five, key=key, reverse=True))


def category(rank: int) -> str:
    """One of ``CATEGORIES``; a royal flush is a straight flush (see ``is_royal``)."""
    return naming.category_name(rank, STANDARD)


def is_royal(rank: int) -> bool:
    return naming.is_royal(rank, STANDARD)


def describe(rank: int) -> str:
    return naming.describe(rank, STANDARD)
