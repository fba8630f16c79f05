"""A dealer sweethearting one player, written into simulated logs (test builders shared by
the unit, CLI and Kafka integration tests of surveillance)."""

from __future__ import annotations

import heapq
import random
from typing import Any

import orjson

from services.events.stream import TableStream
from services.simulator.run import simulate
from tests.profiles import HOUSE


def overpay_one_player(events: list[dict[str, Any]], player: str,
                       extra: int) -> list[dict[str, Any]]:
    """The table's events re-emitted (re-hashed) with every win payout to ``player``'s
    seat ``extra`` chips too large: a dealer sweethearting one player."""
    stream = TableStream(events[0]["table_id"], random.Random(0))
    seat_of_player: int | None = None  # the player's seat in the current hand
    for e in events:
        data = dict(e["data"])
        if e["type"] == "hand_started":
            seat_of_player = next((s["seat"] for s in data["seats"]
                                   if s["player_id"] == player), None)
        if (e["type"] == "payout" and data["kind"] == "win"
                and data["seat"] == seat_of_player):
            data["amount"] += extra
        stream.emit(e["type"], data, hand_id=e["hand_id"], source=e["source"])
    return stream.events


def most_paid_player(events: list[dict[str, Any]]) -> str:
    """The player who received the most win payouts (the sweetheart's friend here)."""
    seats: dict[int, str] = {}
    paid: dict[str, int] = {}
    for e in events:
        if e["type"] == "hand_started":
            seats = {s["seat"]: s["player_id"] for s in e["data"]["seats"]}
        elif e["type"] == "payout" and e["data"]["kind"] == "win":
            player = seats[e["data"]["seat"]]
            paid[player] = paid.get(player, 0) + 1
    return max(sorted(paid), key=lambda p: paid[p])


def sweethearting_log(tables: int, hands: int, seed: int, extra: int = 3) -> list[bytes]:
    """``tables`` HCF tables; T001's wins to its most-paid player are ``extra`` chips too
    large. The tables are merged back in (ts, table_id) order, as ``pitwatch simulate``
    writes a multi-table log."""
    log = simulate(["hcf"], tables, hands, seed=seed, profile=HOUSE)
    by_table: dict[str, list[dict[str, Any]]] = {}
    for event in log.events:
        by_table.setdefault(event["table_id"], []).append(event)
    first = by_table["T001"]
    by_table["T001"] = overpay_one_player(first, most_paid_player(first), extra=extra)
    merged = heapq.merge(*by_table.values(), key=lambda e: (e["ts"], e["table_id"]))
    return [orjson.dumps(event) for event in merged]
