"""A simulated Chinese Poker table with ``pitwatch simulate``'s options: the dealer pool,
and sweethearting and drift as edits of the point payments (Chinese Poker pays seat to
seat, ``collection`` to ``seat:N``, so a sweetheart dealer's extra chip comes out of the
paying seat's stack). Without options nothing is drawn or changed."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from services.simulator.chinese_settlement import TableSettlement

if TYPE_CHECKING:
    from services.simulator.chinese import Table


def edit_transfers(table: Table, settlement: TableSettlement) -> None:
    """The sweetheart dealer adds a chip to one payment to the friend; the drifting dealer
    pays one payment a chip off, either way."""
    patterns = table.patterns
    if patterns is None or not table.options.patterns:
        return
    hand_id = f"{table.table_id}-{table.hand_no:06d}"
    dealer = table.dealer
    friend = patterns.player(0)
    transfers = settlement.transfers
    paid = [i for i, t in enumerate(transfers) if t.amount > 0]
    if patterns.active("sweetheart_overpay") and dealer == patterns.cast.dealer:
        to_friend = [i for i in paid if table.seats[transfers[i].payee].player_id == friend]
        if to_friend and patterns.rng.random() < patterns.strength("sweetheart_overpay"):
            t = transfers[to_friend[0]]
            transfers[to_friend[0]] = replace(t, amount=t.amount + 1)
            patterns.label("sweetheart_overpay", hand_id, t.payee,
                           f"dealer {dealer} overpays {friend} by 1", [friend or ""], dealer)
    if (patterns.active("dealer_drift") and dealer == patterns.cast.dealer and paid
            and patterns.rng.random() < patterns.strength("dealer_drift")):
        i = patterns.rng.choice(paid)
        delta = patterns.rng.choice((-1, 1)) if transfers[i].amount > 1 else 1
        transfers[i] = replace(transfers[i], amount=transfers[i].amount + delta)
        patterns.label("dealer_drift", hand_id, transfers[i].payee,
                       f"dealer {dealer} pays seat {transfers[i].payee} {delta:+d}", [], dealer)
