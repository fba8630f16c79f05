"""``serve console`` stopped by a service manager's SIGTERM or by Ctrl-C: exit 0 and no
error line, as README's exit-code table says of ``pitwatch serve`` (QA: exit 130 and
"error: stopped by SIGTERM before it finished: run the command again", because uvicorn
raised the signal again once it had shut down)."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.unit.cli.helpers import pitwatch

ROOT = Path(__file__).resolve().parents[3]


def _serving(port: int) -> bool:
    """The console answers HTTP (its socket is bound, and so accepts connections, before
    uvicorn serves: a signal then stops a command still starting, exit 130)."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/login", timeout=5) as page:
            return bool(page.status == 200)
    except OSError:
        return False


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "Ctrl-C"])
def test_the_console_stopped_by_a_signal_exits_0(tmp_path: Path, stop: signal.Signals) -> None:
    log, ledger = tmp_path / "ev.jsonl", tmp_path / "ledger.sqlite"
    assert pitwatch("simulate", "--tables", "1", "--hands", "3", "-o", str(log)).code == 0
    assert pitwatch("adjudicate", str(log), "--ledger", f"sqlite:///{ledger}").code == 0
    with socket.create_server(("127.0.0.1", 0)) as probe:
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        [sys.executable, "-m", "services.cli", "serve", "console", "--db",
         f"sqlite:///{ledger}", "--port", str(port)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        while not _serving(port):
            assert server.poll() is None, server.communicate()
            time.sleep(0.2)
        server.send_signal(stop)
        _out, err = server.communicate(timeout=120)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    assert server.returncode == 0, err
    assert "error" not in err and "Traceback" not in err, err
    assert "pitwatch console on" in err  # it did start and say where
