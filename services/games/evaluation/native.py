"""The native single-call evaluator: ``fast``'s tables in the native core.

Why: a Python call into ``services._native.CardRanking.eval7`` costs less than ``fast``'s
seven list reads, six additions and a dict lookup, and the native hold'em rules rank in
Rust anyway. The core builds the very tables ``tables.build_tables`` makes for a ranking,
from the ranking's definition (``ranking_definition``; ``native/src/rules/ranking_build.rs``),
so its codes are ``fast``'s; the tests compare the two builds table for table and check
the codes against ``reference``. Why the core builds them: building them with numpy cost
a process with one hold'em hand about 0.26 s of CPU (numpy's import, its array code and
OpenBLAS's threads), a third of adjudicating the 10,000 Pluribus hands.
Unlike ``fast``'s functions it validates: anything but 5 to 7 distinct cards of the
ranking's deck is a ``ValueError``, never a wrong code.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from services.games.cards import DECKS, rank_of
from services.games.evaluation.keys import RANK_KEYS
from services.games.evaluation.reference import SHORT_DECK_RANKINGS, STANDARD, Ranking


@cache
def native_ranking(ranking: Ranking = STANDARD) -> Any:
    """The core's ``CardRanking`` for ``ranking`` (``eval5``/``eval6``/``eval7`` on card
    indices, ``rank(list)``); an ``ImportError`` saying what to do without the core."""
    try:
        from services import _native
    except ImportError:
        raise ImportError(
            "the native core is not built: run `pip install -e .` (needs Rust's cargo)"
        ) from None
    return _native.CardRanking.build(*ranking_definition(ranking))


# The categories in the order ``CardRanking.build`` takes their values.
CATEGORY_ORDER = ("high_card", "one_pair", "two_pair", "three_of_a_kind", "straight", "flush",
                  "full_house", "four_of_a_kind", "straight_flush")


def ranking_definition(ranking: Ranking) -> tuple[list[int], list[int], list[int], list[int]]:
    """What the core builds ``ranking``'s tables from: the deck's ranks (lowest first),
    the rank keys, the categories' values and the ace-low straight's ranks."""
    deck_ranks = sorted({rank_of(card) for card in DECKS[ranking.deck_size]})
    return (deck_ranks, list(RANK_KEYS), [ranking.category_value(c) for c in CATEGORY_ORDER],
            sorted(ranking.ace_low_straight))


def native_short_deck_ranking(deck_size: int) -> Any:
    """FCD-10 ranking of the 32- or 36-card deck in the core."""
    try:
        return native_ranking(SHORT_DECK_RANKINGS[deck_size])
    except KeyError:
        raise ValueError(f"short deck has 32 or 36 cards, not {deck_size}") from None
