"""``pitwatch verify`` killed (kill -9, out of memory) leaves no process behind: its
second process (the ledger's and the cases' checks) ends too, and whoever reads the
verify's output gets its end (QA: the second process waited on its task pipe for good and
held standard output open, so `pitwatch verify | tail` never returned)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.unit.cli.helpers import pitwatch

ROOT = Path(__file__).resolve().parents[3]


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


def _spawned(pid: int) -> bool:
    """A child of ``pid`` runs multiprocessing's spawned worker."""
    for child in _children(pid):
        try:
            if b"spawn_main" in (Path("/proc") / str(child) / "cmdline").read_bytes():
                return True
        except OSError:
            continue
    return False


@pytest.mark.skipif(not Path("/proc").is_dir() or (os.cpu_count() or 1) < 2,
                    reason="needs Linux's /proc and two cores (one core: no second process)")
def test_a_killed_verify_leaves_no_process_holding_its_output(tmp_path: Path) -> None:
    log, ledger = tmp_path / "ev.jsonl", tmp_path / "ledger.sqlite"
    assert pitwatch("simulate", "--tables", "2", "--hands", "300", "-o", str(log)).code == 0
    assert pitwatch("adjudicate", str(log), "--ledger", f"sqlite:///{ledger}").code == 0
    verify = subprocess.Popen([sys.executable, "-m", "services.cli", "verify", "--db",
                               f"sqlite:///{ledger}"], cwd=ROOT, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE)
    left: list[int] = []
    try:
        while not _spawned(verify.pid):
            assert verify.poll() is None, "verify ended before its second process started"
            time.sleep(0.05)
        left = _children(verify.pid)
        os.kill(verify.pid, signal.SIGKILL)
        # The output's end comes once every process holding it is gone (a deadline, not a
        # measure: the second process ends within a second of its parent).
        verify.communicate(timeout=120)
    finally:
        if verify.poll() is None:
            verify.kill()
            verify.wait()
        for pid in left:  # (only when the test failed: nothing is left otherwise)
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
    assert verify.returncode == -signal.SIGKILL
