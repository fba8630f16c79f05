"""The Five Card Draw 7-A table's own cashier, as the simulator's table pays a hand: the
uncalled bet back, side pots peeled from the lowest live stake, the rake (GEN-10: from each
payer's own stack after the pots are paid, or off the top of the pot, as the profile
reads it), each pot to the best shown eligible hand with the odd chip clockwise from the
button's left (FCD-11), and the events that record it.

Written apart from ``services.games.betting`` on purpose: the simulator is the table the
adjudicator audits, so a mistake shared by both would hide itself
(``tests/unit/draw7a/test_properties.py`` cross-checks the two).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

Spec = tuple[str, dict[str, Any]]


@dataclass
class PotShare:
    """One pot of the independent settlement: amount and eligible seats."""

    amount: int
    eligible: list[int]


def clockwise_from_button(seats: Sequence[int], button: int) -> list[int]:
    ordered = sorted(seats)
    return [s for s in ordered if s > button] + [s for s in ordered if s <= button]


def uncalled(contributions: dict[int, int]) -> tuple[int | None, int]:
    """The seat whose last chips nobody matched, and how many (FCD-9)."""
    ranked = sorted(contributions.items(), key=lambda kv: kv[1], reverse=True)
    if len(ranked) < 2 or ranked[0][1] <= ranked[1][1]:
        return None, 0
    return ranked[0][0], ranked[0][1] - ranked[1][1]


def peel_pots(contributions: dict[int, int], live: set[int]) -> list[PotShare]:
    """Side pots by peeling the smallest remaining stake of a live (non-folded) seat."""
    remaining = dict(contributions)
    pots: list[PotShare] = []
    while any(v > 0 for v in remaining.values()):
        in_play = sorted(s for s in live if remaining.get(s, 0) > 0)
        if not in_play:
            if pots:
                pots[-1].amount += sum(remaining.values())
            break
        level = min(remaining[s] for s in in_play)
        amount = 0
        for seat in remaining:
            taken = min(remaining[seat], level)
            remaining[seat] -= taken
            amount += taken
        pots.append(PotShare(amount, in_play))
    return pots


def rake_due(mode: str, fee: int, participants: list[int], button: int,
             designated_counts_button: bool, dealt: list[int],
             all_charges_button: bool) -> dict[int, int]:
    """GEN-10 as this table's cashier applies it: fee per participant in the posted mode
    (``all_charges_button``: in ``all`` mode the button dealt in pays too, chips in or
    not)."""
    if mode == "none" or fee == 0:
        return {}
    if mode == "all":
        payers = set(participants)
        if all_charges_button and participants and button in dealt:
            payers.add(button)
        return {s: fee for s in sorted(payers)}
    if mode == "players":
        return {s: fee for s in participants if s != button}
    count = sum(1 for s in participants if designated_counts_button or s != button)
    return {button: fee * count} if count and button in dealt else {}


def cap_rake(due: dict[int, int], available: int, button: int) -> dict[int, int]:
    """Never more rake than the pot: payers from the button's left pay while chips last."""
    if sum(due.values()) <= available:
        return due
    capped: dict[int, int] = {}
    for seat in clockwise_from_button(list(due), button):
        paid = min(due[seat], available)
        available -= paid
        if paid:
            capped[seat] = paid
    return capped


def award_pot(pot: PotShare, shown: dict[int, int], button: int) -> list[tuple[int, int]]:
    """Best shown hand among the eligible wins; ties split, odd chips clockwise from the
    button's left (FCD-11)."""
    ranked = [s for s in pot.eligible if s in shown] or list(pot.eligible)
    best = max(shown.get(s, 0) for s in ranked)
    winners = clockwise_from_button([s for s in ranked if shown.get(s, 0) == best], button)
    share, odd = divmod(pot.amount, len(winners))
    return [(seat, share + (1 if i < odd else 0)) for i, seat in enumerate(winners)]


@dataclass
class TablePlan:
    """What the table pays: the uncalled bet, the rake per seat (and where it came
    from), each pot's shares."""

    refund_seat: int | None
    refund: int
    rake: dict[int, int]
    pots: list[PotShare]
    shares: list[list[tuple[int, int]]]
    fee_from: str = "stack"


@dataclass(frozen=True)
class PostedRake:
    """The table's posted mode and fee with the profile's GEN-10 readings."""

    mode: str
    fee: int
    designated_counts_button: bool
    fee_from: str
    all_charges_button: bool


def settle_as_table(
    contributions: dict[int, int], contenders: list[int], shown: dict[int, int],
    button: int, posted: PostedRake, behind: dict[int, int],
) -> TablePlan:
    """This table's cashier: uncalled bet back, each pot to the best shown eligible hand,
    and the rake: off the top of the pot first (main pot first) when the fee comes from
    the pot, or from each payer's own chips after the pots are paid, never more than it
    then holds. ``shown``: rank per seat that showed; ``behind``: chips each seat kept
    out of the pot."""
    seats = sorted(contributions)
    participants = [s for s in seats if contributions[s] > 0]
    matched = dict(contributions)
    refund_seat, refund = uncalled(matched)
    if refund_seat is not None:
        matched[refund_seat] -= refund
    pots = peel_pots(matched, set(contenders))
    due = rake_due(posted.mode, posted.fee, participants, button,
                   posted.designated_counts_button, seats, posted.all_charges_button)
    rake: dict[int, int] = {}
    if posted.fee_from == "pot":
        rake = cap_rake(due, sum(p.amount for p in pots), button)
        remaining = sum(rake.values())
        for pot in pots:
            taken = min(pot.amount, remaining)
            pot.amount -= taken
            remaining -= taken
    shares = [award_pot(pot, shown, button) for pot in pots]
    if posted.fee_from == "stack":
        holding = dict(behind)
        if refund_seat is not None:
            holding[refund_seat] = holding.get(refund_seat, 0) + refund
        for pot_shares in shares:
            for seat, amount in pot_shares:
                holding[seat] = holding.get(seat, 0) + amount
        rake = {seat: min(owed, holding.get(seat, 0)) for seat, owed in due.items()
                if min(owed, holding.get(seat, 0)) > 0}
    return TablePlan(refund_seat, refund, rake, pots, shares, posted.fee_from)


def plan_events(plan: TablePlan) -> list[Spec]:
    """The refund, rake and pot payouts as the table records them: a fee from the pot is
    taken before the pots are paid, a fee from a stack after."""
    events: list[Spec] = []
    if plan.refund_seat is not None:
        events.append(("payout", {"seat": plan.refund_seat, "amount": plan.refund,
                                  "source": "pot", "kind": "refund"}))
    fees: list[Spec] = [("rake_collected", {"seat": seat, "amount": amount,
                                            "from": plan.fee_from})
                        for seat, amount in plan.rake.items()]
    if plan.fee_from == "pot":
        events += fees
    for shares in plan.shares:
        for seat, amount in shares:
            if amount > 0:
                events.append(("payout", {"seat": seat, "amount": amount, "source": "pot",
                                          "kind": "pot"}))
    if plan.fee_from != "pot":
        events += fees
    return events
