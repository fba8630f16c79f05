"""The per-game simulators, by game name: each ``services.simulator.<game>`` module's
``simulate_table(stream, hands, rng, faults, fault_rate, table_index, profile, options)
-> list[TruthLabel]`` (``profile``: the rule profile its tables post; ``options``: the
dealer pool, styles and patterns of ``services.simulator.options``), its ``FAULTS`` and
its ``TABLE_SCENARIOS``: the faults among ``FAULTS`` that are a table-level scenario (e.g.
HCF ``sweetheart``), which the log runner gives to one table only.

A typed table, as ``services.games.registry`` is for the rules: a reader and mypy follow a
game's name to its simulator, and an unknown game is a missing key.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Protocol

from services.events.stream import TableStream
from services.games.profile import RuleProfile
from services.simulator import chinese, draw7a, hcf, holdem, russian
from services.simulator.options import TableOptions
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


@dataclass(frozen=True)
class Simulator:
    simulate_table: TableSimulator
    faults: Mapping[str, str]  # fault name -> what it injects
    scenarios: frozenset[str] = frozenset()  # table-level scenarios among ``faults``


SIMULATORS: Mapping[str, Simulator] = MappingProxyType({
    "hcf": Simulator(hcf.simulate_table, hcf.FAULTS, hcf.TABLE_SCENARIOS),
    "chinese": Simulator(chinese.simulate_table, chinese.FAULTS),
    "draw7a": Simulator(draw7a.simulate_table, draw7a.FAULTS),
    "russian": Simulator(russian.simulate_table, russian.FAULTS),
    "holdem": Simulator(holdem.simulate_table, holdem.FAULTS),
})


def simulator_for(game: str) -> tuple[TableSimulator, dict[str, str]]:
    """The game's ``simulate_table`` and its ``FAULTS`` (name -> what it injects)."""
    simulator = SIMULATORS[game]
    return simulator.simulate_table, dict(simulator.faults)


def scenarios_for(game: str) -> frozenset[str]:
    """The game's table-level scenarios (empty for a simulator that has none)."""
    return SIMULATORS[game].scenarios
