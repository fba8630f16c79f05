"""One database, one name: every command that reads or writes the pitwatch database
takes it as ``--ledger`` and as ``--db``.

Why: ``adjudicate`` and ``report`` named it ``--ledger``, while ``ledger``, ``cases``,
``archive``, ``surveil`` and the services named it ``--db``; an operator's daily routine
(book, report, work the cases) met "No such option" at the second command."""

from __future__ import annotations

from pathlib import Path

import pytest

from services.ledger.db import open_ledger
from services.ledger.posting import post_many
from tests.unit.cli.helpers import pitwatch
from tests.unit.ledger.builders import hcf_seat1_wins

# hcf_seat1_wins is a hand of 2024-05-01 at table T1 (tests/unit/ledger/builders.py).
READERS = (
    ["ledger", "balances", "--format", "json"],
    ["ledger", "totals", "--format", "csv"],
    ["cases", "list", "--format", "json"],
    ["verify"],
)


@pytest.fixture
def booked(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path / 'ledger.sqlite'}"
    post_many(open_ledger(url), [hcf_seat1_wins()])
    return url


@pytest.mark.parametrize("command", READERS, ids=" ".join)
def test_a_reader_takes_either_name(command: list[str], booked: str) -> None:
    by_db = pitwatch(*command, "--db", booked)
    by_ledger = pitwatch(*command, "--ledger", booked)
    assert by_db.code == 0, by_db.stderr
    assert (by_ledger.code, by_ledger.stdout) == (by_db.code, by_db.stdout)


def test_the_balances_read_by_ledger_are_the_booked_hand(booked: str) -> None:
    ran = pitwatch("ledger", "balances", "--ledger", booked, "--format", "json")
    assert ran.code == 0, ran.stderr
    assert '"player": "alice"' in ran.stdout


def test_the_daily_report_takes_db(booked: str, tmp_path: Path) -> None:
    by_db = pitwatch("report", "daily", "--date", "2024-05-01", "--db", booked,
                     "--generated-at", "2024-05-02T08:00:00Z", "-o", str(tmp_path / "a.html"))
    by_ledger = pitwatch("report", "daily", "--date", "2024-05-01", "--ledger", booked,
                         "--generated-at", "2024-05-02T08:00:00Z",
                         "-o", str(tmp_path / "b.html"))
    assert by_db.code == by_ledger.code == 0, by_db.stderr
    assert (tmp_path / "a.html").read_bytes() == (tmp_path / "b.html").read_bytes()


def test_adjudicate_books_with_db(tmp_path: Path) -> None:
    log = tmp_path / "events.jsonl"
    made = pitwatch("simulate", "-o", str(log), "--game", "hcf", "--tables", "1",
                    "--hands", "3", "--seed", "1")
    assert made.code == 0, made.stderr
    url = f"sqlite:///{tmp_path / 'new.sqlite'}"
    ran = pitwatch("adjudicate", str(log), "--db", url)
    assert ran.code == 0, ran.stderr
    totals = pitwatch("ledger", "totals", "--ledger", url, "--format", "csv")
    assert totals.code == 0, totals.stderr
    assert totals.stdout.count("\n") == 2  # the header and the one table's day
