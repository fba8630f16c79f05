"""Cutting a table's parsed events into archive segments (``services.adjudicator.segments``).

The table state (``table.apply_event``) calls these as it takes each event: an event of
the open hand is packed into the hand as before and costs the archive nothing more (the
segment re-encodes the packed events when the hand closes); anything else taken while a
hand is open is kept beside it; events between hands are kept in a ``BetweenRun`` on the
table state. A segment is handed out when its hand closes (complete or not), when the
next hand starts (the run between hands: handed out then rather than held with the open
hand, which would hold a table's whole set-up, measured 6.6 kB more per open table in
``bench_memory``), when a run between hands reaches ``MAX_RUN_EVENTS`` or
``MAX_RUN_BYTES``, and at the end of an embedded run. Every one of those is decided by
the events alone, so every driver cuts the same segments.

A hand's segment re-encodes its packed events only when its events are read
(``Segment.events``): a run that does not archive does not pay for it.
"""

from __future__ import annotations

from services.adjudicator.intake import ParsedEvent
from services.adjudicator.open_hand import OpenHand, unpack_events
from services.adjudicator.segments import ArchivedEvent, BetweenRun, HandCut, Segment
from services.events.canonical import sorted_encoding
from services.events.contract import Event

MAX_RUN_EVENTS = 64  # events between hands per segment (a table between sessions)
MAX_RUN_BYTES = 256 * 1024  # canonical bytes held per run between hands


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


def between_segment(table_id: str, run: BetweenRun) -> Segment:
    events = [ArchivedEvent(c, seq, ts, prev, refused) for c, seq, ts, prev, refused in run.events]
    return Segment(table_id, None, run.head_seq, run.ordinal, events)


def hand_segment(table_id: str, hand_id: str, cut: HandCut, packed: list[Event]) -> Segment:
    """The hand's segment: its packed events (in the order packed) with the events kept
    beside them put back at their positions (made when first read)."""
    return Segment(table_id, hand_id, cut.head_seq, cut.ordinal,
                   make=lambda: _hand_events(cut, packed))


def open_hand_segment(hand: OpenHand) -> Segment:
    """The segment of a hand closed before its end (its events unpacked when read)."""
    return Segment(hand.table_id, hand.hand_id, hand.cut.head_seq, hand.cut.ordinal,
                   make=lambda: _hand_events(hand.cut, unpack_events(hand)))


def _hand_events(cut: HandCut, packed: list[Event]) -> list[ArchivedEvent]:
    canonical = dict(cut.canonical)
    own = iter([ArchivedEvent(canonical.get(i) or sorted_encoding(e), e.seq, e.ts, e.prev_hash)
                for i, e in enumerate(packed)])
    beside = {position: ArchivedEvent(c, seq, ts, prev, refused)
              for position, c, seq, ts, prev, refused in cut.extras}
    return [beside[p] if p in beside else next(own) for p in range(len(packed) + len(beside))]
