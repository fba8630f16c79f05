"""Rake at player-versus-player pot tables (GEN-10, in the modes of HCF-12).

A fee per participant, in one of three posted modes (``table_configured.rake``), with
"the DP" read as "the player on the button". A participant is a seat dealt in that put
chips in the pot (a blind counts; folding later does not matter). Whether ``all`` mode
also charges a button that put nothing in is a reading (``[rake] all_charges_button``).

Where a fee comes from is a reading of the game's profile section (``[rake] fee_from``):

- ``stack`` (house-v1, GEN-10 **Reading**): as at HCF, each fee is a participation fee its
  payer pays from its own chips once the pots are awarded (the table records
  ``rake_collected`` with that ``seat`` and ``from: "stack"``), never more than that seat
  then holds. The pot is not touched, so a winner never bears another seat's fee.
- ``pot``: a room that takes the fee out of the pot: off the top, main pot first, before
  the pots are awarded, booked against the seat it is charged to (``rake_collected``
  with that ``seat``, ``from: "pot"``), never more than the pot.

A room that rakes the pot itself posts a **pot rake schedule** (``[rake.pot]``, house-v1:
none): a percentage of the pot, rounded to the room's chip unit, capped by the number of
players dealt in, nothing below a minimum pot, nothing when the hand ends before the
flop ("no flop, no drop"). It is taken off the top of the pots (main pot first) after
uncalled bets are returned and before they are awarded, and the table records it as
``rake_collected`` from the pot with no seat. It comes in addition to any fee the table
posts (``table_configured.rake``); a room that rakes only the pot posts mode ``none``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from services.events.contract import RakeConfig
from services.games.betting.pots import Pot
from services.games.betting.seating import clockwise_after
from services.games.pot_sections import FeeFrom, PotGameRake, PotRakeSchedule, Rounding

RakeMode = Literal["all", "players", "designated", "none"]


@dataclass(frozen=True)
class PotRakeHand:
    """What a pot rake schedule needs to know about the hand: the players dealt in, and
    whether it got past its first betting round (hold'em: a flop was dealt)."""

    players_dealt: int
    past_first_round: bool


@dataclass(frozen=True)
class RakePolicy:
    """The table's posted rake (mode and fee) with the profile's readings; ``schedule``
    and ``hand``: the pot rake, when the profile posts one. ``posted`` sets every reading
    from the profile (``all_charges_button`` included: its default is only for a policy
    written out by hand, and is house-v1's)."""

    mode: RakeMode
    fee: int
    designated_counts_button: bool
    fee_from: FeeFrom
    schedule: PotRakeSchedule | None = None
    hand: PotRakeHand | None = None
    all_charges_button: bool = False

    @classmethod
    def posted(cls, rake: RakeConfig, readings: PotGameRake,
               hand: PotRakeHand | None = None) -> RakePolicy:
        """The policy of a table posting ``rake`` under a profile's ``readings``."""
        schedule = readings.pot if readings.pot.posted else None
        return cls(rake.mode, rake.fee, readings.designated_counts_button, readings.fee_from,
                   schedule, hand, readings.all_charges_button)


@dataclass(frozen=True)
class PotRake:
    """The pot rake of one hand and how the schedule gave it (for the decision path)."""

    amount: int
    why: str


def pot_rake(policy: RakePolicy, pot: int) -> PotRake:
    """The schedule applied to ``pot`` (the pots' total after uncalled bets went back)."""
    schedule, hand = policy.schedule, policy.hand
    if schedule is None or hand is None or pot <= 0:
        return PotRake(0, "")
    if schedule.no_flop_no_drop and not hand.past_first_round:
        return PotRake(0, "no pot rake: the hand ended before the flop (no flop, no drop)")
    if pot < schedule.minimum_pot:
        return PotRake(0, f"no pot rake: the pot of {pot} is below the minimum "
                          f"{schedule.minimum_pot}")
    rate = f"{schedule.rate_numerator}/{schedule.rate_denominator}"
    amount = _rounded(pot * schedule.rate_numerator, schedule.rate_denominator * schedule.unit,
                      schedule.rounding) * schedule.unit
    why = (f"pot rake {rate} of the pot of {pot}, {schedule.rounding} to {schedule.unit} "
           f"chip(s): {amount}")
    cap = next((row.cap for row in schedule.caps if hand.players_dealt >= row.min_players),
               None)
    if cap is not None and amount > cap:
        amount = cap
        why += f", capped at {cap} for {hand.players_dealt} players dealt in"
    return PotRake(min(amount, pot), why)


def _rounded(numerator: int, denominator: int, rounding: Rounding) -> int:
    """``numerator / denominator`` as a whole number of units, rounded as posted."""
    if rounding == "down":
        return numerator // denominator
    if rounding == "up":
        return -(-numerator // denominator)
    return (2 * numerator + denominator) // (2 * denominator)


def rake_charges(
    policy: RakePolicy, participants: Sequence[int], dealt: Sequence[int], button: int
) -> dict[int, int]:
    """What each seat owes under the posted mode (GEN-10), before any cap.

    ``all``: every participant; with ``all_charges_button`` (GEN-10 reading: "and so does
    the DP", the DP read as the button) the button too when it was dealt in, chips in the
    pot or not. ``players``: every participant but the player on the button (GEN-10 reads
    "the DP" as the button). ``designated``: the button pays for the counted participants
    whether or not it put chips in itself; a button on a seat nobody was dealt in from (a
    dead button) has no player to pay, so no rake is due.
    """
    if policy.mode == "none" or policy.fee == 0 or not participants:
        return {}
    if policy.mode == "all":
        payers = list(participants)
        if policy.all_charges_button and button in dealt and button not in payers:
            payers = sorted([*payers, button])  # GEN-10 reading: the button pays as well
        return {seat: policy.fee for seat in payers}
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
