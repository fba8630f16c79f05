"""The archive's days, and retention: detaching the days older than it on PostgreSQL.

Retention is the number of years the archive keeps on line (``PITWATCH_ARCHIVE_RETENTION_
YEARS``, default ``DEFAULT_RETENTION_YEARS``; set it to what the jurisdiction requires).
The archive never deletes: a day older than that is *detached* (``ALTER TABLE
archive_segments DETACH PARTITION``), which leaves its partition as a table of its own,
with its rows untouched, outside the queries of the live archive, ready to be moved to
cold storage (``pg_dump -t``, a slower tablespace) by the operator. A day inside the
retention period is never detached. PostgreSQL drops the guards a partition inherited when
it is detached, so the detached table gets its own: it stays append-only.

SQLite (the embedded default) has no partitions: its archive is one table, and detaching
is refused with a message saying so.
"""

from __future__ import annotations

import datetime as dt
import os
from dataclasses import dataclass

from sqlalchemy import ColumnElement, Connection, Engine, exists, func, select, text

from services.ledger.archive_tables import ArchiveDetached, ArchiveSegment
from services.ledger.db import write_transaction

DEFAULT_RETENTION_YEARS = 7
RETENTION_ENV = "PITWATCH_ARCHIVE_RETENTION_YEARS"
PARENT = "archive_segments"


class RetentionRefused(RuntimeError):
    """Detaching is not possible here (SQLite), or the setting is not a number of years."""


@dataclass(frozen=True)
class ArchiveDay:
    day: dt.date | str  # the stored text when it is no date (a row rewritten: verify)
    segments: int
    events: int
    tables: int


# Longer than any archive is kept (and than the calendar allows before year 1: a retention
# of 2,026 years in 2026 reached "year 0" and a traceback, QA).
MAX_RETENTION_YEARS = 1000


def retention_years(value: str | None = None) -> int:
    """The retention setting: ``value`` (the option, which Typer fills from the
    environment too), else the environment, else the default."""
    text_value = value if value is not None else os.environ.get(RETENTION_ENV)
    if text_value is None or text_value == "":
        return DEFAULT_RETENTION_YEARS
    try:
        years = int(text_value)
    except ValueError:
        raise RetentionRefused(f"retention must be a whole number of years, not "
                               f"{text_value!r} (--retention-years or {RETENTION_ENV})"
                               ) from None
    if not 1 <= years <= MAX_RETENTION_YEARS:
        raise RetentionRefused(f"retention must be from 1 to {MAX_RETENTION_YEARS:,} years, "
                               f"not {years:,}")
    return years


def oldest_kept(today: dt.date, years: int) -> dt.date:
    """The first day inside the retention period (29 February falls back to the 28th)."""
    try:
        return today.replace(year=today.year - years)
    except ValueError:
        return today.replace(year=today.year - years, day=28)


def archive_days(engine: Engine) -> list[ArchiveDay]:
    """Every day the live archive holds, with its counts. Read as stored, not parsed: a
    day rewritten into no date (SQLite) is listed as its text, where it stopped the
    command with a traceback."""
    from services.archive.reader import day_or_none, raw_text

    s = ArchiveSegment
    day = raw_text(s.day, "day")
    query = (select(day, func.count(), func.coalesce(func.sum(s.events), 0),
                    func.count(s.table_id.distinct()))
             .group_by(day).order_by(day))
    with engine.connect() as conn:
        return [ArchiveDay(day_or_none(stored) or str(stored), int(n), int(events),
                           int(tables))
                for stored, n, events, tables in conn.execute(query)]


def partition_name(day: dt.date) -> str:
    return f"{PARENT}_{day.strftime('%Y%m%d')}"


def detachable_days(engine: Engine, today: dt.date, years: int) -> list[dt.date]:
    """Attached day partitions older than the retention period."""
    _require_postgresql(engine)
    limit = oldest_kept(today, years)
    with engine.connect() as conn:
        names = conn.execute(text(
            "SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid "
            "JOIN pg_class p ON p.oid = i.inhparent WHERE p.relname = :parent "
            "AND pg_table_is_visible(p.oid)"), {"parent": PARENT}).scalars().all()
    days = sorted(dt.datetime.strptime(name[len(PARENT) + 1:], "%Y%m%d").date()
                  for name in names)
    return [day for day in days if day < limit]


def detach_days(engine: Engine, days: list[dt.date], at: str) -> list[str]:
    """Detach these day partitions (each must be older than retention: the caller got
    them from ``detachable_days``); returns the detached tables' names. In the same
    transaction as each detach, where every table's chain stood at the end of the day
    (``archive_detached``, stamped ``at``): the live archive's chains continue from
    there, and ``pitwatch verify`` holds them to it."""
    _require_postgresql(engine)
    detached = []
    for day in days:
        name = partition_name(day)
        with write_transaction(engine) as conn:
            _record_where_chains_stood(conn, name, day, at)
            conn.execute(text(f'ALTER TABLE {PARENT} DETACH PARTITION "{name}"'))
            # A day detached before, restored and attached again, still has the guard its
            # first detach gave it (a plain CREATE stopped the second detach with a
            # traceback, QA); replaced in the same transaction, it is never unguarded.
            conn.execute(text(f'DROP TRIGGER IF EXISTS "{name}_append_only" ON "{name}"'))
            conn.execute(text(
                f'CREATE TRIGGER "{name}_append_only" BEFORE UPDATE OR DELETE ON "{name}" '
                "FOR EACH ROW EXECUTE FUNCTION pitwatch_refuse_change()"))
        detached.append(name)
    return detached


