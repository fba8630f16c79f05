"""The recorded side of a hand: what the table actually moved (events.md, "How chips move").

Every game shares this: the chip-moving events (``wager``, ``action`` with ``amount``,
``wager_collected``, ``payout``, ``collection``, ``rake_collected``) become movements
between accounts, the layouts return to their seats at ``hand_ended``, and each seat's
recorded ``net`` is the change of its stack. The same movements are what the ledger books,
so the record and the ledger can never tell two different stories.

Accounts: ``stack:<seat>``, ``layout:<seat>``, ``pot``, ``house``. ``designated`` (as a
payout source or collection target) is the designated player's stack, or the button's
when the hand has no designated player (GEN-10 reads "designated" as the button).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from services.events.contract import (
    ActionEvent,
    CollectionEvent,
    Event,
    Finding,
    HandEndedEvent,
    HandStartedEvent,
    Movement,
    PayoutEvent,
    RakeCollectedEvent,
    WagerCollectedEvent,
    WagerEvent,
)
from services.events.numerals import is_ascii_number
from services.games.model import finding

HOUSE = "house"
POT = "pot"


def stack(seat: int) -> str:
    return f"stack:{seat}"


def layout(seat: int) -> str:
    return f"layout:{seat}"


@dataclass
class RecordedHand:
    """The recorded movements of a hand and what they add up to."""

    movements: list[Movement] = field(default_factory=list)
    net: dict[int, int] = field(default_factory=dict)
    house: int = 0
    rake: dict[str, int] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)


def _banker_account(target: str, banker_seat: int | None) -> str | None:
    """Resolve ``designated`` / ``house`` / ``seat:<n>`` / ``pot`` to an account name."""
    if target == "house":
        return HOUSE
    if target == "pot":
        return POT
    if target == "designated":
        return stack(banker_seat) if banker_seat is not None else None
    if target.startswith("seat:"):
        return stack(int(target[5:]))
    return None


Move = tuple[str | None, str | None, int, str]


def _wager_move(event: Any, banker_seat: int | None) -> Move:
    d = event.data
    return f"stack:{d.seat}", f"layout:{d.seat}", d.amount, "wager"


def _action_move(event: Any, banker_seat: int | None) -> Move:
    a = event.data
    return f"stack:{a.seat}", POT, a.amount or 0, "bet"


def _wager_collected_move(event: Any, banker_seat: int | None) -> Move:
    w = event.data
    return f"layout:{w.seat}", _banker_account(w.to, banker_seat), w.amount, "wager_collected"


def _payout_move(event: Any, banker_seat: int | None) -> Move:
    p = event.data
    return _banker_account(p.source, banker_seat), f"stack:{p.seat}", p.amount, "payout"


def _collection_move(event: Any, banker_seat: int | None) -> Move:
    c = event.data
    return f"stack:{c.seat}", _banker_account(c.to, banker_seat), c.amount, "collection"


def _rake_move(event: Any, banker_seat: int | None) -> Move:
    r = event.data
    if r.from_ == "pot":
        return POT, HOUSE, r.amount, "rake"
    source = stack(r.seat) if r.seat is not None else None
    return source, HOUSE, r.amount, "rake"


# The chip-moving event types (events.md "How chips move"), keyed by exact type: one dict
# lookup per event instead of a chain of isinstance checks on the per-hand hot path.
_MOVES: dict[type, Callable[[Any, int | None], Move]] = {
    WagerEvent: _wager_move,
    ActionEvent: _action_move,
    WagerCollectedEvent: _wager_collected_move,
    PayoutEvent: _payout_move,
    CollectionEvent: _collection_move,
    RakeCollectedEvent: _rake_move,
}


def _movement_of(event: Event, banker_seat: int | None) -> Move:
    """(from, to, amount, kind) for one chip-moving event; amount 0 when it moves none."""
    move = _MOVES.get(type(event))
    return move(event, banker_seat) if move is not None else (None, None, 0, "")


def record_hand(events: tuple[Event, ...]) -> RecordedHand:
    """Derive movements, per-seat net, house net and rake from a hand's events."""
    out = RecordedHand()
    started = next((e for e in events if type(e) is HandStartedEvent), None)
    banker_seat: int | None = None
    if started is not None:
        assert isinstance(started, HandStartedEvent)
        banker_seat = started.data.designated_player or started.data.button
        for s in started.data.seats:
            out.net[s.seat] = 0
    balances: dict[str, int] = defaultdict(int)
    ended: HandEndedEvent | None = None
    moves = _MOVES
    for event in events:
        event_type = type(event)
        move = moves.get(event_type)
        if move is None:
            if event_type is HandEndedEvent:
                ended = event  # type: ignore[assignment]
            continue
        src, dst, amount, kind = move(event, banker_seat)
        if amount == 0:
            continue
        if src is None or dst is None:
            out.findings.append(
                finding(
                    "UNRESOLVABLE_MOVEMENT",
                    "GEN-8",
                    "critical",
                    f"event seq {event.seq} ({kind}) names an account that does not exist in "
                    "this hand (no designated player or seat); its chips cannot be booked",
                    amount=amount,
                )
            )
            continue
        if event_type is RakeCollectedEvent:
            seat = event.data.seat  # type: ignore[union-attr]
            key = str(seat) if seat is not None else POT
            out.rake[key] = out.rake.get(key, 0) + amount
        elif event_type is PayoutEvent and _is_rake_refund(event) and _refund_rake(out, event):
            kind = "rake_refund"
        _move(out, balances, event, src, dst, amount, kind)
    if ended is not None:
        _return_layouts(out, balances, ended)
    _check_leftovers(out, balances)
    for account, balance in balances.items():
        if account.startswith("stack:"):
            out.net[int(account[6:])] = balance
    out.house = balances.get(HOUSE, 0)
    return out


