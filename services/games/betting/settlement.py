"""Settle a pot game: refunds, rake, pots awarded, expected net per seat.

One function a game calls once the cards are known: what each seat put in, who folded,
each remaining hand's strength, the button and the posted rake. The result is the
expected side of the adjudication record (net after rake, rake per paying seat) plus the
pieces a dispute report prints (pots, winners, shares).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Set
from dataclasses import dataclass, field

from services.games.betting.pots import Pot, PotBuild, build_pots
from services.games.betting.rake import (
    PotRake,
    RakePolicy,
    cap_at_stacks,
    cap_charges,
    pot_rake,
    rake_charges,
    take_from_pots,
)
from services.games.betting.showdown import PotAward, award_pots
from services.games.pot_sections import FeeFrom


@dataclass(frozen=True)
class Settlement:
    """``net``: stack change per seat after rake; ``rake``: each seat's fee; ``pot_rake``:
    what the pot rake schedule took from the pot (no seat's); ``house`` = all of it;
    ``pots``: before rake; ``awards``: after any rake taken from the pot; ``fee_from``:
    where the seats' fees came from (GEN-10 reading)."""

    net: dict[int, int]
    rake: dict[int, int]
    refunds: dict[int, int]
    pots: tuple[Pot, ...]
    awards: tuple[PotAward, ...]
    fee_from: FeeFrom = "stack"
    pot_rake: PotRake = field(default_factory=lambda: PotRake(0, ""))

    @property
    def house(self) -> int:
        return sum(self.rake.values()) + self.pot_rake.amount

    def paid(self, seat: int) -> int:
        """Chips the seat receives from the pots (refund included)."""
        won = sum(a.shares.get(seat, 0) for a in self.awards)
        return won + self.refunds.get(seat, 0)


def settle(
    contributions: Mapping[int, int],
    folded: Set[int],
    strengths: Mapping[int, int | None],
    button: int,
    rake: RakePolicy,
    stacks_left: Mapping[int, int] | None = None,
) -> Settlement:
    """Uncalled bets back (FCD-9), the GEN-10 rake (from the pot before the award or from
    the stacks after it, per ``rake.fee_from``), pots to the best eligible hands with the
    odd-chip rule (FCD-11). ``stacks_left``: each seat's chips behind once the betting is
    over; needed when the fees come from the stacks (it caps them)."""
    seats: Sequence[int] = sorted(contributions)
    contenders = [s for s in seats if s not in folded]
    build = build_pots(contributions, folded, contenders)
    return rake_and_award(build, list(build.pots), contributions, strengths, button, rake,
                          stacks_left)


def rake_and_award(
    build: PotBuild,
    pots: list[Pot],
    contributions: Mapping[int, int],
    strengths: Mapping[int, int | None],
    button: int,
    rake: RakePolicy,
    stacks_left: Mapping[int, int] | None,
) -> Settlement:
    """The steps after the pots are built (``pots``: ``build.pots``, or with dead money
    added): GEN-10 fees from the pot before the award, or from the stacks after it, then
    the awards and each seat's net after rake."""
    seats: Sequence[int] = sorted(contributions)
    participants = [s for s in seats if contributions[s] > 0]
    schedule = pot_rake(rake, sum(p.amount for p in pots))
    raked = take_from_pots(pots, schedule.amount)
    charges = rake_charges(rake, participants, seats, button)
    if rake.fee_from == "pot":
        charges = cap_charges(charges, sum(p.amount for p in raked), button)
        raked = take_from_pots(raked, sum(charges.values()))
    awards = tuple(award_pots(raked, strengths, button))
    net = {}
    for seat in seats:
        won = sum(a.shares.get(seat, 0) for a in awards)
        net[seat] = won + build.refunds.get(seat, 0) - contributions[seat]
    if rake.fee_from == "stack" and charges:
        if stacks_left is None:
            raise ValueError("rake from the stacks needs each seat's chips behind")
        holding = {seat: stacks_left.get(seat, 0) + net[seat] + contributions[seat]
                   for seat in seats}
        charges = cap_at_stacks(charges, holding)
        for seat, charge in charges.items():
            net[seat] -= charge
    return Settlement(net, charges, dict(build.refunds), tuple(pots), awards, rake.fee_from,
                      schedule)
