"""Ordering identical to the peer evaluators treys, phevaluator and pokerkit.

treys and phevaluator are fast, so they see 200,000 independent random pairs (400,000
hands). pokerkit is slow (about 3,000 seven-card hands a second), so for 7 cards it
ranks a pool of random hands and the test checks EVERY pair of the pool (sorted by our
code, pokerkit's value must tie exactly on our ties and increase strictly between them:
~200 million pairs for a pool of 20,000) plus 200,000 random pairs drawn from it.

pokerkit's ``ShortDeckHoldemHand`` is the 36-card deck 6-A with flush above full house,
straight above three of a kind, A-6-7-8-9 the lowest straight and its suited form the
lowest straight flush: exactly FCD-10 for 36 cards, so all hands are compared. pokerkit
has no 32-card ranking; that deck is covered by the exhaustive formula checks.
"""

from __future__ import annotations

import numpy as np
import pytest
from phevaluator import evaluate_cards
from pokerkit import ShortDeckHoldemHand, StandardHighHand
from treys import Card, Evaluator

from services.games.cards import SHORT_DECK_36, STANDARD_DECK
from services.games.evaluation import batch
from services.games.evaluation.reference import SHORT_36
from services.games.evaluation.tables import card_index
from tests.unit.evaluation.helpers import assert_pairs_agree, assert_same_order, random_hands

PAIRS = 200_000
STANDARD_INDICES = list(range(52))
SHORT_36_INDICES = [card_index(card) for card in SHORT_DECK_36]

pytestmark = pytest.mark.slow


def names(hand: list[int]) -> list[str]:
    return [STANDARD_DECK[i] for i in hand]


@pytest.mark.parametrize("size", [5, 7])
def test_treys_order(size: int) -> None:
    rng = np.random.default_rng(31 + size)
    hands = random_hands(rng, STANDARD_INDICES, 2 * PAIRS, size)
    mine = batch.rank_hands(hands)
    evaluator = Evaluator()
    treys_cards = [Card.new(card) for card in STANDARD_DECK]
    # treys: lower is better; negate so higher is better like ours.
    theirs = np.array([
        -evaluator.evaluate([], [treys_cards[i] for i in hand]) for hand in hands.tolist()
    ])  # fmt: skip
    first, second = slice(0, None, 2), slice(1, None, 2)
    assert (np.sign(mine[first] - mine[second]) == np.sign(theirs[first] - theirs[second])).all()
    assert_same_order(mine.tolist(), theirs.tolist())


@pytest.mark.parametrize("size", [5, 7])
def test_phevaluator_order(size: int) -> None:
    rng = np.random.default_rng(41 + size)
    hands = random_hands(rng, STANDARD_INDICES, 2 * PAIRS, size)
    mine = batch.rank_hands(hands)
    theirs = np.array([-evaluate_cards(*hand) for hand in hands.tolist()])
    first, second = slice(0, None, 2), slice(1, None, 2)
    assert (np.sign(mine[first] - mine[second]) == np.sign(theirs[first] - theirs[second])).all()
    assert_same_order(mine.tolist(), theirs.tolist())


def pokerkit_value(
    hand_type: type[StandardHighHand] | type[ShortDeckHoldemHand], cards: list[str]
) -> int:
    text = "".join(cards)
    hand = hand_type(text) if len(cards) == 5 else hand_type.from_game(text)
    return hand.entry.index  # higher is better


@pytest.mark.parametrize(
    ("hand_type", "ranking_deck", "size", "pool"),
    [
        (StandardHighHand, "standard", 5, 2 * PAIRS),
        (StandardHighHand, "standard", 7, 20_000),
        (ShortDeckHoldemHand, "short36", 5, 2 * PAIRS),
        (ShortDeckHoldemHand, "short36", 7, 20_000),
    ],
    ids=["standard-5", "standard-7", "short36-5", "short36-7"],
)
def test_pokerkit_order(
    hand_type: type[StandardHighHand] | type[ShortDeckHoldemHand],
    ranking_deck: str,
    size: int,
    pool: int,
) -> None:
    rng = np.random.default_rng(51 + size + len(ranking_deck))
    deck = STANDARD_INDICES if ranking_deck == "standard" else SHORT_36_INDICES
    hands = random_hands(rng, deck, pool, size)
    mine = (
        batch.rank_hands(hands) if ranking_deck == "standard" else batch.rank_hands(hands, SHORT_36)
    )
    theirs = [pokerkit_value(hand_type, names(hand)) for hand in hands.tolist()]
    assert_same_order(mine.tolist(), theirs)
    assert_pairs_agree(mine.tolist(), theirs, rng, PAIRS)
