"""``report daily`` exits 1 when its totals do not reconcile, refuses ``--ledger ''``;
``report hand`` reads ``PITWATCH_DB`` as every database command does (QA)."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from tests.unit.cli.helpers import assert_one_line_usage_error, pitwatch
from tests.unit.reports.test_from_archive import STAMP, archived_day, sixth_hand

DAY = "2026-01-05"


def _rake_leg(database: Path) -> tuple[str, str, int, str, int]:
    """The first rake posting into an account (hand, event, leg), its hand's table, and
    the table's rake that day as its postings sum it, before any change."""
    with closing(sqlite3.connect(database)) as conn:
        hand_id, event_id, leg = conn.execute(
            "select hand_id, event_id, leg from postings where kind = 'rake' and amount > 0"
            " order by hand_id, event_id, leg limit 1").fetchone()
        (table_id,) = conn.execute("select table_id from hands where hand_id = ?",
                                   (hand_id,)).fetchone()
        (rake,) = conn.execute(
            "select sum(p.amount) from postings p join hands h on h.hand_id = p.hand_id "
            "where p.kind = 'rake' and p.amount > 0 and h.table_id = ?",
            (table_id,)).fetchone()
    return hand_id, event_id, leg, table_id, rake


def test_daily_report_exits_1_when_its_totals_do_not_reconcile(tmp_path: Path) -> None:
    """One rake posting raised by 1 behind the ledger's guards: the ledger's rake of that
    table is one more than the booked records give. The report is written (its heading
    says so), one line on stderr names the first differing figure, exit 1. Before the
    change the same ledger, untouched, exits 0."""
    url, _log = archived_day(tmp_path)
    database = tmp_path / "day.sqlite"
    out = tmp_path / "out"
    out.mkdir()
    common = ("report", "daily", "--date", DAY, "--ledger", url, "--generated-at", STAMP)
    assert pitwatch(*common, "-o", str(out / "before.html")).code == 0
    hand_id, event_id, leg, table_id, rake = _rake_leg(database)
    with closing(sqlite3.connect(database)) as conn:
        conn.execute("drop trigger postings_no_update")
        conn.execute("update postings set amount = amount + 1 where hand_id = ? and "
                     "event_id = ? and leg = ?", (hand_id, event_id, leg))
        conn.commit()
    ran = pitwatch(*common, "-o", str(out / "after.html"), columns=400)
    assert ran.code == 1, ran.stderr
    assert "SOME TOTALS DO NOT RECONCILE WITH THE LEDGER" in (out / "after.html").read_text()
    warnings = [line for line in ran.error_lines if line.startswith("warning:")]
    assert len(warnings) == 1, ran.stderr
    assert f"the totals of {DAY} do not reconcile with the ledger" in warnings[0]
    assert (f"the first table {table_id} rake: report {rake:,}, ledger {rake + 1:,}"
            in warnings[0])


def test_daily_report_refuses_an_empty_ledger_url(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """``--ledger ''`` in a folder whose default ledger (var/pitwatch.sqlite) holds the
    day: refused in one line, as ``cases`` and ``verify`` refuse it, not the default."""
    (tmp_path / "var").mkdir()
    log = tmp_path / "day.jsonl"
    from tests.unit.archive.support import simulated_log

    log.write_bytes(b"\n".join(simulated_log().lines) + b"\n")
    assert pitwatch("adjudicate", str(log), "--ledger",
                    f"sqlite:///{tmp_path}/var/pitwatch.sqlite").code == 0
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PITWATCH_DB", raising=False)
    assert pitwatch("report", "daily", "--date", DAY, "-o", "x.html").code == 0
    ran = pitwatch("report", "daily", "--date", DAY, "--ledger", "", "-o", "y.html",
                   columns=400)
    assert_one_line_usage_error(ran, "'' is not a database URL", "--ledger")
    assert not (tmp_path / "y.html").exists()


def test_hand_report_reads_pitwatch_db(tmp_path: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """``PITWATCH_DB=URL report hand ID`` is ``report hand ID --ledger URL``."""
    url, log = archived_day(tmp_path)
    hand_id = sixth_hand(log)
    monkeypatch.delenv("PITWATCH_DB", raising=False)
    given = pitwatch("report", "hand", hand_id, "--ledger", url, "--generated-at", STAMP)
    assert given.code == 0, given.stderr
    monkeypatch.setenv("PITWATCH_DB", url)
    from_env = pitwatch("report", "hand", hand_id, "--generated-at", STAMP)
    assert from_env.code == 0, from_env.stderr
    assert from_env.stdout == given.stdout


def test_hand_report_without_a_source_names_pitwatch_db(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PITWATCH_DB", raising=False)
    ran = pitwatch("report", "hand", "T001-000001", columns=400)
    assert_one_line_usage_error(ran, "--events FILE", "--ledger URL", "PITWATCH_DB")
