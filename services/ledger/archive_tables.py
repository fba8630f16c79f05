"""The event archive's tables: segments of events, alerts, refused re-deliveries, and the
catalog of archived tables.

Why one row per segment (a hand, or a run of events between hands) and not per event: at
75 events a hand, a row per event is 75 inserts and 75 index entries per hand; a segment
is one insert of its events' canonical JSON, compressed together (``services.archive``
measures and explains the choice). Everything ``pitwatch verify`` checks is in the body;
the columns beside it (sequence range, the hashes at both ends, the day) index the body
and are checked against it.

``archive_segments`` is partitioned by ``day`` on PostgreSQL (declarative, one partition
per UTC day, created as days arrive), so that old days can be detached and kept cold;
SQLite holds the same table unpartitioned. Append-only on both: triggers refuse UPDATE,
DELETE (and TRUNCATE on PostgreSQL) on every table here except ``archive_tables``, the
catalog, which holds each table's highest archived seq for the writer's overlap check and
for ``pitwatch verify`` (a chain cut at its end shows only against it): its triggers let
that seq grow and refuse to lower it or delete a row (migration 0012).
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import BigInteger, Boolean, Date, Index, Integer, LargeBinary, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from services.ledger.base import Base


class ArchiveSegment(Base):
    """One segment of a table's events, in arrival order (``services.archive.segment``).

    Key: ``(day, table_id, head_seq, ordinal)``, a function of the events alone, so the
    same segment offered again (at-least-once delivery, a second run over the same log)
    is recognised. ``first_seq``/``last_seq``/``first_prev_hash``/``last_hash`` describe
    the events the chain check accepted (None when the segment holds only refused ones);
    ``refused`` lists the positions of the others (JSON array).
    """

    __tablename__ = "archive_segments"

    day: Mapped[dt.date] = mapped_column(Date, primary_key=True)
    table_id: Mapped[str] = mapped_column(String(200), primary_key=True)
    head_seq: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    ordinal: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    hand_id: Mapped[str | None] = mapped_column(String(200))
    first_seq: Mapped[int | None] = mapped_column(BigInteger)
    last_seq: Mapped[int | None] = mapped_column(BigInteger)
    events: Mapped[int] = mapped_column(Integer)
    refused: Mapped[str] = mapped_column(Text)
    first_prev_hash: Mapped[str | None] = mapped_column(String(64))
    last_hash: Mapped[str | None] = mapped_column(String(64))
    first_ts: Mapped[str] = mapped_column(String(40))
    last_ts: Mapped[str] = mapped_column(String(40))
    codec: Mapped[str] = mapped_column(String(16))
    body_sha256: Mapped[str] = mapped_column(String(64))  # of ``body`` as stored
    body: Mapped[bytes] = mapped_column(LargeBinary)

    __table_args__ = (
        Index("ix_archive_segments_table_seq", "table_id", "first_seq"),
        # The overlap lookup's (writer._archived_hashes; migration 0009).
        Index("ix_archive_segments_table_last_seq", "table_id", "last_seq"),
        Index("ix_archive_segments_hand", "hand_id"),
        {"postgresql_partition_by": "RANGE (day)"},
    )


class ArchiveTable(Base):
    """The catalog: each archived table's highest accepted seq so far. A segment whose
    events all lie above it cannot overlap what is archived (the usual case, one lookup);
    otherwise the writer compares event by event."""

    __tablename__ = "archive_tables"

    table_id: Mapped[str] = mapped_column(String(200), primary_key=True)
    last_seq: Mapped[int] = mapped_column(BigInteger)


class ArchiveDetached(Base):
    """Where a table's chain stood at the end of a day detached past retention: its last
    accepted seq and hash that day (``services.archive.partitions.detach_days`` writes one
    row per table of the day, in the transaction that detaches it). The live archive's
    first event of the table continues from the latest of these (``pitwatch verify``), or
    from genesis when there is none. Append-only (migration 0014)."""

    __tablename__ = "archive_detached"

    day: Mapped[dt.date] = mapped_column(Date, primary_key=True)
    table_id: Mapped[str] = mapped_column(String(200), primary_key=True)
    last_seq: Mapped[int] = mapped_column(BigInteger)
    last_hash: Mapped[str] = mapped_column(String(64))
    detached_at: Mapped[str] = mapped_column(String(40))
    # The table's segments and events that day (migration 0015; None: detached before it),
    # which a checkpoint made before the detach still counts (``ArchiveCheckpoint``).
    segments: Mapped[int | None] = mapped_column(BigInteger)
    events: Mapped[int | None] = mapped_column(BigInteger)

    __table_args__ = (Index("ix_archive_detached_table_seq", "table_id", "last_seq"),)


class ArchiveCheckpoint(Base):
    """A table's state at a point of its archive, so that a report of a hand late in the
    table's life replays from there and not from the table's first event
    (``services.archive.checkpoints``): the native core's table state after every archived
    line of the table in its segments up to and including the one keyed ``(head_seq,
    ordinal)``, fed in arrival order; how many segments and lines that was (the archive
    must still hold exactly those, detached days counted, for the checkpoint to be used);
    how many of those lines the intake refused as invalid, and the first five (JSON:
    ``[[line, reason], ...]``, lines counted from the table's first); the hand ids its
    stretch (since the checkpoint before) names outside those hands' own segments (JSON
    list). Derived, so ``pitwatch verify`` derives each again from the one before it.
    Append-only."""

    __tablename__ = "archive_checkpoints"

    table_id: Mapped[str] = mapped_column(String(200), primary_key=True)
    head_seq: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    ordinal: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    day: Mapped[dt.date] = mapped_column(Date)  # of that segment
    segments: Mapped[int] = mapped_column(BigInteger)
    lines: Mapped[int] = mapped_column(BigInteger)
    rejected: Mapped[int] = mapped_column(BigInteger)
    rejected_first: Mapped[str] = mapped_column(Text)
    strays: Mapped[str] = mapped_column(Text)
    state: Mapped[bytes] = mapped_column(LargeBinary)
    state_sha256: Mapped[str] = mapped_column(String(64))
    made_at: Mapped[str] = mapped_column(String(40))


class ArchiveAlert(Base):
    """An alert as produced (stream alerts of the adjudicator, SURV-2..8 of surveillance),
    keyed by its id (``services.archive.alerts.alert_key``): a repeat is a no-op."""

    __tablename__ = "archive_alerts"

    alert_id: Mapped[str] = mapped_column(String(500), primary_key=True)
    table_id: Mapped[str] = mapped_column(String(200))
    hand_id: Mapped[str | None] = mapped_column(String(200))
    rule: Mapped[str] = mapped_column(String(200))
    code: Mapped[str] = mapped_column(String(200))
    severity: Mapped[str] = mapped_column(String(16))
    seq: Mapped[int | None] = mapped_column(BigInteger)
    event_id: Mapped[str | None] = mapped_column(String(200))
    alert_json: Mapped[str] = mapped_column(Text)

    __table_args__ = (
        Index("ix_archive_alerts_table_seq", "table_id", "seq"),
        Index("ix_archive_alerts_hand", "hand_id"),
    )


class ArchiveConflict(Base):
    """An event offered again for a seq the archive holds, with other bytes: the stored
    event stays, the offered one is kept here (SURV-9: the stream changed after it was
    archived)."""

    __tablename__ = "archive_conflicts"

    table_id: Mapped[str] = mapped_column(String(200), primary_key=True)
    seq: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    offered_sha256: Mapped[str] = mapped_column(String(64), primary_key=True)
    stored_sha256: Mapped[str] = mapped_column(String(64))
    offered: Mapped[bytes] = mapped_column(LargeBinary)


class TableCarry(Base):
    """A table's state as a run left it at the end of a log that goes on (``pitwatch
    adjudicate --leave-open --ledger``), for the run of the next log, which starts part
    way through the table's chain (``services.archive.carry``): the engine's exported
    state (open hands included) after the table's event ``last_seq`` (hash
    ``last_hash``), when it had taken ``events_taken`` events of the table in all (the
    archive's count, by which ``pitwatch verify`` derives it again), whether the run cut
    the archive's segments (the state then holds the events it has not handed out), which
    engine wrote it (each reads only its own), its SHA-256 (a damaged state is not taken)
    and when it was kept. Working state like the pipeline's changelog,
    derived from the archived and left-open events; append-only, keyed by the table, the
    events taken and the engine (migration 0018: the order the runs took the table's
    events; its head may stay put), the first kept after as many events staying (a day
    run again keeps nothing new)."""

    __tablename__ = "table_carries"

    table_id: Mapped[str] = mapped_column(String(200), primary_key=True)
    events_taken: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    engine: Mapped[str] = mapped_column(String(16), primary_key=True)
    last_seq: Mapped[int] = mapped_column(BigInteger)
    last_hash: Mapped[str] = mapped_column(String(64))
    archive: Mapped[bool] = mapped_column(Boolean)
    state: Mapped[bytes] = mapped_column(LargeBinary)
    state_sha256: Mapped[str] = mapped_column(String(64))
    kept_at: Mapped[str] = mapped_column(String(40))