def _record_where_chains_stood(conn: Connection, name: str, day: dt.date, at: str) -> int:
    """Each table's last accepted seq and hash in the day table ``name``, and how many
    segments and events it held that day, into ``archive_detached`` (a row already there
    stays: repeats are no-ops); the rows added."""
    result = conn.execute(text(
        "INSERT INTO archive_detached (day, table_id, last_seq, last_hash, detached_at, "
        "segments, events) "
        "SELECT DISTINCT ON (s.table_id) :day, s.table_id, s.last_seq, s.last_hash, :at, "
        "c.segments, c.events "
        f'FROM "{name}" s JOIN (SELECT table_id, count(*) AS segments, sum(events) AS events '
        f'FROM "{name}" GROUP BY table_id) c ON c.table_id = s.table_id '
        "WHERE s.last_seq IS NOT NULL ORDER BY s.table_id, s.last_seq DESC "
        "ON CONFLICT (day, table_id) DO NOTHING"), {"day": day, "at": at})
    return int(result.rowcount or 0)


# The day tables of this schema that are no longer partitions: the detached days.
_DETACHED_DAYS = text(
    "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
    "WHERE n.nspname = current_schema() AND c.relkind = 'r' AND NOT c.relispartition "
    f"AND c.relname ~ '^{PARENT}_[0-9]{{8}}$' ORDER BY c.relname")


def record_detached_days(engine: Engine, at: str) -> int:
    """Where the chains stood in every detached day table still in the database whose
    rows ``archive_detached`` lacks (days detached before pitwatch recorded it, or a day
    restored from cold storage): the rows added. ``pitwatch archive detach`` runs it
    first; migration 0014 does the same for the days detached before it."""
    _require_postgresql(engine)
    added = 0
    with write_transaction(engine) as conn:
        for name in conn.execute(_DETACHED_DAYS).scalars().all():
            day = dt.datetime.strptime(name[len(PARENT) + 1:], "%Y%m%d").date()
            added += _record_where_chains_stood(conn, name, day, at)
    return added


def still_detached() -> ColumnElement[bool]:
    """An ``archive_detached`` row whose day is not in the live archive again. A day
    restored and attached again is read as before (its row stays: the table is
    append-only): anchored where that day had left the chain, every event of the day
    was a `late` break, and the checkpoints counted its segments twice (QA)."""
    s, d = ArchiveSegment, ArchiveDetached
    return ~exists().where(s.table_id == d.table_id, s.day == d.day)


def has_detached_days(conn: Connection, table_id: str) -> bool:
    """Whether a day of the table is detached (and not attached again)."""
    d = ArchiveDetached
    return conn.execute(select(d.day).where(d.table_id == table_id, still_detached())
                        .limit(1)).first() is not None


def detached_lines(conn: Connection, table_id: str) -> int | None:
    """How many archived lines of the table its days still detached held (their segments'
    events), or None when a row does not say (a day detached before migration 0015)."""
    d = ArchiveDetached
    counts: list[int | None] = list(conn.execute(
        select(d.events).where(d.table_id == table_id, still_detached())).scalars())
    known = [n for n in counts if n is not None]
    return sum(known) if len(known) == len(counts) else None


def detached_before(engine: Engine, table_id: str) -> tuple[int, str] | None:
    """(last_seq, last_hash) where the table's chain stood at the end of its latest
    detached day (None: no day of it is detached, so its chain starts at genesis)."""
    d = ArchiveDetached
    with engine.connect() as conn:
        row = conn.execute(select(d.last_seq, d.last_hash)
                           .where(d.table_id == table_id, still_detached())
                           .order_by(d.last_seq.desc()).limit(1)).first()
    return None if row is None else (int(row.last_seq), str(row.last_hash))


def _require_postgresql(engine: Engine) -> None:
    if engine.dialect.name != "postgresql":
        raise RetentionRefused("the embedded SQLite archive has no day partitions to detach: "
                               "keep the file, or archive into PostgreSQL for retention by day")


def detached_tables(conn: Connection, table_id: str | None = None) -> dict[str, dt.date]:
    """The tables (or the one) whose first days are detached past retention and not in
    the live archive again, each with its last such day. Why it matters: the live archive
    then starts the table part way through its chain, and whatever derives hands from a
    table's first archived event (``pitwatch replay``, a report without a checkpoint made
    before the detach) would judge them as a new table's. Detaching goes from the oldest
    day on, so a detached day is always among a table's first; a table whose segments of
    those days are back (the days attached again) is whole again."""
    query = select(ArchiveDetached.table_id, func.max(ArchiveDetached.day)).group_by(
        ArchiveDetached.table_id)
    if table_id is not None:
        query = query.where(ArchiveDetached.table_id == table_id)
    latest: dict[str, dt.date] = {table: day for table, day in conn.execute(query)}
    s = ArchiveSegment
    return {table: day for table, day in latest.items()
            if conn.execute(select(s.day).where(s.table_id == table, s.day <= day)
                            .limit(1)).first() is None}
