"""Main pot, side pots and uncalled bets, built from what each seat put in (FCD-11).

Pots come from contribution levels: every distinct amount a seat put in is a level; the
chips between two levels, from every seat that reached the upper one, form a layer that
only the non-folded seats among those contributors can win. Adjacent layers with the
same eligible seats are one pot. This is the usual side-pot rule, and it also settles
the irregular cases the engine lets through (a short call, a check facing a bet): a seat
can only win from others what it matched itself.

A layer only one seat reached is an uncalled bet and goes back to that seat (FCD-9:
"the uncalled part is returned"). A layer nobody eligible can win (every contributor
folded, possible only after irregular actions) joins the nearest pot below it (or above
it if there is none below), so every chip ends in exactly one pot.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Set
from dataclasses import dataclass


@dataclass(frozen=True)
class Pot:
    """One pot: ``amount`` chips, winnable by the ``eligible`` seats (seat order).
    ``level``: the contribution a seat needed to reach to be in it (its top)."""

    amount: int
    eligible: tuple[int, ...]
    level: int


@dataclass(frozen=True)
class PotBuild:
    """The pots, main pot first, and the uncalled chips returned per seat."""

    pots: tuple[Pot, ...]
    refunds: dict[int, int]

    @property
    def total(self) -> int:
        return sum(p.amount for p in self.pots) + sum(self.refunds.values())


def build_pots(
    contributions: Mapping[int, int],
    folded: Set[int],
    contenders: Sequence[int] = (),
) -> PotBuild:
    """Pots and refunds from each seat's chips in the pot (FCD-9, FCD-11).

    ``contenders``: the non-folded seats, used only when no layer has an eligible seat
    (every contributor folded), so the chips still have an owner.
    """
    layers, refunds = _layers(contributions, folded)
    pots = _attach_orphans(_merge_equal_neighbours(layers))
    if pots and not pots[-1].eligible:
        fallback = tuple(sorted(contenders)) or tuple(
            sorted(s for s, c in contributions.items() if c > 0))
        pots[-1] = Pot(pots[-1].amount, fallback, pots[-1].level)
    return PotBuild(tuple(pots), refunds)


def _layers(
    contributions: Mapping[int, int], folded: Set[int]
) -> tuple[list[Pot], dict[int, int]]:
    levels = sorted({c for c in contributions.values() if c > 0})
    layers: list[Pot] = []
    refunds: dict[int, int] = {}
    previous = 0
    for level in levels:
        reached = sorted(s for s, c in contributions.items() if c >= level)
        amount = (level - previous) * len(reached)
        if len(reached) == 1:
            seat = reached[0]
            refunds[seat] = refunds.get(seat, 0) + amount  # FCD-9: uncalled, returned
        else:
            eligible = tuple(s for s in reached if s not in folded)
            layers.append(Pot(amount, eligible, level))
        previous = level
    return layers, refunds


def _merge_equal_neighbours(layers: list[Pot]) -> list[Pot]:
    merged: list[Pot] = []
    for layer in layers:
        if merged and merged[-1].eligible == layer.eligible:
            last = merged[-1]
            merged[-1] = Pot(last.amount + layer.amount, last.eligible, layer.level)
        else:
            merged.append(layer)
    return merged


def _attach_orphans(pots: list[Pot]) -> list[Pot]:
    """Layers with no eligible seat join the nearest pot below (else above)."""
    out: list[Pot] = []
    carried = 0
    for pot in pots:
        if not pot.eligible:
            if out:
                last = out[-1]
                out[-1] = Pot(last.amount + pot.amount, last.eligible, pot.level)
            else:
                carried += pot.amount
            continue
        out.append(Pot(pot.amount + carried, pot.eligible, pot.level))
        carried = 0
    if carried:
        out.append(Pot(carried, (), pots[-1].level))
    return out
