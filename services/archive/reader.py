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
from sqlalchemy import (
    Boolean,
    ColumnElement,
    Connection,
    Engine,
    LargeBinary,
    Select,
    String,
    cast,
    select,
    tuple_,
    type_coerce,
)
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.functions import FunctionElement

from services.archive.segment import (
    PackedSegment,
    UnknownCodec,
    UnreadableBody,
    decompress,
    event_lines,
)
from services.ledger.archive_tables import ArchiveSegment
from services.ledger.spans import within_days

S = ArchiveSegment
Rows: TypeAlias = Select[*tuple[Any, ...]]  # a query for segment rows
# Rows fetched at a time when a table's whole history is read (a server-side cursor on
# PostgreSQL): years of a table are not held in memory at once.
STREAM_ROWS = 256


# ---------------------------------------------------------------- values as stored
#
# Why read some columns raw: a row rewritten behind the archive's guards can hold what
# pitwatch never writes, and SQLite keeps whatever it is given. SQLAlchemy's Date then
# raises on a day that is none ("2026-13-45"), and the driver on a body stored as TEXT
# that is not UTF-8, both while fetching, which ended a whole walk (``pitwatch verify``)
# at one row. Read as text and as bytes, such a row is one row to report.


class StoredAsBytes(FunctionElement[bool]):
    """Whether a binary column's value is stored as bytes: on SQLite its storage class
    is BLOB (a column there takes a value of any class); elsewhere the column's type
    holds only bytes, so whether it holds a value."""

    type = Boolean()
    inherit_cache = True
    name = "stored_as_bytes"


@compiles(StoredAsBytes)
def _stored_as_bytes(element: StoredAsBytes, compiler: SQLCompiler, **kw: Any) -> str:
    return f"({compiler.process(element.clauses, **kw)} IS NOT NULL)"


@compiles(StoredAsBytes, "sqlite")
def _stored_as_blob(element: StoredAsBytes, compiler: SQLCompiler, **kw: Any) -> str:
    return f"(typeof({compiler.process(element.clauses, **kw)}) = 'blob')"


def raw_bytes(column: Any, name: str) -> ColumnElement[bytes]:
    """A binary column read as bytes whatever it is stored as (``StoredAsBytes`` says)."""
    return cast(column, LargeBinary).label(name)


def raw_text(column: Any, name: str) -> ColumnElement[str]:
    """A column read as the driver gives it, not parsed (a date column: its text on
    SQLite, a date on PostgreSQL)."""
    return type_coerce(column, String).label(name)


