"""Category names and human-readable descriptions of rank codes, for findings and reports."""

from __future__ import annotations

from services.games.evaluation.rankcode import (
    category_of,
    rank_name,
    rank_plural,
    ranks_of,
)
from services.games.evaluation.reference import Ranking


def category_name(code: int, ranking: Ranking) -> str:
    return ranking.categories[category_of(code)]


def is_royal(code: int, ranking: Ranking) -> bool:
    """A royal flush is the ace-high straight flush (its own paytable line in RP-7)."""
    return category_name(code, ranking) == "straight_flush" and ranks_of(code)[0] == 14


def describe(code: int, ranking: Ranking) -> str:
    """E.g. "Flush, king high", "Two pair, nines and fours", "Full house, kings over sevens"."""
    category = category_name(code, ranking)
    ranks = ranks_of(code)
    first = ranks[0]
    if category == "straight_flush":
        return "Royal flush" if first == 14 else f"Straight flush, {rank_name(first)} high"
    if category == "four_of_a_kind":
        return f"Four of a kind, {rank_plural(first)}"
    if category == "full_house":
        return f"Full house, {rank_plural(first)} over {rank_plural(ranks[1])}"
    if category == "flush":
        return f"Flush, {rank_name(first)} high"
    if category == "straight":
        return f"Straight, {rank_name(first)} high"
    if category == "three_of_a_kind":
        return f"Three of a kind, {rank_plural(first)}"
    if category == "two_pair":
        return f"Two pair, {rank_plural(first)} and {rank_plural(ranks[1])}"
    if category == "one_pair":
        return f"One pair, {rank_plural(first)}"
    return f"High card, {rank_name(first)}"
