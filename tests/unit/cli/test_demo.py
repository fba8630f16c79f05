"""The demo's next steps name the folder the README names, and commands a user can run.

Before: the demo's hint wrote the daily report to ``var/demo/report/`` while the README
said ``var/demo/reports/``, and the hint said ``pitwatch`` where only
``.venv/bin/pitwatch`` exists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from services.cli import DEMO_WORKDIR
from services.demo import REPORTS_FOLDER, command_name
from tests.unit.cli.helpers import pitwatch

README = Path(__file__).resolve().parents[3] / "README.md"


def test_readme_and_demo_name_the_same_report_folder() -> None:
    text = " ".join(README.read_text(encoding="utf-8").split())
    outputs = re.findall(r"pitwatch report daily [^`]*?-o (\S+)", text)
    assert outputs, "the README shows the daily report command"
    assert {Path(o).parent for o in outputs} == {DEMO_WORKDIR / REPORTS_FOLDER}


def test_demo_writes_its_hints_for_its_own_folders(tmp_path: Path) -> None:
    workdir = tmp_path / "demo"
    ran = pitwatch("demo", "--tables", "1", "--hands", "40", "--workdir", str(workdir))
    assert ran.code in (0, 1), ran.stderr  # 40 hands may be too few to catch everything
    said = " ".join(ran.stderr.split())
    assert (ran.code == 1) == ("demo: exit 1:" in said)  # an exit 1 says why (QA)
    assert f"created folder {workdir}" in said
    assert (workdir / REPORTS_FOLDER).is_dir()
    assert f"-o {workdir / REPORTS_FOLDER / 'daily-2026-01-05.html'}" in said
    assert "docs/compliance-guide.md" in said
    assert f"serve console --db sqlite:///{workdir / 'ledger.sqlite'}" in said
    for name in ("events.jsonl", "adjudications.jsonl", "alerts.jsonl", "truth.jsonl",
                 "ledger.sqlite"):
        assert (workdir / name).is_file(), name
    assert "table alerts (SURV-9 chain, GEN-4/GEN-5 between hands)" in said
    assert "cross-hand surveillance (SURV-2..8):" in said
    assert "alerts (SURV-*)" not in said


def test_the_hint_names_the_venv_command_when_pitwatch_is_not_on_path(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # no pitwatch on it
    assert command_name(".venv/bin/pitwatch") == ".venv/bin/pitwatch"
    assert command_name("/work/services/cli.py") == "pitwatch"  # python -m services.cli


def test_the_hint_says_pitwatch_when_that_is_the_one_running(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    script = tmp_path / "pitwatch"
    script.write_text("#!/bin/sh\n")
    script.chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path))
    assert command_name(str(script)) == "pitwatch"


def test_the_demo_says_how_to_open_the_console(tmp_path: Path) -> None:
    from services.demo import _console_hint

    ledger = f"sqlite:///{tmp_path}/ledger.sqlite"
    elsewhere = _console_hint(tmp_path, "pitwatch", ledger)
    assert elsewhere == (f"pitwatch users add NAME --role compliance_officer --db {ledger} && "
                         f"pitwatch serve console --db {ledger}   (then open "
                         "http://127.0.0.1:8080/)")
    default = _console_hint(DEMO_WORKDIR, "pitwatch", "sqlite:///var/demo/ledger.sqlite")
    assert default.startswith("make console   (then open http://127.0.0.1:8080/")


def test_demo_keeps_away_from_a_folder_of_someone_elses_files(tmp_path: Path) -> None:
    """QA: ``--workdir`` naming a folder that held a ledger.sqlite and an events.jsonl
    replaced both (exit 0): refused in one line, the files as they were. A folder a demo
    wrote is its own: run again there, it is replaced as before."""
    from tests.unit.cli.helpers import assert_one_line_usage_error

    theirs = tmp_path / "work"
    theirs.mkdir()
    (theirs / "ledger.sqlite").write_bytes(b"SQLite format 3\x00 someone's ledger")
    (theirs / "events.jsonl").write_text('{"a": 1}\n', "utf-8")
    ran = pitwatch("demo", "--tables", "1", "--hands", "20", "--workdir", str(theirs))
    assert_one_line_usage_error(ran, f"folder {theirs} holds events.jsonl, ledger.sqlite",
                                "choose an empty or new folder")
    assert (theirs / "ledger.sqlite").read_bytes() == b"SQLite format 3\x00 someone's ledger"
    assert (theirs / "events.jsonl").read_text("utf-8") == '{"a": 1}\n'
    ours = tmp_path / "ours"
    for _ in range(2):
        ran = pitwatch("demo", "--tables", "1", "--hands", "20", "--workdir", str(ours))
        assert ran.code in (0, 1), ran.stderr
        assert (ours / "ledger.sqlite").is_file()