def shown(value: Any, limit: int = 80) -> str:
    """A stored value as a message quotes it: its repr, cut to ``limit`` characters (a
    hash whole; a rewritten column may hold a megabyte)."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def day_or_none(value: Any) -> dt.date | None:
    """A stored ``day`` as a date, None when it holds no day."""
    if isinstance(value, dt.date):
        return value
    try:
        return dt.date.fromisoformat(str(value))
    except ValueError:
        return None


class DamagedRow(ValueError):
    """A stored row holding what pitwatch never writes there (rewritten behind the
    archive's guards); the message names the row and what is wrong."""


# ---------------------------------------------------------------- segments


class Damage(NamedTuple):
    """A column of a stored segment holding what the writer never writes."""

    column: str
    what: str  # "column refused holds 'x', not a list of event positions"


class StoredSegment(NamedTuple):
    """A stored row as far as it reads: ``segment`` (a refused list that is none read as
    empty, a body that is none as no bytes), and what is wrong with its columns."""

    segment: PackedSegment
    damage: tuple[Damage, ...] = ()


_COLUMNS = (S.table_id, S.head_seq, S.ordinal, raw_text(S.day, "day"), S.hand_id,
            S.first_seq, S.last_seq, S.events, S.refused, S.first_prev_hash, S.last_hash,
            S.first_ts, S.last_ts, S.codec, raw_bytes(S.body, "body"), S.body_sha256,
            StoredAsBytes(S.body).label("body_is_bytes"))
_ORDER = (S.table_id, S.head_seq, S.ordinal)


def stored_segment(row: Any) -> StoredSegment:
    """A row of ``segments_query`` as the segment it was written from, and its damage."""
    damage: list[Damage] = []
    refused = positions(row.refused)
    if refused is None:
        damage.append(Damage("refused", f"column refused holds {shown(row.refused)}, not a "
                                        "list of event positions"))
    if not row.body_is_bytes:
        damage.append(Damage("body", "column body holds no bytes (NULL)" if row.body is None
                             else "column body is stored as text, not as the bytes written"))
    segment = PackedSegment(
        table_id=row.table_id, head_seq=row.head_seq, ordinal=row.ordinal,
        day=row.day.isoformat() if isinstance(row.day, dt.date) else str(row.day),
        hand_id=row.hand_id, first_seq=row.first_seq, last_seq=row.last_seq, events=row.events,
        refused=refused or [], first_prev_hash=row.first_prev_hash,
        last_hash=row.last_hash, first_ts=row.first_ts, last_ts=row.last_ts, codec=row.codec,
        body=b"" if row.body is None else bytes(row.body), body_sha256=row.body_sha256)
    return StoredSegment(segment, tuple(damage))


def positions(raw: Any) -> list[int] | None:
    """A stored ``refused`` column's positions, None when it holds no list of them."""
    try:
        value = orjson.loads(raw)
    except orjson.JSONDecodeError:  # not JSON, or not text at all
        return None
    if type(value) is not list or any(type(i) is not int for i in value):
        return None
    return value


def packed_of(row: Any) -> PackedSegment:
    """A stored row as the segment it was written from; ``DamagedRow`` when a column holds
    what the writer never writes (``stored_segment`` says what, for a caller that goes
    on: ``pitwatch verify``)."""
    stored = stored_segment(row)
    if stored.damage:
        segment = stored.segment
        raise DamagedRow(f"the archived segment of table {segment.table_id} at head_seq "
                         f"{segment.head_seq}, ordinal {segment.ordinal} cannot be read: "
                         + "; ".join(d.what for d in stored.damage))
    return stored.segment


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


def stored_segments(conn: Connection, query: Rows) -> Iterator[StoredSegment]:
    """The query's segments as they are read, each with what is wrong with its columns:
    a damaged row is one row to report, and the walk goes on."""
    for row in conn.execute(query.execution_options(yield_per=STREAM_ROWS)):
        yield stored_segment(row)


def day_of(value: Any) -> dt.date:
    """A stored ``day`` column as a date (SQLite gives back its text)."""
    return value if isinstance(value, dt.date) else dt.date.fromisoformat(str(value))


class SegmentBody(NamedTuple):
    """A segment's key, day (None: its column holds no day, a damaged row) and hand, and
    its events (canonical JSON lines joined by newlines)."""

    head_seq: int
    ordinal: int
    day: dt.date | None
    hand_id: str | None
    body: bytes


def segment_bodies(conn: Connection, table_id: str, after: tuple[int, int] | None = None,
                   through: tuple[int, int] | None = None) -> Iterator[SegmentBody]:
    """A table's segments after the one keyed ``after`` (or from its first) through the
    one keyed ``through`` (or its last), in arrival order, decompressed as they are read
    (``STREAM_ROWS`` rows at a time). ``DamagedRow`` at a body that does not read (which
    ``pitwatch verify`` reports as a break of its own)."""
    query = select(S.head_seq, S.ordinal, raw_text(S.day, "day"), S.hand_id, S.codec,
                   raw_bytes(S.body, "body")).where(
        S.table_id == table_id).order_by(S.head_seq, S.ordinal)
    if after is not None:
        query = query.where(tuple_(S.head_seq, S.ordinal) > tuple_(*after))
    if through is not None:
        query = query.where(tuple_(S.head_seq, S.ordinal) <= tuple_(*through))
    for row in conn.execute(query.execution_options(yield_per=STREAM_ROWS)):
        try:
            body = decompress(row.codec, b"" if row.body is None else bytes(row.body))
        except (UnknownCodec, UnreadableBody) as exc:
            raise DamagedRow(f"the archived segment of table {table_id} at head_seq "
                             f"{row.head_seq}, ordinal {row.ordinal} cannot be read: {exc}"
                             ) from None
        yield SegmentBody(row.head_seq, row.ordinal, day_or_none(row.day), row.hand_id, body)


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
