"""An output option that names the SQLite ledger the command reads or writes is refused
before anything is written (QA: ``report hand ... --ledger sqlite:///L -o L`` wrote the
report over the ledger, its hands, archive and case trails gone, exit 0; ``adjudicate
--ledger sqlite:///L --dlq L`` ended in a traceback with the database malformed)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.cli.helpers import assert_one_line_usage_error, pitwatch


@pytest.fixture(scope="module")
def booked(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(a small log, its ledger)."""
    root = tmp_path_factory.mktemp("booked")
    log, ledger = root / "ev.jsonl", root / "ledger.sqlite"
    assert pitwatch("simulate", "--tables", "1", "--hands", "12", "--seed", "3",
                    "-o", str(log)).code == 0
    ran = pitwatch("adjudicate", str(log), "--ledger", f"sqlite:///{ledger}")
    assert ran.code == 0, ran.stderr
    return log, ledger


@pytest.mark.parametrize("command", [
    ["report", "hand", "T001-000001", "--ledger", "{url}", "-o", "{db}"],
    ["report", "daily", "--date", "2026-01-05", "--ledger", "{url}", "-o", "{db}"],
    ["adjudicate", "{log}", "--ledger", "{url}", "--alerts", "{db}"],
    ["adjudicate", "{log}", "--ledger", "{url}", "--dlq", "{db}"],
    ["surveil", "{log}", "--db", "{url}", "--out", "{db}"],
])
def test_an_output_over_the_ledger_is_refused_and_the_ledger_kept(
        booked: tuple[Path, Path], command: list[str]) -> None:
    log, ledger = booked
    before = ledger.read_bytes()
    args = [a.format(url=f"sqlite:///{ledger}", db=str(ledger), log=str(log))
            for a in command]
    ran = pitwatch(*args)
    assert_one_line_usage_error(ran, f"{ledger} is a SQLite database", "write somewhere else")
    assert ledger.read_bytes() == before
    assert pitwatch("verify", "--db", f"sqlite:///{ledger}").code == 0


@pytest.mark.parametrize(("command", "name"), [
    (["report", "hand", "T001-000001"], "x.pdf"),
    (["report", "daily", "--date", "2026-01-05"], "x.PDF"),
    (["report", "hand", "T001-000001", "--format", "pdf"], "x.html"),
])
def test_an_output_named_for_the_other_format_is_refused(
        booked: tuple[Path, Path], tmp_path: Path, command: list[str], name: str) -> None:
    """``-o X.pdf`` without ``--format pdf`` wrote HTML into X.pdf, exit 0 (QA)."""
    _, ledger = booked
    ran = pitwatch(*command, "--ledger", f"sqlite:///{ledger}", "-o", str(tmp_path / name))
    assert_one_line_usage_error(ran, f"is named as a .{name.split('.')[1].lower()} file",
                                "--format")
    assert not (tmp_path / name).exists()
