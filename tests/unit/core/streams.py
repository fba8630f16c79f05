"""Small hand-written event streams for the intake and chain tests (no game logic needed)."""

from __future__ import annotations

import random
from typing import Any

import orjson

from services.events.stream import TableStream
from services.simulator.handbuilder import table_config


def hcf_stream(table_id: str = "T1", hands: int = 2, seed: int = 3) -> list[dict[str, Any]]:
    """``hands`` tiny HCF hands (one player vs the DP, both fold-free) on one table."""
    s = TableStream(table_id, random.Random(seed))
    s.emit("table_configured", table_config("hcf"))
    s.emit("player_seated", {"seat": 1, "player_id": "P1", "stack": 100})
    s.emit("player_seated", {"seat": 3, "player_id": "P3", "stack": 100})
    for h in range(1, hands + 1):
        hid = f"{table_id}-{h:06d}"
        s.emit("hand_started", {"button": 3, "designated_player": 3, "dealer_id": "D1",
                                "seats": [{"seat": 1, "player_id": "P1", "stack": 100},
                                          {"seat": 3, "player_id": "P3", "stack": 100}],
                                "deck": 52}, hid)
        s.emit("wager", {"seat": 1, "kind": "ante", "amount": 5}, hid)
        s.emit("card_dealt", {"to": "seat", "seat": 1, "card": "As", "face_up": False}, hid)
        s.emit("action", {"seat": 1, "action": "fold"}, hid)
        s.emit("wager_collected", {"seat": 1, "kind": "ante", "amount": 5,
                                   "to": "designated"}, hid)
        s.emit("hand_ended", {}, hid)
    return s.events


def lines(events: list[dict[str, Any]]) -> list[bytes]:
    return [orjson.dumps(e) for e in events]
