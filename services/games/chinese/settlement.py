"""From pairwise points to chips: point value (CP-9), table stakes and payment order (CP-10),
and the participation rake (GEN-10).

Why this order: the rake is a participation fee, so it is taken before anyone is paid and
a loser's chips that can still go to the winners are what is left after it. Each pair's
amount is capped by the winner's stack at the start of the hand, then the losers pay one
after the other, clockwise from the button, each as far as its chips go at that moment
(chips it was paid earlier in the same settlement included, as at the table).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from services.games.chinese.profile import ChineseProfile
from services.games.chinese.scoring import PairScore
from services.games.model import TraceStep


@dataclass(frozen=True)
class Transfer:
    """One payment of points: ``amount`` chips from ``payer`` to ``payee`` (of ``owed``)."""

    payer: int
    payee: int
    owed: int
    amount: int


@dataclass
class Settlement:
    """Expected chip result of the hand: per-seat net after rake, rake, payments."""

    net: dict[int, int]
    rake: dict[int, int]
    transfers: list[Transfer] = field(default_factory=list)
    capped: set[int] = field(default_factory=set)  # seats a CP-10 cap or shortfall touched
    trace: list[TraceStep] = field(default_factory=list)


def clockwise_order(seats: tuple[int, ...], button: int, cp: ChineseProfile) -> list[int]:
    """Seats clockwise, starting left of the button (or at it: ``payments.order_starts``)."""
    start = button + 1 if cp.payments.order_starts == "left_of_button" else button
    ordered = sorted(seats)
    return [s for s in ordered if s >= start] + [s for s in ordered if s < start]


def rake_due(participants: tuple[int, ...], button: int, mode: str, fee: int,
             cp: ChineseProfile) -> dict[int, int]:
    """GEN-10: ``all`` every participant pays the fee; ``players`` all but the player on the
    button; ``designated`` the player on the button pays it for every participant (itself
    included per ``rake.designated_counts_button``). A button seat that is not dealt in
    hands the role to the first participant clockwise from it."""
    if mode == "none" or fee == 0 or not participants:
        return {}
    if mode == "all":
        return {seat: fee for seat in participants}
    if mode == "players":
        return {seat: fee for seat in participants if seat != button}
    payer = button if button in participants else clockwise_order(participants, button, cp)[0]
    counted = len(participants) if cp.rake.designated_counts_button else len(participants) - 1
    return {payer: fee * counted} if counted > 0 else {}


def settle(pairs: list[PairScore], participants: tuple[int, ...], stacks: dict[int, int],
           button: int, point_value: int, rake: dict[int, int],
           cp: ChineseProfile, cap: bool = True) -> Settlement:
    """CP-9 point value, CP-10 caps and payment order; net per seat after rake.

    ``cap=False`` settles as a table that ignores the CP-10 cap would (the simulator's
    injected fault); the adjudicator always caps."""
    out = Settlement(net={seat: -rake.get(seat, 0) for seat in participants}, rake=dict(rake))
    for seat, fee in sorted(rake.items()):
        out.trace.append(TraceStep("GEN-10", f"seat {seat} pays {fee} rake", seat))
    cap_stacks = stacks if cap else {seat: 10**12 for seat in stacks}
    owed = _capped_amounts(pairs, cap_stacks, point_value, out)
    order = clockwise_order(participants, button, cp)
    available = {seat: max(stacks.get(seat, 0) - rake.get(seat, 0), 0) for seat in participants}
    for payer in order:
        for payee in order:
            due = owed.get((payer, payee), 0)
            if due == 0:
                continue
            paid = min(due, available[payer])
            available[payer] -= paid
            available[payee] += paid
            out.net[payer] -= paid
            out.net[payee] += paid
            out.transfers.append(Transfer(payer, payee, due, paid))
            _trace_payment(out, payer, payee, due, paid)
    return out


def _capped_amounts(pairs: list[PairScore], stacks: dict[int, int], point_value: int,
                    out: Settlement) -> dict[tuple[int, int], int]:
    """CP-9 chips = points x point value; CP-10 at most the winner's starting stack."""
    owed: dict[tuple[int, int], int] = {}
    for pair in pairs:
        if pair.winner is None or pair.loser is None or pair.points == 0:
            continue
        chips = pair.points * point_value
        cap = stacks.get(pair.winner, 0)
        if chips > cap:
            out.capped.update((pair.winner, pair.loser))
            out.trace.append(
                TraceStep("CP-10", f"seat {pair.winner} wins {pair.points} points = {chips} "
                                   f"chips from seat {pair.loser}, capped at the {cap} chips "
                                   "it had at the start of the hand", pair.winner)
            )
            chips = cap
        else:
            out.trace.append(
                TraceStep("CP-9", f"seat {pair.winner} wins {pair.points} points x "
                                  f"{point_value} = {chips} chips from seat {pair.loser}",
                          pair.winner)
            )
        if chips:
            owed[(pair.loser, pair.winner)] = chips
    return owed


def _trace_payment(out: Settlement, payer: int, payee: int, due: int, paid: int) -> None:
    if paid == due:
        out.trace.append(TraceStep("CP-10", f"seat {payer} pays seat {payee} {paid}", payer))
        return
    out.capped.update((payer, payee))
    out.trace.append(
        TraceStep("CP-10", f"seat {payer} owes seat {payee} {due} but has only {paid} chips "
                           f"left: pays {paid}, {due - paid} goes unpaid", payer)
    )
