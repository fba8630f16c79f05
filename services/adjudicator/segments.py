"""What a table hands the event archive: every event its intake parsed, in arrival order,
cut into segments — one per hand, one per run of events between hands.

Why segments and not one row per event: at the architecture's 2,000 hands a second and
75 events a hand, one row per event is 150,000 rows a second; one per hand is 2,000 (and
a hand's events compress together). Why cut at hands: a hand's events are already held
together by the table state (``OpenHand``), so the cut costs nothing to remember, and a
cut that depends only on the events (never on a clock or a batch) gives the same
segments in the embedded run, in the Kafka worker, and after any crash and replay there.

Why every parsed event and not only those the chain accepted: a refused event (a
duplicate, a conflicting or stale one) can still put a finding on a hand; the archive
keeps it, flagged, so that a replay of the archive gives the same records as the run that
first saw the stream. Records that were not events at all (the DLQ) are not archived.

These are plain data; ``services.adjudicator.archiving`` fills them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import msgspec


class ArchivedEvent(NamedTuple):
    """One event of a segment: its canonical JSON (RFC 8785, the bytes its hash is of) and
    the envelope fields the archive indexes, read from the decoded event. (A named tuple:
    a hand makes one per event when it is archived, and a tuple is the cheapest to make.)"""

    canonical: bytes
    seq: int
    ts: str
    prev_hash: str
    refused: bool = False  # the chain check refused it: not part of the table's chain


class RawPart(NamedTuple):
    """One stored part of a segment as the native core packs it (the columns of
    ``services.archive.segment.PackedSegment``, the body's events joined by newlines,
    not compressed): ``offset`` is the position of its first event in the segment."""

    offset: int
    day: str
    first_seq: int | None
    last_seq: int | None
    events: int
    refused: list[int]
    first_prev_hash: str | None
    last_hash: str | None
    first_ts: str
    last_ts: str
    body: bytes


_envelope = msgspec.json.Decoder(type=dict[str, object])


def events_of_parts(parts: list[RawPart]) -> list[ArchivedEvent]:
    """The events of packed parts, read back from their bodies: each line is an event's
    canonical JSON, and its ``seq``, ``ts`` and ``prev_hash`` are the envelope's own."""
    events: list[ArchivedEvent] = []
    for part in parts:
        refused = set(part.refused)
        for i, canonical in enumerate(part.body.split(b"\n")):
            envelope = _envelope.decode(canonical)
            seq, ts, prev_hash = envelope["seq"], envelope["ts"], envelope["prev_hash"]
            assert isinstance(seq, int) and isinstance(ts, str) and isinstance(prev_hash, str)
            events.append(ArchivedEvent(canonical, seq, ts, prev_hash, i in refused))
    return events


class Segment:
    """A run of one table's events in arrival order, as the archive stores it.

    ``hand_id``: the hand for a hand's segment, None for events between hands.
    ``head_seq``: the table's chain head (highest seq taken) once the first event was
    taken; ``ordinal``: how many events this table's state had taken before it. Ordered
    by (head_seq, ordinal), a table's segments are in arrival order: the head never goes
    down, and the ordinal orders segments within one run of the table's state.

    ``events`` is made on first use: a hand's segment re-encodes the hand's packed
    events, work that only a run that archives should pay for.

    ``parts``: the segment already packed by the native core (``RawPart`` each, the body
    not compressed), so that a hand's ~75 events need not cross into Python one by one;
    its ``events`` are then read back from those bodies, on first use only.
    """

    __slots__ = ("_events", "_make", "hand_id", "head_seq", "ordinal", "parts", "table_id")

    def __init__(self, table_id: str, hand_id: str | None, head_seq: int, ordinal: int,
                 events: list[ArchivedEvent] | None = None,
                 make: Callable[[], list[ArchivedEvent]] | None = None,
                 parts: list[RawPart] | None = None) -> None:
        self.table_id = table_id
        self.hand_id = hand_id
        self.head_seq = head_seq
        self.ordinal = ordinal
        self.parts = parts
        self._events = events
        self._make = make

    @property
    def events(self) -> list[ArchivedEvent]:
        if self._events is None:
            assert self._make is not None
            self._events, self._make = self._make(), None
        return self._events

    def _key(self) -> tuple[object, ...]:
        return (self.table_id, self.hand_id, self.head_seq, self.ordinal, self.events)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Segment) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash((self.table_id, self.head_seq, self.ordinal))

    def __repr__(self) -> str:
        return (f"Segment({self.table_id!r}, {self.hand_id!r}, head_seq={self.head_seq}, "
                f"ordinal={self.ordinal}, events={len(self.events)})")


class HandCut(msgspec.Struct, array_like=True, gc=False):
    """What an open hand keeps for its archive segment beyond its packed events.

    ``extras``: events taken while the hand was open that are not the hand's own (a
    refused event, an event of another hand), as (position in the segment, event).
    ``canonical``: packed events whose sorted re-encoding is not their canonical JSON
    (``ParsedEvent.reencodes`` False), as (index among the packed events, canonical).
    Both are empty for an ordinary hand: the segment is its packed events re-encoded.
    """

    head_seq: int
    ordinal: int
    extras: list[tuple[int, bytes, int, str, str, bool]] = msgspec.field(default_factory=list)
    canonical: list[tuple[int, bytes]] = msgspec.field(default_factory=list)


class BetweenRun(msgspec.Struct, array_like=True, gc=False):
    """Events taken while no hand was open, not yet handed to the archive."""

    head_seq: int
    ordinal: int
    events: list[tuple[bytes, int, str, str, bool]] = msgspec.field(default_factory=list)
    size: int = 0  # canonical bytes held
