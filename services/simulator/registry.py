"""The per-game simulators, by game name: each ``services.simulator.<game>`` module's
``simulate_table(stream, hands, rng, faults, fault_rate, table_index, profile, options)
-> list[TruthLabel]`` (``profile``: the rule profile its tables post; ``options``: the
dealer pool, styles and patterns of ``services.simulator.options``), its ``FAULTS`` and
its ``TABLE_SCENARIOS``: the faults among ``FAULTS`` that are a table-level scenario (e.g.
HCF ``sweetheart``), which the log runner gives to one table only; and the options of
``services.simulator.options.SimulationOptions`` its tables read (``options``: a dealer
pool, player styles, a table size), so that ``pitwatch simulate`` refuses one that no
table of the run would read (``refuse_options_not_taken``) instead of ignoring it.

A typed table, as ``services.games.registry`` is for the rules: a reader and mypy follow a
game's name to its simulator, and an unknown game is a missing key.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Protocol

from services.events.stream import TableStream
from services.games.profile import RuleProfile
from services.simulator import chinese, draw7a, hcf, holdem, russian
from services.simulator.options import SimulationOptions, TableOptions
from services.simulator.truth import TruthLabel


class TableSimulator(Protocol):
    def __call__(
        self,
        stream: TableStream,
        hands: int,
        rng: random.Random,
        faults: frozenset[str],
        fault_rate: float,
        table_index: int,
        profile: RuleProfile,
        options: TableOptions = ...,
    ) -> list[TruthLabel]: ...


# The options of ``SimulationOptions`` a table may read (patterns have their own games,
# ``services.simulator.patterns.PATTERNS``), each with what it is, for a refusal.
TABLE_OPTIONS: Mapping[str, str] = MappingProxyType({
    "dealers": "a floor's dealer pool", "styles": "player styles", "players": "a table size"})


@dataclass(frozen=True)
class Simulator:
    simulate_table: TableSimulator
    faults: Mapping[str, str]  # fault name -> what it injects
    scenarios: frozenset[str] = frozenset()  # table-level scenarios among ``faults``
    options: frozenset[str] = frozenset()  # the ``TABLE_OPTIONS`` its tables read


SIMULATORS: Mapping[str, Simulator] = MappingProxyType({
    "hcf": Simulator(hcf.simulate_table, hcf.FAULTS, hcf.TABLE_SCENARIOS,
                     frozenset({"dealers"})),
    "chinese": Simulator(chinese.simulate_table, chinese.FAULTS, options=frozenset({"dealers"})),
    "draw7a": Simulator(draw7a.simulate_table, draw7a.FAULTS,
                        options=frozenset({"dealers", "styles"})),
    "russian": Simulator(russian.simulate_table, russian.FAULTS,
                         options=frozenset({"dealers", "players"})),
    "holdem": Simulator(holdem.simulate_table, holdem.FAULTS,
                        options=frozenset({"dealers", "styles", "players"})),
})


class OptionNotTaken(ValueError):
    """A ``SimulationOptions`` option that no table of the run reads (``option`` names
    it, e.g. ``players``)."""

    def __init__(self, option: str, message: str) -> None:
        super().__init__(message)
        self.option = option


def games_taking(option: str) -> tuple[str, ...]:
    """The games whose tables read ``option`` (one of ``TABLE_OPTIONS``), in order."""
    return tuple(game for game, simulator in SIMULATORS.items() if option in simulator.options)


def refuse_options_not_taken(table_games: Sequence[str], options: SimulationOptions) -> None:
    """``OptionNotTaken`` for the first option given that none of ``table_games`` (table
    i's game) reads.

    Why refuse rather than ignore: ``--players 3`` at HCF tables was the same log as
    without it, so a user could believe they had simulated three-handed tables, while a
    pattern no table can host was already refused (``patterns.place_patterns``)."""
    given = {"dealers": options.dealers, "styles": options.styles,
             "players": options.players}
    dealt = list(dict.fromkeys(table_games))
    for option, value in given.items():
        takers = games_taking(option)
        if value is not None and not set(takers) & set(dealt):
            raise OptionNotTaken(option, f"only {', '.join(sorted(takers))} tables take "
                                         f"{TABLE_OPTIONS[option]}; this run deals "
                                         f"{', '.join(dealt)}")


def simulator_for(game: str) -> tuple[TableSimulator, dict[str, str]]:
    """The game's ``simulate_table`` and its ``FAULTS`` (name -> what it injects)."""
    simulator = SIMULATORS[game]
    return simulator.simulate_table, dict(simulator.faults)


def scenarios_for(game: str) -> frozenset[str]:
    """The game's table-level scenarios (empty for a simulator that has none)."""
    return SIMULATORS[game].scenarios
