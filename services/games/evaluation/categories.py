"""The hand categories of each ranking, worst first, as plain names.

Why a module of its own: a rule profile names categories (a Chinese Poker segment bonus
pays by the winning hand's category, CP-5) and checks them when it loads, which every
command does at start-up; the evaluators that define the order (``reference``) are only
needed once a hand is judged in Python, and building them costs each start a few
milliseconds. ``reference`` takes its orders from here, so there is one list.
"""

from __future__ import annotations

STANDARD_CATEGORIES: tuple[str, ...] = (
    "high_card",
    "one_pair",
    "two_pair",
    "three_of_a_kind",
    "straight",
    "flush",
    "full_house",
    "four_of_a_kind",
    "straight_flush",
)

# FCD-10: flush ranks above full house in the short decks.
SHORT_DECK_CATEGORIES: tuple[str, ...] = (
    "high_card",
    "one_pair",
    "two_pair",
    "three_of_a_kind",
    "straight",
    "full_house",
    "flush",
    "four_of_a_kind",
    "straight_flush",
)
