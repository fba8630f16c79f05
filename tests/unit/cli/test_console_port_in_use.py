"""``serve console`` on a port another program listens on: one line, exit 2, said before
the console claims to listen (QA: "pitwatch console on http://..." then uvicorn's
"address already in use", exit 3, a code no pitwatch command has)."""

from __future__ import annotations

import socket
from pathlib import Path

from tests.unit.cli.helpers import assert_one_line_usage_error, pitwatch


def test_a_port_in_use_is_said_in_one_line(tmp_path: Path) -> None:
    log, ledger = tmp_path / "ev.jsonl", tmp_path / "ledger.sqlite"
    assert pitwatch("simulate", "--tables", "1", "--hands", "3", "-o", str(log)).code == 0
    assert pitwatch("adjudicate", str(log), "--ledger", f"sqlite:///{ledger}").code == 0
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        ran = pitwatch("serve", "console", "--db", f"sqlite:///{ledger}", "--port", str(port))
    assert_one_line_usage_error(ran, f"port {port} on 127.0.0.1 is in use by another program",
                                "choose another --port")
    assert "pitwatch console on" not in ran.stderr
