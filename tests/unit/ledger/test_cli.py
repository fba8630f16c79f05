"""``pitwatch ledger ...`` commands (the Typer sub-app), on a SQLite file."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from services.events.contract import encode_record
from services.ledger.cli import ledger_app
from services.ledger.db import open_ledger
from services.ledger.posting import post_many
from tests.unit.ledger.builders import hcf_dp_collects, hcf_seat1_wins, record

runner = CliRunner()


@pytest.fixture
def db(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path}/ledger.sqlite"
    engine = open_ledger(url)
    post_many(engine, [hcf_seat1_wins(), hcf_dp_collects()])
    engine.dispose()
    return url


def test_balances_lists_players_and_accounts(db: str) -> None:
    """alice +9 (T1-1); bob -10 (T1-1) +3 (T1-2) = -7; carol -5; rake 1 + 2 = 3."""
    result = runner.invoke(ledger_app, ["balances", "--db", db])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert any("alice" in line and line.rstrip(" │").endswith(" 9") for line in lines)
    assert any("bob" in line and line.rstrip(" │").endswith(" -7") for line in lines)
    assert any("house:rake" in line and line.rstrip(" │").endswith(" 3") for line in lines)
    assert any("total" in line and line.rstrip(" │").endswith(" 0") for line in lines)


def test_balances_reads_the_database_from_the_environment(
    db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PITWATCH_DB", db)
    result = runner.invoke(ledger_app, ["balances", "--players"])
    assert result.exit_code == 0, result.output
    assert "carol" in result.output and "Accounts" not in result.output


def test_rake_shows_table_mode_and_day(db: str) -> None:
    result = runner.invoke(ledger_app, ["rake", "--db", db])
    assert result.exit_code == 0, result.output
    rows = [line for line in result.output.splitlines() if "2024-05-01" in line]
    assert len(rows) == 2
    assert "designated" in rows[0] and rows[0].rstrip(" │").endswith(" 2")
    assert "players" in rows[1] and rows[1].rstrip(" │").endswith(" 1")


def test_hand_shows_postings(db: str) -> None:
    result = runner.invoke(ledger_app, ["hand", "T1-000002", "--db", db])
    assert result.exit_code == 0, result.output
    assert "T1-000002" in result.output and "wager_collected" in result.output
    assert "player:carol" in result.output


def test_hand_shows_a_plus_zero_time_in_the_reports_z_form(tmp_path: Path) -> None:
    """QA: a hand whose table sent its times as ``+00:00`` (the contract takes it as well
    as ``Z``) read "ended 2024-05-01T23:59:37.576+00:00" in ``ledger hand``, where the
    reports show the one form ``...Z``. The JSON keeps the record's time as sent."""
    url = f"sqlite:///{tmp_path}/ledger.sqlite"
    engine = open_ledger(url)
    post_many(engine, [hcf_seat1_wins("T1-000007", ended_at="2024-05-01T23:59:37.576+00:00")])
    engine.dispose()
    result = runner.invoke(ledger_app, ["hand", "T1-000007", "--db", url])
    assert result.exit_code == 0, result.output
    shown = " ".join(result.output.split())
    assert "ended 2024-05-01T23:59:37.576Z" in shown
    assert "+00:00" not in shown
    as_json = runner.invoke(ledger_app, ["hand", "T1-000007", "--db", url, "--format", "json"])
    assert '"ended_at": "2024-05-01T23:59:37.576+00:00"' in as_json.output


def test_unknown_hand_exits_non_zero(db: str) -> None:
    result = runner.invoke(ledger_app, ["hand", "T9-1", "--db", db])
    assert result.exit_code == 2  # a usage error, as `cases show` and `report hand`
    assert "not in the ledger" in result.output


