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
from pathlib import Path

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
    try:
        while not partial.exists() and child.poll() is None:
            time.sleep(0.05)
        assert child.poll() is None, child.stderr.read() if child.stderr else ""
        child.send_signal(signal.SIGTERM)
        _, stderr = child.communicate(timeout=120)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode == 130
    assert stderr.decode().strip() == ("error: stopped by SIGTERM before it finished: run "
                                       "the command again")
    assert not partial.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["held.phh"] + ([] if existing is None else ["events.jsonl"]))
    if existing is not None:
        assert out.read_bytes() == existing
