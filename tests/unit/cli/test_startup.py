"""What ``pitwatch`` imports before it works: the main job pays for none of the heavy
libraries its other commands use (``services.lazy_commands``).

Why a test: start-up was 2.5 s of CPU (SQLAlchemy, Alembic, aiokafka, scipy, argon2,
Jinja2, all imported by the command tree) on every ``pitwatch adjudicate FILE``, and it
crept back once already as commands were added. Counted in modules, not seconds: the
tests never assert on time.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from services.lazy_commands import LazyCommand
from tests.unit.cli.helpers import pitwatch

ROOT = Path(__file__).resolve().parents[3]

# Libraries that only the database, Kafka, console, report and surveillance commands use
# (numpy: the surveillance's statistics and the Python evaluators' batch tables).
HEAVY = ("sqlalchemy", "alembic", "aiokafka", "faust", "scipy", "numpy", "argon2", "jinja2",
         "weasyprint", "starlette", "prometheus_client", "psycopg")

_PROBE = """
import json, sys
from typer.main import get_command
from services.cli import app
code = get_command(app).main(sys.argv[1:], prog_name="pitwatch", standalone_mode=False)
print(json.dumps({"code": code, "modules": sorted(sys.modules)}))
"""


def _modules_after(*args: str) -> tuple[int, set[str]]:
    """Run ``pitwatch ARGS`` in a fresh interpreter; its exit code and the modules it
    had imported when it finished."""
    done = subprocess.run([sys.executable, "-c", _PROBE, *args], cwd=ROOT, check=True,
                          capture_output=True, text=True)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    return int(result["code"]), set(result["modules"])


def _heavy_after(*args: str) -> tuple[int, list[str]]:
    """``_modules_after``, reduced to the heavy libraries among the modules."""
    code, modules = _modules_after(*args)
    return code, sorted({m.split(".")[0] for m in modules} & set(HEAVY))


def test_importing_the_command_tree_imports_no_heavy_library() -> None:
    done = subprocess.run(
        [sys.executable, "-c", "import json, sys, services.cli; "
                               "print(json.dumps(sorted({m.split('.')[0] for m in sys.modules})))"],
        cwd=ROOT, check=True, capture_output=True, text=True)
    assert set(json.loads(done.stdout)) & set(HEAVY) == set()


def test_the_command_tree_does_not_import_the_simulators() -> None:
    """``pitwatch adjudicate`` never simulates: the five simulators (~50 ms of its
    start-up) load with ``simulate``. The CLI's game list is written out for that."""
    done = subprocess.run(
        [sys.executable, "-c", "import json, sys, services.cli; "
                               "print(json.dumps(sorted(sys.modules)))"],
        cwd=ROOT, check=True, capture_output=True, text=True)
    loaded = set(json.loads(done.stdout))
    assert "services.simulator.registry" not in loaded
    assert "services.adjudicator.native_runner" in loaded  # the probe does see imports


def test_the_cli_games_are_the_simulators_in_their_order() -> None:
    from services.cli import GAMES
    from services.simulator.registry import SIMULATORS

    assert tuple(SIMULATORS) == GAMES


def test_adjudicate_without_a_ledger_imports_no_heavy_library(tmp_path: Path) -> None:
    log = tmp_path / "events.jsonl"
    code, heavy = _heavy_after("simulate", "--game", "hcf", "--tables", "1", "--hands", "3",
                               "--seed", "1", "-o", str(log))
    assert (code, heavy) == (0, [])
    code, heavy = _heavy_after("adjudicate", str(log))
    assert (code, heavy) == (0, [])


# The Python rules of the five games and the reference runner's table state: the core
# has the rules, so a native run that defers no hand never loads them (~40 ms).
REFERENCE_MODULES = {f"services.games.{game}.adjudicate"
                     for game in ("hcf", "chinese", "draw7a", "russian", "holdem")
                     } | {"services.games.registry", "services.adjudicator.python_runner"}