def test_markup_in_ids_is_printed_literally(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/markup.sqlite"
    engine = open_ledger(url)
    hand = record(
        "T1-2",
        hcf_seat1_wins().movements,
        players={"1": "[bold]mallory[/bold]", "3": "bob"},
    )
    post_many(engine, [hand])
    engine.dispose()
    result = runner.invoke(ledger_app, ["balances", "--db", url])
    assert "[bold]mallory[/bold]" in result.output


def test_post_books_a_jsonl_file_and_reports_bad_lines(tmp_path: Path) -> None:
    records = tmp_path / "records.jsonl"
    records.write_bytes(
        encode_record(hcf_seat1_wins())
        + b"\n{not json\n\n"
        + encode_record(hcf_dp_collects())
        + b"\n"
        + encode_record(hcf_seat1_wins())
        + b"\n"
    )
    url = f"sqlite:///{tmp_path}/posted.sqlite"
    result = runner.invoke(ledger_app, ["post", str(records), "--db", url, "--batch-size", "2"])
    assert result.exit_code == 1, result.output  # a line was not a record: input problems
    assert f"{records}:2: not an adjudication record" in result.output
    assert "3 records: duplicate 1, posted 2" in result.output
    again = runner.invoke(ledger_app, ["balances", "--db", url])
    assert "bob" in again.output


def test_a_record_with_a_seq_out_of_range_is_a_rejected_line(tmp_path: Path) -> None:
    """A record with ``last_seq`` 2**63 stopped ``ledger post`` at the database with a
    traceback, and the good records of its batch and after it were not booked (QA,
    2026-12-06); ``first_seq`` -5 was booked. Each is a line that is no record now, and
    every good record is booked."""
    import msgspec

    from tests.unit.ledger.dbread import count

    good = [hcf_seat1_wins(f"T1-{n:06d}") for n in range(1, 5)]
    bad = [msgspec.structs.replace(hcf_dp_collects("T1-000098"), last_seq=2**63),
           msgspec.structs.replace(hcf_dp_collects("T1-000099"), first_seq=-5)]
    lines = [encode_record(r) for r in (good[0], bad[0], good[1], bad[1], *good[2:])]
    path = tmp_path / "records.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    url = f"sqlite:///{tmp_path}/l.sqlite"
    result = runner.invoke(ledger_app, ["post", str(path), "--db", url, "--batch-size", "2"])
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    engine = open_ledger(url)
    assert count(engine, "hands") == 4
    engine.dispose()


def test_ids_from_the_records_are_shown_not_obeyed(tmp_path: Path) -> None:
    """A hand id holding an escape sequence and a direction override reached the
    terminal raw in ``ledger post``'s refusal lines and ``ledger hand``'s heading, where
    ``ledger balances`` showed such text escaped (QA, 2026-12-06)."""
    import msgspec

    hand_id = "Z\x1b[31mRED\x1b[0m\u202e"
    first = hcf_seat1_wins(hand_id)
    changed = msgspec.structs.replace(first, status="discrepancy")
    path = tmp_path / "records.jsonl"
    path.write_bytes(encode_record(first) + b"\n" + encode_record(changed) + b"\n")
    url = f"sqlite:///{tmp_path}/l.sqlite"
    posted = runner.invoke(ledger_app, ["post", str(path), "--db", url])
    shown = runner.invoke(ledger_app, ["hand", hand_id, "--db", url])
    for result in (posted, shown):
        assert "\x1b" not in result.output and "\u202e" not in result.output, result.output
        assert "Z\\x1b[31mRED\\x1b[0m\\u202e" in result.output


@pytest.mark.parametrize("width", [38, 50, 70])  # where the terminal's own wrap split one
def test_the_hands_heading_breaks_between_fields(
        db: str, width: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """In a narrow terminal the heading's lines break between fields (QA helper 102: at
    80 columns "rake mode" / "all", at 50 "status" / "discrepancy")."""
    import io

    from rich.console import Console

    import services.ledger.cli as cli

    out = io.StringIO()
    monkeypatch.setattr(cli, "console", Console(file=out, width=width, force_terminal=True,
                                                color_system=None))
    result = runner.invoke(ledger_app, ["hand", "T1-000002", "--db", db])
    assert result.exit_code == 0, result.output
    lines = out.getvalue().splitlines()
    heading = lines[:next(i for i, line in enumerate(lines) if "ended" in line) + 1]
    assert max(len(line) for line in heading) <= width
    for pair in ("table T1", "game hcf", "status ok", "ledger posted", "rake mode designated",
                 "ended 2024-05-01T21:30:00Z"):
        assert any(pair in line for line in heading), (pair, heading)
