"""Writing the archive: a run's events read back as they arrived, repeats and overlapping
runs idempotent by event, changed re-deliveries kept aside, append-only enforced; every
test on SQLite and PostgreSQL (the ``engine`` fixture).

Expected values come from the input log (each line's table and its canonical JSON,
``canonical_json(orjson.loads(line))``), never from the archive code.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
from sqlalchemy import Engine, Select, text
from sqlalchemy.exc import IntegrityError

from services.archive.partitions import (
    RetentionRefused,
    archive_days,
    detach_days,
    detachable_days,
)
from services.archive.segment import PackedSegment, event_lines
from services.archive.writer import (
    _STORED_BODIES_PG,
    _stored_bodies,
    overlapping_segments,
    sqlite_lookup,
)
from services.events.canonical import canonical_json
from services.ledger.db import open_ledger
from services.recording import keep_run
from tests.databases import BACKENDS, fresh_schema
from tests.unit.archive.support import archived_lines, keep, lines_through_hand, run, simulated_log
from tests.unit.ledger.dbread import count, rows


def by_table(lines: tuple[bytes, ...] | list[bytes]) -> dict[str, list[bytes]]:
    tables: dict[str, list[bytes]] = {}
    for line in lines:
        obj = orjson.loads(line)
        tables.setdefault(obj["table_id"], []).append(canonical_json(obj))
    return tables


def test_a_run_reads_back_event_for_event_in_arrival_order(engine: Engine) -> None:
    log = simulated_log()
    done, kept = keep(engine, log.lines)
    assert kept.archived is not None and kept.archived.conflicts == 0
    expected = by_table(log.lines)
    for table, events in expected.items():
        assert archived_lines(engine, {table}) == events
    assert count(engine, "archive_segments") == len(done.segments) == kept.archived.segments


def test_a_hand_reads_back_through_its_successor(engine: Engine) -> None:
    """``report hand`` needs the hand's table from its first event to the event after
    the hand (the one confirming the hand's last hash)."""
    log = simulated_log()
    keep(engine, log.lines)
    table = by_table(log.lines)["T002"]
    hand_id = "T002-000005"
    last = max(i for i, line in enumerate(table) if orjson.loads(line)["hand_id"] == hand_id)
    assert lines_through_hand(engine, hand_id) == table[:last + 2]
    assert lines_through_hand(engine, "no-such-hand") is None


def test_keeping_the_same_run_twice_adds_nothing(engine: Engine) -> None:
    log = simulated_log()
    done, _ = keep(engine, log.lines)
    before = rows(engine, "SELECT day, table_id, head_seq, ordinal, body FROM archive_segments "
                          "ORDER BY table_id, head_seq, ordinal")
    alerts = count(engine, "archive_alerts")
    again = keep_run(engine, done.records, done.alerts, done.segments)
    assert again.archived is not None
    assert (again.archived.segments, again.archived.trimmed) == (0, 0)
    assert again.archived.repeats == len(done.segments)
    assert again.archived.alert_repeats == len(done.alerts)
    assert rows(engine, "SELECT day, table_id, head_seq, ordinal, body FROM archive_segments "
                        "ORDER BY table_id, head_seq, ordinal") == before
    assert count(engine, "archive_alerts") == alerts


def test_overlapping_runs_archive_every_event_once(engine: Engine) -> None:
    """The first two thirds of a log in one run (its open hands closed at its end), then
    the whole log in another: every event of the log is archived exactly once."""
    log = simulated_log()
    cut = 2 * len(log.lines) // 3
    keep(engine, log.lines[:cut])
    _, second = keep(engine, log.lines)
    assert second.archived is not None
    assert second.archived.trimmed > 0 and second.archived.conflicts == 0
    archived: Counter[bytes] = Counter()
    for codec, body in rows(engine, "SELECT codec, body FROM archive_segments"):
        archived.update(event_lines(codec, bytes(body)))
    assert archived == Counter(line for lines in by_table(log.lines).values() for line in lines)


def test_an_event_offered_again_with_other_bytes_is_kept_aside(engine: Engine) -> None:
    """The log archived, then a copy with one payout changed by a chip: the archive keeps
    the event it had; the other one is in archive_conflicts; nothing else is added."""
    log = simulated_log(faults=False)
    keep(engine, log.lines)
    lines = list(log.lines)
    index = next(i for i, line in enumerate(lines) if b'"type":"payout"' in line)
    changed = orjson.loads(lines[index])
    changed["data"]["amount"] += 1
    lines[index] = orjson.dumps(changed)
    segments = count(engine, "archive_segments")
    _, again = keep(engine, lines)
    assert again.archived is not None and again.archived.conflicts == 1
    assert rows(engine, "SELECT table_id, seq, offered FROM archive_conflicts") == [
        (changed["table_id"], changed["seq"], canonical_json(changed))]
    assert count(engine, "archive_segments") == segments
    original = orjson.loads(log.lines[index])
    assert canonical_json(original) in archived_lines(engine, {original["table_id"]})


APPEND_ONLY = ["archive_segments", "archive_alerts", "case_audit", "case_evidence",
               "case_hands", "case_tags"]


@pytest.fixture(scope="module", params=BACKENDS)
def kept(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
         ) -> Iterator[Engine]:
    """One database per backend holding the simulated log, kept once for the tests that
    only read it or are refused."""
    if request.param == "sqlite":
        path = tmp_path_factory.mktemp("kept")
        engine = open_ledger(f"sqlite:///{path}/ledger.sqlite")
        keep(engine, simulated_log().lines)
        yield engine
        engine.dispose()
        return
    with fresh_schema(request.getfixturevalue("pg_url")) as url:
        engine = open_ledger(url)
        keep(engine, simulated_log().lines)
        yield engine
        engine.dispose()


@pytest.mark.parametrize("table", APPEND_ONLY)
@pytest.mark.parametrize("verb", ["UPDATE", "DELETE"])
def test_archive_and_case_trails_refuse_update_and_delete(kept: Engine, table: str,
                                                          verb: str) -> None:
    engine = kept
    before = rows(engine, f"SELECT * FROM {table}")
    assert before, f"{table} must hold rows for the refusal to mean anything"
    column = {"archive_segments": "events", "archive_alerts": "code", "case_audit": "actor",
              "case_evidence": "summary", "case_hands": "table_id", "case_tags": "value"}[table]
    statement = (f"UPDATE {table} SET {column} = {column}" if verb == "UPDATE"
                 else f"DELETE FROM {table}")
    with pytest.raises(IntegrityError, match="append-only"), engine.begin() as conn:
        conn.execute(text(statement))
    assert rows(engine, f"SELECT * FROM {table}") == before


@pytest.mark.parametrize(("statement", "refusal"), [
    ("UPDATE archive_tables SET last_seq = last_seq - 1", "never goes down"),
    ("UPDATE archive_tables SET last_seq = 0", "never goes down"),
    ("UPDATE archive_tables SET table_id = table_id || 'x'", "never goes down"),
    ("DELETE FROM archive_tables", "never deleted"),
])
def test_the_catalog_of_archived_tables_never_goes_down(kept: Engine, statement: str,
                                                        refusal: str) -> None:
    """The catalog is what shows a chain cut at its end (``pitwatch verify``): the highest
    seq archived per table may only grow, and a table's row is never deleted."""
    before = rows(kept, "SELECT * FROM archive_tables ORDER BY table_id")
    assert len(before) == 3
    with pytest.raises(IntegrityError, match=refusal), kept.begin() as conn:
        conn.execute(text(statement))
    assert rows(kept, "SELECT * FROM archive_tables ORDER BY table_id") == before


def test_the_catalog_grows_as_the_writer_raises_it(engine: Engine) -> None:
    """The writer's upsert still raises the catalog through the guard: a second day's
    events of the same tables, archived after the first."""
    log = simulated_log().lines
    half = len(log) // 2
    keep(engine, log[:half])
    first = dict(rows(engine, "SELECT table_id, last_seq FROM archive_tables"))
    keep(engine, log)
    last: dict[str, int] = {}
    for line in log:
        obj = orjson.loads(line)
        last[obj["table_id"]] = max(last.get(obj["table_id"], 0), obj["seq"])
    assert dict(rows(engine, "SELECT table_id, last_seq FROM archive_tables")) == last
    assert all(first[t] < last[t] for t in first)


def test_a_case_is_never_deleted(kept: Engine) -> None:
    engine = kept
    before = count(engine, "cases")
    assert before > 0
    with pytest.raises(IntegrityError, match=r"never deleted"), engine.begin() as conn:
        conn.execute(text("DELETE FROM cases"))
    assert count(engine, "cases") == before


def test_days_are_listed(engine: Engine) -> None:
    log = simulated_log()
    keep(engine, log.lines)
    (day,) = archive_days(engine)
    assert (day.day, day.events, day.tables) == (dt.date(2026, 1, 5), len(log.lines), 3)


# ---------------------------------------------------------------- PostgreSQL partitions


def test_sqlite_has_no_partitions_to_detach(tmp_path: Path) -> None:
    engine = open_ledger(f"sqlite:///{tmp_path}/ledger.sqlite")
    with pytest.raises(RetentionRefused, match="no day partitions"):
        detachable_days(engine, dt.date(2026, 1, 6), 7)
    engine.dispose()


@pytest.mark.integration
@pytest.mark.parametrize("statement", [
    "UPDATE archive_segments_20260105 SET events = events + 1",
    "DELETE FROM archive_segments_20260105",
    "TRUNCATE archive_segments_20260105",
    "TRUNCATE archive_segments",
    "TRUNCATE archive_alerts",
    "TRUNCATE archive_tables",
])
def test_postgresql_refuses_changes_through_a_day_partition(pg_engine: Engine,
                                                            statement: str) -> None:
    keep(pg_engine, simulated_log().lines)
    before = rows(pg_engine, "SELECT * FROM archive_segments ORDER BY table_id, head_seq")
    with pytest.raises(IntegrityError, match=r"append-only|never deleted"), \
            pg_engine.begin() as conn:
        conn.execute(text(statement))
    assert rows(pg_engine, "SELECT * FROM archive_segments ORDER BY table_id, head_seq") == before


@pytest.mark.integration
def test_postgresql_detaches_only_days_past_retention_and_keeps_them_guarded(
        pg_engine: Engine) -> None:
    """2026-01-05 archived. Seven years' retention: on 2033-01-05 the day is still kept,
    on 2033-01-06 it is past retention and detached; the detached table keeps its rows
    and still refuses UPDATE and DELETE."""
    log = simulated_log()
    keep(pg_engine, log.lines)
    assert detachable_days(pg_engine, dt.date(2033, 1, 5), 7) == []
    days = detachable_days(pg_engine, dt.date(2033, 1, 6), 7)
    assert days == [dt.date(2026, 1, 5)]
    assert detach_days(pg_engine, days, "2033-01-06T00:00:00Z") == ["archive_segments_20260105"]
    assert archive_days(pg_engine) == []
    assert rows(pg_engine, "SELECT SUM(events) FROM archive_segments_20260105") == [
        (len(log.lines),)]
    for statement in ("UPDATE archive_segments_20260105 SET events = 0",
                      "DELETE FROM archive_segments_20260105"):
        with pytest.raises(IntegrityError, match="append-only"), pg_engine.begin() as conn:
            conn.execute(text(statement))
    done = run(log.lines)
    assert len(done.segments) == rows(pg_engine, "SELECT COUNT(*) FROM "
                                                 "archive_segments_20260105")[0][0]


def _plan_nodes(plan: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Every node of an ``EXPLAIN (FORMAT JSON)`` plan, depth first."""
    yield plan
    for child in plan.get("Plans", []):
        yield from _plan_nodes(child)


@pytest.mark.integration
@pytest.mark.parametrize("analyzed", [False, True])
def test_postgresql_looks_a_batch_up_by_key_not_by_reading_the_archive(
        pg_engine: Engine, analyzed: bool) -> None:
    """The archive keeps years: looking up a batch's keys must cost the batch, not the
    archive. The plan of the lookup the writer runs for every batch reads each key's day
    partition through its primary key and reads no partition whole (a join of the keys
    with the table was planned as a sort of every archived segment)."""
    done, _ = keep(pg_engine, simulated_log(tables=4, hands=60).lines)
    looked_up = done.segments[-100:]
    keys = [s.key for s in looked_up]
    with pg_engine.connect() as conn:
        if analyzed:
            conn.execute(text("ANALYZE archive_segments"))
        explained = conn.execute(
            text("EXPLAIN (FORMAT JSON) " + str(_STORED_BODIES_PG.text)),
            {"days": [k[0] for k in keys], "tables": [k[1] for k in keys],
             "heads": [k[2] for k in keys], "ordinals": [k[3] for k in keys]}).scalar_one()
        found = _stored_bodies(conn, keys)
    nodes = list(_plan_nodes(explained[0]["Plan"]))
    on_archive = [n for n in nodes
                  if str(n.get("Relation Name", "")).startswith("archive_segments")]
    assert on_archive, nodes
    assert {n["Node Type"] for n in on_archive} <= {"Index Scan", "Index Only Scan"}, nodes
    assert not [n for n in nodes if n["Node Type"] in ("Sort", "Hash")], nodes
    # And it finds what it looks for: every key, with the body kept under it.
    assert found == {s.key: (s.codec, s.body) for s in looked_up}


def test_sqlite_looks_a_batch_up_by_key_not_by_reading_the_archive(tmp_path: Path) -> None:
    """The same on SQLite: each key is a search of the primary key's index, and the
    archive is never scanned (a row-value IN list of the keys was a scan per chunk)."""
    engine = open_ledger(f"sqlite:///{tmp_path}/var/ledger.sqlite")
    try:
        done, _ = keep(engine, simulated_log(tables=4, hands=60).lines)
        looked_up = done.segments[-100:]
        keys = [s.key for s in looked_up]
        statement, params = sqlite_lookup(keys)
        with engine.connect() as conn:
            plan = [str(row[3]) for row in conn.execute(
                text("EXPLAIN QUERY PLAN " + str(statement)), params)]
            found = _stored_bodies(conn, keys)
    finally:
        engine.dispose()
    on_archive = [step for step in plan if step.startswith(("SEARCH s ", "SCAN s"))]
    assert on_archive and all(step.startswith("SEARCH s USING INDEX") for step in on_archive), plan
    assert found == {s.key: (s.codec, s.body) for s in looked_up}


def _near_the_head(segments: list[PackedSegment]) -> tuple[str, int, int, set[bytes]]:
    """A table, a seq range of its last hands, and the bodies of the segments meeting it
    (from the segments given to the archive, not read back)."""
    table = segments[0].table_id
    own = [s for s in segments if s.table_id == table and s.first_seq is not None]
    head = max(s.last_seq or 0 for s in own)
    first, last = head - 100, head
    meeting = {s.body for s in own if s.first_seq is not None and s.last_seq is not None
               and s.last_seq >= first and s.first_seq <= last}
    return table, first, last, meeting


def _literal(statement: Select[str, bytes, str], engine: Engine) -> str:
    return str(statement.compile(engine, compile_kwargs={"literal_binds": True}))


@pytest.mark.integration
def test_postgresql_finds_overlapping_segments_from_the_tables_head(pg_engine: Engine) -> None:
    """A segment overlapping what its table archived is compared with the segments it
    meets, found from its first seq on in the index on (table, last seq): an overlap is
    near the head, and the index on (table, first seq) would read the table's whole
    history first (migration 0009)."""
    done, _ = keep(pg_engine, simulated_log(tables=4, hands=60).lines)
    table, first, last, meeting = _near_the_head(done.segments)
    statement = overlapping_segments(table, first, last)
    with pg_engine.connect() as conn:
        # The plan from statistics taken now, not from whatever autovacuum had analysed
        # by then (under load the plan once came out otherwise, one run in several).
        conn.execute(text("ANALYZE archive_segments"))
        # Tiny partitions are cheaper to read whole; what matters is which index a large
        # one is read through.
        conn.execute(text("SET enable_seqscan = off"))
        explained = conn.execute(
            text("EXPLAIN (FORMAT JSON) " + _literal(statement, pg_engine))).scalar_one()
        found = {bytes(body) for _, body, _ in conn.execute(statement)}
    nodes = list(_plan_nodes(explained[0]["Plan"]))
    # Through (table, last seq), bounded by the range's first seq: not the table's history.
    # An index scan names the index itself; a bitmap heap scan (the planner's choice once
    # the partition is analysed) reads through the bitmap index scan below it.
    through = [n for n in nodes if "Index Name" in n]
    assert through and all("last_seq" in str(n["Index Name"])
                           and "last_seq >=" in str(n.get("Index Cond", "")) for n in through), nodes
    assert not [n for n in nodes if n["Node Type"] == "Seq Scan"], nodes
    assert found == meeting and meeting


def test_sqlite_finds_overlapping_segments_from_the_tables_head(tmp_path: Path) -> None:
    engine = open_ledger(f"sqlite:///{tmp_path}/var/ledger.sqlite")
    try:
        done, _ = keep(engine, simulated_log(tables=4, hands=60).lines)
        table, first, last, meeting = _near_the_head(done.segments)
        statement = overlapping_segments(table, first, last)
        with engine.connect() as conn:
            plan = [str(row[3]) for row in conn.execute(
                text("EXPLAIN QUERY PLAN " + _literal(statement, engine)))]
            found = {bytes(body) for _, body, _ in conn.execute(statement)}
    finally:
        engine.dispose()
    assert any("ix_archive_segments_table_last_seq" in step for step in plan), plan
    assert found == meeting and meeting
