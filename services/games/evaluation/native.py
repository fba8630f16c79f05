"""The native single-call evaluator: ``fast``'s tables in the native core.

Why: a Python call into ``services._native.CardRanking.eval7`` costs less than ``fast``'s
seven list reads, six additions and a dict lookup, and the native hold'em rules rank in
Rust anyway. The core gets the very tables ``tables.build_tables`` makes for a ranking,
so its codes are ``fast``'s by construction; the tests check them against ``reference``.
Unlike ``fast``'s functions it validates: anything but 5 to 7 distinct cards of the
ranking's deck is a ``ValueError``, never a wrong code.
"""

from __future__ import annotations

from functools import cache
from typing import Any

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
    from services.games.evaluation.tables import build_tables

    tables = build_tables(ranking)
    by_size = [(tables.sums[size].tolist(), tables.codes[size].tolist()) for size in (5, 6, 7)]
    return _native.CardRanking(
        tables.card_keys.tolist(), tables.flush_codes.tolist(), *by_size
    )


def native_short_deck_ranking(deck_size: int) -> Any:
    """FCD-10 ranking of the 32- or 36-card deck in the core."""
    try:
        return native_ranking(SHORT_DECK_RANKINGS[deck_size])
    except KeyError:
        raise ValueError(f"short deck has 32 or 36 cards, not {deck_size}") from None
