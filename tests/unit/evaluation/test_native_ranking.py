"""The native single-call evaluator (``services.games.evaluation.native``) against the
reference evaluator and the exhaustively tested batch path.

The core builds a ranking's tables itself (``CardRanking.build``); the first test proves
they are ``build_tables``'s, table for table, for every ranking, and the others prove the
codes and the lookups: every 5-card hand of the standard deck and of both short decks (against
``batch``, itself checked against ``reference`` on every 5-card hand), random 6- and
7-card hands against ``reference`` itself, and refusals of what is not a hand.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from services import _native
from services.games.cards import SHORT_DECK_32, SHORT_DECK_36, STANDARD_DECK
from services.games.evaluation import batch, reference
from services.games.evaluation.native import (
    native_ranking,
    native_short_deck_ranking,
    ranking_definition,
)
from services.games.evaluation.reference import SHORT_32, SHORT_36, STANDARD, Ranking
from services.games.evaluation.tables import HAND_SIZES, build_tables, card_index
from tests.unit.evaluation.helpers import random_hands

DECKS = {STANDARD: STANDARD_DECK, SHORT_32: SHORT_DECK_32, SHORT_36: SHORT_DECK_36}


def deck_indices(ranking: Ranking) -> list[int]:
    return [card_index(card) for card in DECKS[ranking]]


@pytest.mark.parametrize("ranking", list(DECKS), ids=lambda r: r.name)
def test_the_cores_tables_are_build_tables_tables(ranking: Ranking) -> None:
    """The same card keys and flush codes, and for each hand size the same code for every
    rank-key sum (each table holds every rank multiset of its size once)."""
    card_keys, flush_codes, by_size = _native.CardRanking.build_tables(
        *ranking_definition(ranking))
    python = build_tables(ranking)
    assert card_keys == python.card_keys.tolist()
    assert flush_codes == python.flush_codes.tolist()
    for size, (sums, codes) in zip(HAND_SIZES, by_size, strict=True):
        expected = dict(zip(python.sums[size].tolist(), python.codes[size].tolist(),
                            strict=True))
        assert len(sums) == len(expected)
        assert dict(zip(sums, codes, strict=True)) == expected


def test_a_definition_the_core_cannot_build_is_refused() -> None:
    deck_ranks, rank_keys, categories, ace_low = ranking_definition(STANDARD)
    with pytest.raises(ValueError, match="repeated sum"):
        _native.CardRanking.build(deck_ranks, list(range(13)), categories, ace_low)
    with pytest.raises(ValueError, match="nine categories"):
        _native.CardRanking.build(deck_ranks, rank_keys, categories[:8], ace_low)
    with pytest.raises(ValueError, match="ascend"):
        _native.CardRanking.build(deck_ranks[::-1], rank_keys, categories, ace_low)


@pytest.mark.parametrize("ranking", list(DECKS), ids=lambda r: r.name)
def test_every_five_card_hand_has_the_batch_paths_code(ranking: Ranking) -> None:
    deck = np.asarray(deck_indices(ranking), dtype=np.uint8)
    hands = deck[batch.colex_combinations(len(deck), 5)]
    expected = batch.rank_hands(hands, ranking).tolist()
    eval5 = native_ranking(ranking).eval5
    assert [eval5(*hand) for hand in hands.tolist()] == expected


@pytest.mark.parametrize("ranking", list(DECKS), ids=lambda r: r.name)
@pytest.mark.parametrize("size", [5, 6, 7])
def test_random_hands_have_the_reference_code(ranking: Ranking, size: int) -> None:
    rng = np.random.default_rng(7000 + size)
    hands = random_hands(rng, deck_indices(ranking), 3000, size).tolist()
    expected = [reference.best_rank([STANDARD_DECK[i] for i in hand], ranking)
                for hand in hands]
    native = native_ranking(ranking)
    by_size: dict[int, Callable[..., int]] = {5: native.eval5, 6: native.eval6, 7: native.eval7}
    assert [by_size[size](*hand) for hand in hands] == expected
    assert [native.rank(hand) for hand in hands] == expected


def test_many_seven_card_hands_have_the_batch_paths_code() -> None:
    hands = random_hands(np.random.default_rng(77), list(range(52)), 200_000, 7)
    eval7 = native_ranking().eval7
    assert [eval7(*hand) for hand in hands.tolist()] == batch.rank7(hands).tolist()


def test_a_straight_flush_a_flush_and_the_wheel_by_hand() -> None:
    """Codes worked out from rankcode's layout (category << 20, ranks in 4-bit slots)."""
    native = native_ranking()

    def code(*cards: str) -> int:
        return int(native.rank([card_index(card) for card in cards]))

    straight_flush = STANDARD.category_value("straight_flush") << 20 | 9 << 16
    assert code("5h", "6h", "7h", "8h", "9h", "Kc", "Kd") == straight_flush
    flush = STANDARD.category_value("flush") << 20 | 0xDCA86  # K Q T 8 6
    assert code("2h", "4h", "6h", "8h", "Th", "Qh", "Kh") == flush
    wheel = STANDARD.category_value("straight") << 20 | 5 << 16
    assert code("Ac", "2d", "3h", "4s", "5c", "9d", "Jh") == wheel


def test_what_is_not_a_hand_is_refused_with_a_reason() -> None:
    native = native_ranking()
    for cards, reason in [
        ([0, 1, 2, 3], "expected 5-7 cards"),
        ([0, 1, 2, 3, 4, 5, 6, 7], "expected 5-7 cards"),
        ([0, 1, 2, 3, 3], "twice"),
        ([0, 1, 2, 3, 52], "not in this deck"),
    ]:
        with pytest.raises(ValueError, match=reason):
            native.rank(cards)
    two_of_clubs = card_index("2c")  # not in the 36-card deck (6 to ace)
    with pytest.raises(ValueError, match="not in this deck"):
        native_short_deck_ranking(36).eval5(two_of_clubs, 20, 24, 28, 32)
    with pytest.raises(ValueError, match="32 or 36"):
        native_short_deck_ranking(40)
