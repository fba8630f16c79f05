"""Positions around the table: clockwise order, blinds, who acts first.

Seats are numbered clockwise (events.md), so "left of seat X" is the next higher seat
number among the seats dealt in, wrapping round. The button need not be a seat dealt in
(a dead button): every search starts from its number and goes clockwise.
"""

from __future__ import annotations

from collections.abc import Sequence


def clockwise_after(seats: Sequence[int], anchor: int) -> list[int]:
    """All ``seats`` in clockwise order starting with the first one left of ``anchor``.

    ``anchor`` itself, if dealt in, comes last: the order in which a round that starts
    left of the anchor reaches everyone.
    """
    ordered = sorted(seats)
    after = [s for s in ordered if s > anchor]
    before = [s for s in ordered if s <= anchor]
    return after + before


def blind_seats(seats: Sequence[int], button: int) -> tuple[int, int]:
    """(small blind, big blind) seats (FCD-3 / TH-1).

    The player left of the button posts the small blind and the next the big blind;
    heads-up the button posts the small blind and the other player the big blind.
    """
    if len(seats) < 2:
        raise ValueError("blinds need at least two players")
    if len(seats) == 2 and button in seats:
        other = next(s for s in seats if s != button)
        return button, other
    order = clockwise_after(seats, button)
    return order[0], order[1]


def first_left_of(seats: Sequence[int], anchor: int) -> int | None:
    """The first of ``seats`` clockwise from ``anchor`` (excluded unless it is alone)."""
    order = clockwise_after(seats, anchor)
    return order[0] if order else None
