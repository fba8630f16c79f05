"""Reading commands refuse a database that is not there or is not a pitwatch ledger;
only writing commands create one, and they say so; outputs never create folders.

Each case used to succeed silently: an empty ledger (and its folder) was created and
shown as zero balances, or a report of it claimed it was "not reconciled"; ``simulate -o
/nonexistent/dir/x.jsonl`` created ``/nonexistent/dir``."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from services.events.contract import encode_record
from services.ledger.db import open_ledger
from services.ledger.posting import post_many
from tests.unit.cli.helpers import assert_one_line_usage_error, pitwatch
from tests.unit.ledger.builders import hcf_seat1_wins

READERS = (["ledger", "balances"], ["ledger", "rake"], ["ledger", "totals"],
           ["ledger", "hand", "T1-000001"])


@pytest.fixture
def in_empty_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PITWATCH_DB", raising=False)
    return tmp_path


@pytest.mark.parametrize("command", READERS)
def test_reading_the_default_ledger_that_is_not_there(command: list[str],
                                                      in_empty_folder: Path) -> None:
    ran = pitwatch(*command)
    assert_one_line_usage_error(ran, "--db", "no ledger at sqlite:///var/pitwatch.sqlite",
                                "does not exist")
    assert list(in_empty_folder.iterdir()) == []  # no var/, no database


def test_reading_a_ledger_in_a_folder_that_is_not_there(in_empty_folder: Path) -> None:
    ran = pitwatch("ledger", "balances", "--db", "sqlite:///nosuchdir/x.sqlite")
    assert_one_line_usage_error(ran, "does not exist")
    assert not (in_empty_folder / "nosuchdir").exists()


def test_daily_report_without_a_ledger(in_empty_folder: Path) -> None:
    ran = pitwatch("report", "daily", "--date", "2026-01-05")
    assert_one_line_usage_error(ran, "--ledger", "no ledger at")
    assert list(in_empty_folder.iterdir()) == []


def test_an_empty_database_is_not_a_ledger(tmp_path: Path) -> None:
    empty = tmp_path / "empty.sqlite"
    sqlite3.connect(empty).close()  # a valid SQLite file with no tables
    ran = pitwatch("ledger", "balances", "--db", f"sqlite:///{empty}")
    assert_one_line_usage_error(ran, "is not a pitwatch ledger", "empty database")


def test_another_applications_database_is_not_a_ledger(tmp_path: Path) -> None:
    other = tmp_path / "shop.sqlite"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE orders (id INTEGER PRIMARY KEY)")
    ran = pitwatch("report", "daily", "--date", "2026-01-05", "--ledger",
                   f"sqlite:///{other}")
    assert_one_line_usage_error(ran, "not a pitwatch ledger", "a database of other tables: orders")
    with sqlite3.connect(other) as db:  # and nothing was added to it
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
    assert tables == {"orders"}


def test_a_ledger_that_exists_is_read(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'ledger.sqlite'}"
    post_many(open_ledger(url), [hcf_seat1_wins()])
    ran = pitwatch("ledger", "balances", "--db", url, "--format", "json")
    assert ran.code == 0, ran.stderr
    assert '"player": "alice"' in ran.stdout


def test_writing_creates_the_ledger_and_says_so(tmp_path: Path) -> None:
    records = tmp_path / "records.jsonl"
    records.write_bytes(encode_record(hcf_seat1_wins()) + b"\n")
    url = f"sqlite:///{tmp_path / 'new.sqlite'}"
    ran = pitwatch("ledger", "post", str(records), "--db", url)
    assert ran.code == 0, ran.stderr
    assert f"created a new ledger at {url}" in ran.stderr
    again = pitwatch("ledger", "post", str(records), "--db", url)
    assert again.code == 0 and "created" not in again.stderr
    assert "duplicate 1" in again.stderr


def test_a_new_ledger_is_said_on_either_database(db_url: str, tmp_path: Path) -> None:
    """A PostgreSQL URL whose schema holds nothing yet (a mistyped name opens as such)
    made its tables in silence; SQLite said so (QA). Both say it once."""
    from sqlalchemy import make_url

    records = tmp_path / "records.jsonl"
    records.write_bytes(encode_record(hcf_seat1_wins()) + b"\n")
    database = make_url(db_url).database
    if db_url.startswith("sqlite") and database:  # a folder given must exist (test below)
        Path(database).parent.mkdir(parents=True)
    ran = pitwatch("ledger", "post", str(records), "--db", db_url)
    assert ran.code == 0, ran.stderr
    shown = make_url(db_url).render_as_string(hide_password=True)
    assert f"created a new ledger at {shown}" in ran.stderr
    again = pitwatch("ledger", "post", str(records), "--db", db_url)
    assert again.code == 0 and "created" not in again.stderr


def test_writing_a_ledger_into_a_folder_that_is_not_there(tmp_path: Path) -> None:
    records = tmp_path / "records.jsonl"
    records.write_bytes(encode_record(hcf_seat1_wins()) + b"\n")
    ran = pitwatch("ledger", "post", str(records), "--db",
                   f"sqlite:///{tmp_path}/nosuchdir/x.sqlite")
    assert_one_line_usage_error(ran, "folder", "nosuchdir", "does not exist", "mkdir -p")
    assert not (tmp_path / "nosuchdir").exists()


def test_simulate_into_a_folder_that_is_not_there(tmp_path: Path) -> None:
    target = tmp_path / "nonexistent" / "dir" / "x.jsonl"
    ran = pitwatch("simulate", "-o", str(target), "--tables", "1", "--hands", "1")
    assert_one_line_usage_error(ran, "-o", f"folder {target.parent} does not exist",
                                f"mkdir -p {target.parent}")
    assert not (tmp_path / "nonexistent").exists()


@pytest.mark.parametrize("option", ["--truth"])
def test_simulate_side_outputs_too(option: str, tmp_path: Path) -> None:
    ran = pitwatch("simulate", "-o", str(tmp_path / "x.jsonl"), option,
                   str(tmp_path / "no" / "truth.jsonl"), "--tables", "1", "--hands", "1")
    assert_one_line_usage_error(ran, option, "does not exist")
    assert not (tmp_path / "x.jsonl").exists() and not (tmp_path / "no").exists()


def test_simulate_writes_the_file_it_was_given(tmp_path: Path) -> None:
    target = tmp_path / "x.jsonl"
    ran = pitwatch("simulate", "-o", str(target), "--tables", "1", "--hands", "2")
    assert ran.code == 0, ran.stderr
    assert target.is_file() and f"to {target}" in " ".join(ran.stderr.split())


def test_a_report_into_a_folder_that_is_not_there(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'ledger.sqlite'}"
    post_many(open_ledger(url), [hcf_seat1_wins()])
    ran = pitwatch("report", "daily", "--date", "2024-05-01", "--ledger", url, "-o",
                   str(tmp_path / "reports" / "daily.html"))
    assert_one_line_usage_error(ran, "-o", "reports", "does not exist")
    assert not (tmp_path / "reports").exists()


def test_demo_refuses_a_workdir_whose_parent_is_not_there(tmp_path: Path) -> None:
    ran = pitwatch("demo", "--workdir", str(tmp_path / "a" / "b"), "--tables", "1",
                   "--hands", "1")
    assert_one_line_usage_error(ran, "--workdir", "does not exist")
    assert not (tmp_path / "a").exists()
