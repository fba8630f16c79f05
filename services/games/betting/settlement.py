"""Settle a pot game: refunds, rake, pots awarded, expected net per seat.

One function a game calls once the cards are known: what each seat put in, who folded,
each remaining hand's strength, the button and the posted rake. The result is the
expected side of the adjudication record (net after rake, rake per paying seat) plus the
pieces a dispute report prints (pots, winners, shares).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Set
from dataclasses import dataclass

from services.games.betting.pots import Pot, build_pots
from services.games.betting.rake import RakePolicy, cap_charges, rake_charges, take_from_pots
from services.games.betting.showdown import PotAward, award_pots


@dataclass(frozen=True)
class Settlement:
    """``net``: stack change per seat after rake; ``rake``: rake per paying seat;
    ``house`` = total rake; ``pots``: before rake; ``awards``: after rake."""

    net: dict[int, int]
    rake: dict[int, int]
    refunds: dict[int, int]
    pots: tuple[Pot, ...]
    awards: tuple[PotAward, ...]

    @property
    def house(self) -> int:
        return sum(self.rake.values())

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
) -> Settlement:
    """Uncalled bets back (FCD-9), rake off the top (GEN-10), pots to the best eligible
    hands with the odd-chip rule (FCD-11)."""
    seats: Sequence[int] = sorted(contributions)
    contenders = [s for s in seats if s not in folded]
    build = build_pots(contributions, folded, contenders)
    participants = [s for s in seats if contributions[s] > 0]
    available = sum(p.amount for p in build.pots)
    charges = cap_charges(rake_charges(rake, participants, seats, button), available, button)
    raked = take_from_pots(build.pots, sum(charges.values()))
    awards = tuple(award_pots(raked, strengths, button))
    net = {}
    for seat in seats:
        won = sum(a.shares.get(seat, 0) for a in awards)
        net[seat] = won + build.refunds.get(seat, 0) - contributions[seat]
    return Settlement(net, charges, dict(build.refunds), build.pots, awards)
