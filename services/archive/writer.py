"""Writing segments and alerts into the archive: idempotent by event, in batches.

Delivery is at-least-once (a Kafka consumer killed before its commit gets its batch
again; a log may be archived twice), so a write must recognise what is already stored:

* a segment offered again under its key (day, table, head_seq, ordinal: a function of the
  events alone) with the same body is a no-op;
* a segment whose accepted events lie above everything archived for its table (one
  lookup in the ``archive_tables`` catalog) is new: the usual case, no comparison;
* otherwise (a second run over an overlapping log, a late event filling a gap) the
  segment is compared event by event with the archived events of its seq range: events
  already archived are dropped, an event archived with other bytes is kept in
  ``archive_conflicts`` (the stored one stays: the archive is append-only), and what is
  left is stored as its own segment.

Everything goes in inside the caller's transaction (``services.ledger.db.write_transaction``):
the embedded runner commits it with the ledger; the archive service commits it before
its Kafka offsets. On PostgreSQL a day's partition is created the first time the day is
written (``archive_day_partition``, migration 0002).
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, cast

import orjson
from sqlalchemy import (
    Connection,
    Engine,
    Insert,
    Select,
    Table,
    TextClause,
    func,
    select,
    text,
)
from sqlalchemy.dialects import postgresql, sqlite

from services.adjudicator.segments import ArchivedEvent, Segment
from services.archive.alerts import alert_row
from services.archive.segment import PackedSegment, event_lines, pack, stored_form
from services.events.contract import Alert
from services.ledger.archive_tables import (
    ArchiveAlert,
    ArchiveConflict,
    ArchiveSegment,
    ArchiveTable,
)
from services.ledger.bulk import bulk_insert
from services.ledger.db import write_transaction

SEGMENT_COLUMNS = ("day", "table_id", "head_seq", "ordinal", "hand_id", "first_seq",
                   "last_seq", "events", "refused", "first_prev_hash", "last_hash",
                   "first_ts", "last_ts", "codec", "body_sha256", "body")
Key = tuple[dt.date, str, int, int]


@dataclass
class ArchiveResult:
    """What one write did (counts, for logs, summaries and tests)."""

    segments: int = 0  # stored as offered
    trimmed: int = 0  # stored without the events the archive already held
    repeats: int = 0  # already archived whole
    conflicts: int = 0  # events offered again with other bytes (kept in archive_conflicts)
    alerts: int = 0
    alert_repeats: int = 0

    def add(self, other: ArchiveResult) -> None:
        for name in vars(self):
            setattr(self, name, getattr(self, name) + getattr(other, name))


def write_archive(conn: Connection, segments: Sequence[PackedSegment],
                  alerts: Sequence[Alert] = ()) -> ArchiveResult:
    """Archive ``segments`` (each table's in arrival order) and ``alerts``."""
    result = ArchiveResult()
    if segments:
        _write_segments(conn, segments, result)
    if alerts:
        _write_alerts(conn, alerts, result)
    return result


# ---------------------------------------------------------------- segments


def _write_segments(conn: Connection, given: Sequence[PackedSegment],
                    result: ArchiveResult) -> None:
    segments = [stored_form(s) for s in given]
    ensure_days(conn, {s.day for s in segments})
    stored = _stored_bodies(conn, [s.key for s in segments])
    heads = _heads(conn, {s.table_id for s in segments})
    pending: list[PackedSegment] = []
    for offered in segments:
        top = heads.get(offered.table_id, 0)
        same_key = stored.get(offered.key)
        if same_key is not None and same_key == (offered.codec, offered.body):
            result.repeats += 1
            continue
        segment = offered
        if same_key is not None or (offered.first_seq is not None and offered.first_seq <= top):
            _insert(conn, pending)  # what this batch has so far is compared with too
            pending = []
            trimmed = _trim(conn, offered, result)
            if trimmed is None:
                result.repeats += 1
                continue
            if trimmed.key in stored:  # its key is taken by a segment with other events
                result.conflicts += 1
                continue
            segment = trimmed
        result.segments += segment is offered
        result.trimmed += segment is not offered
        pending.append(segment)
        stored[segment.key] = (segment.codec, segment.body)
        if segment.last_seq is not None:
            heads[segment.table_id] = max(top, segment.last_seq)
    _insert(conn, pending)
    _raise_heads(conn, heads)


def ensure_days(conn: Connection, days: Iterable[str]) -> None:
    """PostgreSQL: the day partitions ``days`` need, created if missing."""
    if conn.dialect.name != "postgresql":
        return
    for day in sorted(set(days)):
        name = f"archive_segments_{day.replace('-', '')}"
        if conn.execute(text("SELECT to_regclass(:name)"), {"name": name}).scalar() is None:
            conn.execute(text("SELECT archive_day_partition(:day)"),
                         {"day": dt.date.fromisoformat(day)})


# The keys of a batch as four arrays, each looked up by the primary key: one statement of
# four parameters whatever the batch's size. A row-value IN list of the keys made
# PostgreSQL plan an OR of hundreds of four-column conditions on every batch (measured:
# twice the server's CPU and three times the client's for the same lookups); a plain join
# of the arrays with the table was planned as a merge join over a sort of every segment
# ever archived (23 ms a batch with 9,200 segments archived, growing with the archive,
# which keeps years). LATERAL makes it one index probe a key, in that key's day
# partition only (pruned as each key is looked up): the cost of a batch is its own. The
# LIMIT (a key is unique anyway) keeps the planner from pulling the subquery up into the
# same join again.
_STORED_BODIES_PG = text(
    "SELECT s.day, s.table_id, s.head_seq, s.ordinal, s.codec, s.body "
    "FROM unnest(CAST(:days AS date[]), CAST(:tables AS text[]), CAST(:heads AS bigint[]), "
    "CAST(:ordinals AS bigint[])) AS k(day, table_id, head_seq, ordinal) "
    "CROSS JOIN LATERAL (SELECT a.day, a.table_id, a.head_seq, a.ordinal, a.codec, a.body "
    "FROM archive_segments a WHERE a.day = k.day AND a.table_id = k.table_id "
    "AND a.head_seq = k.head_seq AND a.ordinal = k.ordinal LIMIT 1) s")


# SQLite: the keys as a VALUES list, each looked up by the primary key (CROSS JOIN keeps
# the keys the outer loop). A row-value IN list of the keys was planned as a scan of the
# whole table for every chunk of keys. Dates are kept as ISO text (SQLAlchemy's Date).
_STORED_BODIES_SQLITE = (
    "WITH k(day, table_id, head_seq, ordinal) AS (VALUES {values}) "
    "SELECT s.day, s.table_id, s.head_seq, s.ordinal, s.codec, s.body "
    "FROM k CROSS JOIN archive_segments s ON s.day = k.day AND s.table_id = k.table_id "
    "AND s.head_seq = k.head_seq AND s.ordinal = k.ordinal")
# Four bound values a key, under SQLite's oldest limit of 999 a statement.
_SQLITE_KEYS_PER_LOOKUP = 240


def _stored_bodies(conn: Connection, keys: list[Key]) -> dict[Key, tuple[str, bytes]]:
    """The stored codec and body of each of ``keys`` that is archived."""
    found: dict[Key, tuple[str, bytes]] = {}
    if conn.dialect.name == "postgresql":
        if keys:
            rows = conn.execute(_STORED_BODIES_PG, {
                "days": [k[0] for k in keys], "tables": [k[1] for k in keys],
                "heads": [k[2] for k in keys], "ordinals": [k[3] for k in keys]})
            for day, table_id, head_seq, ordinal, codec, body in rows:
                found[(day, table_id, head_seq, ordinal)] = (codec, bytes(body))
        return found
    for start in range(0, len(keys), _SQLITE_KEYS_PER_LOOKUP):
        statement, params = sqlite_lookup(keys[start:start + _SQLITE_KEYS_PER_LOOKUP])
        for day, table_id, head_seq, ordinal, codec, body in conn.execute(statement, params):
            found[(dt.date.fromisoformat(day), table_id, head_seq, ordinal)] = (codec, bytes(body))
    return found


def sqlite_lookup(keys: list[Key]) -> tuple[TextClause, dict[str, Any]]:
    """The SQLite statement that finds ``keys`` (at most ``_SQLITE_KEYS_PER_LOOKUP``),
    and its bound values."""
    params: dict[str, Any] = {}
    for n, (day, table_id, head_seq, ordinal) in enumerate(keys):
        params.update({f"d{n}": day.isoformat(), f"t{n}": table_id, f"h{n}": head_seq,
                       f"o{n}": ordinal})
    values = ", ".join(f"(:d{n}, :t{n}, :h{n}, :o{n})" for n in range(len(keys)))
    return text(_STORED_BODIES_SQLITE.format(values=values)), params


def _heads(conn: Connection, tables: set[str]) -> dict[str, int]:
    rows = conn.execute(select(ArchiveTable.table_id, ArchiveTable.last_seq)
                        .where(ArchiveTable.table_id.in_(sorted(tables))))
    return {table_id: last_seq for table_id, last_seq in rows}


def _insert(conn: Connection, segments: list[PackedSegment]) -> None:
    rows = [(dt.date.fromisoformat(s.day), s.table_id, s.head_seq, s.ordinal, s.hand_id,
             s.first_seq, s.last_seq, s.events, orjson.dumps(s.refused).decode(),
             s.first_prev_hash, s.last_hash, s.first_ts, s.last_ts, s.codec,
             hashlib.sha256(s.body).hexdigest(), s.body)
            for s in segments]
    bulk_insert(conn, _table(ArchiveSegment), SEGMENT_COLUMNS, rows, binary=True)


def _raise_heads(conn: Connection, heads: dict[str, int]) -> None:
    """The catalog's highest archived seq per table, never lowered."""
    if not heads:
        return
    rows = [{"table_id": t, "last_seq": seq} for t, seq in sorted(heads.items())]
    table = _table(ArchiveTable)
    statement: Any
    if conn.dialect.name == "postgresql":
        insert = postgresql.insert(table)
        statement = insert.on_conflict_do_update(
            index_elements=["table_id"],
            set_={"last_seq": func.greatest(table.c.last_seq, insert.excluded.last_seq)})
    else:
        insert_sqlite = sqlite.insert(table)
        statement = insert_sqlite.on_conflict_do_update(
            index_elements=["table_id"],
            set_={"last_seq": func.max(table.c.last_seq, insert_sqlite.excluded.last_seq)})
    conn.execute(statement, rows)


def _trim(conn: Connection, offered: PackedSegment, result: ArchiveResult
          ) -> PackedSegment | None:
    """``offered`` without the events its table already has archived (None: nothing is
    left). An accepted event archived with other bytes is a conflict, kept aside; a
    refused event before the last event dropped belongs to the part already archived."""
    lines = event_lines(offered.codec, offered.body)
    refused = set(offered.refused)
    if offered.first_seq is None or offered.last_seq is None:
        archived: dict[int, str] = {}
    else:
        archived = _archived_hashes(conn, offered.table_id, offered.first_seq, offered.last_seq)
    events = [_archived_event(line, i in refused) for i, line in enumerate(lines)]
    dropped_up_to = -1
    conflicts = []
    for i, (line, event) in enumerate(zip(lines, events, strict=True)):
        known = None if event.refused else archived.get(event.seq)
        if known is None:
            continue
        dropped_up_to = i
        digest = hashlib.sha256(line).hexdigest()
        if digest != known:
            conflicts.append({"table_id": offered.table_id, "seq": event.seq,
                              "offered_sha256": digest, "stored_sha256": known,
                              "offered": line})
    kept = [i for i, e in enumerate(events)
            if (not e.refused and e.seq not in archived) or (e.refused and i > dropped_up_to)]
    if conflicts:
        result.conflicts += len(conflicts)
        _insert_ignoring_duplicates(conn, _table(ArchiveConflict), conflicts)
    if len(kept) == len(events):
        return offered
    if not kept:
        return None
    part = Segment(offered.table_id, offered.hand_id, offered.head_seq, offered.ordinal + kept[0],
                   [events[i] for i in kept])
    return pack(part)


def _archived_event(line: bytes, refused: bool) -> ArchivedEvent:
    obj = orjson.loads(line)
    return ArchivedEvent(line, int(obj["seq"]), str(obj["ts"]), str(obj["prev_hash"]), refused)


def _archived_hashes(conn: Connection, table_id: str, first: int, last: int) -> dict[int, str]:
    """seq -> SHA-256 of every accepted archived event of the table in [first, last].

    The segments that meet [first, last] are found from ``first`` on in the index on
    (table, last seq): an overlap is near the table's head, so that reads a few rows. The
    ``+ 0`` keeps both databases from reading the index on (table, first seq) instead,
    which starts at the table's first segment (years of them, in a long-kept archive)."""
    rows = conn.execute(overlapping_segments(table_id, first, last))
    hashes: dict[int, str] = {}
    for codec, body, refused_json in rows:
        refused = set(orjson.loads(refused_json))
        for i, line in enumerate(event_lines(codec, bytes(body))):
            if i in refused:
                continue
            seq = int(orjson.loads(line)["seq"])
            if first <= seq <= last:
                hashes[seq] = hashlib.sha256(line).hexdigest()
    return hashes


def overlapping_segments(table_id: str, first: int, last: int) -> Select[str, bytes, str]:
    """The codec, body and refused positions of the table's archived segments that meet
    the seqs [first, last] (see ``_archived_hashes`` for the index it reads)."""
    s = ArchiveSegment
    return select(s.codec, s.body, s.refused).where(
        s.table_id == table_id, s.last_seq >= first, s.first_seq + 0 <= last)


# ---------------------------------------------------------------- alerts


def _write_alerts(conn: Connection, alerts: Sequence[Alert], result: ArchiveResult) -> None:
    rows: dict[str, dict[str, Any]] = {}
    for alert in alerts:
        row = alert_row(alert)
        if row["alert_id"] in rows:
            result.alert_repeats += 1
            continue
        rows[row["alert_id"]] = row
    known = set(conn.execute(select(ArchiveAlert.alert_id)
                             .where(ArchiveAlert.alert_id.in_(sorted(rows)))).scalars())
    new = [row for key, row in rows.items() if key not in known]
    result.alerts += len(new)
    result.alert_repeats += len(known)
    _insert_ignoring_duplicates(conn, _table(ArchiveAlert), new)


# ---------------------------------------------------------------- helpers


def _table(model: type[Any]) -> Table:
    return cast(Table, model.__table__)


def _insert_ignoring_duplicates(conn: Connection, table: Table,
                                rows: list[dict[str, Any]]) -> None:
    if not rows:
        return
    statement: Insert
    if conn.dialect.name == "postgresql":
        statement = postgresql.insert(table).on_conflict_do_nothing()
    else:
        statement = sqlite.insert(table).on_conflict_do_nothing()
    conn.execute(statement, rows)


# ---------------------------------------------------------------- a whole run


BATCH_SEGMENTS = 500  # segments per transaction when archiving a whole run


def archive_run(engine: Engine, segments: Iterable[PackedSegment], alerts: Sequence[Alert] = (),
                batch: int = BATCH_SEGMENTS) -> ArchiveResult:
    """Archive what an embedded run produced, ``batch`` segments per transaction (the
    alerts with the last)."""
    result = ArchiveResult()
    chunk: list[PackedSegment] = []
    for segment in segments:
        chunk.append(segment)
        if len(chunk) == batch:
            with write_transaction(engine) as conn:
                result.add(write_archive(conn, chunk))
            chunk = []
    with write_transaction(engine) as conn:
        result.add(write_archive(conn, chunk, alerts))
    return result
