"""The archive's commands as a user runs them: archiving on by default with ``--ledger``,
off with ``--no-archive``; ``archive days``; ``archive detach`` on SQLite; one-line errors."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

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


def test_detaching_is_for_postgresql(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/day.sqlite"
    pitwatch("adjudicate", str(day_file(tmp_path)), "--ledger", url)
    assert_one_line_usage_error(pitwatch("archive", "detach", "--db", url), "no day partitions")
    assert_one_line_usage_error(
        pitwatch("archive", "detach", "--db", url, "--retention-years", "seven"),
        "whole number of years")


def test_verify_refuses_a_database_that_is_not_there(tmp_path: Path) -> None:
    assert_one_line_usage_error(
        pitwatch("verify", "--db", f"sqlite:///{tmp_path}/none.sqlite"), "does not exist")
    assert_one_line_usage_error(
        pitwatch("verify", "--db", f"sqlite:///{tmp_path}/none.sqlite", "--from", "5 Jan"),
        "not a day")


def test_archiving_runs_the_reference_engine(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Only the reference cuts segments: ``--engine native`` with archiving is a one-line
    usage error (exit 2); with ``--no-archive`` it books the same hands as the archiving
    run; and ``PITWATCH_ENGINE=native`` is a default archiving overrides (the run archives)."""
    log = day_file(tmp_path)
    url = f"sqlite:///{tmp_path}/native.sqlite"
    refused = pitwatch("adjudicate", str(log), "--ledger", url, "--engine", "native")
    assert refused.code == 2 and refused.stdout == ""
    assert len(refused.error_lines) == 1 and "--no-archive" in refused.stderr
    assert "Traceback" not in refused.stderr
    native = pitwatch("adjudicate", str(log), "--ledger", url, "--engine", "native",
                      "--no-archive")
    monkeypatch.setenv("PITWATCH_ENGINE", "native")
    archiving = pitwatch("adjudicate", str(log), "--ledger", f"sqlite:///{tmp_path}/a.sqlite")
    assert native.code == archiving.code == 0
    assert native.stdout == archiving.stdout  # the same records from either engine
    assert "segment(s) archived" in archiving.stderr
    assert "segment(s) archived" not in native.stderr
