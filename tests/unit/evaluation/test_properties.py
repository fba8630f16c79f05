"""Hypothesis properties: the order is total and transitive, and a hand's rank does not
depend on the order its cards are given in."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from services.games.cards import SHORT_DECK_32, SHORT_DECK_36, STANDARD_DECK
from services.games.chinese import evaluation as chinese
from services.games.draw7a import evaluation as short_deck
from services.games.evaluation import reference, standard


def hands(deck: tuple[str, ...], size: int) -> st.SearchStrategy[list[str]]:
    return st.lists(st.sampled_from(deck), min_size=size, max_size=size, unique=True)


@settings(max_examples=300)
@given(st.integers(5, 7).flatmap(lambda n: hands(STANDARD_DECK, n)), st.data())
def test_standard_rank_ignores_card_order(cards: list[str], data: st.DataObject) -> None:
    shuffled = data.draw(st.permutations(cards))
    assert standard.best_rank(shuffled) == standard.best_rank(cards)


@settings(max_examples=200)
@given(st.sampled_from([32, 36]), st.data())
def test_short_deck_rank_ignores_card_order(deck_size: int, data: st.DataObject) -> None:
    deck = SHORT_DECK_32 if deck_size == 32 else SHORT_DECK_36
    cards = data.draw(hands(deck, 5))
    shuffled = data.draw(st.permutations(cards))
    assert short_deck.rank5(shuffled, deck_size) == short_deck.rank5(cards, deck_size)


@settings(max_examples=300)
@given(hands(STANDARD_DECK, 5), hands(STANDARD_DECK, 5), hands(STANDARD_DECK, 5))
def test_order_is_total_and_transitive(a: list[str], b: list[str], c: list[str]) -> None:
    """Codes are ints, so the checks are on the evaluator: exactly one of <, =, > holds,
    equal codes mean equal categories and descriptions, and < chains."""
    ra, rb, rc = standard.rank5(a), standard.rank5(b), standard.rank5(c)
    assert (ra < rb) + (ra == rb) + (ra > rb) == 1
    if ra == rb:
        assert standard.describe(ra) == standard.describe(rb)
        assert sorted(x[0] for x in a) == sorted(x[0] for x in b)
    if ra <= rb <= rc:
        assert ra <= rc


@settings(max_examples=200)
@given(hands(STANDARD_DECK, 3), st.data())
def test_front_rank_ignores_card_order(cards: list[str], data: st.DataObject) -> None:
    shuffled = data.draw(st.permutations(cards))
    assert chinese.rank3(shuffled) == chinese.rank3(cards)


@settings(max_examples=300)
@given(st.integers(5, 7).flatmap(lambda n: hands(STANDARD_DECK, n)))
def test_table_driven_rank_equals_reference(cards: list[str]) -> None:
    """``standard.best_rank`` (lookup tables) against the subset-search reference."""
    assert standard.best_rank(cards) == reference.best_rank(cards)


@settings(max_examples=200)
@given(st.sampled_from([32, 36]), st.data())
def test_short_deck_table_rank_equals_reference(deck_size: int, data: st.DataObject) -> None:
    deck = SHORT_DECK_32 if deck_size == 32 else SHORT_DECK_36
    cards = data.draw(st.integers(5, 7).flatmap(lambda n: hands(deck, n)))
    ranking = reference.SHORT_DECK_RANKINGS[deck_size]
    assert short_deck.best_rank(cards, deck_size) == reference.best_rank(cards, ranking)
