"""From pairwise points to chips: point value (CP-9), table stakes and payment order (CP-10),
and the participation rake (GEN-10).

Why this order: the rake is a participation fee, so it is taken before anyone is paid and
a loser's chips that can still go to the winners are what is left after it. Each pair's
amount is capped by the winner's stack at the start of the hand, then the losers pay one
after the other, clockwise from the button, each as far as its chips go at that moment
(chips it was paid earlier in the same settlement included, as at the table).

GEN-2 Reading ``rake.stake_counts_fee``: the fee is what the hand can require of a seat
(``stake_findings``), and no more of it is expected than the seat has when it falls due
(``fees_within_stacks``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from services.events.contract import Finding
from services.games.chinese.profile import ChineseProfile
from services.games.chinese.scoring import PairScore
from services.games.model import TraceStep, finding


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


def stake_findings(rake: dict[int, int], stacks: dict[int, int],
                   cp: ChineseProfile) -> list[Finding]:
    """GEN-2 with ``rake.stake_counts_fee``: a Chinese Poker seat covers no wager (CP-10:
    a loser pays as far as its chips go), so what the hand can require of it is the GEN-10
    fee it pays under the posted mode (the ``designated`` payer's for every participant it
    pays for). A seat that started the hand with less is ``INSUFFICIENT_STAKE``."""
    out: list[Finding] = []
    for seat, fee in sorted(rake.items()):
        stack = stacks.get(seat, 0)
        if stack < fee:
            out.append(finding(
                "INSUFFICIENT_STAKE", "GEN-2", cp.severity.insufficient_stake,
                f"seat {seat} started with {stack} chips but the hand can require {fee} "
                "(its participation fee, GEN-10)", seat=seat, amount=fee - stack))
    return out


def fees_within_stacks(rake: dict[int, int], stacks: dict[int, int],
                       trace: list[TraceStep]) -> dict[int, int]:
    """GEN-2 Reading ``rake.stake_counts_fee``: the fee expected from a seat is at most the
    chips it has when the fee falls due.

    When: first, before any point is paid (module docstring: the fee is a participation
    fee, and what a loser can still pay the winners is what is left after it), so what
    the seat has then is its stack at ``hand_started``. Why no RAKE_UNDER for the rest:
    GEN-2 counts the fee among what the hand can require of the seat, so a seat that
    cannot pay it in full started short of it and carries the ``INSUFFICIENT_STAKE``
    (GEN-2) finding of ``stake_findings``, the same seats and the same chips. The table
    cannot take chips the seat does not have (taking them drives its stack below zero:
    ``WAGER_OVER_STACK``, GEN-2, and a RAKE_OVER against this fee). A seat left with
    nothing pays no point either (CP-10); GEN-8 holds, the seat and the house moving by
    the same chips."""
    out: dict[int, int] = {}
    for seat, fee in rake.items():
        paid = min(fee, max(stacks.get(seat, 0), 0))
        if paid < fee:
            trace.append(TraceStep("GEN-2", f"seat {seat} has {paid} chips when its fee of {fee} "
                                            f"falls due: pays {paid} (GEN-10 fee capped by the "
                                            "stake, GEN-2)", seat))
        if paid:
            out[seat] = paid
    return out


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
