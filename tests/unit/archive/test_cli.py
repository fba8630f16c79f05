"""The archive's commands as a user runs them: archiving on by default with ``--ledger``,
off with ``--no-archive``; ``archive days``; ``archive detach`` on SQLite; one-line errors."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest
import sqlalchemy as sa

from tests.unit.archive.support import simulated_log
from tests.unit.cli.helpers import assert_one_line_usage_error, pitwatch
from tests.unit.ledger.dbread import count


def day_file(tmp_path: Path) -> Path:
    log = tmp_path / "day.jsonl"
    log.write_bytes(b"\n".join(simulated_log().lines) + b"\n")
    return log


def test_the_ledger_option_archives_and_opens_cases_unless_told_not_to(tmp_path: Path) -> None:
    from services.ledger.db import open_ledger

    log = day_file(tmp_path)
    on, off = f"sqlite:///{tmp_path}/on.sqlite", f"sqlite:///{tmp_path}/off.sqlite"
    ran = pitwatch("adjudicate", str(log), "--ledger", on)
    assert ran.code == 0
    assert "segment(s) archived" in ran.stderr and "cases:" in ran.stderr
    assert pitwatch("adjudicate", str(log), "--ledger", off, "--no-archive").code == 0
    archived, bare = open_ledger(on), open_ledger(off)
    assert count(archived, "archive_segments") > 0 and count(archived, "cases") > 0
    assert count(bare, "archive_segments") == count(bare, "cases") == 0
    assert count(bare, "hands") == count(archived, "hands") == 120
    archived.dispose()
    bare.dispose()


def test_archive_days_lists_what_the_archive_holds(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/day.sqlite"
    pitwatch("adjudicate", str(day_file(tmp_path)), "--ledger", url)
    listed = pitwatch("archive", "days", "--db", url, "--format", "json")
    assert listed.code == 0
    (day,) = orjson.loads(listed.stdout)
    assert (day["day"], day["events"], day["tables"]) == ("2026-01-05",
                                                          len(simulated_log().lines), 3)


def test_detaching_is_for_postgresql(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    url = f"sqlite:///{tmp_path}/day.sqlite"
    pitwatch("adjudicate", str(day_file(tmp_path)), "--ledger", url)
    assert_one_line_usage_error(pitwatch("archive", "detach", "--db", url), "no day partitions")
    assert_one_line_usage_error(
        pitwatch("archive", "detach", "--db", url, "--retention-years", "seven"),
        "whole number of years", "--retention-years or PITWATCH_ARCHIVE_RETENTION_YEARS")
    # 2026 years back from 2026 was "year 0 is out of range", a traceback (QA); the
    # option is read before the database, so SQLite's refusal does not hide it.
    for years in ("2026", "99999", "0"):
        assert_one_line_usage_error(
            pitwatch("archive", "detach", "--db", url, "--retention-years", years),
            "--retention-years", "retention must be from 1 to 1,000 years")
    monkeypatch.setenv("PITWATCH_ARCHIVE_RETENTION_YEARS", "5000")
    assert_one_line_usage_error(pitwatch("archive", "detach", "--db", url),
                                "retention must be from 1 to 1,000 years, not 5,000")


def test_verify_refuses_a_database_that_is_not_there(tmp_path: Path) -> None:
    assert_one_line_usage_error(
        pitwatch("verify", "--db", f"sqlite:///{tmp_path}/none.sqlite"), "does not exist")
    assert_one_line_usage_error(
        pitwatch("verify", "--db", f"sqlite:///{tmp_path}/none.sqlite", "--from", "5 Jan"),
        "not a day")


def test_either_engine_archives_the_same_day(tmp_path: Path) -> None:
    """``--engine native`` and ``--engine python`` with ``--ledger``: the same records on
    stdout and the same archive, row for row (segments, alerts, cases)."""
    log = day_file(tmp_path)
    engine = "native"
    ran = {name: pitwatch("adjudicate", str(log), "--ledger",
                          f"sqlite:///{tmp_path}/{name}.sqlite", "--engine", name)
           for name in ("python", engine)}
    assert ran[engine].code == 0 and ran[engine].stdout == ran["python"].stdout
    assert "segment(s) archived" in ran[engine].stderr
    rows = {}
    for name in ran:
        db = sa.create_engine(f"sqlite:///{tmp_path}/{name}.sqlite")
        with db.connect() as conn:
            rows[name] = [
                conn.execute(sa.text(sql)).all() for sql in (
                    "SELECT table_id, head_seq, ordinal, hand_id, body_sha256 FROM "
                    "archive_segments ORDER BY 1, 2, 3",
                    "SELECT alert_id FROM archive_alerts ORDER BY 1",
                    "SELECT subject, severity FROM cases ORDER BY 1")]
        db.dispose()
    assert rows[engine] == rows["python"] and rows[engine][0]
