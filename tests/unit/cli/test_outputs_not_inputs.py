"""No command writes over a file it reads.

``pitwatch adjudicate LOG --dlq LOG`` read the log and then wrote its dead letters over it:
the table's own record gone, exit 0. Every output option is now checked against every
file the command reads (and against the other outputs) before any work is done: one line,
exit 2, the file untouched.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import orjson
import pytest

from services.simulator.run import simulate
from tests.profiles import HOUSE
from tests.unit.cli.helpers import assert_one_line_usage_error, pitwatch

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture()
def log(tmp_path: Path) -> Path:
    path = tmp_path / "day.jsonl"
    path.write_bytes(b"".join(orjson.dumps(e) + b"\n"
                             for e in simulate(["hcf"], 1, 3, seed=2, profile=HOUSE).events))
    return path


@pytest.mark.parametrize("command", [
    ["adjudicate", "{log}", "--dlq", "{log}"],
    ["adjudicate", "{log}", "--alerts", "{log}"],
    ["surveil", "{log}", "--out", "{log}"],
    ["report", "hand", "T001-000001", "--events", "{log}", "-o", "{log}"],
    ["report", "daily", "--date", "2026-01-05", "--events", "{log}", "-o", "{log}",
     "--ledger", "sqlite:///{log}.db"],
])
def test_an_output_that_is_the_log_being_read(log: Path, command: list[str]) -> None:
    before = log.read_bytes()
    ran = pitwatch(*(part.format(log=log) for part in command))
    assert_one_line_usage_error(ran, f"{log} is a file being read", "write somewhere else")
    assert log.read_bytes() == before


def test_the_same_file_under_another_name(log: Path) -> None:
    """A link or a relative path is the same file."""
    link = log.parent / "link.jsonl"
    link.symlink_to(log)
    before = log.read_bytes()
    assert_one_line_usage_error(pitwatch("adjudicate", str(log), "--dlq", str(link)),
                                "--dlq", "is a file being read")
    assert log.read_bytes() == before


def test_two_outputs_that_are_one_file(log: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    assert_one_line_usage_error(
        pitwatch("adjudicate", str(log), "--dlq", str(out), "--alerts", str(out)),
        "--alerts", "is also --dlq's file")
    assert not out.exists()


def test_a_simulation_and_its_truth_in_one_file(tmp_path: Path) -> None:
    out = tmp_path / "sim.jsonl"
    assert_one_line_usage_error(pitwatch("simulate", "-o", str(out), "--truth", str(out),
                                         "--tables", "1", "--hands", "1"),
                                "--truth", "is also --output's file")
    assert not out.exists()


def test_an_import_written_over_one_of_its_files(tmp_path: Path) -> None:
    folder = tmp_path / "session"
    folder.mkdir()
    hand = folder / "1.phh"
    hand.write_text("variant = 'NT'\n", "utf-8")
    assert_one_line_usage_error(pitwatch("import", "phh", str(folder), "-o", str(hand)),
                                "--output", "is a file being read")
    assert hand.read_text("utf-8") == "variant = 'NT'\n"


def test_standard_output_redirected_onto_the_log(log: Path) -> None:
    """``pitwatch adjudicate LOG > LOG``: the shell empties the log before pitwatch starts,
    so nothing can save it, but the run says what happened instead of adjudicating an empty
    file and exiting 0."""
    with log.open("r+b") as same:
        done = subprocess.run(
            [sys.executable, "-c", "from services.cli import main; main()", "adjudicate",
             str(log)], cwd=ROOT, stdout=same, stderr=subprocess.PIPE, text=True,
            timeout=120, check=False)
    assert done.returncode == 2, done.stderr
    [line] = done.stderr.splitlines()
    assert line.startswith(
        f"error: Invalid value: standard output is {log} itself, a file being read (`> FILE` "
        "empties it before pitwatch starts): redirect to another file (see: "), line
