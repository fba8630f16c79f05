"""The options of ``pitwatch simulate`` (and ``demo``) checked before anything is built:
a bad one is a one-line usage error naming the option.

Why a module of its own: these checks are the simulate command's, not the simulator's
(they speak Typer, the command line's language, and stay above the simulator's layer),
and the command module, which wires every command, keeps to one screenful a command.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import typer

if TYPE_CHECKING:
    from services.simulator.options import SimulationOptions

# The simulator builds a run's whole log in memory before writing it (about 60 kB a hand
# of Python objects): 100,000 hands is about 6 GB. `--tables 99999999999999999999999` grew
# without end (0.75 GB after 12 s) until the machine ran out of memory.
MAX_SIMULATED_HANDS = 100_000


def within_one_run(tables: int, hands: int) -> None:
    if tables * hands > MAX_SIMULATED_HANDS:
        raise typer.BadParameter(
            f"{tables:,} tables x {hands:,} hands is more than the {MAX_SIMULATED_HANDS:,} "
            "hands one run builds in memory: simulate fewer, or several runs with different "
            "--seed values", param_hint="--tables x --hands")


def every_game_dealt(games: list[str], tables: int) -> None:
    """Every ``--game`` of ``simulate`` (and ``demo``) gets a table. The games take the
    tables in turn, so with more games than tables the last were simulated nowhere,
    without a word (as options no table reads, ``simulation_options``)."""
    dealt = set(games[:tables])
    idle = [g for g in dict.fromkeys(games) if g not in dealt]
    if idle:
        needed = max(games.index(g) for g in idle) + 1
        raise typer.BadParameter(f"{', '.join(idle)} would get no table: the games take the "
                                 f"{tables} table(s) in turn; give --tables {needed} or more",
                                 param_hint="--game")


def not_nan(value: float | None) -> float | None:
    """``simulate --fault-rate``, a probability of the simulator (never chips, odds or
    rake): Click's range check lets ``nan`` through (every comparison with it is false).
    None: not given (the default rate, when there are faults)."""
    if value is not None and math.isnan(value):
        raise typer.BadParameter("nan is not a probability: give one from 0 to 1")
    return value


def resolve_faults(games: list[str], faults: str) -> frozenset[str]:
    from services.simulator.run import available_faults

    known: dict[str, str] = {}
    for g in games:
        known.update(available_faults(g))
    if faults.strip() == "all":
        return frozenset(known)
    chosen = frozenset(f.strip() for f in faults.split(",") if f.strip())
    unknown = chosen - set(known)
    if unknown:
        raise typer.BadParameter(
            f"unknown fault(s) {', '.join(sorted(unknown))}; known for "
            f"{', '.join(games)}: {', '.join(sorted(known))}",
            param_hint="--faults",
        )
    return chosen


def simulation_options(games: list[str], tables: int, dealers: int | None,
                        styles: str | None, players: int | None,
                        patterns: list[str]) -> SimulationOptions:
    """The options of ``pitwatch simulate`` checked: a bad one is a one-line usage error,
    and so is one that no table of the run reads (``registry.refuse_options_not_taken``)."""
    from services.simulator.options import SimulationOptions
    from services.simulator.patterns import UnknownPatternError, parse_pattern, place_patterns
    from services.simulator.registry import OptionNotTaken, refuse_options_not_taken
    from services.simulator.styles import STYLE_CHOICES

    if styles is not None and styles not in STYLE_CHOICES:
        raise typer.BadParameter(f"unknown style {styles!r}: choose from "
                                 f"{', '.join(STYLE_CHOICES)}", param_hint="--styles")
    if dealers is not None and dealers < tables:
        raise typer.BadParameter(f"{dealers} dealers cannot deal {tables} tables at once: "
                                 "give at least as many dealers as tables",
                                 param_hint="--dealers")
    table_games = [games[i % len(games)] for i in range(tables)]
    try:
        specs = tuple(parse_pattern(text) for text in patterns)
        place_patterns(table_games, specs)
    except UnknownPatternError as exc:
        raise typer.BadParameter(str(exc), param_hint="--pattern") from None
    options = SimulationOptions(dealers=dealers, styles=styles, players=players,
                                patterns=specs)
    try:
        refuse_options_not_taken(table_games, options)
    except OptionNotTaken as exc:
        raise typer.BadParameter(str(exc), param_hint=f"--{exc.option}") from None
    return options
