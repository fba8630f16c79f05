"""``pitwatch verify`` at the start of a chain: a table's archive starts at seq 1, or where
its chain stood when its old days were detached (``archive_detached``); first segments cut
away are a break, a stream that itself began late is the stream's (its intake alert).

Expected values come from the input log (each event's ``seq``, day and hash: the
contract's ``event_hash`` of it), never from the archive code.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import pytest
from sqlalchemy import Engine, text
from sqlalchemy.exc import IntegrityError

from services.archive.partitions import (
    archive_days,
    detach_days,
    detachable_days,
    record_detached_days,
)
from services.archive.verify import check_table, decode_segment, intake_break, verify_archive
from services.events.canonical import GENESIS_HASH, event_hash
from tests.unit.archive.support import keep, run, simulated_log
from tests.unit.cli.helpers import failing_verify, pitwatch

DAY_ONE, DAY_TWO = dt.date(2026, 1, 5), dt.date(2026, 1, 6)


def events_of(lines: tuple[bytes, ...] | list[bytes]) -> list[dict[str, Any]]:
    return [orjson.loads(line) for line in lines]


def rechained(events: list[dict[str, Any]], edit: Callable[[int, dict[str, Any]], None]
              ) -> list[bytes]:
    """``edit(position, event)`` applied to every event, then every table's chain hashed
    again, as a table system that really sent the edited events would have."""
    last: dict[str, str] = {}
    out = []
    for position, event in enumerate(events):
        edit(position, event)
        event["prev_hash"] = last.get(event["table_id"], GENESIS_HASH)
        last[event["table_id"]] = event_hash(event)
        out.append(orjson.dumps(event))
    return out


def two_day_log(faults: bool = False) -> list[bytes]:
    """The simulated day (clean unless ``faults``) with each table's hands from its 21st
    on moved to the next day (a day later, the same clock time): two days, each table in
    both."""
    events = events_of(simulated_log(faults=faults).lines)
    started: dict[str, int] = {}
    moved: set[int] = set()
    for position, event in enumerate(events):
        table = event["table_id"]
        if event["type"] == "hand_started":
            started[table] = started.get(table, 0) + 1
        if started.get(table, 0) >= 21:
            moved.add(position)

    def next_day(position: int, event: dict[str, Any]) -> None:
        if position in moved:
            event["ts"] = "2026-01-06" + event["ts"][len("2026-01-05"):]

    return rechained(events, next_day)


# ---------------------------------------------------------------- the chain's first segments


def test_first_segments_cut_away_are_a_break_unless_a_detach_says_where_the_chain_stood(
        ) -> None:
    """The first one, two or three segments of each table removed: the chain left starts
    at the seq after them, which only seq 1 or a recorded detach may do. With the cut
    events' last seq and hash as the chain's start (what ``archive_detached`` holds after
    a detach) there is no break; with another hash, the first event left is altered."""
    done = run(simulated_log(faults=False).lines)
    seqs = {}
    for event in events_of(simulated_log(faults=False).lines):
        seqs[(event["table_id"], event["seq"])] = event_hash(event)
    tables = sorted({s.table_id for s in done.segments})
    for table_id in tables:
        segments = sorted((s for s in done.segments if s.table_id == table_id),
                          key=lambda s: (s.head_seq, s.ordinal))
        decoded = [decode_segment(s) for s in segments]
        assert check_table(table_id, decoded) == []
        for cut in (1, 2, 3):
            first = min(e.seq for d in decoded[cut:] for e in d.events)
            found = check_table(table_id, decoded[cut:])
            assert [(b.table_id, b.seq, b.kind, b.at_intake) for b in found] == [
                (table_id, first, "gap", False)]
            assert found[0].message.startswith(
                f"seq 1..{first - 1} missing before seq {first}" if first > 2
                else "seq 1 missing before seq 2")
            stood = (first - 1, seqs[(table_id, first - 1)])
            assert check_table(table_id, decoded[cut:], before=stood) == []
            wrong = check_table(table_id, decoded[cut:], before=(first - 1, "0" * 64))
            assert [(b.seq, b.kind) for b in wrong] == [(first, "altered")]


def test_a_stream_that_began_late_is_the_streams_break(engine: Engine) -> None:
    """Table T001's first four events never sent: the intake reported the jump from 0 to
    5 when seq 5 came (SURV-9), so verify shows it as received, not as the archive's."""
    lines = [line for line in simulated_log(faults=False).lines
             if not (orjson.loads(line)["table_id"] == "T001" and orjson.loads(line)["seq"] <= 4)]
    done, _ = keep(engine, lines)
    assert [intake_break(a.code, a.seq or 0, a.message) is not None
            for a in done.alerts if a.table_id == "T001"] == [True]
    report = verify_archive(engine)
    assert report.archive_breaks == []
    assert [(b.table_id, b.seq, b.kind, b.at_intake) for b in report.breaks] == [
        ("T001", 5, "gap", True)]


