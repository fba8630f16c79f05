"""One exit-code convention for every command (README, "Exit codes"): 0 success, 1 the
input had problems (rejected records; findings or alerts when asked), 2 a usage or
environment error.

Before: ``surveil`` on a garbage file exited 0 while ``adjudicate`` exited 1; ``report
daily`` for a day or table with no hands wrote an empty report with exit 0; ``import phh
nosuch.phh`` reported a missing file as a skipped hand; ``schemas check`` outside the
repository said every schema was out of date."""

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
from tests.unit.cli.helpers import assert_one_line_usage_error, pitwatch
from tests.unit.ledger.builders import hcf_seat1_wins

REPO = Path(__file__).resolve().parents[3]


@pytest.fixture
def garbage(tmp_path: Path) -> Path:
    path = tmp_path / "garbage.jsonl"
    path.write_bytes(b"this is not json\n{\"also\": \"not an event\"}\n")
    return path


@pytest.fixture(scope="module")
def faulty_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One HCF table, 40 hands, a mispay injected into about a third of them."""
    log = simulate(["hcf"], 1, 40, seed=2, faults=frozenset({"mispay"}), fault_rate=0.3,
                   profile=HOUSE)
    path = tmp_path_factory.mktemp("log") / "events.jsonl"
    path.write_bytes(b"".join(orjson.dumps(e) + b"\n" for e in log.events))
    assert any(label.fault == "mispay" for label in log.truth)
    return path


def test_adjudicate_and_surveil_agree_on_garbage(garbage: Path) -> None:
    assert pitwatch("adjudicate", str(garbage)).code == 1
    surveyed = pitwatch("surveil", str(garbage))
    assert surveyed.code == 1
    assert "2 record(s) rejected" in " ".join(surveyed.stderr.split())


def test_findings_exit_1_only_when_asked(faulty_log: Path) -> None:
    assert pitwatch("adjudicate", str(faulty_log)).code == 0
    assert pitwatch("adjudicate", str(faulty_log), "--fail-on-findings").code == 1


def test_alerts_exit_1_only_when_asked(faulty_log: Path) -> None:
    """A clean-enough log raises no alert: --fail-on-alerts keeps exit 0."""
    ran = pitwatch("surveil", str(faulty_log), "--fail-on-alerts")
    assert ran.code == 0, ran.stderr
    assert "0 alert(s) over 40 hands" in " ".join(ran.stderr.split())


def test_daily_report_of_a_day_or_table_with_no_hands(tmp_path: Path) -> None:
    """The ledger holds one hand, T1 on 2024-05-01: another day or table is an error
    that names what the ledger does hold, and writes nothing."""
    url = f"sqlite:///{tmp_path / 'ledger.sqlite'}"
    post_many(open_ledger(url), [hcf_seat1_wins()])
    out = tmp_path / "daily.html"
    day = pitwatch("report", "daily", "--date", "2024-05-02", "--ledger", url, "-o",
                   str(out))
    assert_one_line_usage_error(day, "--date", "no hands ended on 2024-05-02",
                                "it holds days 2024-05-01")
    table = pitwatch("report", "daily", "--date", "2024-05-01", "--table", "T9",
                     "--ledger", url, "-o", str(out))
    assert_one_line_usage_error(table, "--table", "at table T9",
                                "tables with hands that day: T1")
    assert not out.exists()
    ok = pitwatch("report", "daily", "--date", "2024-05-01", "--ledger", url, "-o", str(out))
    assert ok.code == 0 and out.is_file()


def test_import_of_a_missing_file(tmp_path: Path) -> None:
    ran = pitwatch("import", "phh", str(tmp_path / "nosuch.phh"), "-o",
                   str(tmp_path / "out.jsonl"))
    assert_one_line_usage_error(ran, "nosuch.phh", "does not exist")
    assert "skipped" not in ran.stderr and not (tmp_path / "out.jsonl").exists()


def test_schemas_check_outside_the_repository(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    ran = pitwatch("schemas", "check")
    assert_one_line_usage_error(ran, "no JSON schemas in schemas/", "repository root")
    assert "out of date" not in ran.stderr


def test_schemas_check_in_the_repository(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    ran = pitwatch("schemas", "check")
    assert ran.code == 0, ran.stderr
    assert "all schemas match the contract" in ran.stderr


def test_schemas_check_of_a_stale_folder(tmp_path: Path) -> None:
    """One schema file changed by hand: out of date, exit 1 (the input differs)."""
    stale = tmp_path / "schemas"
    stale.mkdir()
    (stale / "envelope.json").write_text("{}\n")
    ran = pitwatch("schemas", "check", str(stale))
    assert ran.code == 1
    assert "out of date" in ran.stderr


def test_a_file_system_error_is_one_line_and_exit_2() -> None:
    """A disk that is full or a folder that is read-only (here: raised by the command)."""
    import typer
    from typer.testing import CliRunner

    from services.exits import PitwatchGroup

    app = typer.Typer(cls=PitwatchGroup)

    @app.command()
    def write() -> None:
        raise PermissionError(13, "Permission denied", "/var/ro/out.jsonl")

    @app.command()
    def other() -> None:  # two commands, so that `write` is a subcommand
        """unused"""

    result = CliRunner().invoke(app, ["write"])
    assert result.exit_code == 2
    assert result.stderr.strip() == (
        "error: Permission denied: /var/ro/out.jsonl (let pitwatch read and write there, or "
        "name another place, then run the command again)")


@pytest.mark.parametrize("args", [["adjudicate", "events.jsonl"], ["--help"],
                                  ["ledger", "balances", "--db", "sqlite:///none.sqlite"]])
def test_a_closed_standard_output_is_one_line_and_exit_2(tmp_path: Path,
                                                         args: list[str]) -> None:
    """``pitwatch ... >&-``: Python starts with no ``sys.stdout``; every command would
    have failed with a traceback at its first print. One line, exit 2, nothing done."""
    (tmp_path / "events.jsonl").write_bytes(b"")
    done = subprocess.run(["sh", "-c", 'exec "$0" -m services.cli "$@" >&-',
                           sys.executable, *args], cwd=tmp_path, stderr=subprocess.PIPE,
                          check=False, env={**os.environ, "PYTHONPATH": str(REPO)})
    assert done.returncode == 2
    assert done.stderr.decode().splitlines() == [
        "error: standard output is closed: give pitwatch somewhere to write (> FILE, or "
        "> /dev/null to discard what it prints)"]
    assert not (tmp_path / "none.sqlite").exists()


def test_surveil_exits_1_on_a_rejected_hand_without_holding_records(tmp_path: Path) -> None:
    """A log cut inside its last hands: those hands are rejected at the end of input.
    ``surveil`` holds no record (it held every one to find them) and still exits 1, as
    ``adjudicate`` does."""
    from services.surveillance import surveil_lines, surveillance_config
    from tests.profiles import PROFILES

    log = simulate(["hcf"], 2, 10, seed=5, profile=HOUSE)
    lines = [orjson.dumps(e) for e in log.events]
    cut = lines[:len(lines) - 30]
    path = tmp_path / "cut.jsonl"
    path.write_bytes(b"\n".join(cut) + b"\n")
    numbered = [(line, f"line {n}") for n, line in enumerate(cut, start=1)]
    kept = surveil_lines(numbered, surveillance_config(HOUSE), PROFILES)
    counted = surveil_lines(numbered, surveillance_config(HOUSE), PROFILES,
                            keep_records=False)
    rejected = [r for r in kept.records if r.status == "rejected"]
    assert rejected and counted.records == [] and counted.dead_letters == []
    assert counted.rejected_hands == kept.rejected_hands == len(rejected)
    assert counted.alerts == kept.alerts and counted.stream_alerts == kept.stream_alerts
    assert pitwatch("adjudicate", str(path)).code == 1
    assert pitwatch("surveil", str(path)).code == 1


def test_adjudicate_exits_1_when_the_ledger_refuses_a_hand(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """README: exit 1 covers a record the ledger refused, as `ledger post` exits. A day
    booked under a casino's profile (house-v1 as it stands), then adjudicated again after
    the casino changed one payout in it: the hands whose records differ are refused as
    changed re-posts (LEDGER_CONFLICT). ``adjudicate --ledger`` said so and exited 0, so
    a nightly job watching its exit code missed hands with no chips booked. (The casino's
    profile has a name of its own: one named house-v1 is refused.)"""
    from services.games.profiles import read_profiles

    casino = tmp_path / "profiles" / "casino-v1"
    casino.mkdir(parents=True)
    (casino / "profile.toml").write_text('extends = "house-v1"\n', "utf-8")
    monkeypatch.setenv("PITWATCH_PROFILES", str(casino.parent))
    log = simulate(["hcf"], 1, 40, seed=2, profile=read_profiles().get("casino-v1"))
    path = tmp_path / "day.jsonl"
    path.write_bytes(b"".join(orjson.dumps(e) + b"\n" for e in log.events))
    url = f"sqlite:///{tmp_path}/ledger.sqlite"
    assert pitwatch("adjudicate", str(path), "--ledger", url).code == 0
    (casino / "hcf.toml").write_text(
        'flush_bonus_paytable = { "7" = 200, "6" = 50, "5" = 10, "4" = 3 }\n', "utf-8")
    again = pitwatch("adjudicate", str(path), "--ledger", url)
    assert "conflict" in again.stderr and "LEDGER_CONFLICT" in again.stderr, again.stderr
    assert again.code == 1
