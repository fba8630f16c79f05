"""The fast single-call and numpy batch evaluators against the reference evaluator."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from services.games.cards import SHORT_DECK_32, SHORT_DECK_36, STANDARD_DECK
from services.games.evaluation import batch, fast, reference
from services.games.evaluation.reference import SHORT_32, SHORT_36, STANDARD, Ranking
from services.games.evaluation.tables import card_index
from tests.unit.evaluation.helpers import random_hands

DECKS = {STANDARD: STANDARD_DECK, SHORT_32: SHORT_DECK_32, SHORT_36: SHORT_DECK_36}
RANKINGS = list(DECKS)


def deck_indices(ranking: Ranking) -> list[int]:
    return [card_index(card) for card in DECKS[ranking]]


@pytest.mark.parametrize("ranking", RANKINGS, ids=lambda r: r.name)
@pytest.mark.parametrize("size", [5, 6, 7])
def test_fast_and_batch_match_reference_on_random_hands(ranking: Ranking, size: int) -> None:
    rng = np.random.default_rng(1000 + size)
    hands = random_hands(rng, deck_indices(ranking), 3000, size)
    names = [[STANDARD_DECK[i] for i in hand] for hand in hands.tolist()]
    expected = [reference.best_rank(hand, ranking) for hand in names]
    evaluator = fast.evaluator_for(ranking)
    by_size: dict[int, Callable[..., int]] = {
        5: evaluator.eval5,
        6: evaluator.eval6,
        7: evaluator.eval7,
    }
    single = by_size[size]
    assert [single(*hand) for hand in hands.tolist()] == expected
    assert [evaluator.rank_cards(hand) for hand in names] == expected
    assert batch.rank_hands(hands, ranking).tolist() == expected


@pytest.mark.parametrize("ranking", RANKINGS, ids=lambda r: r.name)
def test_batch_matches_fast_on_many_seven_card_hands(ranking: Ranking) -> None:
    rng = np.random.default_rng(7)
    hands = random_hands(rng, deck_indices(ranking), 200_000, 7)
    evaluator = fast.evaluator_for(ranking)
    expected = [evaluator.eval7(*hand) for hand in hands.tolist()]
    assert batch.rank_hands(hands, ranking).tolist() == expected
    assert batch.rank_hands(hands, ranking, validate=False).tolist() == expected


@pytest.mark.slow
def test_every_five_card_hand_matches_reference() -> None:
    """All C(52,5) hands: batch, fast and reference give the same code."""
    hands = batch.colex_combinations(52, 5)
    codes = batch.rank5(hands).tolist()
    rows = hands.tolist()
    assert [fast.eval5(*hand) for hand in rows] == codes
    assert [reference.rank5([STANDARD_DECK[i] for i in hand]) for hand in rows] == codes


@pytest.mark.slow
@pytest.mark.parametrize("ranking", [SHORT_32, SHORT_36], ids=lambda r: r.name)
def test_every_short_deck_five_card_hand_matches_reference(ranking: Ranking) -> None:
    deck = np.array(deck_indices(ranking), dtype=np.uint8)
    hands = deck[batch.colex_combinations(len(deck), 5)]
    codes = batch.rank_hands(hands, ranking).tolist()
    expected = [
        reference.rank5([STANDARD_DECK[i] for i in hand], ranking) for hand in hands.tolist()
    ]
    assert codes == expected


def test_batch_rejects_cards_outside_the_deck_and_duplicates() -> None:
    two_of_clubs = card_index("2c")
    with pytest.raises(ValueError, match="outside"):
        batch.short_deck_rank(np.array([[two_of_clubs, 20, 24, 28, 32]]), 32)
    with pytest.raises(ValueError, match="twice"):
        batch.rank5(np.array([[0, 0, 4, 8, 12]]))
    with pytest.raises(ValueError, match="0 to 51"):
        batch.rank5(np.array([[0, 1, 4, 8, 52]]))
    with pytest.raises(ValueError, match="5, 6 or 7"):
        batch.rank_hands(np.array([[0, 1, 4, 8]]))
    with pytest.raises(ValueError, match=r"\(N, 7\)"):
        batch.rank7(np.array([[0, 1, 4, 8, 12]]))


def test_encode_round_trip() -> None:
    hands = batch.encode([["As", "Ks", "Qs", "Js", "Ts"], ["2c", "3d", "4h", "5s", "7c"]])
    assert hands.tolist() == [[51, 47, 43, 39, 35], [0, 5, 10, 15, 20]]


def test_fast_rank_cards_validates() -> None:
    with pytest.raises(ValueError):
        fast.rank_cards(["As", "As", "Qs", "Js", "Ts"])
    with pytest.raises(ValueError):
        fast.rank_cards(["As", "Ks", "Qs", "Js"])
    with pytest.raises(ValueError):
        fast.short_deck_evaluator(32).rank_cards(["6s", "Ks", "Qs", "Js", "Ts"])
    with pytest.raises(ValueError):
        fast.short_deck_evaluator(40)


def test_colex_order_prefix_property() -> None:
    """The 3-subsets of range(5) are the first C(5,3) = 10 rows of those of range(7),
    listed by largest element, then next: 012, 013, 023, 123, 014, ..."""
    rows = batch.colex_combinations(7, 3)
    assert len(rows) == 35
    assert rows[:4].tolist() == [[0, 1, 2], [0, 1, 3], [0, 2, 3], [1, 2, 3]]
    assert rows[:10].max() == 4
    assert len({tuple(r) for r in rows.tolist()}) == 35
