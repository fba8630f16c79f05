"""Exhaustive category counts, checked against published counts and against
combinatorial formulas computed here independently of the evaluators."""

from __future__ import annotations

from itertools import product
from math import comb, prod

import numpy as np
import pytest

from services.games.evaluation import batch, standard
from services.games.evaluation.reference import SHORT_32, SHORT_36, Ranking

FIVE_CARD_COUNTS = {  # published counts of the 2,598,960 five-card hands
    "straight_flush": 36 + 4,  # 36 straight flushes + 4 royal flushes
    "four_of_a_kind": 624,
    "full_house": 3744,
    "flush": 5108,
    "straight": 10200,
    "three_of_a_kind": 54912,
    "two_pair": 123552,
    "one_pair": 1098240,
    "high_card": 1302540,
}

SEVEN_CARD_COUNTS = {  # published best-five counts of the 133,784,560 seven-card hands
    "straight_flush": 41584,
    "four_of_a_kind": 224848,
    "full_house": 3473184,
    "flush": 4047644,
    "straight": 6180020,
    "three_of_a_kind": 6461620,
    "two_pair": 31433400,
    "one_pair": 58627800,
    "high_card": 23294460,
}


def test_all_five_card_hands_by_array() -> None:
    """Every 5-card hand as an array row through the public batch API."""
    codes = batch.rank5(batch.colex_combinations(52, 5))
    assert len(codes) == comb(52, 5) == 2_598_960
    assert batch.category_counts(codes) == FIVE_CARD_COUNTS
    royal = [standard.is_royal(code) for code in np.unique(codes).tolist()]
    assert sum(royal) == 1  # one royal class ...
    royal_code = np.unique(codes)[royal].item()
    assert int((codes == royal_code).sum()) == 4  # ... of 4 hands


def test_all_five_card_hands_by_enumeration() -> None:
    assert batch.all_category_counts(size=5) == FIVE_CARD_COUNTS


@pytest.mark.slow
def test_all_seven_card_hands() -> None:
    counts = batch.all_category_counts(size=7)
    assert sum(counts.values()) == comb(52, 7) == 133_784_560
    assert counts == SEVEN_CARD_COUNTS


def short_deck_formula(ranks: int) -> dict[str, int]:
    """Five-card counts for a deck of ``ranks`` ranks x 4 suits whose straights are the
    ``ranks - 3`` windows of five consecutive ranks (the ace-low one included): e.g. 32
    cards 7..A: A-7-8-9-T, 7-J, 8-Q, 9-K, T-A = 5 windows.

    straight flush: 4 suits per window; flush: C(r,5) rank sets minus the straights,
    4 suits; straight: windows x (4^5 - 4 non-flush suitings); four of a kind: r ranks,
    kicker any of the other 4(r-1) cards; full house: r x C(4,3) x (r-1) x C(4,2);
    trips: r x 4 x C(r-1,2) kicker ranks x 4^2 suits; two pair: C(r,2) x 6^2 x (r-2) x
    4; pair: r x 6 x C(r-1,3) x 4^3; high card: non-straight rank sets x non-flush suits.
    """
    windows = ranks - 3
    non_flush_suitings = 4**5 - 4
    return {
        "straight_flush": 4 * windows,
        "four_of_a_kind": ranks * 4 * (ranks - 1),
        "flush": 4 * (comb(ranks, 5) - windows),
        "full_house": ranks * 4 * (ranks - 1) * 6,
        "straight": windows * non_flush_suitings,
        "three_of_a_kind": ranks * 4 * comb(ranks - 1, 2) * 16,
        "two_pair": comb(ranks, 2) * 36 * (ranks - 2) * 4,
        "one_pair": ranks * 6 * comb(ranks - 1, 3) * 64,
        "high_card": (comb(ranks, 5) - windows) * non_flush_suitings,
    }


@pytest.mark.parametrize(("ranking", "ranks"), [(SHORT_32, 8), (SHORT_36, 9)], ids=["32", "36"])
def test_short_deck_five_card_counts_match_formula(ranking: Ranking, ranks: int) -> None:
    expected = short_deck_formula(ranks)
    assert sum(expected.values()) == comb(4 * ranks, 5)
    assert batch.all_category_counts(ranking, 5) == expected


def test_short_deck_32_formula_by_hand() -> None:
    """Spot values of the 32-card formula worked by hand: flushes C(8,5)=56 rank sets
    minus 5 straights = 51, times 4 suits = 204 (fewer than full houses, 8*4*7*6 = 1344,
    which is why FCD-10 ranks the flush higher); straight flushes 5*4 = 20."""
    formula = short_deck_formula(8)
    assert formula["flush"] == 204
    assert formula["full_house"] == 1344
    assert formula["straight_flush"] == 20


def flush_length_formula() -> dict[int, int]:
    """Seven-card hands by their longest suit: sum over suit-count vectors (a, b, c, d)
    with a+b+c+d = 7 of C(13,a) C(13,b) C(13,c) C(13,d), grouped by max(a, b, c, d)."""
    out: dict[int, int] = {}
    for counts in product(range(8), repeat=4):
        if sum(counts) == 7:
            longest = max(counts)
            out[longest] = out.get(longest, 0) + prod(comb(13, c) for c in counts)
    return out


def test_flush_length_formula_by_hand() -> None:
    """7-card flushes: 4 suits x C(13,7) = 4 x 1716 = 6864."""
    assert flush_length_formula()[7] == 6864
    assert sum(flush_length_formula().values()) == comb(52, 7)


@pytest.mark.slow
def test_all_seven_card_flush_lengths() -> None:
    """HCF-6 flush lengths over all C(52,7) hands by enumeration equal the formula."""
    assert batch.all_flush_lengths7() == flush_length_formula()


def test_flush_lengths7_on_examples() -> None:
    """Hand-counted: 4 hearts + 3 clubs -> 4; seven spades -> 7; 2/2/2/1 -> 2."""
    hands = batch.encode([
        ["Ah", "Kh", "2h", "5h", "3c", "4c", "9c"],
        ["As", "Ks", "Qs", "Js", "9s", "3s", "2s"],
        ["Ah", "Kh", "2c", "5c", "3d", "4d", "9s"],
    ])  # fmt: skip
    assert batch.flush_lengths7(hands).tolist() == [4, 7, 2]
