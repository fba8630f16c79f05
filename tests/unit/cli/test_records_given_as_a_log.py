"""Adjudication records given where a table's event log belongs (``adjudicate``,
``surveil``): one line naming the file and what it holds, exit 2 (QA: each record was
rejected line by line, "missing required field `type`", exit 1). A log fed through a
pipe is not read ahead, so its first line stays the run's."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.unit.cli.helpers import assert_one_line_usage_error, pitwatch

REPO = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(a small log, its records)."""
    root = tmp_path_factory.mktemp("files")
    log, records = root / "ev.jsonl", root / "records.jsonl"
    assert pitwatch("simulate", "--tables", "1", "--hands", "4", "-o", str(log)).code == 0
    ran = pitwatch("adjudicate", str(log))
    records.write_text(ran.stdout, "utf-8")
    return log, records


@pytest.mark.parametrize("command", ["adjudicate", "surveil"])
def test_records_given_as_a_log_are_named_in_one_line(files: tuple[Path, Path],
                                                      command: str) -> None:
    _, records = files
    ran = pitwatch(command, str(records))
    assert_one_line_usage_error(ran, f"{records} holds adjudication records",
                                "the record of hand T001-000001", "give the table's event log")


def test_a_log_through_a_pipe_is_read_whole(files: tuple[Path, Path]) -> None:
    """``<(cat LOG)``: a pipe with a path; reading its first line to judge it would have
    taken that line from the run."""
    log, records = files
    ran = subprocess.run(["bash", "-c", f"{sys.executable} -m services.cli adjudicate "
                                        f"<(cat {log})"],
                         capture_output=True, text=True, cwd=REPO, check=False)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout == records.read_text("utf-8")
