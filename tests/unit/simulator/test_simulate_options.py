"""``pitwatch simulate`` refuses an option that no table of the run reads.

QA: ``simulate --game hcf --players 3`` and ``--styles tight`` wrote the same log as
without them (671 events), while ``--pattern fold_dumping`` on an HCF table was refused:
a user could believe they had simulated three-handed or tight tables. Each is now one
line naming the option and the games that take it (exit 2), and so are a ``--game`` that
gets no table and a ``--fault-rate`` without ``--faults``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from services.simulator.options import SimulationOptions
from services.simulator.registry import TABLE_OPTIONS, games_taking
from services.simulator.run import simulate
from tests.profiles import HOUSE
from tests.unit.cli.helpers import assert_one_line_usage_error, pitwatch

# What each game's tables read, from the simulators' code and docs/surveillance.md
# ("--players N: the table size at hold'em and Russian Poker"; styles: the poker players
# of hold'em and Draw 7-A; every game's dealer comes from the pool when there is one).
READS = {
    "hcf": {"dealers"},
    "chinese": {"dealers"},
    "draw7a": {"dealers", "styles"},
    "russian": {"dealers", "players"},
    "holdem": {"dealers", "styles", "players"},
}
GIVEN = {"dealers": SimulationOptions(dealers=9), "styles": SimulationOptions(styles="tight"),
         "players": SimulationOptions(players=3)}


@pytest.mark.parametrize("game", list(READS))
@pytest.mark.parametrize("option", ["dealers", "styles", "players"])
def test_an_option_changes_the_log_exactly_where_the_game_reads_it(game: str,
                                                                   option: str) -> None:
    """The declaration the refusal rests on is what the simulators do: a game that does
    not read an option writes the same log with it (the QA's HCF run), one that reads it
    another log."""
    plain = simulate([game], 2, 30, seed=4, profile=HOUSE).events
    given = simulate([game], 2, 30, seed=4, profile=HOUSE, options=GIVEN[option]).events
    assert (given != plain) == (option in READS[game])
    assert (game in games_taking(option)) == (option in READS[game])


def test_every_table_option_is_declared() -> None:
    assert set(TABLE_OPTIONS) == set(GIVEN)


@pytest.mark.parametrize(("args", "option", "line"), [
    (["--game", "hcf", "--players", "3"], "--players",
     "only holdem, russian tables take a table size; this run deals hcf"),
    (["--game", "hcf", "--styles", "tight"], "--styles",
     "only draw7a, holdem tables take player styles; this run deals hcf"),
    (["--game", "chinese", "--styles", "mixed"], "--styles",
     "only draw7a, holdem tables take player styles; this run deals chinese"),
    (["--game", "russian", "--styles", "tight"], "--styles",
     "only draw7a, holdem tables take player styles; this run deals russian"),
    (["--game", "draw7a", "--players", "4"], "--players",
     "only holdem, russian tables take a table size; this run deals draw7a"),
    (["--game", "hcf", "--game", "chinese", "--players", "5"], "--players",
     "only holdem, russian tables take a table size; this run deals hcf, chinese"),
])
def test_an_option_no_table_reads_is_one_line(args: list[str], option: str, line: str,
                                              tmp_path: Path) -> None:
    out = tmp_path / "events.jsonl"
    ran = pitwatch("simulate", *args, "--hands", "5", "-o", str(out), columns=400)
    assert_one_line_usage_error(ran, f"Invalid value for {option}: {line}")
    assert not out.exists()


@pytest.mark.parametrize("args", [
    ["--game", "hcf", "--game", "holdem", "--tables", "2", "--players", "3", "--styles",
     "tight"],  # the hold'em table takes both
    ["--game", "russian", "--players", "3", "--dealers", "4"],
    ["--game", "draw7a", "--styles", "mixed"],
    ["--game", "chinese", "--dealers", "5"],
])
def test_an_option_some_table_reads_is_taken(args: list[str], tmp_path: Path) -> None:
    out = tmp_path / "events.jsonl"
    ran = pitwatch("simulate", *args, "--hands", "3", "-o", str(out))
    assert ran.code == 0, ran.stderr
    assert out.stat().st_size > 0


def test_a_game_that_gets_no_table_is_one_line(tmp_path: Path) -> None:
    """The games take the tables in turn: hold'em, the second game, had none of one
    table (and its --players went with it)."""
    ran = pitwatch("simulate", "--game", "hcf", "--game", "holdem", "--tables", "1",
                   "--players", "3", "-o", str(tmp_path / "e.jsonl"), columns=400)
    assert_one_line_usage_error(ran, "Invalid value for --game: holdem would get no table: "
                                     "the games take the 1 table(s) in turn; give --tables "
                                     "2 or more")


def test_a_game_named_twice_needs_no_table_of_its_own(tmp_path: Path) -> None:
    ran = pitwatch("simulate", "--game", "hcf", "--game", "holdem", "--game", "hcf",
                   "--tables", "2", "--hands", "3", "-o", str(tmp_path / "e.jsonl"))
    assert ran.code == 0, ran.stderr


def test_a_fault_rate_without_faults_is_one_line(tmp_path: Path) -> None:
    ran = pitwatch("simulate", "--fault-rate", "0.5", "-o", str(tmp_path / "e.jsonl"),
                   columns=400)
    assert_one_line_usage_error(ran, "Invalid value for --fault-rate: a fault rate is for "
                                     "the faults injected: give --faults too")


def test_the_default_fault_rate_is_the_one_given_before(tmp_path: Path) -> None:
    """Without --fault-rate the faults come at 0.02 a hand, as when 0.02 is written."""
    logs: list[bytes] = []
    for rate in ([], ["--fault-rate", "0.02"]):
        out = tmp_path / f"e{len(logs)}.jsonl"
        ran = pitwatch("simulate", "--faults", "all", *rate, "--tables", "2", "--hands", "40",
                       "-o", str(out))
        assert ran.code == 0, ran.stderr
        logs.append(out.read_bytes())
    assert logs[0] == logs[1]


@pytest.mark.parametrize("game", list(READS))
def test_without_a_pool_each_table_has_dealers_of_its_own(game: str) -> None:
    """QA: without ``--dealers`` every hold'em and Russian Poker table had "dealer-1" at
    the same time, which the daily report's dealers and SURV-8's dealer scope read as one
    person dealing two tables at once. Without a pool, no dealer deals two tables."""
    log = simulate([game], 3, 20, seed=4, profile=HOUSE)
    tables_of: dict[str, set[str]] = {}
    for event in log.events:
        dealer = (event.get("data") or {}).get("dealer_id")
        if dealer is not None:
            tables_of.setdefault(dealer, set()).add(event["table_id"])
    assert tables_of and all(len(tables) == 1 for tables in tables_of.values()), tables_of
