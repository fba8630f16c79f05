"""What a correct hold'em table pays, as the simulator's table pays it: side pots by
contribution levels, uncalled bets back, the rake (GEN-10: from each payer's own stack
after the pots are paid, or off the main pot first, as the profile reads it), each pot to
its best hand, the odd chip to the first winner left of the button (TH-9), and the
settlement faults injected into it.

Written from rules.md apart from ``services.games.holdem`` and the shared pot code on
purpose: the simulator is the table the adjudicator audits, so a mistake shared by both
would hide itself.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Protocol

from services.events.contract import TableConfigured


class FaultHooks(Protocol):
    """The hand being simulated, as the settlement sees it: whether a settlement fault is
    to be injected now (``wants``) and the record that it was (``mark``)."""

    def wants(self, fault: str) -> bool: ...
    def mark(self, seat: int | None, detail: str) -> None: ...


@dataclass
class Payment:
    refunds: dict[int, int] = field(default_factory=dict)
    rake: dict[int, int] = field(default_factory=dict)
    won: dict[int, int] = field(default_factory=dict)


def settle_independently(contributions: dict[int, int], folded: frozenset[int],
                         ranks: dict[int, int], button: int, config: TableConfigured,
                         fee_from: str, behind: dict[int, int],
                         rng: random.Random, run: FaultHooks,
                         all_charges_button: bool) -> Payment:
    """Side pots by contribution levels, uncalled bets back, the rake (GEN-10), each pot
    to its best hand, the odd chip to the first winner left of the button — and the
    settlement faults. ``fee_from`` "pot": the fees come off the main pot first;
    "stack": each payer pays from what it holds once the pots are paid (``behind``: the
    chips it kept out of the pot), never more. ``all_charges_button``: the profile's
    GEN-10 reading of ``all`` mode (the button pays too, chips in or not)."""
    pay = Payment()
    levels = sorted({c for c in contributions.values() if c > 0})
    pots: list[list[Any]] = []  # [amount, eligible seats]
    previous = orphan = 0
    for level in levels:
        reached = [s for s, c in contributions.items() if c >= level]
        amount = (level - previous) * len(reached)
        previous = level
        if len(reached) == 1:
            pay.refunds[reached[0]] = pay.refunds.get(reached[0], 0) + amount
            continue
        eligible = sorted(s for s in reached if s not in folded)
        if pots and (pots[-1][1] == eligible or not eligible):
            pots[-1][0] += amount  # same players, or nobody left to win it: the pot below
        elif not eligible:
            orphan += amount  # nobody can win it and no pot below: joins the next pot
        else:
            pots.append([amount + orphan, eligible])
            orphan = 0
    due = _rake(contributions, button, config, all_charges_button)
    if fee_from == "pot":
        pay.rake = due
        _rake_over(pay, run)
        taken = sum(pay.rake.values())
        for pot in pots:
            cut = min(pot[0], taken)
            pot[0] -= cut
            taken -= cut
    best_overall = _winners(list(ranks), ranks) if ranks else []
    for amount, eligible in pots:
        winners = _winners(eligible, ranks) if ranks else eligible
        if run.wants("side_pot_to_best_hand") and best_overall and winners != best_overall \
                and set(best_overall) <= set(ranks):
            run.mark(best_overall[0], "a side pot paid to the best hand overall")
            winners = best_overall
        shares = _split(amount, winners, button, run)
        for seat, share in shares.items():
            pay.won[seat] = pay.won.get(seat, 0) + share
    if run.wants("mispay") and pay.won:
        seat = max(pay.won, key=lambda s: pay.won[s])
        delta = 1 if rng.random() < 0.5 else -1
        pay.won[seat] += delta
        run.mark(seat, f"pot paid {delta:+d}")
    if fee_from == "stack":
        holding = {seat: behind.get(seat, 0) + pay.refunds.get(seat, 0) + pay.won.get(seat, 0)
                   for seat in contributions}
        pay.rake = {seat: min(owed, holding[seat]) for seat, owed in due.items()
                    if min(owed, holding[seat]) > 0}
        _rake_over(pay, run, holding)
    return pay


def _rake_over(pay: Payment, run: FaultHooks, holding: dict[int, int] | None = None) -> None:
    """The fault: one chip of rake too many from the lowest seat that pays (and, from a
    stack, still has the chip)."""
    if not run.wants("rake_over") or not pay.rake:
        return
    able = [s for s in sorted(pay.rake) if holding is None or holding[s] > pay.rake[s]]
    if not able:
        return
    seat = able[0]
    pay.rake[seat] += 1
    run.mark(seat, "one chip of rake too many")


def _winners(eligible: list[int], ranks: dict[int, int]) -> list[int]:
    ranked = [s for s in eligible if s in ranks]
    if not ranked:
        return eligible
    best = max(ranks[s] for s in ranked)
    return [s for s in ranked if ranks[s] == best]


def _split(amount: int, winners: list[int], button: int, run: FaultHooks) -> dict[int, int]:
    share, odd = divmod(amount, len(winners))
    order = [s for s in sorted(winners) if s > button] + [s for s in sorted(winners)
                                                          if s <= button]
    if odd and run.wants("odd_chip_wrong"):
        order = order[1:] + order[:1]
        run.mark(order[0], "the odd chip to the wrong winner")
    return {seat: share + (1 if i < odd else 0) for i, seat in enumerate(order)}


def _rake(contributions: dict[int, int], button: int, config: TableConfigured,
          all_charges_button: bool) -> dict[int, int]:
    """GEN-10 at a pot table: a fee per participant (a seat that put chips in), and in
    ``all`` mode with ``all_charges_button`` the button dealt in as well; mode
    ``designated`` makes the button pay for every participant."""
    mode, fee = config.rake.mode, config.rake.fee
    participants = sorted(s for s, c in contributions.items() if c > 0)
    if mode == "none" or fee == 0:
        return {}
    if mode == "all":
        if all_charges_button and participants and button in contributions:
            return {s: fee for s in sorted({*participants, button})}
        return {s: fee for s in participants}
    if mode == "players":
        return {s: fee for s in participants if s != button}
    return {button: fee * len(participants)} if button in contributions else {}
