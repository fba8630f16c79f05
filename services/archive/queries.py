"""What the console and the CLI ask of the archive: which hands and tables it holds, and
one hand's events.

Plain functions over an engine returning plain dataclasses (issue #26 builds the web
console on these; nothing here prints).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sqlalchemy import Connection, Engine, func, select

from services.archive.reader import day_of, iter_segments, segments_query
from services.archive.segment import event_lines
from services.ledger.archive_tables import ArchiveAlert, ArchiveSegment, ArchiveTable
from services.ledger.models import Hand

S = ArchiveSegment


@dataclass(frozen=True)
class ArchivedHand:
    hand_id: str
    table_id: str
    day: dt.date
    first_seq: int | None
    last_seq: int | None
    events: int


@dataclass(frozen=True)
class ArchivedTable:
    table_id: str
    first_day: dt.date
    last_day: dt.date
    segments: int
    events: int


def find_hands(engine: Engine, table_id: str | None = None, day: dt.date | None = None,
               hand_id: str | None = None, limit: int | None = 1000) -> list[ArchivedHand]:
    """Archived hands (one table, one day, one hand id), in table then seq order."""
    query = (select(S.hand_id, S.table_id, func.max(S.day), func.min(S.first_seq),
                    func.max(S.last_seq), func.sum(S.events))
             .where(S.hand_id.is_not(None)).group_by(S.hand_id, S.table_id)
             .order_by(S.table_id, func.min(S.first_seq)))
    if table_id is not None:
        query = query.where(S.table_id == table_id)
    if day is not None:
        query = query.where(S.day == day)
    if hand_id is not None:
        query = query.where(S.hand_id == hand_id)
    if limit is not None:
        query = query.limit(limit)
    with engine.connect() as conn:
        return [ArchivedHand(str(h), t, _date(d), first, last, int(n))
                for h, t, d, first, last, n in conn.execute(query)]


def archived_tables(engine: Engine) -> list[ArchivedTable]:
    query = (select(S.table_id, func.min(S.day), func.max(S.day), func.count(),
                    func.sum(S.events)).group_by(S.table_id).order_by(S.table_id))
    with engine.connect() as conn:
        return [ArchivedTable(t, _date(a), _date(b), int(n), int(e))
                for t, a, b, n, e in conn.execute(query)]


def hand_events(engine: Engine, hand_id: str) -> list[bytes]:
    """The canonical JSON of the events archived in the hand's own segments, in arrival
    order (table-level events that came during the hand included)."""
    with engine.connect() as conn:
        segments = list(iter_segments(conn, segments_query().where(S.hand_id == hand_id)))
    return [line for s in segments for line in event_lines(s.codec, s.body)]


def alerts_of_hand(engine: Engine, hand_id: str) -> list[str]:
    """The archived alerts raised on a hand, as their JSON."""
    with engine.connect() as conn:
        return list(conn.execute(select(ArchiveAlert.alert_json)
                                 .where(ArchiveAlert.hand_id == hand_id)
                                 .order_by(ArchiveAlert.alert_id)).scalars())


def _date(value: object) -> dt.date:
    return value if isinstance(value, dt.date) else dt.date.fromisoformat(str(value))


HANDS_PER_QUERY = 512  # hand ids looked up in the archive a query at a time


def undated_hands(conn: Connection, first_day: dt.date, last_day: dt.date,
                   table_id: str | None) -> dict[str, dict[str, dt.date | None]]:
    """The hands booked without a day whose last archived segment lies in the span, with
    that segment's day, by table: a rejected hand's record carries no
    ``ended_at``, so it is booked without a day, and is placed on the day of its last events
    (``pitwatch replay``, the daily report's hands to review).

    Why two steps per archived table (the catalog ``archive_tables`` names each once):
    the usual span has no such hand, and finding that is one probe of the ledger's index
    on (table, day) per table (1-2 ms for 10,000 hands on SQLite), where a join from the
    span's segments read every one of them (40-60 ms of the replay's 2.3 s). The few
    hands found are then looked up by the archive's index on ``hand_id``, from the span's
    first day on (on PostgreSQL, the partitions before it are not read)."""
    tables = ([table_id] if table_id is not None
              else conn.execute(select(ArchiveTable.table_id)).scalars().all())
    found: dict[str, dict[str, dt.date | None]] = {}
    for table in tables:
        undated = list(conn.execute(select(Hand.hand_id).where(
            Hand.table_id == table, Hand.day.is_(None))).scalars())
        for start in range(0, len(undated), HANDS_PER_QUERY):
            last = func.max(S.day)
            rows = conn.execute(
                select(S.hand_id, S.table_id, last)
                .where(S.hand_id.in_(undated[start:start + HANDS_PER_QUERY]),
                       S.day >= first_day)
                .group_by(S.hand_id, S.table_id))
            for hand_id, held_by, day in rows:
                if held_by == table and day_of(day) <= last_day:
                    found.setdefault(table, {})[str(hand_id)] = day_of(day)
    return found