def test_a_chains_start_removed_in_the_database_is_found_by_the_command(tmp_path: Path
                                                                        ) -> None:
    """Someone with the owner's rights drops the segments' guard and deletes a table's
    first hand and the events before it: every link left holds and the catalog still
    agrees; the chain no longer starts at seq 1 and no detach says why."""
    url = f"sqlite:///{tmp_path}/day.sqlite"
    log = tmp_path / "day.jsonl"
    lines = simulated_log(faults=False).lines
    log.write_bytes(b"\n".join(lines) + b"\n")
    assert pitwatch("adjudicate", str(log), "--ledger", url).code in (0, 1)
    assert pitwatch("verify", "--db", url).code == 0
    first_hand_end = max(e["seq"] for e in events_of(lines)
                         if e["table_id"] == "T002" and e["hand_id"] == "T002-000001")
    from services.ledger.db import open_ledger

    engine = open_ledger(url)
    with engine.begin() as conn:
        conn.execute(text("DROP TRIGGER archive_segments_no_delete"))
        conn.execute(text("DELETE FROM archive_segments WHERE table_id = 'T002' AND "
                          "last_seq <= :s"), {"s": first_hand_end})
    engine.dispose()
    breaks = [b for b in failing_verify(url)["breaks"] if b["at intake"] == "no"]
    assert [(b["table"], b["seq"], b["kind"]) for b in breaks] == [
        ("T002", first_hand_end + 1, "gap")]
    assert "first events are in neither the archive nor a detached day" in breaks[0]["what"]


# ---------------------------------------------------------------- detached days


@pytest.mark.integration
def test_detached_days_leave_where_each_chain_stood_and_the_rest_verifies(
        pg_engine: Engine) -> None:
    """Two days archived; seven years later the first is detached: ``archive_detached``
    holds each table's last seq and hash of that day (from the log), the live archive (the
    second day) verifies clean against them, the rows refuse UPDATE and DELETE, and the
    second day's first hand of a table removed behind a dropped guard is found."""
    lines = two_day_log()
    keep(pg_engine, lines)
    assert [d.day for d in archive_days(pg_engine)] == [DAY_ONE, DAY_TWO]
    assert verify_archive(pg_engine).breaks == []
    days = detachable_days(pg_engine, dt.date(2033, 1, 6), 7)
    assert days == [DAY_ONE]
    assert detach_days(pg_engine, days, "2033-01-06T09:00:00Z") == ["archive_segments_20260105"]
    stood: dict[str, tuple[int, str]] = {}
    for event in events_of(lines):
        if event["ts"].startswith("2026-01-05"):
            stood[event["table_id"]] = (event["seq"], event_hash(event))
    with pg_engine.connect() as conn:
        held = conn.execute(text("SELECT day, table_id, last_seq, last_hash, detached_at "
                                 "FROM archive_detached ORDER BY table_id")).all()
    assert [tuple(r) for r in held] == [(DAY_ONE, t, s, h, "2033-01-06T09:00:00Z")
                                        for t, (s, h) in sorted(stood.items())]
    report = verify_archive(pg_engine)
    assert report.breaks == [] and report.tables == 3
    for statement in ("UPDATE archive_detached SET last_seq = last_seq + 1",
                      "DELETE FROM archive_detached"):
        with pytest.raises(IntegrityError, match="append-only"), pg_engine.begin() as conn:
            conn.execute(text(statement))
    table_id, (seq, _) = sorted(stood.items())[0]
    with pg_engine.begin() as conn:
        first_hand = conn.execute(text(
            "SELECT last_seq FROM archive_segments WHERE table_id = :t AND hand_id IS NOT "
            "NULL ORDER BY last_seq LIMIT 1"), {"t": table_id}).scalar_one()
        conn.execute(text("ALTER TABLE archive_segments_20260106 DISABLE TRIGGER USER"))
        conn.execute(text("DELETE FROM archive_segments_20260106 WHERE table_id = :t AND "
                          "last_seq <= :s"), {"t": table_id, "s": first_hand})
    breaks = verify_archive(pg_engine).archive_breaks
    assert [(b.table_id, b.seq, b.kind) for b in breaks] == [
        (table_id, first_hand + 1, "gap")]
    assert seq < first_hand


