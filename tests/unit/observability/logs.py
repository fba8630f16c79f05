"""Rewriting simulated event logs for the observability tests, hash chain kept honest.

The simulators write player ids like ``T001-P003`` and timestamps from a simulated clock.
The tests need other values (player ids of a pattern that can be searched for in the
metrics text; timestamps near the real clock so latency is live), and an event's fields
cannot change without changing its hash. ``rewrite`` changes the events and re-links the
chain: every link that was intact in the original is intact in the result, every link
that was broken (a ``tamper`` fault) stays broken.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from datetime import datetime
from typing import Any

from services.events.canonical import event_hash

EventDict = dict[str, Any]


def rewrite(events: list[EventDict], change: Callable[[EventDict], None]) -> list[EventDict]:
    """Copies of ``events`` (same order) with ``change`` applied and ``prev_hash`` re-linked."""
    original_hash: dict[tuple[str, int], str] = {}
    for e in events:
        original_hash.setdefault((e["table_id"], e["seq"]), event_hash(e))
    result = [copy.deepcopy(e) for e in events]
    for e in result:
        change(e)
    new_hash: dict[tuple[str, int], str] = {}
    for original, e in sorted(zip(events, result, strict=True),
                              key=lambda pair: (pair[0]["table_id"], pair[0]["seq"])):
        key_before = (e["table_id"], e["seq"] - 1)
        if key_before in original_hash and original["prev_hash"] == original_hash[key_before]:
            e["prev_hash"] = new_hash[key_before]
        new_hash.setdefault((e["table_id"], e["seq"]), event_hash(e))
    return result


def player_ids(events: list[EventDict]) -> set[str]:
    """Every player id the log mentions."""
    found: set[str] = set()
    for e in events:
        data = e["data"]
        if e["type"] in ("player_seated", "player_left"):
            found.add(data["player_id"])
        elif e["type"] == "hand_started":
            found.update(s["player_id"] for s in data["seats"])
    return found


def rename_players(mapping: dict[str, str]) -> Callable[[EventDict], None]:
    """A ``change`` replacing every player id by ``mapping[player_id]``."""

    def change(e: EventDict) -> None:
        data = e["data"]
        if e["type"] in ("player_seated", "player_left"):
            data["player_id"] = mapping[data["player_id"]]
        elif e["type"] == "hand_started":
            for s in data["seats"]:
                s["player_id"] = mapping[s["player_id"]]

    return change


def stamp(at: datetime) -> Callable[[EventDict], None]:
    """A ``change`` setting every event's ``ts`` to ``at`` (RFC 3339 UTC, milliseconds)."""
    text = at.strftime("%Y-%m-%dT%H:%M:%S.") + f"{at.microsecond // 1000:03d}Z"

    def change(e: EventDict) -> None:
        e["ts"] = text

    return change


def tamper_one_per_table(events: list[EventDict]) -> int:
    """Alter one wager per table after it was hashed (in place): its amount is lowered by
    one, so the next event's ``prev_hash`` no longer matches (SURV-9 CHAIN_BROKEN). The
    wager chosen is the middle one of the table's wagers of at least 2 chips that are
    followed by another event of the same hand. Returns the number of tables altered."""
    candidates: dict[str, list[int]] = {}
    last_of_table: dict[str, int] = {}
    for index, e in enumerate(events):
        previous = last_of_table.get(e["table_id"])
        if previous is not None and e["hand_id"] is not None:
            before = events[previous]
            if (before["type"] == "wager" and before["hand_id"] == e["hand_id"]
                    and before["data"]["amount"] >= 2):
                candidates.setdefault(e["table_id"], []).append(previous)
        last_of_table[e["table_id"]] = index
    for indexes in candidates.values():
        events[indexes[len(indexes) // 2]]["data"]["amount"] -= 1
    return len(candidates)
