"""Cutting a table's parsed events into archive segments (``services.adjudicator.segments``).

The table state (``table.apply_event``) calls these as it takes each event: an event of
the open hand is packed into the hand as before and costs the archive nothing more (the
segment re-encodes the packed events when the hand closes); anything else taken while a
hand is open is kept beside it; events between hands are kept in a ``BetweenRun`` on the
table state. A segment is handed out when its hand closes (complete or not), when the
next hand starts (the run between hands), when a run between hands reaches
``MAX_RUN_EVENTS`` or ``MAX_RUN_BYTES``, and at the end of an embedded run. Every one of
those is decided by the events alone, so every driver cuts the same segments.

A segment larger than ``MAX_SEGMENT_BYTES`` (a hostile hand of thousands of large events)
is handed out in consecutive parts, each small enough for one Kafka record.
"""

from __future__ import annotations

from services.adjudicator.intake import ParsedEvent
from services.adjudicator.segments import ArchivedEvent, BetweenRun, HandCut, Segment
from services.events.canonical import sorted_encoding
from services.events.contract import Event

MAX_RUN_EVENTS = 64  # events between hands per segment (a table between sessions)
MAX_RUN_BYTES = 256 * 1024  # canonical bytes held per run between hands
MAX_SEGMENT_BYTES = 900_000  # canonical bytes per segment part (Kafka allows 2 MB)


def keep_beside(cut: HandCut, position: int, parsed: ParsedEvent, refused: bool) -> None:
    """An event taken while a hand is open that the hand does not pack."""
    event = parsed.event
    cut.extras.append((position, parsed.canonical, event.seq, event.ts, event.prev_hash,
                       refused))


def note_packed(cut: HandCut, index: int, parsed: ParsedEvent) -> None:
    """The hand packed ``parsed`` as its ``index``-th event: keep its canonical JSON only
    when re-encoding the packed event would not give it back."""
    if not parsed.reencodes:
        cut.canonical.append((index, parsed.canonical))


def keep_between(run: BetweenRun, parsed: ParsedEvent, refused: bool) -> bool:
    """Add an event taken between hands; True when the run is full and must be cut."""
    event = parsed.event
    run.events.append((parsed.canonical, event.seq, event.ts, event.prev_hash, refused))
    run.size += len(parsed.canonical)
    return len(run.events) >= MAX_RUN_EVENTS or run.size >= MAX_RUN_BYTES


def between_segments(table_id: str, run: BetweenRun) -> list[Segment]:
    events = [ArchivedEvent(c, seq, ts, prev, refused) for c, seq, ts, prev, refused in run.events]
    return _parts(table_id, None, run.head_seq, run.ordinal, events)


def hand_segments(table_id: str, hand_id: str, cut: HandCut, packed: list[Event]) -> list[Segment]:
    """The hand's segment: its packed events (in the order packed) with the events kept
    beside them put back at their positions."""
    canonical = dict(cut.canonical)
    own = iter([ArchivedEvent(canonical.get(i) or sorted_encoding(e), e.seq, e.ts, e.prev_hash)
                for i, e in enumerate(packed)])
    beside = {position: ArchivedEvent(c, seq, ts, prev, refused)
              for position, c, seq, ts, prev, refused in cut.extras}
    events = [beside[p] if p in beside else next(own)
              for p in range(len(packed) + len(beside))]
    return _parts(table_id, hand_id, cut.head_seq, cut.ordinal, events)


def _parts(table_id: str, hand_id: str | None, head_seq: int, ordinal: int,
           events: list[ArchivedEvent]) -> list[Segment]:
    """One segment, or consecutive parts of at most ``MAX_SEGMENT_BYTES`` (each at least
    one event); a part's ordinal is that of its first event."""
    parts: list[Segment] = []
    start, size = 0, 0
    for i, archived in enumerate(events):
        if i > start and size + len(archived.canonical) > MAX_SEGMENT_BYTES:
            parts.append(Segment(table_id, hand_id, head_seq, ordinal + start, events[start:i]))
            start, size = i, 0
        size += len(archived.canonical)
    parts.append(Segment(table_id, hand_id, head_seq, ordinal + start, events[start:]))
    return parts
