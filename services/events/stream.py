"""A table's event stream as a table system would publish it: seq, hash chain, ids, clock.

Simulators, the PHH importer and test builders write events through ``TableStream`` so
every generated stream is valid v1 (``seq`` +1, ``prev_hash`` = SHA-256 of the canonical
previous event) and deterministic for a seed: event ids and timestamps come from the
stream's own ``random.Random`` and a simulated clock, never from the machine.
"""

from __future__ import annotations

import random
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

from services.events.canonical import GENESIS_HASH, event_hash

DEFAULT_START = datetime(2026, 1, 5, 18, 0, 0, tzinfo=UTC)


class TableStream:
    """Builds the hash-chained events of one table."""

    def __init__(
        self,
        table_id: str,
        rng: random.Random,
        start: datetime = DEFAULT_START,
        source: str = "dealer-terminal",
    ) -> None:
        self.table_id = table_id
        self.rng = rng
        self.clock = start
        self.source = source
        self.seq = 0
        self.last_hash = GENESIS_HASH
        self.events: list[dict[str, Any]] = []

    def _next_id(self) -> str:
        return str(uuid.UUID(int=self.rng.getrandbits(128), version=4))

    def _tick(self, max_ms: int) -> str:
        self.clock += timedelta(milliseconds=self.rng.randint(50, max_ms))
        return self.clock.strftime("%Y-%m-%dT%H:%M:%S.") + f"{self.clock.microsecond // 1000:03d}Z"

    def emit(
        self,
        type_: str,
        data: dict[str, Any],
        hand_id: str | None = None,
        source: str | None = None,
        max_ms: int = 4000,
    ) -> dict[str, Any]:
        """Append one event and return it (a plain JSON object)."""
        self.seq += 1
        event: dict[str, Any] = {
            "v": 1,
            "event_id": self._next_id(),
            "table_id": self.table_id,
            "seq": self.seq,
            "ts": self._tick(max_ms),
            "prev_hash": self.last_hash,
            "hand_id": hand_id,
            "type": type_,
            "source": source or self.source,
            "data": data,
        }
        self.last_hash = self._hash(event)
        self.events.append(event)
        return event

    def _hash(self, event: dict[str, Any]) -> str:
        """The chain hash of an event just built (importers with a proven-safe shape may
        override it with a faster equivalent)."""
        return event_hash(event)

    def advance(self, seconds: int) -> None:
        """Let simulated time pass (between hands, shift changes)."""
        self.clock += timedelta(seconds=seconds)