def stood_at_day_one(lines: list[bytes]) -> dict[str, tuple[int, str]]:
    """Each table's last seq and hash on the first day, from the log."""
    stood: dict[str, tuple[int, str]] = {}
    for event in events_of(lines):
        if event["ts"].startswith("2026-01-05"):
            stood[event["table_id"]] = (event["seq"], event_hash(event))
    return stood


def detached_rows(engine: Engine) -> list[tuple[Any, ...]]:
    with engine.connect() as conn:
        return [tuple(r) for r in conn.execute(text(
            "SELECT day, table_id, last_seq, last_hash FROM archive_detached "
            "ORDER BY day, table_id"))]


def detach_unrecorded(engine: Engine) -> None:
    """Detach the first day as a release before this one did: no row of where the chains
    stood."""
    with engine.begin() as conn:
        conn.execute(text("ALTER TABLE archive_segments DETACH PARTITION "
                          "archive_segments_20260105"))


@pytest.mark.integration
def test_a_day_detached_before_the_chains_were_recorded_is_recorded_then(
        pg_engine: Engine) -> None:
    """A day detached by an earlier release (no ``archive_detached`` rows): verify finds
    every table's chain starting late, as it must with nothing recorded; the detach
    command's first step records where the chains stood from the detached table (from
    the log: the day's last seq and hash of each table), after which verify is clean; a
    second pass adds nothing."""
    lines = two_day_log()
    keep(pg_engine, lines)
    detach_unrecorded(pg_engine)
    stood = stood_at_day_one(lines)
    late = verify_archive(pg_engine).archive_breaks
    assert sorted((b.table_id, b.seq, b.kind) for b in late) == [
        (t, s + 1, "gap") for t, (s, _) in sorted(stood.items())]
    assert record_detached_days(pg_engine, "2033-01-06T09:00:00Z") == len(stood)
    assert detached_rows(pg_engine) == [(DAY_ONE, t, s, h) for t, (s, h) in sorted(stood.items())]
    assert verify_archive(pg_engine).breaks == []
    assert record_detached_days(pg_engine, "2033-01-07T09:00:00Z") == 0


@pytest.mark.integration
def test_the_migration_records_the_days_detached_before_it(pg_engine: Engine) -> None:
    """Back at revision 0013 (no ``archive_detached``), the first day detached; migrating
    to the head records where each table's chain stood in it, and verify is clean."""
    from alembic import command

    from services.ledger.db import alembic_config

    lines = two_day_log()
    keep(pg_engine, lines)
    config = alembic_config()
    with pg_engine.begin() as conn:
        config.attributes["connection"] = conn
        command.downgrade(config, "0013_case_changes_with_audit")
    detach_unrecorded(pg_engine)
    with pg_engine.begin() as conn:
        config.attributes["connection"] = conn
        command.upgrade(config, "head")
    stood = stood_at_day_one(lines)
    assert detached_rows(pg_engine) == [(DAY_ONE, t, s, h) for t, (s, h) in sorted(stood.items())]
    assert verify_archive(pg_engine).breaks == []