def _is_rake_refund(event: Event) -> bool:
    return (isinstance(event, PayoutEvent) and event.data.source == "house"
            and event.data.kind == "refund")


def _refund_rake(out: RecordedHand, event: Event) -> bool:
    """HCF-12: rake taken from a seat whose hand turned out dead is refunded by the house.

    A house ``refund`` payout no larger than the rake the seat paid reduces its recorded
    rake and is booked as ``rake_refund`` (out of the house's rake account). A larger one
    is an ordinary payout (and shows as a MISPAY if it was not due). Returns whether the
    payout was a rake refund.
    """
    assert isinstance(event, PayoutEvent)
    key = str(event.data.seat)
    paid = out.rake.get(key, 0)
    if not 0 < event.data.amount <= paid:
        return False
    out.rake[key] = paid - event.data.amount
    return True


def _move(
    out: RecordedHand,
    balances: dict[str, int],
    event: Event,
    src: str,
    dst: str,
    amount: int,
    kind: str,
) -> None:
    balances[src] -= amount
    balances[dst] += amount
    out.movements.append(
        Movement(event_id=event.event_id, seq=event.seq, from_=src, to=dst, amount=amount,
                 kind=kind)
    )


def _return_layouts(out: RecordedHand, balances: dict[str, int], ended: HandEndedEvent) -> None:
    """events.md: whatever is still on a layout at ``hand_ended`` goes back to the player."""
    for account in sorted(balances, key=_account_order):
        if account.startswith("layout:") and balances[account] > 0:
            seat = int(account[7:])
            _move(out, balances, ended, account, stack(seat), balances[account], "layout_return")


def _check_leftovers(out: RecordedHand, balances: dict[str, int]) -> None:
    """Chips left in the pot, payouts above the pot, or a layout paid out beyond what was
    wagered, are findings (GEN-8)."""
    left = balances.get(POT, 0)
    if left > 0:
        out.findings.append(
            finding(
                "POT_NOT_EMPTY",
                "GEN-8",
                "critical",
                f"{left} chips were left in the pot at hand_ended "
                "(every pot must be awarded, refunded or raked)",
                amount=left,
            )
        )
    elif left < 0:
        out.findings.append(
            finding(
                "POT_OVERDRAWN",
                "GEN-8",
                "critical",
                f"{-left} chips more were paid out of the pot (payouts, refunds, rake) than "
                "were put in it",
                amount=-left,
            )
        )
    for account in sorted(balances, key=_account_order):
        if account.startswith("layout:") and balances[account] < 0:
            seat = int(account[7:])
            out.findings.append(
                finding(
                    "LAYOUT_OVERDRAWN",
                    "GEN-8",
                    "critical",
                    f"seat {seat}: {-balances[account]} chips more were collected from the "
                    "layout than the seat wagered",
                    seat=seat,
                    amount=-balances[account],
                )
            )


def _account_order(account: str) -> tuple[str, int]:
    kind, _, rest = account.partition(":")
    return (kind, int(rest) if is_ascii_number(rest) else 0)
