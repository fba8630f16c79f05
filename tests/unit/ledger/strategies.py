"""Hypothesis strategy for ledger tests: random hands whose chips move by the contract.

Shared by the SQLite property tests and the PostgreSQL integration tests.
"""

from __future__ import annotations

import itertools
import uuid
from collections import Counter, defaultdict

from hypothesis import strategies as st

from services.events.contract import AdjudicationRecord, Movement
from tests.unit.ledger.builders import record

TABLE = "P1"
MOVEMENT_KINDS = (
    "wager",
    "bet",
    "wager_collected",
    "payout",
    "collection",
    "rake",
    "rake_refund",
)
_hand_numbers = itertools.count(1)


@st.composite
def balanced_hands(draw: st.DrawFn) -> AdjudicationRecord:
    """A random hand whose chips all move by the contract's rules: every layout is emptied
    at hand end by a layout return (one shared hand_ended event), the pot is never paid
    more than it holds and what it holds at the end goes to a seat (the pot must be empty
    at ``hand_ended``, events.md; the ledger refuses a hand that leaves it otherwise); a
    player may sit at two seats."""
    hand_no = next(_hand_numbers)
    events = (str(uuid.UUID(int=hand_no * 10_000 + i)) for i in itertools.count(1))
    seats = draw(st.lists(st.integers(1, 7), min_size=1, max_size=5, unique=True))
    players = {str(s): draw(st.sampled_from(["ann", "ben", "cy", "dee"])) for s in seats}
    seat = st.sampled_from(seats)
    chips = st.integers(1, 10**12)
    layout: Counter[int] = Counter()
    pot = 0
    movements: list[Movement] = []

    def add(source: str, target: str, amount: int, kind: str, event: str | None = None) -> None:
        event_id = event or next(events)
        movements.append(
            Movement(
                event_id=event_id,
                seq=len(movements) + 1,
                from_=source,
                to=target,
                amount=amount,
                kind=kind,
            )
        )

    for kind in draw(st.lists(st.sampled_from(MOVEMENT_KINDS), max_size=20)):
        who, other = draw(seat), draw(seat)
        if kind == "wager":
            amount = draw(chips)
            layout[who] += amount
            add(f"stack:{who}", f"layout:{who}", amount, kind)
        elif kind == "bet":
            amount = draw(chips)
            pot += amount
            add(f"stack:{who}", "pot", amount, kind)
        elif kind == "wager_collected" and layout[who] > 0:
            amount = draw(st.integers(1, layout[who]))
            layout[who] -= amount
            add(f"layout:{who}", draw(st.sampled_from([f"stack:{other}", "house"])), amount, kind)
        elif kind in ("payout", "rake") and pot > 0 and draw(st.booleans()):
            amount = draw(st.integers(1, pot))
            pot -= amount
            add("pot", f"stack:{who}" if kind == "payout" else "house", amount, kind)
        elif kind == "payout":
            add(
                draw(st.sampled_from([f"stack:{other}", "house"])),
                f"stack:{who}",
                draw(chips),
                kind,
            )
        elif kind == "collection":
            add(
                f"stack:{who}",
                draw(st.sampled_from([f"stack:{other}", "house"])),
                draw(chips),
                kind,
            )
        elif kind == "rake":
            add(f"stack:{who}", "house", draw(chips), kind)
        elif kind == "rake_refund":
            add("house", f"stack:{who}", draw(chips), kind)
    if pot:
        add("pot", f"stack:{draw(seat)}", pot, "payout")
    hand_ended = next(events)
    for returned_seat, amount in sorted(layout.items()):
        if amount:
            add(
                f"layout:{returned_seat}",
                f"stack:{returned_seat}",
                amount,
                "layout_return",
                hand_ended,
            )
    return record(f"{TABLE}-{hand_no:06d}", movements, table_id=TABLE, players=players)


def expected_change(hand: AdjudicationRecord) -> dict[str, int]:
    """Each account's change, straight from the contract: ``to`` gains, ``from`` loses."""
    players = hand.players or {}

    def account(place: str, kind: str) -> str:
        if place == "house":
            return "house:rake" if kind in ("rake", "rake_refund") else "house:bank"
        if place == "pot":
            return f"pot:{TABLE}"
        role, seat = place.split(":")
        return f"player:{players[seat]}" if role == "stack" else f"layout:{TABLE}:{seat}"

    change: dict[str, int] = defaultdict(int)
    for m in hand.movements or []:
        change[account(m.from_, m.kind)] -= m.amount
        change[account(m.to, m.kind)] += m.amount
    return change
