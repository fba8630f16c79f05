"""What the console and the CLI ask of the archive: which hands and tables it holds, and
one hand's events.

Plain functions over an engine returning plain dataclasses (issue #26 builds the web
console on these; nothing here prints).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sqlalchemy import Engine, func, select

from services.archive.reader import iter_segments, segments_query
from services.archive.segment import event_lines
from services.ledger.archive_tables import ArchiveAlert, ArchiveSegment

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
