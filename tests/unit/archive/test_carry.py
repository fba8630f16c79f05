"""A table's days in separate runs (``services.archive.carry``): each day's log run alone,
the days before with ``--leave-open``, books, archives and opens cases exactly as one run
of the whole log does, on either engine and both databases; a day run again adds nothing;
a log that does not follow on is a gap from the kept state; a kept state that cannot be
taken is said, and the table starts new as before.

The oracle is one run of the whole log, which reads no kept state: its records (stdout)
and its database, row for row (``whole_database``, without the columns that say when a
row was written and without the kept states themselves).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import itertools
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path

import msgspec
import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import Engine, create_engine, event, make_url, text

from services.adjudicator.carry import StateRead, TableCarry
from services.adjudicator.table import decode_state, encode_state
from services.archive.carry import CarryResult, KeptStates, keep_carries
from services.archive.replay import replay_archive
from services.archive.verify import verify_archive
from services.ledger.db import open_ledger, write_transaction
from services.log_run import run_file
from services.recording import Kept, RunKeeper
from services.simulator.run import available_faults, simulate
from tests.databases import fresh_schema
from tests.profiles import HOUSE, PROFILES
from tests.unit.cli.helpers import pitwatch
from tests.unit.ledger.dbread import rows, whole_database

GAMES = ("hcf", "chinese", "draw7a", "russian", "holdem")
ENGINES = ("native", "python")
# What a line about a kept state that cannot be taken tells the reader to do.
GIVE_TOGETHER = (" (to judge it as part of its chain, give this log together with the "
                 "ones before it, from the table's first, in one run)")


@cache
def faulty_log() -> tuple[bytes, ...]:
    """Five tables, one of each game, every fault kind at 10% of hands (tamper, late,
    repeated and misrouted events among them): the lines of the log."""
    faults = frozenset(f for game in GAMES for f in available_faults(game))
    log = simulate(list(GAMES), 5, 16, 23, faults, fault_rate=0.10, profile=HOUSE)
    return tuple(orjson.dumps(event) for event in log.events)


def cut_inside_hands(lines: tuple[bytes, ...], parts: int) -> list[bytes]:
    """The log cut into ``parts`` days, each cut three events after a hand started (so a
    hand runs across every midnight)."""
    started = [n for n, line in enumerate(lines) if b'"hand_started"' in line]
    cuts = [started[len(started) * k // parts] + 3 for k in range(1, parts)]
    bounds = [0, *cuts, len(lines)]
    return [b"\n".join(lines[a:b]) + b"\n" for a, b in itertools.pairwise(bounds)]


@contextmanager
def second_database(db_url: str, tmp_path: Path) -> Iterator[Engine]:
    """Another empty database of the same kind as ``db_url`` (the whole run's)."""
    if db_url.startswith("sqlite"):
        ledger = open_ledger(f"sqlite:///{tmp_path}/whole/ledger.sqlite")
        yield ledger
        ledger.dispose()
        return
    with fresh_schema(make_url(db_url).set(query={}).render_as_string(hide_password=False)
                      ) as url:
        ledger = open_ledger(url)
        yield ledger
        ledger.dispose()


def run_day(path: Path, db: Engine, engine: str, leave_open: bool) -> tuple[bytes, Kept]:
    """``pitwatch adjudicate PATH --ledger --engine ENGINE [--leave-open]`` in-process: the
    records it wrote and what it kept."""
    keeper = RunKeeper(db, archive=True, hands=7)
    out = path.with_suffix(".out")
    with out.open("wb") as fh:
        run_file(path, PROFILES, fh, engine, keeper, leave_open=leave_open)
    return out.read_bytes(), keeper.finish()


def run_days(days: list[bytes], folder: Path, db: Engine, engine: str
             ) -> tuple[list[bytes], list[Kept]]:
    """Each day's log in its own run, all but the last with ``--leave-open``: each run's
    records and what it kept."""
    written, kept = [], []
    for n, day in enumerate(days, start=1):
        path = folder / f"day{n}.jsonl"
        path.write_bytes(day)
        records, done = run_day(path, db, engine, leave_open=n < len(days))
        written.append(records)
        kept.append(done)
    return written, kept


# Where each case table holds its case's number (``whole_database``'s column order).
CASE_ID_AT = {"cases": 0, "case_audit": 0, "case_evidence": 1, "case_hands": 0,
              "case_tags": 0}


def without_carries(db: Engine) -> dict[str, list[tuple[object, ...]]]:
    """The database but the kept states, each case named by its subject, not its number:
    a run takes its alerts into cases when it ends (``RunKeeper.finish``), so days run one
    by one number their cases in another order than one run of the whole log; the cases,
    their evidence, hands, tags and trails are the same."""
    found = whole_database(db)
    del found["table_carries"]
    subject = {row[0]: row[1] for row in found["cases"]}
    for table, at in CASE_ID_AT.items():
        found[table] = sorted(((*row[:at], subject[row[at]], *row[at + 1:])
                               for row in found[table]), key=repr)
    return found


@pytest.mark.parametrize("engine_name", ENGINES)
def test_days_run_one_by_one_keep_what_one_run_of_all_keeps(
        engine: Engine, db_url: str, tmp_path: Path, engine_name: str) -> None:
    lines = faulty_log()
    days = cut_inside_hands(lines, 3)
    written, kept = run_days(days, tmp_path, engine, engine_name)
    with second_database(db_url, tmp_path) as whole_db:
        whole = tmp_path / "whole.jsonl"
        whole.write_bytes(b"".join(days))
        expected, _ = run_day(whole, whole_db, engine_name, leave_open=False)
        assert b"".join(written) == expected
        assert without_carries(engine) == without_carries(whole_db)
    tables = [set(first_seq_of_tables(day)) for day in days]
    assert [{t for t, _ in k.carried.continued} if k.carried else None for k in kept] == [
        set(), tables[1] & tables[0], tables[2] & (tables[0] | tables[1])]
    assert [k.carried.kept if k.carried else -1 for k in kept] == [
        len(tables[0]), len(tables[1]), 0]  # a table a log does not meet keeps its state
    assert all(k.carried is not None and not k.carried.refused for k in kept)
    verified = verify_archive(engine, profiles=PROFILES)
    assert verified.archive_breaks == [] and verified.notes == []
    assert verified.kept_states == len(tables[0]) + len(tables[1])  # each derived again
    replayed = replay_archive(engine, dt.date(2026, 1, 1), dt.date(2026, 12, 31), PROFILES,
                              runner_engine=engine_name)
    assert replayed.hands == expected.count(b"\n") and replayed.differences == []


def test_the_engines_agree_day_by_day(tmp_path: Path) -> None:
    """The native core's records of the days one by one are the reference's."""
    days = cut_inside_hands(faulty_log(), 4)
    written = {}
    for name in ENGINES:
        folder = tmp_path / name
        folder.mkdir()
        db = open_ledger(f"sqlite:///{folder}/ledger.sqlite")
        written[name], _ = run_days(days, folder, db, name)
        db.dispose()
    assert written["native"] == written["python"]
    assert b"".join(written["native"]).count(b"\n") > 60


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(cuts=st.lists(st.integers(min_value=1, max_value=10_000), min_size=1, max_size=3,
                     unique=True))
def test_any_cut_of_the_log_gives_the_whole_runs_records(tmp_path_factory: pytest.TempPathFactory,
                                                        cuts: list[int]) -> None:
    """Days cut anywhere (between any two events, inside hands or not): the records of the
    days one by one are the whole log's, each once, and verify derives every state kept
    between them again, as kept."""
    lines = faulty_log()
    bounds = sorted({0, len(lines), *(c % len(lines) for c in cuts)})
    days = [b"".join(line + b"\n" for line in lines[a:b])
            for a, b in itertools.pairwise(bounds)]
    folder = tmp_path_factory.mktemp("cut")
    db = open_ledger(f"sqlite:///{folder}/ledger.sqlite")
    written, kept = run_days(days, folder, db, "native")
    verified = verify_archive(db, profiles=PROFILES)
    db.dispose()
    assert b"".join(written) == whole_records()
    assert [b for b in verified.breaks if b.kind == "carry"] == []
    assert verified.kept_states == sum(k.carried.kept for k in kept if k.carried)


@cache
def whole_records() -> bytes:
    """The records of one run of the whole faulty log (native engine)."""
    with tempfile.TemporaryDirectory() as name:
        path = Path(name) / "whole.jsonl"
        path.write_bytes(b"".join(line + b"\n" for line in faulty_log()))
        db = open_ledger(f"sqlite:///{name}/ledger.sqlite")
        records, _ = run_day(path, db, "native", leave_open=False)
        db.dispose()
    return records


def test_a_day_run_again_keeps_nothing_new(engine: Engine, tmp_path: Path) -> None:
    """The second day run again after the third: the same records, every hand a
    duplicate, no conflict, its end states kept already; it went on from the first day's
    states (kept below its first events), not from the third's."""
    days = cut_inside_hands(faulty_log(), 3)
    written, kept = run_days(days, tmp_path, engine, "native")
    before = whole_database(engine)
    again, done = run_day(tmp_path / "day2.jsonl", engine, "native", leave_open=True)
    assert again == written[1] and again
    assert set(done.posted.counts) == {"duplicate"}
    assert done.carried is not None and done.carried.kept == 0 and done.carried.already == 5
    assert done.carried.continued == (kept[1].carried.continued if kept[1].carried else None)
    assert whole_database(engine) == before


def test_a_log_that_does_not_follow_on_is_a_gap_from_the_kept_state(tmp_path: Path) -> None:
    """Day one kept, day two skipped, day three given: each table goes on from day one's
    state, and the missing events are a SURV-9 gap from the kept seq (not from seq 0, and
    no hand refused for want of its table's configuration)."""
    days = cut_inside_hands(simulated_clean_log(), 3)
    url = f"sqlite:///{tmp_path}/ledger.sqlite"
    (tmp_path / "d1.jsonl").write_bytes(days[0])
    (tmp_path / "d3.jsonl").write_bytes(days[2])
    first = pitwatch("adjudicate", str(tmp_path / "d1.jsonl"), "--leave-open", "--ledger", url,
                     columns=300)
    assert first.code == 0, first.stderr
    assert "the state of 2 table(s) kept for the log that goes on" in first.stderr
    third = pitwatch("adjudicate", str(tmp_path / "d3.jsonl"), "--ledger", url, columns=300)
    kept = {str(table): int(str(seq)) for table, seq in
            rows_of(url, "SELECT table_id, last_seq FROM table_carries")}
    first_seqs = first_seq_of_tables(days[2])
    assert "went on from the state kept at the end of an earlier log" in third.stderr
    findings = [f for line in third.stdout.splitlines()
                for f in orjson.loads(line)["findings"]]
    gaps = [f["message"] for f in findings if f["code"] == "SEQ_GAP"]
    for table_id, seq in first_seqs.items():
        assert any(f"{kept[table_id]}" in m and f"{seq}" in m for m in gaps), (table_id, gaps)
    assert not any(f["code"] == "NO_CONFIGURATION" for f in findings)


def simulated_clean_log() -> tuple[bytes, ...]:
    log = simulate(["hcf"], 2, 30, seed=11, profile=HOUSE)
    return tuple(orjson.dumps(event) for event in log.events)


def first_seq_of_tables(day: bytes) -> dict[str, int]:
    """Each table's first seq in a day's log (its lines that are events of a table)."""
    first: dict[str, int] = {}
    for line in day.splitlines():
        try:
            event = orjson.loads(line)
        except orjson.JSONDecodeError:
            continue
        if (isinstance(event, dict) and isinstance(event.get("table_id"), str)
                and isinstance(event.get("seq"), int)):
            first.setdefault(event["table_id"], event["seq"])
    return first


def rows_of(url: str, sql: str) -> list[tuple[object, ...]]:
    db = open_ledger(url)
    try:
        return rows(db, sql)
    finally:
        db.dispose()


def test_a_state_only_the_other_engine_reads_refuses_the_run_before_it_reads(
        tmp_path: Path) -> None:
    """Another engine's state: the run is refused up front, one line saying which tables
    and what to do, nothing written. It started the tables new once, and the events of the
    hands the state held open (only that engine reads them) were never archived: 45 of
    6,604 events gone, and the next log's hands booked as a new table's (QA, 2026-12-06).
    Given the engine that kept the states, the run goes on from them."""
    days = cut_inside_hands(simulated_clean_log(), 2)
    (tmp_path / "d1.jsonl").write_bytes(days[0])
    (tmp_path / "d2.jsonl").write_bytes(days[1])
    url = f"sqlite:///{tmp_path}/ledger.sqlite"
    assert pitwatch("adjudicate", str(tmp_path / "d1.jsonl"), "--leave-open", "--ledger", url,
                    "--engine", "python").code == 0
    before = rows_of(url, "SELECT count(*), sum(events) FROM archive_segments")
    hands = rows_of(url, "SELECT count(*) FROM hands")
    for args in (["adjudicate", str(tmp_path / "d2.jsonl"), "--ledger", url,
                  "--engine", "native", "--dlq", str(tmp_path / "dlq")],
                 ["surveil", str(tmp_path / "d2.jsonl"), "--db", url]):
        refused = pitwatch(*args, columns=400)
        assert refused.code == 2 and refused.stdout == "", refused.stderr
        assert refused.error_lines == [refused.error_lines[-1]] and (
            "the ledger keeps the state of table(s) " in refused.stderr and
            "as the python engine left it (--leave-open), and only that engine reads it"
            in refused.stderr and "(nothing was read or written)" in refused.stderr)
        assert rows_of(url, "SELECT count(*), sum(events) FROM archive_segments") == before
        assert rows_of(url, "SELECT count(*) FROM hands") == hands
    assert not (tmp_path / "dlq").exists()
    went_on = pitwatch("adjudicate", str(tmp_path / "d2.jsonl"), "--ledger", url,
                       "--engine", "python", columns=400)
    assert went_on.code == 0, went_on.stderr
    assert "went on from the state kept" in went_on.stderr


def test_a_damaged_state_or_another_tables_is_not_taken(engine: Engine) -> None:
    """The source's own checks (``KeptStates``), on both databases."""
    state = b"\x02not a state"
    carries = [TableCarry("T1", 10, "a" * 64, 40, True, state),
               TableCarry("T2", 20, "b" * 64, 80, True, state)]
    assert keep_carries(engine, "native", carries, "2026-12-05T00:00:00+00:00") == (2, 0)
    assert keep_carries(engine, "native", carries, "2026-12-05T00:00:01+00:00") == (0, 2)
    with write_transaction(engine) as conn:  # a third, whole but of another table
        conn.execute(text("INSERT INTO table_carries (table_id, last_seq, engine, last_hash, "
                          "events_taken, archive, state, state_sha256, kept_at) VALUES "
                          "('T3', 30, 'native', :h, 120, :a, :s, :d, 'now')"),
                     {"h": "c" * 64, "a": True, "s": b"T1's",
                      "d": hashlib.sha256(b"T1's").hexdigest()})
    def read(raw: bytes) -> StateRead:
        if raw == b"T1's":
            return StateRead("T1", 30, ())
        raise ValueError("no such format")

    result = CarryResult()
    source = KeptStates(engine, "native", read, result)
    assert source("T1", 11) is None  # not a state: refused
    # The log starts at the head of T2's state, which cannot be read, so cannot say
    # whether it is missing seq 20: said, not passed over (as if none were kept).
    assert source("T2", 20) is None
    assert source("T2", 21) is None
    assert source("T3", 31) is None  # another table's
    assert source("T4", 5) is None  # nothing kept
    assert result.continued == []
    assert result.refused == [
        "table T1: the state kept after its seq 10 is not a state this pitwatch reads "
        "(no such format); the table starts new here, as if this log were its first"
        + GIVE_TOGETHER,
        *["table T2: the state kept after its seq 20 is not a state this pitwatch reads "
          "(no such format); the table starts new here, as if this log were its first"
          + GIVE_TOGETHER] * 2,
        "table T3: the state kept after its seq 30 is of table T1; the table starts new "
        "here, as if this log were its first" + GIVE_TOGETHER]
    for statement in ("UPDATE table_carries SET last_seq = last_seq + 1",
                      "DELETE FROM table_carries"):
        with pytest.raises(Exception, match="append-only"), engine.begin() as conn:
            conn.execute(text(statement))


def read_as(table_id: str, last_seq: int, missing: tuple[tuple[int, int], ...] = ()
            ) -> Callable[[bytes], StateRead]:
    """A state reader that reads any bytes as a state of ``table_id`` with that head and
    those missing seqs."""
    return lambda raw: StateRead(table_id, last_seq, missing)


def test_a_state_whose_bytes_changed_is_not_taken(tmp_path: Path) -> None:
    db = open_ledger(f"sqlite:///{tmp_path}/ledger.sqlite")
    keep_carries(db, "native", [TableCarry("T1", 10, "a" * 64, 40, True, b"state")], "now")
    with write_transaction(db) as conn:
        conn.execute(text("DROP TRIGGER table_carries_no_update"))
        conn.execute(text("UPDATE table_carries SET state = :s"), {"s": b"statf"})

    result = CarryResult()
    assert KeptStates(db, "native", read_as("T1", 10), result)("T1", 11) is None
    assert result.refused == [
        "table T1: the state kept after its seq 10 is damaged (its SHA-256 differs from the "
        "one kept with it); the table starts new here, as if this log were its first"
        + GIVE_TOGETHER]
    db.dispose()


def test_a_database_that_cannot_be_read_is_said(tmp_path: Path) -> None:
    """The source is called from inside the native core, which cannot raise through it: a
    read that fails is one line, and the table starts new."""
    result = CarryResult()
    broken = create_engine(f"sqlite:///{tmp_path}/not-a-ledger.sqlite")
    assert KeptStates(broken, "native", read_as("T1", 10), result)("T1", 5) is None
    assert result.continued == []
    assert len(result.refused) == 1 and result.refused[0].startswith(
        "table T1: the states kept for it could not be read ((sqlite3.OperationalError) no "
        "such table: table_carries)")
    broken.dispose()


def test_a_forged_kept_state_is_found_by_replay(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """A kept state decides how the next day is judged, and only its SHA-256 is checked
    when it is taken: someone who can change the database (triggers dropped) and writes
    a consistent state and hash (the rake doubled) changes the next day's records without
    a chain break. ``pitwatch replay`` derives every hand from the archived events from the
    table's first, never from a kept state, and lists exactly the hands judged under it."""
    days = cut_inside_hands(simulated_clean_log(), 2)
    db = open_ledger(f"sqlite:///{tmp_path}/ledger.sqlite")
    (tmp_path / "day1.jsonl").write_bytes(days[0])
    run_day(tmp_path / "day1.jsonl", db, "python", leave_open=True)
    honest = {str(t): bytes(s) for t, s in rows(db, "SELECT table_id, state FROM table_carries")}
    forged_table = sorted(honest)[0]
    state = decode_state(honest[forged_table])
    assert state.config is not None
    rake = msgspec.structs.replace(state.config.rake, fee=state.config.rake.fee * 2)
    forged = encode_state(msgspec.structs.replace(
        state, config=msgspec.structs.replace(state.config, rake=rake)))
    with write_transaction(db) as conn:
        conn.execute(text("DROP TRIGGER table_carries_no_update"))
        conn.execute(text("UPDATE table_carries SET state = :s, state_sha256 = :h "
                          "WHERE table_id = :t"),
                     {"s": forged, "h": hashlib.sha256(forged).hexdigest(), "t": forged_table})
    (tmp_path / "day2.jsonl").write_bytes(days[1])
    day_two, kept = run_day(tmp_path / "day2.jsonl", db, "python", leave_open=False)
    assert kept.carried is not None and not kept.carried.refused
    judged_under_forgery = {r["hand_id"] for r in map(orjson.loads, day_two.splitlines())
                            if r["table_id"] == forged_table}
    replayed = replay_archive(db, dt.date(2026, 1, 1), dt.date(2026, 12, 31), PROFILES,
                              runner_engine="python")
    differing = {d.hand_id for d in replayed.differences}
    assert differing and differing <= judged_under_forgery
    assert all(d.table_id == forged_table for d in replayed.differences)
    verified = verify_archive(db, profiles=PROFILES)
    assert [(b.table_id, b.kind) for b in verified.breaks] == [(forged_table, "carry")]
    assert "differs from the state its archived events give" in verified.breaks[0].message
    assert verified.kept_states == len(honest) - 1
    db.dispose()
    monkeypatch.setenv("PITWATCH_ENGINE", "python")
    ran = pitwatch("verify", "--db", f"sqlite:///{tmp_path}/ledger.sqlite")
    # It said "derived N ... as kept" and no more beside the carry break (QA).
    assert ran.code == 1
    assert (f"derived {len(honest) - 1} kept table state(s) again from the archived "
            "events: as kept; 1 other(s) not (the carry breaks above)") in ran.stderr, \
        ran.stderr


def test_a_state_whose_open_hands_are_not_archived_yet_waits(tmp_path: Path) -> None:
    """After the first day only, each kept state holds events the archive has not been
    given (the open hand, the events since the last hand): verify says it waits, and
    derives it once the next day is run."""
    days = cut_inside_hands(simulated_clean_log(), 2)
    db = open_ledger(f"sqlite:///{tmp_path}/ledger.sqlite")
    (tmp_path / "day1.jsonl").write_bytes(days[0])
    run_day(tmp_path / "day1.jsonl", db, "native", leave_open=True)
    waiting = verify_archive(db, profiles=PROFILES)
    assert waiting.breaks == [] and waiting.kept_states == 0
    assert len(waiting.notes) == 2 and all(
        "was not derived again: the archive holds" in note for note in waiting.notes)
    (tmp_path / "day2.jsonl").write_bytes(days[1])
    run_day(tmp_path / "day2.jsonl", db, "native", leave_open=False)
    derived = verify_archive(db, profiles=PROFILES)
    assert derived.breaks == [] and derived.notes == [] and derived.kept_states == 2
    db.dispose()


def test_tables_nothing_is_kept_for_cost_no_query(tmp_path: Path) -> None:
    """One query learns which tables have kept states (and one the archive's tables); a
    thousand others (a hostile log may invent any number of table ids) are answered
    without the database."""
    db = open_ledger(f"sqlite:///{tmp_path}/ledger.sqlite")
    keep_carries(db, "native", [TableCarry("T1", 10, "a" * 64, 40, True, b"state")], "now")
    statements: list[str] = []
    event.listen(db, "before_cursor_execute",
                 lambda conn, cursor, statement, *rest: statements.append(statement))

    def queries() -> list[str]:
        return [s for s in statements if s.startswith("SELECT")]

    source = KeptStates(db, "native", read_as("T1", 10), CarryResult())
    assert all(source(f"X{n}", 5) is None for n in range(1_000))
    assert len(queries()) == 2  # the tables with kept states, the archive's tables
    assert source("T1", 11) == b"state"
    assert len(queries()) == 3
    db.dispose()


def test_verify_says_it_derived_the_kept_states(tmp_path: Path) -> None:
    """``pitwatch verify`` after two days run one by one: the first day's states derived
    again (a line says so, and the JSON counts them), exit 0."""
    days = cut_inside_hands(simulated_clean_log(), 2)
    url = f"sqlite:///{tmp_path}/ledger.sqlite"
    for n, day in enumerate(days, start=1):
        path = tmp_path / f"day{n}.jsonl"
        path.write_bytes(day)
        extra = ["--leave-open"] if n == 1 else []
        assert pitwatch("adjudicate", str(path), *extra, "--ledger", url).code == 0
    verified = pitwatch("verify", "--db", url, columns=300)
    assert verified.code == 0, verified.stderr
    assert ("derived 2 kept table state(s) again from the archived events: as kept"
            in verified.stderr)
    listed = pitwatch("verify", "--db", url, "--format", "json", columns=300)
    assert orjson.loads(listed.stdout)["kept_states"] == 2
