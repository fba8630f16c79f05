"""Rake at player-versus-player pot tables (GEN-10, in the modes of HCF-12).

A fee per participant, in one of three posted modes (``table_configured.rake``), with
``designated`` read as "the player on the button". A participant is a seat dealt in that
put chips in the pot (a blind counts; folding later does not matter).

Where a fee comes from is a reading of the game's profile section (``[rake] fee_from``):

- ``stack`` (house-v1, GEN-10 **Reading**): as at HCF, each fee is a participation fee its
  payer pays from its own chips once the pots are awarded (the table records
  ``rake_collected`` with that ``seat`` and ``from: "stack"``), never more than that seat
  then holds. The pot is not touched, so a winner never bears another seat's fee.
- ``pot``: a room that takes the fee out of the pot: off the top, main pot first, before
  the pots are awarded, booked against the seat it is charged to (``rake_collected``
  with that ``seat``, ``from: "pot"``), never more than the pot.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import msgspec

from services.events.contract import RakeConfig
from services.games.betting.pots import Pot
from services.games.betting.seating import clockwise_after

RakeMode = Literal["all", "players", "designated", "none"]
FeeFrom = Literal["stack", "pot"]


class PotGameRake(msgspec.Struct, forbid_unknown_fields=True):
    """The ``[rake]`` table of a pot game's profile section: the GEN-10 readings.

    ``designated_counts_button``: in ``designated`` mode the button pays the fee for every
    participant including itself (true) or only for the others (false, the HCF-12 wording
    where the banker is not a participant). ``fee_from``: where a fee comes from (module
    docstring)."""

    designated_counts_button: bool
    fee_from: FeeFrom


@dataclass(frozen=True)
class RakePolicy:
    """The table's posted rake (mode and fee) with the profile's readings."""

    mode: RakeMode
    fee: int
    designated_counts_button: bool
    fee_from: FeeFrom

    @classmethod
    def posted(cls, rake: RakeConfig, readings: PotGameRake) -> RakePolicy:
        """The policy of a table posting ``rake`` under a profile's ``readings``."""
        return cls(rake.mode, rake.fee, readings.designated_counts_button, readings.fee_from)


def rake_charges(
    policy: RakePolicy, participants: Sequence[int], dealt: Sequence[int], button: int
) -> dict[int, int]:
    """What each seat owes under the posted mode (GEN-10), before any cap.

    ``players``: every participant but the player on the button (GEN-10 reads "the DP"
    as the button). ``designated``: the button pays for the counted participants whether
    or not it put chips in itself; a button on a seat nobody was dealt in from (a dead
    button) has no player to pay, so no rake is due.
    """
    if policy.mode == "none" or policy.fee == 0 or not participants:
        return {}
    if policy.mode == "all":
        return {seat: policy.fee for seat in participants}
    if policy.mode == "players":
        return {seat: policy.fee for seat in participants if seat != button}
    counted = [s for s in participants if policy.designated_counts_button or s != button]
    if not counted or button not in dealt:
        return {}
    return {button: policy.fee * len(counted)}


def cap_charges(charges: dict[int, int], available: int, button: int) -> dict[int, int]:
    """A fee from the pot never exceeds the pot: payers clockwise from the button's left
    pay in full while chips remain, the rest pay what is left."""
    if sum(charges.values()) <= available:
        return dict(charges)
    capped: dict[int, int] = {}
    remaining = available
    for seat in clockwise_after(list(charges), button):
        paid = min(charges[seat], remaining)
        if paid:
            capped[seat] = paid
        remaining -= paid
    return capped


def cap_at_stacks(charges: dict[int, int], holding: dict[int, int]) -> dict[int, int]:
    """A fee from the stack never exceeds what the paying seat holds after the pots are
    awarded (a seat that lost its whole stack all-in pays nothing)."""
    capped = {seat: min(charge, max(holding.get(seat, 0), 0))
              for seat, charge in charges.items()}
    return {seat: charge for seat, charge in capped.items() if charge}


def take_from_pots(pots: Sequence[Pot], total: int) -> list[Pot]:
    """Deduct ``total`` rake from the pots, main pot first."""
    out: list[Pot] = []
    remaining = total
    for pot in pots:
        taken = min(pot.amount, remaining)
        remaining -= taken
        out.append(Pot(pot.amount - taken, pot.eligible, pot.level))
    if remaining:
        raise ValueError("rake larger than the pots (cap the charges first)")
    return out
