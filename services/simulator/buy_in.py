"""The between-hands buy-in every simulator records the same way."""

from __future__ import annotations

from typing import Protocol

from services.events.stream import TableStream


class HasStack(Protocol):
    """A simulated player: anything with a mutable chip ``stack``."""

    stack: int


def buy_in_to(stream: TableStream, seat: int, player: HasStack, target: int) -> None:
    """Record a between-hands buy-in bringing ``player`` to ``target`` chips.

    Every simulator tops players up the same way a table records it (``chips_changed`` of
    kind ``buy_in`` while no hand is open, so GEN-3 is not involved); only the threshold and
    the target differ per game.
    """
    amount = target - player.stack
    player.stack = target
    stream.emit("chips_changed", {"seat": seat, "amount": amount, "kind": "buy_in"})
