"""A table's archived events, back in the order they arrived.

Segments are ordered by (head_seq, ordinal) (``services.adjudicator.segments``): that is
arrival order, so the events read back, fed to a fresh table state, give the records the
first run gave (``tests/unit/core/test_archive_segments.py``). The events come back as
their canonical JSON, which is a valid v1 record with the same hash: every consumer of an
event log (the reports, the replay) takes them as lines of a log.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any, NamedTuple, TypeAlias

import orjson
from sqlalchemy import Connection, Engine, Select, select, tuple_

from services.archive.segment import PackedSegment, decompress, event_lines
from services.ledger.archive_tables import ArchiveSegment
from services.ledger.spans import within_days

S = ArchiveSegment
Rows: TypeAlias = Select[*tuple[Any, ...]]  # a query for segment rows
_COLUMNS = (S.table_id, S.head_seq, S.ordinal, S.day, S.hand_id, S.first_seq, S.last_seq,
            S.events, S.refused, S.first_prev_hash, S.last_hash, S.first_ts, S.last_ts,
            S.codec, S.body, S.body_sha256)
_ORDER = (S.table_id, S.head_seq, S.ordinal)
# Rows fetched at a time when a table's whole history is read (a server-side cursor on
# PostgreSQL): years of a table are not held in memory at once.
STREAM_ROWS = 256


def packed_of(row: Any) -> PackedSegment:
    """A stored row as the segment it was written from."""
    return PackedSegment(
        table_id=row.table_id, head_seq=row.head_seq, ordinal=row.ordinal,
        day=row.day.isoformat() if isinstance(row.day, dt.date) else str(row.day),
        hand_id=row.hand_id, first_seq=row.first_seq, last_seq=row.last_seq, events=row.events,
        refused=orjson.loads(row.refused), first_prev_hash=row.first_prev_hash,
        last_hash=row.last_hash, first_ts=row.first_ts, last_ts=row.last_ts, codec=row.codec,
        body=bytes(row.body), body_sha256=row.body_sha256)


def segments_query(table_id: str | None = None, first_day: dt.date | None = None,
                   last_day: dt.date | None = None) -> Rows:
    """Segments (of one table, of a span of days), in arrival order per table."""
    query: Rows = select(*_COLUMNS).order_by(*_ORDER)
    if table_id is not None:
        query = query.where(S.table_id == table_id)
    return within_days(query, S.day, first_day, last_day)


def iter_segments(conn: Connection, query: Rows) -> Iterator[PackedSegment]:
    """The query's segments as they are read (``STREAM_ROWS`` rows at a time)."""
    for row in conn.execute(query.execution_options(yield_per=STREAM_ROWS)):
        yield packed_of(row)


def day_of(value: Any) -> dt.date:
    """A stored ``day`` column as a date (SQLite gives back its text)."""
    return value if isinstance(value, dt.date) else dt.date.fromisoformat(str(value))


class SegmentBody(NamedTuple):
    """A segment's key, day and hand, and its events (canonical JSON lines joined by
    newlines)."""

    head_seq: int
    ordinal: int
    day: dt.date
    hand_id: str | None
    body: bytes


def segment_bodies(conn: Connection, table_id: str, after: tuple[int, int] | None = None,
                   through: tuple[int, int] | None = None) -> Iterator[SegmentBody]:
    """A table's segments after the one keyed ``after`` (or from its first) through the
    one keyed ``through`` (or its last), in arrival order, decompressed as they are read
    (``STREAM_ROWS`` rows at a time)."""
    query = select(S.head_seq, S.ordinal, S.day, S.hand_id, S.codec, S.body).where(
        S.table_id == table_id).order_by(S.head_seq, S.ordinal)
    if after is not None:
        query = query.where(tuple_(S.head_seq, S.ordinal) > tuple_(*after))
    if through is not None:
        query = query.where(tuple_(S.head_seq, S.ordinal) <= tuple_(*through))
    for row in conn.execute(query.execution_options(yield_per=STREAM_ROWS)):
        yield SegmentBody(row.head_seq, row.ordinal, day_of(row.day), row.hand_id,
                          decompress(row.codec, bytes(row.body)))


def hand_table(engine: Engine, hand_id: str) -> tuple[str, int, int] | None:
    """(table, head_seq, ordinal) of the last segment holding the hand, or None."""
    with engine.connect() as conn:
        row = conn.execute(select(S.table_id, S.head_seq, S.ordinal).where(S.hand_id == hand_id)
                           .order_by(S.head_seq.desc(), S.ordinal.desc()).limit(1)).first()
    return None if row is None else (row.table_id, row.head_seq, row.ordinal)


def bodies_through_hand(engine: Engine, where: tuple[str, int, int],
                        after: tuple[int, int] | None = None) -> Iterator[bytes]:
    """A table's archived events as bodies (each a segment's canonical JSON lines joined by
    newlines, ``decompress``), read as they are consumed: from the table's first segment
    (or the one after the segment keyed ``after``: a checkpoint's) through the hand's last
    (``where``: ``hand_table``'s answer), then the first event after them alone (the
    successor that confirms the hand's last hash)."""
    table_id, head_seq, ordinal = where
    with engine.connect() as conn:
        for segment in segment_bodies(conn, table_id, after, (head_seq, ordinal)):
            yield segment.body
        successor = conn.execute(segments_query(table_id).where(
            tuple_(S.head_seq, S.ordinal) > tuple_(head_seq, ordinal)).limit(1)).first()
    if successor is not None:
        yield event_lines(successor.codec, bytes(successor.body))[0]
