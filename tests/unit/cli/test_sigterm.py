"""SIGTERM stops a command as Ctrl-C does: what it was writing is taken back, and it says
so in one line (QA: ``kill -TERM`` of an import left its hidden ``.NAME.partial`` of 43 MB
beside the output, and printed nothing).

The import is held at a point known to be after its output was opened: its one input is
a named pipe no one writes to (the Python importer reads it; the test waits, without a
time bound it asserts on, until the hidden file is there)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import orjson
import pytest


@pytest.mark.parametrize("existing", [None, b"yesterday's events\n"])
def test_a_terminated_import_leaves_the_output_as_it_was(tmp_path: Path,
                                                         existing: bytes | None) -> None:
    source = tmp_path / "held.phh"
    os.mkfifo(source)
    out = tmp_path / "events.jsonl"
    if existing is not None:
        out.write_bytes(existing)
    partial = tmp_path / ".events.jsonl.partial"
    child = subprocess.Popen(
        [sys.executable, "-m", "services.cli", "import", "phh", str(source), "-o", str(out),
         "--engine", "python"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    stderr = _terminated_when(child, partial.exists, timeout=120)
    assert child.returncode == 130
    assert stderr.decode().strip() == ("error: stopped by SIGTERM before it finished: run "
                                       "the command again")
    assert not partial.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["held.phh"] + ([] if existing is None else ["events.jsonl"]))
    if existing is not None:
        assert out.read_bytes() == existing


def test_sigterm_stops_a_run_waiting_for_another_writers_lock(tmp_path: Path) -> None:
    """Another process holds the SQLite ledger's write lock; ``adjudicate --ledger`` waits
    for it (up to 30 s). SIGTERM sent during that wait stopped the run only when the
    wait ended, since SQLite waits inside one C call and Python runs the handler after
    it (QA). Now the run stops while the lock is still held. The test waits, without a
    time bound it asserts on, until the child sleeps in SQLite's wait; the bound on its
    end (20 s) only has to be shorter than the 30 s wait it used to sit out."""
    import sqlite3

    from services.ledger.db import open_ledger
    from services.simulator.run import simulate
    from tests.profiles import HOUSE

    log = tmp_path / "day.jsonl"
    log.write_bytes(b"".join(orjson.dumps(e) + b"\n"
                             for e in simulate(["hcf"], 1, 3, seed=1, profile=HOUSE).events))
    ledger = tmp_path / "ledger.sqlite"
    open_ledger(f"sqlite:///{ledger}").dispose()
    holder = sqlite3.connect(ledger, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    child = subprocess.Popen(
        [sys.executable, "-m", "services.cli", "adjudicate", str(log), "--ledger",
         f"sqlite:///{ledger}"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        stderr = _terminated_when(child, lambda: "nanosleep" in _wchan(child.pid), timeout=20)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert child.returncode == 130
    assert stderr.decode().strip().splitlines()[-1] == (
        "error: stopped by SIGTERM before it finished: run the command again")


def _wchan(pid: int) -> str:
    """Where the kernel has the process waiting (SQLite's busy wait sleeps in nanosleep)."""
    try:
        return Path(f"/proc/{pid}/wchan").read_text()
    except OSError:
        return ""


def _terminated_when(child: subprocess.Popen[bytes], ready: Callable[[], bool],
                     timeout: float) -> bytes:
    """SIGTERM to ``child`` once ``ready()`` (polled while it runs; it must still run
    then), and its standard error when it has ended (killed if not within ``timeout``)."""
    try:
        while not ready() and child.poll() is None:
            time.sleep(0.02)
        assert child.poll() is None, child.stderr.read() if child.stderr else ""
        child.send_signal(signal.SIGTERM)
        _, stderr = child.communicate(timeout=timeout)
        return stderr
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
