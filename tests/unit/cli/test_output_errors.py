"""An output that cannot be written is named, with its file and what to do (QA).

Before: ``pitwatch adjudicate LOG --dlq /dev/full`` (and ``--alerts``, ``surveil --out``,
a report's ``-o``, standard output redirected to a full disk) ended with "error: No space
left on device", naming neither the output nor the file. ``/dev/full`` is a full disk
that every Linux has: any write to it fails with ENOSPC. Exit 2, the convention's
environment error (``services.exits``), in one line, no traceback.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

from services.ledger.db import open_ledger
from services.ledger.posting import post_many
from services.simulator.run import simulate
from tests.profiles import HOUSE
from tests.unit.cli.helpers import pitwatch
from tests.unit.ledger.builders import hcf_seat1_wins
from tests.unit.surveillance.sweetheart import most_paid_player, overpay_one_player

REPO = Path(__file__).resolve().parents[3]
FULL = "/dev/full"
ADVICE = "(free space there, or write it to another disk, then run the command again)"

pytestmark = pytest.mark.skipif(not os.path.exists(FULL), reason="needs Linux's /dev/full")


def _full_disk_line(output: str) -> str:
    return f"error: could not write {output}: No space left on device {ADVICE}"


def _log(path: Path, *extra: bytes) -> Path:
    """One clean HCF table of 5 hands, and ``extra`` lines after it."""
    log = simulate(["hcf"], 1, 5, seed=5, profile=HOUSE)
    path.write_bytes(b"".join(orjson.dumps(e) + b"\n" for e in log.events) + b"".join(extra))
    return path


def test_a_dlq_on_a_full_disk_is_named(tmp_path: Path) -> None:
    log = _log(tmp_path / "log.jsonl", b"not json\n")
    ran = pitwatch("adjudicate", str(log), "--dlq", FULL)
    assert ran.code == 2
    assert ran.error_lines == [_full_disk_line(f"--dlq {FULL}")]


def test_a_dlq_on_a_full_disk_with_a_ledger_books_the_hands_read_first(tmp_path: Path) -> None:
    """The DLQ's last write (closing it) failed after the run, where the hands read were
    not booked: the one line came with the ledger's last batch left out. The 5 hands are
    booked, as for a log cut short, then the line; the run again repeats nothing."""
    log = _log(tmp_path / "log.jsonl", b"not json\n")
    url = f"sqlite:///{tmp_path / 'l.sqlite'}"
    ran = pitwatch("adjudicate", str(log), "--dlq", FULL, "--ledger", url, columns=200)
    assert ran.code == 2
    assert ran.error_lines[-1] == _full_disk_line(f"--dlq {FULL}")
    assert "5 posted" in ran.stderr
    again = pitwatch("adjudicate", str(log), "--ledger", url, columns=200)
    assert again.code == 1  # the line that is not JSON, rejected
    assert "5 duplicate" in again.stderr


def test_an_alerts_file_on_a_full_disk_is_named_after_the_summary(tmp_path: Path) -> None:
    """The log has one event-stream alert (a hash chain broken by a changed event)."""
    log = simulate(["hcf"], 1, 5, seed=5, faults=frozenset({"tamper"}), fault_rate=1.0,
                   profile=HOUSE)
    path = tmp_path / "log.jsonl"
    path.write_bytes(b"".join(orjson.dumps(e) + b"\n" for e in log.events))
    ran = pitwatch("adjudicate", str(path), "--alerts", FULL, columns=200)
    assert ran.code == 2
    assert ran.error_lines[-1] == _full_disk_line(f"--alerts {FULL}")
    assert "Traceback" not in ran.stderr
    assert [line for line in ran.error_lines if line.startswith("error")] == [
        ran.error_lines[-1]]


def test_surveils_out_on_a_full_disk_is_named(tmp_path: Path) -> None:
    """The sweethearting table of the surveil tests: SURV-2 alerts to write."""
    log = simulate(["hcf"], 1, 400, seed=3, profile=HOUSE)
    events = overpay_one_player(log.events, most_paid_player(log.events), extra=3)
    path = tmp_path / "log.jsonl"
    path.write_bytes(b"".join(orjson.dumps(e) + b"\n" for e in events))
    ran = pitwatch("surveil", str(path), "--out", FULL, columns=200)
    assert ran.code == 2
    assert ran.error_lines[-1] == _full_disk_line(f"--out {FULL}")


def test_simulates_output_and_truth_on_a_full_disk_are_named(tmp_path: Path) -> None:
    ran = pitwatch("simulate", "-o", FULL, "--tables", "1", "--hands", "2")
    assert (ran.code, ran.error_lines) == (2, [_full_disk_line(f"--output {FULL}")])
    ran = pitwatch("simulate", "-o", str(tmp_path / "x.jsonl"), "--truth", FULL,
                   "--tables", "1", "--hands", "2", "--faults", "mispay", "--fault-rate", "1")
    assert (ran.code, ran.error_lines) == (2, [_full_disk_line(f"--truth {FULL}")])


def test_a_report_file_on_a_full_disk_is_named(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'l.sqlite'}"
    post_many(open_ledger(url), [hcf_seat1_wins()])  # booked on 2024-05-01
    ran = pitwatch("report", "daily", "--date", "2024-05-01", "--ledger", url, "-o", FULL)
    assert (ran.code, ran.error_lines) == (2, [_full_disk_line(f"-o {FULL}")])
    ran = pitwatch("report", "hand", "T1-000001", "--ledger", url, "-o", FULL)
    assert (ran.code, ran.error_lines) == (2, [_full_disk_line(f"-o {FULL}")])


@pytest.mark.parametrize("command", [
    ["adjudicate", "{log}"],
    ["ledger", "totals", "--db", "{url}", "--format", "json"],
    ["report", "daily", "--date", "2024-05-01", "--ledger", "{url}"],
])
def test_standard_output_on_a_full_disk_is_named(command: list[str], tmp_path: Path) -> None:
    """``> /dev/full``: standard output named, and the file it is."""
    url = f"sqlite:///{tmp_path / 'l.sqlite'}"
    post_many(open_ledger(url), [hcf_seat1_wins()])
    log = _log(tmp_path / "log.jsonl")
    args = [arg.format(log=log, url=url) for arg in command]
    with open(FULL, "wb") as full:
        ran = subprocess.run([sys.executable, "-m", "services.cli", *args], cwd=REPO,
                             stdout=full, stderr=subprocess.PIPE, text=True, check=False)
    errors = [line for line in ran.stderr.splitlines() if line.startswith("error")]
    assert ran.returncode == 2, ran.stderr
    assert errors == [_full_disk_line(f"standard output ({FULL})")], ran.stderr
    assert "Traceback" not in ran.stderr and "Exception ignored" not in ran.stderr
