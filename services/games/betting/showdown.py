"""Who wins each pot, and the odd chip (FCD-9, FCD-11).

Hand strengths are plain integers (higher wins) from the game's own evaluator, so the
same code settles short-deck Draw and standard Hold'em. A seat with no strength (mucked
at showdown, or its hand unknown) cannot win a pot while another eligible seat has one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from services.games.betting.pots import Pot
from services.games.betting.seating import clockwise_after


@dataclass(frozen=True)
class PotAward:
    """How one pot (after rake) was shared: ``shares`` per winning seat."""

    index: int
    amount: int
    eligible: tuple[int, ...]
    winners: tuple[int, ...]
    shares: dict[int, int]


def split_pot(amount: int, winners: Sequence[int], button: int) -> dict[int, int]:
    """FCD-11: equal hands split the pot; the odd chip goes to the first winner left of
    the button (with several odd chips, one each clockwise from there)."""
    if not winners:
        raise ValueError("a pot needs at least one winner")
    share, odd = divmod(amount, len(winners))
    order = clockwise_after(winners, button)
    return {seat: share + (1 if i < odd else 0) for i, seat in enumerate(order)}


def pot_winners(pot: Pot, strengths: Mapping[int, int | None]) -> tuple[int, ...]:
    """The best hands among the pot's eligible seats (all of them tie if none shows)."""
    ranked = [s for s in pot.eligible if strengths.get(s) is not None]
    if not ranked:
        return pot.eligible
    best = max(strengths[s] or 0 for s in ranked)
    return tuple(s for s in ranked if strengths[s] == best)


def award_pots(
    pots: Sequence[Pot], strengths: Mapping[int, int | None], button: int
) -> list[PotAward]:
    """Each pot to the best eligible hand (FCD-11), split with the odd-chip rule."""
    awards: list[PotAward] = []
    for index, pot in enumerate(pots):
        winners = pot_winners(pot, strengths)
        shares = split_pot(pot.amount, winners, button) if pot.amount else {}
        awards.append(PotAward(index, pot.amount, pot.eligible, winners, shares))
    return awards
