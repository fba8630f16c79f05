"""A SQLite database of another application named as the ledger is refused and left as
it was, byte for byte (QA: a reading command switched it to WAL journaling before it said
"not a pitwatch ledger", its header changed for good; a writing command added pitwatch's
tables beside the application's and said "created a new ledger")."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tests.unit.cli.helpers import assert_one_line_usage_error, pitwatch


@pytest.fixture
def theirs(tmp_path: Path) -> Path:
    path = tmp_path / "app.sqlite"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)")
        conn.execute("INSERT INTO customers VALUES (1, 'A. Player')")
    conn.close()
    return path


@pytest.fixture(scope="module")
def log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("log") / "ev.jsonl"
    assert pitwatch("simulate", "--tables", "1", "--hands", "5", "-o", str(path)).code == 0
    return path


@pytest.mark.parametrize("command", [
    ["ledger", "balances", "--db", "{url}"],
    ["verify", "--db", "{url}"],
    ["cases", "list", "--db", "{url}"],
    ["adjudicate", "{log}", "--ledger", "{url}"],
    ["surveil", "{log}", "--db", "{url}"],
])
def test_another_applications_database_is_refused_untouched(
        theirs: Path, log: Path, command: list[str]) -> None:
    before = theirs.read_bytes()
    ran = pitwatch(*[a.format(url=f"sqlite:///{theirs}", log=str(log)) for a in command])
    assert_one_line_usage_error(ran, "is not a pitwatch ledger (a database of other tables: "
                                     "customers)")
    assert theirs.read_bytes() == before
    with sqlite3.connect(f"{theirs.as_uri()}?mode=ro", uri=True) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("delete",)
        assert {n for (n,) in conn.execute("SELECT name FROM sqlite_master")} == {"customers"}
