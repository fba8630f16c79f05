"""A database that refuses to go on (read-only, locked past the wait) is one line and exit
2, not a traceback; and a command leaves its SQLite ledger in the one file a user keeps.

Found by QA (2026-12-06): ``cases note``, ``ledger post``, ``adjudicate --ledger`` and
``surveil --db`` on a read-only ledger printed SQLAlchemy's traceback and exited 1; and
after any command the ledger's pages sat in ``FILE-wal``, so a copy of FILE alone was an
empty database."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import orjson
import pytest
from sqlalchemy.exc import IntegrityError, OperationalError

from services.cases.queries import get_case
from services.exits import database_refusal
from services.ledger import db
from services.ledger.db import open_existing_ledger
from services.simulator.run import simulate
from tests.profiles import HOUSE
from tests.unit.cli.helpers import pitwatch

REPO = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def booked(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A faulty HCF log and the ledger ``pitwatch adjudicate --ledger`` made of it, in a
    child process as a user runs it: (log, ledger file)."""
    folder = tmp_path_factory.mktemp("refusals")
    log = folder / "day.jsonl"
    events = simulate(["hcf"], 1, 30, seed=5, faults=frozenset({"mispay"}), fault_rate=0.4,
                      profile=HOUSE).events
    log.write_bytes(b"".join(orjson.dumps(e) + b"\n" for e in events))
    ledger = folder / "ledger.sqlite"
    done = subprocess.run([sys.executable, "-m", "services.cli", "adjudicate", str(log),
                           "--ledger", f"sqlite:///{ledger}"], cwd=REPO, capture_output=True)
    assert done.returncode == 0, done.stderr.decode()
    return log, ledger


def test_a_command_leaves_the_whole_ledger_in_its_file(booked: tuple[Path, Path],
                                                       tmp_path: Path) -> None:
    _, ledger = booked
    assert not Path(f"{ledger}-wal").exists() or Path(f"{ledger}-wal").stat().st_size == 0
    copy = tmp_path / "copy.sqlite"
    shutil.copyfile(ledger, copy)  # the file alone, as "keep the file" means
    with sqlite3.connect(copy) as conn:
        assert conn.execute("SELECT count(*) FROM hands").fetchone()[0] == 30
        assert conn.execute("SELECT count(*) FROM archive_segments").fetchone()[0] > 30


@pytest.fixture
def read_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every SQLite connection pitwatch opens from now on refuses writes, as a read-only
    file does (SQLite's own SQLITE_READONLY, through the real driver)."""
    connect = db._sqlite_connect

    def query_only(dbapi_connection: Any, record: Any) -> None:
        connect(dbapi_connection, record)
        dbapi_connection.execute("PRAGMA query_only = ON")

    monkeypatch.setattr(db, "_sqlite_connect", query_only)


def _case_trail(ledger: Path) -> list[Any]:
    engine = open_existing_ledger(f"sqlite:///{ledger}")
    try:
        case = get_case(engine, 1)
        assert case is not None
        return list(case.audit)
    finally:
        engine.dispose()


@pytest.mark.usefixtures("read_only")
def test_a_read_only_ledger_is_one_line_and_exit_2(booked: tuple[Path, Path],
                                                   tmp_path: Path) -> None:
    log, ledger = booked
    before = _case_trail(ledger)
    url = f"sqlite:///{ledger}"
    for args in (["cases", "note", "1", "looked", "--actor", "ann", "--db", url],
                 ["adjudicate", str(log), "--ledger", url, "--dlq", str(tmp_path / "dlq")],
                 ["surveil", str(log), "--db", url]):
        ran = pitwatch(*args)
        assert ran.code == 2, (args, ran.stderr)
        assert "Traceback" not in ran.stderr, args
        last = ran.error_lines[-1]
        assert last.startswith("error: the database refused: attempt to write a readonly "
                               "database (the database file or its folder is read-only"), last
    assert _case_trail(ledger) == before


def test_what_a_refusal_says() -> None:
    locked = OperationalError("BEGIN IMMEDIATE", {}, sqlite3.OperationalError(
        "database is locked"))
    said = database_refusal(locked)
    assert said is not None and said.startswith(
        "the database refused: database is locked (another process holds the database: "
        "run the command again when it is done;")
    gone = OperationalError("SELECT 1", {}, Exception("server closed the connection\nmore"))
    said = database_refusal(gone)
    assert said is not None and "server closed the connection (check that the database is "\
        "reachable and writable" in said and "more" not in said
    # the data's errors stay errors to see; anything else is not a refusal
    assert database_refusal(IntegrityError("INSERT", {}, Exception("UNIQUE"))) is None
    assert database_refusal(ValueError("x")) is None


def test_a_full_disk_is_said_not_the_savepoint_it_took_with_it() -> None:
    """QA: the disk filled during a later batch; SQLite rolled back the whole transaction,
    and the rollback to the booking's savepoint then failed: "no such savepoint:
    sa_savepoint_1" was said. The refusal that stopped the work is said."""
    try:
        try:
            raise OperationalError("INSERT", {}, sqlite3.OperationalError(
                "database or disk is full"))
        except OperationalError:
            raise OperationalError("ROLLBACK TO SAVEPOINT sa_savepoint_1", {},
                                   sqlite3.OperationalError(
                                       "no such savepoint: sa_savepoint_1")) from None
    except OperationalError as exc:
        said = database_refusal(exc)
    assert said is not None and said.startswith(
        "the database refused: database or disk is full (the disk holding the database is "
        "full: free space there; the transaction it stopped was rolled back")


def test_an_empty_file_given_as_a_ledger_is_refused_untouched(tmp_path: Path) -> None:
    """Reading commands opened it, and SQLite wrote its 4 kB header into it."""
    empty = tmp_path / "empty.sqlite"
    empty.write_bytes(b"")
    for args in (["cases", "list"], ["ledger", "balances"], ["verify"]):
        ran = pitwatch(*args, "--db", f"sqlite:///{empty}")
        assert ran.code == 2, (args, ran.stderr)
        assert "is not a pitwatch ledger (an empty file" in ran.error_lines[-1], args
        assert empty.stat().st_size == 0, args
