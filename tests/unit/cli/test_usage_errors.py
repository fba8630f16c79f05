"""Ordinary mistakes get one line saying what was wrong and what to do, and exit 2.

Each case used to end in a traceback (a ``KeyError`` for a game name, SQLAlchemy's
``ArgumentError`` for a URL, a driver's ``ModuleNotFoundError`` for ``mysql://``, an
``OperationalError`` for an unreachable server or a file that is not a database)."""

from __future__ import annotations

from pathlib import Path

import pytest

from services.simulator.registry import SIMULATORS
from tests.unit.cli.helpers import assert_one_line_usage_error, pitwatch

GAMES = ("hcf", "chinese", "draw7a", "russian", "holdem")


def test_the_simulated_games_are_these_five() -> None:
    assert tuple(SIMULATORS) == GAMES


@pytest.mark.parametrize("name", ["blackjack", "HCF", "poker"])
def test_unknown_game_for_simulate(name: str, tmp_path: Path) -> None:
    ran = pitwatch("simulate", "--game", name, "-o", str(tmp_path / "x.jsonl"),
                   "--tables", "1", "--hands", "1")
    assert_one_line_usage_error(ran, "--game", repr(name), ", ".join(GAMES))
    assert not (tmp_path / "x.jsonl").exists()


def test_unknown_game_for_demo(tmp_path: Path) -> None:
    ran = pitwatch("demo", "--game", "poker", "--workdir", str(tmp_path / "demo"))
    assert_one_line_usage_error(ran, "--game", "'poker'", "hcf")
    assert not (tmp_path / "demo").exists()


def test_a_demo_game_that_gets_no_table(tmp_path: Path) -> None:
    """Two games on one table: the demo simulated hcf only, without a word (QA); it is
    refused as simulate refuses it, before the work folder is made."""
    ran = pitwatch("demo", "--game", "hcf", "--game", "holdem", "--tables", "1",
                   "--workdir", str(tmp_path / "demo"))
    assert_one_line_usage_error(ran, "--game", "holdem would get no table",
                                "give --tables 2 or more")
    assert not (tmp_path / "demo").exists()


@pytest.mark.parametrize("command", ["simulate", "demo"])
def test_help_lists_the_game_names(command: str) -> None:
    ran = pitwatch(command, "--help", columns=250)
    assert ran.code == 0
    squeezed = "".join(ran.stdout.replace("│", " ").split())  # Rich wraps inside its box
    assert "--game[hcf|chinese|draw7a|russian|holdem]" in squeezed
    assert "oneofhcf,chinese,draw7a,russian,holdem" in squeezed


def test_unknown_fault(tmp_path: Path) -> None:
    ran = pitwatch("simulate", "--faults", "nosuch", "-o", str(tmp_path / "x.jsonl"))
    assert_one_line_usage_error(ran, "--faults", "nosuch", "mispay")


@pytest.mark.parametrize(("url", "words"), [
    ("foo", ("--db", "'foo' is not a database URL", "sqlite:///")),
    ("mysql://u:p@localhost/x", ("SQLite or PostgreSQL, not mysql",)),
    ("oracle+nosuchdriver://x", ("not oracle",)),
])
def test_bad_database_urls(url: str, words: tuple[str, ...]) -> None:
    assert_one_line_usage_error(pitwatch("ledger", "balances", "--db", url), *words)


def test_unreachable_postgresql_hides_the_password() -> None:
    """Port 1 on loopback: nothing listens there, the connection is refused at once."""
    ran = pitwatch("ledger", "balances", "--db",
                   "postgresql+psycopg://pitwatch:secret@127.0.0.1:1/pitwatch")
    assert_one_line_usage_error(ran, "cannot connect", "127.0.0.1:1", "services.sh up")
    assert "secret" not in ran.stderr


def test_a_file_that_is_not_a_database(tmp_path: Path) -> None:
    not_db = tmp_path / "notes.sqlite"
    not_db.write_text("these are my notes, not a database\n" * 100)
    ran = pitwatch("ledger", "rake", "--db", f"sqlite:///{not_db}")
    assert_one_line_usage_error(ran, "file is not a database")
    assert not_db.read_text().startswith("these are my notes")


def test_a_bad_url_when_writing_too(tmp_path: Path) -> None:
    log = tmp_path / "events.jsonl"
    log.write_text("")
    ran = pitwatch("adjudicate", str(log), "--ledger", "mysql://u:p@h/x")
    assert ran.code == 2
    assert ran.error_lines[-1].startswith("error: Invalid value for --ledger")


def test_unknown_command_and_option() -> None:
    assert_one_line_usage_error(pitwatch("nosuch"), "No such command 'nosuch'")
    assert_one_line_usage_error(pitwatch("ledger", "rake", "--nosuch"), "--nosuch")


def test_unknown_surveillance_profile(tmp_path: Path) -> None:
    log = tmp_path / "events.jsonl"
    log.write_text("")
    ran = pitwatch("surveil", str(log), "--profile", "nosuch")
    assert_one_line_usage_error(ran, "--profile", "nosuch", "house-v1")


@pytest.mark.parametrize("command", ["simulate", "demo"])
def test_more_hands_than_one_run_holds(command: str, tmp_path: Path) -> None:
    """The simulator builds the whole log in memory: ``--tables`` of 23 digits grew the
    process without end until the machine ran out of memory. A run is at most 100,000
    hands (tables x hands), said before anything is built or written."""
    files = (["-o", str(tmp_path / "x.jsonl")] if command == "simulate"
             else ["--workdir", str(tmp_path / "demo")])
    ran = pitwatch(command, *files, "--tables", "99999999999999999999999", "--hands", "1")
    assert_one_line_usage_error(ran, "--tables x --hands", "more than the 100,000 hands")
    ran = pitwatch(command, *files, "--tables", "2", "--hands", "50001")
    assert_one_line_usage_error(ran, "2 tables x 50,001 hands")
    assert list(tmp_path.iterdir()) == []


def test_a_fault_rate_that_is_no_number(tmp_path: Path) -> None:
    """Click's range check let ``nan`` through; the simulation ran as if it were 0."""
    ran = pitwatch("simulate", "--fault-rate", "nan", "-o", str(tmp_path / "x.jsonl"),
                   "--tables", "1", "--hands", "1")
    assert_one_line_usage_error(ran, "--fault-rate", "nan is not a probability")
    assert not (tmp_path / "x.jsonl").exists()
