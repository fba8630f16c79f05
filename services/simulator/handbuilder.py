"""Build a ``HandInput`` from a short list of ``(type, data)`` pairs, for tests and examples.

Tests state a scenario the way a dealer would narrate it; this fills in the envelope
(ids, seq, hash chain) and the table context, so hand-computed scenarios stay readable.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from services.events.contract import Event, TableConfigured, event_from_builtins
from services.events.stream import TableStream
from services.games.model import HandInput, SeatInfo, TableContext

EventSpec = tuple[str, dict[str, Any]]


def table_config(game: str, **overrides: Any) -> dict[str, Any]:
    """A ``table_configured`` body with sensible defaults for ``game``; override any key."""
    base: dict[str, Any] = {
        "game": game,
        "limits": {"min_wager": 1, "max_wager": 1000},
        "rake": {"mode": "none", "fee": 0},
        "rule_profile": "house-v1",
        "authorized_by": "supervisor-1",
    }
    base.update(overrides)
    return base


def build_hand(
    config: dict[str, Any],
    hand_events: Sequence[EventSpec],
    hand_id: str = "T1-000001",
    table_id: str = "T1",
    seed: int = 1,
    **context: Any,
) -> HandInput:
    """Events of one hand (the first should be ``hand_started``, the last ``hand_ended``).

    ``context`` sets ``TableContext`` fields (``previous_button``, ``new_seats`` ...).
    Table-level types in ``hand_events`` (e.g. ``chips_changed``) get ``hand_id`` null.
    """
    stream = TableStream(table_id, random.Random(seed))
    stream.emit("table_configured", config)
    events: list[Event] = []
    for type_, data in hand_events:
        table_level = type_ in {"chips_changed", "player_seated", "player_left",
                                "dealer_changed", "designated_player_offer"}
        raw = stream.emit(type_, data, hand_id=None if table_level else hand_id)
        events.append(event_from_builtins(raw))
    cfg = event_from_builtins(stream.events[0]).data
    assert isinstance(cfg, TableConfigured)
    started = next((e for t, e in zip(hand_events, events, strict=True) if t[0] == "hand_started"),
                   None)
    seated = {}
    if started is not None:
        seated = {s["seat"]: SeatInfo(s["seat"], s["player_id"], s["stack"])
                  for s in hand_events[events.index(started)][1]["seats"]}
    table = TableContext(
        table_id=table_id,
        config=cfg,
        config_authorized=cfg.authorized_by is not None,
        seated=seated,
        **context,
    )
    return HandInput(table=table, hand_id=hand_id, events=tuple(events))
