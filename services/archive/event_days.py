"""The day of the event an alert raised on no hand names: a GEN-4 ``CASH_IN_PLAY`` between
hands, a GEN-5 ``UNAUTHORISED_CONFIGURATION``, a SURV-9 chain alert outside a hand.

Why: such an alert carries the ``seq`` and ``event_id`` of the event that raised it, and
no time; the event archive holds that event, with its ``ts``: the alert belongs to the
UTC day of that event. The daily report places it there, and the case queue's ``--date``
and a span's ``verify`` find its case there (QA: in no day's report, on no day's queue).

How: the archive's segments of the alert's table whose accepted seqs span the alert's
seq (the index on ``(table_id, first_seq)``), read until the event is found, by its
``event_id`` when the alert names one (two events may share a seq, one of them refused),
else by its seq. An alert whose event the archive does not hold has no day.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

import msgspec
from sqlalchemy import Connection, Engine, select

from services.archive.reader import packed_of, segments_query
from services.archive.segment import event_lines
from services.events.contract import Alert, decode_alert
from services.ledger.archive_tables import ArchiveAlert, ArchiveSegment

S = ArchiveSegment


class _Stamp(msgspec.Struct):
    """What the day of an event needs from its JSON."""

    seq: int | None = None
    event_id: str | None = None
    ts: str | None = None


_stamp = msgspec.json.Decoder(_Stamp)


def hand_less(alerts: Iterable[Alert], table: str | None = None) -> list[Alert]:
    """The alerts raised on no hand (of ``table`` when given) that name their event."""
    return [a for a in alerts if a.hand_id is None and a.seq is not None
            and (table is None or a.table_id == table)]


def event_day(conn: Connection, alert: Alert, from_day: dt.date | None = None
              ) -> dt.date | None:
    """The UTC day of the event that raised ``alert``, as the archive holds it; None when
    it holds no such event (or the alert names none). ``from_day``: read only segments
    of that day or later (a segment's day is that of its last accepted event, never
    before its events': on PostgreSQL, the partitions before it are not read)."""
    if alert.seq is None:
        return None
    query = segments_query(alert.table_id, from_day).where(
        S.first_seq <= alert.seq, S.last_seq >= alert.seq)
    try:
        for row in conn.execute(query).all():  # few: the segments spanning one seq
            segment = packed_of(row)
            for line in event_lines(segment.codec, segment.body):
                try:
                    event = _stamp.decode(line)
                except msgspec.DecodeError:
                    continue
                named = alert.event_id is None or event.event_id == alert.event_id
                if event.seq == alert.seq and named and event.ts:
                    return dt.date.fromisoformat(event.ts[:10])
    except ValueError:  # a damaged row (``DamagedRow``): pitwatch verify names it
        return None
    return None


def archived_of_days(engine: Engine, first_day: dt.date | None, last_day: dt.date | None,
                     table: str | None = None) -> list[Alert]:
    """The archived alerts raised on no hand whose event is of a day in ``first_day``..
    ``last_day`` (at ``table``; None: that end open).

    Why a join first: the archive keeps every day's such alerts; only those whose
    event's segment can be of the span (its day not before it, its first event's time
    not after it) are read further. Alerts are a few per thousand hands, these fewer."""
    query = (select(ArchiveAlert.alert_json).distinct()
             .join(S, (S.table_id == ArchiveAlert.table_id)
                   & (S.first_seq <= ArchiveAlert.seq) & (S.last_seq >= ArchiveAlert.seq))
             .where(ArchiveAlert.hand_id.is_(None), ArchiveAlert.seq.is_not(None)))
    if first_day is not None:
        query = query.where(S.day >= first_day)
    if last_day is not None:
        query = query.where(S.first_ts < (last_day + dt.timedelta(days=1)).isoformat())
    if table is not None:
        query = query.where(ArchiveAlert.table_id == table)
    with engine.connect() as conn:
        candidates = [decode_alert(raw) for raw in conn.execute(query).scalars()]
        out = []
        for alert in candidates:
            day = event_day(conn, alert, first_day)
            if day is not None and (first_day is None or first_day <= day) and (
                    last_day is None or day <= last_day):
                out.append(alert)
        return out
