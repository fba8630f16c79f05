"""Where ``pitwatch adjudicate`` writes its records: standard output, through a 1 MiB
buffer of its own when stdout is a descriptor (a file, a pipe), through stdout's own
buffer when it is not (captured in process). Both give the same bytes, and a reader that
leaves early ends the run with exit 1, one line saying the output is cut short, and no
traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import IO

import orjson
import pytest

from services.cli import RECORD_SINK_BUFFER
from services.exits import READER_LEFT
from services.simulator.run import simulate
from tests.profiles import HOUSE
from tests.unit.cli.helpers import pitwatch

ROOT = Path(__file__).resolve().parents[3]


def _log(tmp_path: Path, hands: int) -> Path:
    log = simulate(["hcf"], 2, hands, seed=3, profile=HOUSE)
    path = tmp_path / "events.jsonl"
    path.write_bytes(b"".join(orjson.dumps(e) + b"\n" for e in log.events))
    return path


def _run(*args: str, stdout: int | IO[bytes] = subprocess.PIPE
         ) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "services.cli", *args], cwd=ROOT,
                          stdout=stdout, stderr=subprocess.PIPE, check=False)


def test_a_file_on_stdout_gets_what_the_captured_run_prints(tmp_path: Path) -> None:
    """More than one buffer of records (so the sink flushes while the run goes on and at
    its end): a file gets them byte for byte as the in-process run prints them, one line
    per hand in hand order."""
    log = _log(tmp_path, 200)
    captured = pitwatch("adjudicate", str(log))
    assert captured.code == 0, captured.stderr
    out = tmp_path / "records.jsonl"
    with out.open("wb") as fh:
        ran = _run("adjudicate", str(log), stdout=fh)
    assert ran.returncode == 0, ran.stderr
    written = out.read_bytes()
    assert len(written) > RECORD_SINK_BUFFER
    assert written == captured.stdout.encode()
    assert written.count(b"\n") == 400


def test_a_reader_that_leaves_early_ends_the_run_without_a_traceback(tmp_path: Path) -> None:
    """``pitwatch adjudicate LOG | head -1``: the pipe closes long before the records end;
    the run stops with exit 1 (the output is incomplete), says so in one line (exit 1
    alone read as "the input had problems") and says nothing of Python."""
    log = _log(tmp_path, 200)
    reader = subprocess.Popen(["head", "-c", "100"], stdin=subprocess.PIPE,
                              stdout=subprocess.DEVNULL)
    assert reader.stdin is not None
    ran = _run("adjudicate", str(log), stdout=reader.stdin)
    reader.stdin.close()
    reader.wait()
    assert ran.returncode == 1
    assert b"Traceback" not in ran.stderr
    assert b"BrokenPipeError" not in ran.stderr
    assert _said(ran) == READER_LEFT


def test_a_reader_gone_before_the_first_record_is_said_as_well(tmp_path: Path) -> None:
    """The pipe's reading end closed before the run starts, and a short output that the
    run would write only in its final flush: the same exit and the same one line."""
    log = _log(tmp_path, 2)
    read_end, write_end = os.pipe()
    os.close(read_end)
    with os.fdopen(write_end, "wb") as stdout:
        ran = _run("adjudicate", str(log), stdout=stdout)
    assert ran.returncode == 1
    assert _said(ran) == READER_LEFT


def _said(ran: subprocess.CompletedProcess[bytes]) -> str:
    """Standard error as one line, Rich's soft wrapping joined back."""
    lines = ran.stderr.decode().splitlines()
    assert len(lines) == 1, lines
    return lines[0].removeprefix("error: ")


@pytest.mark.parametrize("command", [["ledger", "rake"], ["ledger", "balances"],
                                     ["cases", "list"], ["archive", "days"]])
def test_a_table_whose_reader_is_gone_is_said_as_well(tmp_path: Path,
                                                      command: list[str]) -> None:
    """Rich's tables: its console took the broken pipe and exited 1 without a word (QA:
    ``ledger rake | head``), where the same command in CSV said it."""
    url = f"sqlite:///{tmp_path}/ledger.sqlite"
    booked = _run("adjudicate", str(_log(tmp_path, 5)), "--ledger", url)
    assert booked.returncode in (0, 1), booked.stderr
    read_end, write_end = os.pipe()
    os.close(read_end)
    with os.fdopen(write_end, "wb") as stdout:
        ran = _run(*command, "--db", url, stdout=stdout)
    assert ran.returncode == 1, ran.stderr
    assert _said(ran) == READER_LEFT
