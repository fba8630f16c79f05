"""The events a report replays, from the database's event archive.

Why its own module: ``report hand``, ``report daily`` and the console's hand view read
the same archived events, and a table may archive years of them: each source here reads
a table's segments as the replay consumes them (``services.reports.replay.ArchivedEvents``),
so only the wanted hands' span is ever held; and from the latest usable checkpoint before
the wanted hands (``services.archive.checkpoints``), so that a hand late in a table's life
replays the stretch since, not the table's years.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

from sqlalchemy import Engine, select

from services.adjudicator.engine import engine_name
from services.archive.checkpoints import Checkpoint, Key, start_for
from services.archive.partitions import detached_before, detached_tables
from services.archive.reader import bodies_through_hand, hand_table
from services.ledger.archive_tables import ArchiveSegment, ArchiveTable
from services.reports.replay import ArchivedEvents


def through_hand(engine: Engine, hand_id: str) -> ArchivedEvents | None:
    """The hand's table's archived events from its first through the hand and the event
    after it (None: the archive does not hold the hand)."""
    where = hand_table(engine, hand_id)
    if where is None:
        return None
    starts = _starts(engine, {where[0]: {hand_id}})
    if _cut_short(engine, {where[0]}, starts):
        return None

    def bodies(_table: str, after: Key | None) -> Iterator[bytes]:
        return bodies_through_hand(engine, where, after)

    return ArchivedEvents((where[0],), bodies, starts, _cut_anchors(engine, starts))


def tables_of(engine: Engine, hand_ids: list[str]) -> ArchivedEvents | None:
    """The archived events of the tables these hands were played at, each from its first
    through the last of these hands it holds and the event after it (None: the archive
    holds none of them). Not the tables' later events: a day's hands of a table that
    played on for years are replayed without reading those years."""
    last: dict[str, tuple[str, int, int]] = {}
    hands: dict[str, set[str]] = {}
    for hand_id in hand_ids:
        where = hand_table(engine, hand_id)
        if where is not None:
            hands.setdefault(where[0], set()).add(hand_id)
            if where[0] not in last or where > last[where[0]]:
                last[where[0]] = where
    starts = _starts(engine, hands)
    for table in _cut_short(engine, set(last), starts):
        del last[table]
    if not last:
        return None

    def bodies(table: str, after: Key | None) -> Iterator[bytes]:
        return bodies_through_hand(engine, last[table], after)

    return ArchivedEvents(tuple(sorted(last)), bodies, starts, _cut_anchors(engine, starts))


def _cut_anchors(engine: Engine, starts: dict[str, Checkpoint]) -> dict[str, tuple[int, str]]:
    """The tables starting from the checkpoint at a retention cut (one on a detached day:
    ``why_not_usable`` lets only the one after the last detached segment be used), each
    with (seq, hash) where its chain stood there (``archive_detached``)."""
    anchors = {}
    with engine.connect() as conn:
        for table, start in starts.items():
            last = detached_tables(conn, table).get(table)
            if last is not None and start.day <= last:
                stood = detached_before(engine, table)
                if stood is not None:
                    anchors[table] = stood
    return anchors


def _cut_short(engine: Engine, tables: set[str], starts: dict[str, Checkpoint]) -> set[str]:
    """The tables whose first days are detached past retention with no checkpoint to start
    after them: read from their first live event, their hands would be judged as a new
    table's and reported as changed after booking (QA), so they are not read at all and
    ``archive_lacks`` says why."""
    with engine.connect() as conn:
        return {t for t in tables if t not in starts and detached_tables(conn, t)}


ARCHIVE_LACKS_HAND = "the event archive holds no event of this hand"


def archive_lacks(engine: Engine, table_id: str, subject: str = ARCHIVE_LACKS_HAND,
                  ended_on: dt.date | None = None) -> str | None:
    """Why a hand the ledger booked at ``table_id`` has no events in the archive, as a
    clause (``subject``, then "though ..."), when the archive should hold them: it holds
    the table (its catalog row, or any segment of it). None when the table was never
    archived (a database kept with ``--no-archive``, or by ``pitwatch ledger`` alone):
    nothing is missing then, the events were only not given.

    Why it matters: the archive is append-only and every booked hand's events are
    archived with it, so a hand of an archived table without them was removed (the
    triggers dropped) or not archived yet (the pipeline's archive service behind the
    ledger). A report that said only "the event log was not supplied" hid that.

    A table whose first days are detached past retention: the hand is then on a detached
    day, or on a live one that no checkpoint lets the archive re-derive (``_cut_short``);
    that is said instead (it pointed the user at ``pitwatch verify``, which passes)."""
    with engine.connect() as conn:
        detached = detached_tables(conn, table_id).get(table_id)
    if detached is not None and ended_on is not None and ended_on <= detached:
        # The hand's own day is cold: no checkpoint is missing, and detaching again would
        # not bring it back (QA: it said both).
        return (f"the event archive cannot re-derive this hand: it ended on "
                f"{ended_on.isoformat()}, a day of table {table_id} detached past "
                "retention: restore that day's table and attach it again to re-derive it "
                "(docs/archive.md, Retention)")
    if detached is not None:
        return (f"the event archive cannot re-derive this hand: table {table_id}'s first "
                f"days, through {detached.isoformat()}, are detached past retention, and "
                "no checkpoint at that cut lets a replay start after them (the days were "
                "detached by a pitwatch that made none, or it no longer matches the "
                "archive): restore those days' tables, attach them again and run "
                "`pitwatch archive detach` again, which checkpoints every table at the "
                "cut before it detaches (docs/archive.md, Retention)")
    with engine.connect() as conn:
        held = conn.execute(select(ArchiveTable.table_id)
                            .where(ArchiveTable.table_id == table_id)).first()
        if held is None:
            held = conn.execute(select(ArchiveSegment.table_id)
                                .where(ArchiveSegment.table_id == table_id).limit(1)).first()
    if held is None:
        return None
    return (f"{subject}, though the ledger booked it and the archive holds table "
            f"{table_id}'s events (removed from the archive, or not archived yet: run "
            "`pitwatch verify`)")


def _starts(engine: Engine, hands: dict[str, set[str]]) -> dict[str, Checkpoint]:
    """Each table's checkpoint to start from, if it has a usable one before its hands
    (the native engine only: the reference replays a log from its first line)."""
    if engine_name() != "native":
        return {}
    starts = {}
    for table, hand_ids in hands.items():
        start = start_for(engine, table, hand_ids)
        if start is not None:
            starts[table] = start
    return starts


def hand_archive_lacks(engine: Engine, hand_id: str,
                       subject: str = ARCHIVE_LACKS_HAND) -> str | None:
    """``archive_lacks`` for the hand's table as the ledger booked it, on the day it ended
    (None: the ledger does not hold the hand, which the report then says, or its table
    was never archived). What ``report hand``, ``report daily`` and the console's hand
    page all say of a booked hand whose events the archive should hold and does not (the
    daily report gave the table's reason, "no checkpoint at that cut", of a hand that
    ended on a detached day, and said to detach again: QA)."""
    from services.ledger.entries import utc_day
    from services.ledger.queries import stored_hand

    stored = stored_hand(engine, hand_id)
    if stored is None:
        return None
    return archive_lacks(engine, stored.record.table_id, subject,
                         ended_on=utc_day(stored.record.ended_at))
