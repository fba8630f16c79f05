"""``PITWATCH_ENGINE`` misspelt: every command that reads it says so in one line (exit 2).
``adjudicate`` and ``replay`` checked it themselves; ``report hand``, ``surveil`` and
``verify`` ended in a traceback with exit 1 (QA)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.cli.helpers import assert_one_line_usage_error, pitwatch


def test_a_misspelt_engine_is_one_line_in_every_command(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    log, db = tmp_path / "log.jsonl", f"sqlite:///{tmp_path / 'l.sqlite'}"
    assert pitwatch("simulate", "--tables", "1", "--hands", "3", "-o", str(log)).code == 0
    assert pitwatch("adjudicate", str(log), "--ledger", db).code == 0
    monkeypatch.setenv("PITWATCH_ENGINE", "bogus")
    for args in (("report", "hand", "T001-000001", "--events", str(log)),
                 ("report", "hand", "T001-000001", "--ledger", db),
                 ("surveil", str(log)), ("verify", "--db", db),
                 ("adjudicate", str(log))):
        assert_one_line_usage_error(pitwatch(*args), "unknown engine 'bogus'",
                                    "use one of native, python")