@pytest.mark.parametrize("game", ["hcf", "chinese", "draw7a", "russian", "holdem"])
def test_a_native_run_loads_neither_the_python_rules_nor_pydantic(tmp_path: Path,
                                                                  game: str) -> None:
    """The start-up of ``pitwatch adjudicate`` (issue #23 counts the whole process): the
    reference's rules load only for a hand the core leaves to them, and typer's argument
    parsing does not build pydantic adapters (typer < 0.29)."""
    log = tmp_path / f"{game}.jsonl"
    code, _ = _heavy_after("simulate", "--game", game, "--tables", "1", "--hands", "3",
                           "--seed", "1", "-o", str(log))
    assert code == 0
    code, modules = _modules_after("adjudicate", str(log))
    assert code == 0
    assert modules & REFERENCE_MODULES == set()
    assert "pydantic" not in modules
    code, modules = _modules_after("adjudicate", str(log), "--engine", "python")
    assert code == 0
    assert modules >= REFERENCE_MODULES  # the probe sees them when they load


def test_a_holdem_run_ranks_its_showdowns_without_numpy(tmp_path: Path) -> None:
    """The core builds the card ranking's tables itself on its first hold'em hand
    (``CardRanking.build``; built with numpy they cost a process about 0.26 s of CPU), ranks
    the showdowns in Rust and writes the reference's records."""
    log = tmp_path / "holdem.jsonl"
    code, _ = _heavy_after("simulate", "--game", "holdem", "--tables", "1", "--hands", "4",
                           "--seed", "1", "-o", str(log))
    assert code == 0
    assert '"showdown"' in log.read_text()  # hands are ranked
    code, modules = _modules_after("adjudicate", str(log))
    assert code == 0
    assert "numpy" not in {m.split(".")[0] for m in modules}
    assert modules & REFERENCE_MODULES == set()  # the core's rules ranked them
    native = pitwatch("adjudicate", str(log))
    reference = pitwatch("adjudicate", str(log), "--engine", "python")
    assert native.code == reference.code == 0
    assert native.stdout == reference.stdout and native.stdout.count("\n") == 4


def test_a_database_command_still_loads_what_it_needs(tmp_path: Path) -> None:
    """The lazy side works end to end: ``ledger balances`` imports SQLAlchemy when run."""
    code, heavy = _heavy_after("ledger", "balances", "--db", f"sqlite:///{tmp_path}/none.sqlite")
    assert code == 2  # no ledger there: refused, not created
    assert "sqlalchemy" in heavy


@pytest.mark.parametrize("name", ["ledger", "report", "import", "serve", "topics", "produce",
                                  "verify", "replay", "archive", "users", "cases"])
def test_every_lazy_command_answers_help(name: str) -> None:
    ran = pitwatch(name, "--help")
    assert ran.code == 0, ran.stderr
    assert f"pitwatch {name}" in ran.stdout


def test_serve_gains_its_surveillance_and_console_commands_once() -> None:
    for _ in range(2):
        ran = pitwatch("serve", "--help", columns=200)
        assert ran.code == 0
        for service in ("adjudicator", "ledger", "archive", "surveillance", "console"):
            assert f" {service} " in ran.stdout, service


def test_a_lazy_command_function_keeps_its_name_and_options() -> None:
    built = LazyCommand("services.integrity", "verify").build("verify")
    assert built.name == "verify"
    assert {"--from", "--to", "--table", "--db"} <= {o for p in built.params for o in p.opts}


# The surveillance engine's statistics (scipy.stats, numpy: about 0.6 s of CPU) load only
# where cross-hand surveillance runs; the archive, the cases and verify need only the
# alerts' ids (``services.surveillance.alert_id``).
STATISTICS = {"scipy", "numpy"}


def _three_hcf_hands(tmp_path: Path) -> Path:
    """A log of three simulated HCF hands (``pitwatch simulate``)."""
    log = tmp_path / "events.jsonl"
    code, _ = _heavy_after("simulate", "--game", "hcf", "--tables", "1", "--hands", "3",
                           "--seed", "1", "-o", str(log))
    assert code == 0
    return log


def test_a_ledger_run_and_verify_load_no_statistics_library(tmp_path: Path) -> None:
    log = _three_hcf_hands(tmp_path)
    db = f"sqlite:///{tmp_path}/pitwatch.sqlite"
    code, heavy = _heavy_after("adjudicate", str(log), "--ledger", db)
    assert code == 0
    assert "sqlalchemy" in heavy  # the probe sees the ledger's libraries load
    assert STATISTICS.isdisjoint(heavy)
    code, heavy = _heavy_after("verify", "--db", db)
    assert code == 0
    assert STATISTICS.isdisjoint(heavy)


def test_surveillance_still_loads_its_statistics_when_it_runs(tmp_path: Path) -> None:
    """The package's names load on first use: ``surveil`` gets the engine and scipy."""
    log = _three_hcf_hands(tmp_path)
    code, modules = _modules_after("surveil", str(log))
    assert code == 0
    assert "services.surveillance.engine" in modules and "scipy" in modules


def test_a_ledger_already_at_head_opens_without_alembic(tmp_path: Path) -> None:
    """Creating a ledger migrates it with Alembic; opening it again, at the head, reads
    its stamped revision and loads no Alembic (0.1-0.2 s of every database command)."""
    log = _three_hcf_hands(tmp_path)
    db = f"sqlite:///{tmp_path}/pitwatch.sqlite"
    code, heavy = _heavy_after("adjudicate", str(log), "--ledger", db)
    assert code == 0 and "alembic" in heavy  # created: migrated
    for command in (["adjudicate", str(log), "--ledger", db], ["ledger", "balances", "--db", db],
                    ["cases", "list", "--db", db], ["verify", "--db", db]):
        code, heavy = _heavy_after(*command)
        assert code == 0, command
        assert "sqlalchemy" in heavy and "alembic" not in heavy, command


def test_the_root_help_imports_no_command_module() -> None:
    """``pitwatch --help`` listed its commands by importing every one (2 s of CPU for a
    screen of text); it lists the lazy ones by their declared lines."""
    from services.cli import PitwatchCommands

    code, modules = _modules_after("--help")
    assert code == 0
    lazy_modules = {lazy.module for lazy in PitwatchCommands.lazy.values()}
    assert lazy_modules & modules == set()
    assert _heavy_after("--help")[1] == []


def test_the_root_help_lists_each_lazy_command_as_its_own_help_does(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """The screen with the declared lines is the screen with every command imported."""
    import typer.main

    from services.cli import PitwatchCommands, app

    monkeypatch.setenv("COLUMNS", "120")

    def screen(group: Any) -> str:
        assert group.main(["--help"], prog_name="pitwatch", standalone_mode=False) == 0
        return capsys.readouterr().out

    listed = screen(typer.main.get_command(app))
    assert screen(_every_command_imported()) == listed
    for name in PitwatchCommands.lazy:
        assert f" {name} " in listed


def test_every_listing_line_is_one_line() -> None:
    """A group's ``--help`` lists each command by its help's first paragraph, line breaks
    kept (Typer's rich mode): a paragraph wrapped in the source listed as a sentence
    broken in the middle. Each command's first paragraph is one line, the details after."""
    import inspect

    from services.cli import PitwatchCommands

    group = _every_command_imported()
    broken: list[str] = []

    def walk(command: Any, path: str) -> None:
        for name, sub in (getattr(command, "commands", None) or {}).items():
            walk(sub, f"{path} {name}")
        first = inspect.cleandoc(command.short_help or command.help or "").split("\n\n")[0]
        if "\n" in first:
            broken.append(path)

    walk(group, "pitwatch")
    assert broken == []
    assert all("\n" not in lazy.listed_as for lazy in PitwatchCommands.lazy.values())


def _every_command_imported() -> Any:
    """The root command with each lazy sub-command built (imported), as before they were
    lazy."""
    import typer.main

    from services.cli import PitwatchCommands, app

    group = typer.main.get_command(app)
    assert isinstance(group, PitwatchCommands)
    for name, lazy in PitwatchCommands.lazy.items():
        group.add_command(lazy.build(name), name)
    return group


def test_a_native_run_loads_no_betting_engine_and_no_progress_bar(tmp_path: Path) -> None:
    """The start-up of ``pitwatch adjudicate``: the pot games' profiles read their betting
    sections (``services.games.pot_sections``) without the betting engine, whose package
    was ~9 ms of it; and off a terminal no bar is drawn, so ``rich.progress`` (~4 ms) is
    not imported. Counted in modules, not seconds."""
    log = tmp_path / "draw7a.jsonl"
    code, _ = _heavy_after("simulate", "--game", "draw7a", "--tables", "1", "--hands", "3",
                           "--seed", "1", "-o", str(log))
    assert code == 0
    code, modules = _modules_after("adjudicate", str(log))
    assert code == 0
    assert "services.games.pot_sections" in modules  # the probe sees the profiles load
    assert {m for m in modules if m.startswith("services.games.betting")} == set()
    assert "rich.progress" not in modules
