"""Per-game simulators: ``services.simulator.<game>`` exposes ``FAULTS`` and
``simulate_table(stream, hands, rng, faults, fault_rate, table_index) -> list[TruthLabel]``,
and optionally ``TABLE_SCENARIOS``: the faults among ``FAULTS`` that are a table-level
scenario (e.g. HCF ``sweetheart``), which the log runner gives to one table only.
"""

from __future__ import annotations

import importlib
import random
from typing import Protocol

from services.simulator.stream import TableStream
from services.simulator.truth import TruthLabel

SIMULATOR_MODULES: dict[str, str] = {
    "hcf": "services.simulator.hcf",
    "chinese": "services.simulator.chinese",
    "draw7a": "services.simulator.draw7a",
    "russian": "services.simulator.russian",
    "holdem": "services.simulator.holdem",
}


class TableSimulator(Protocol):
    def __call__(
        self,
        stream: TableStream,
        hands: int,
        rng: random.Random,
        faults: frozenset[str],
        fault_rate: float,
        table_index: int,
    ) -> list[TruthLabel]: ...


def simulator_for(game: str) -> tuple[TableSimulator, dict[str, str]]:
    """The game's ``simulate_table`` and its ``FAULTS`` (name -> what it injects)."""
    module = importlib.import_module(SIMULATOR_MODULES[game])
    return module.simulate_table, module.FAULTS


def scenarios_for(game: str) -> frozenset[str]:
    """The game's table-level scenarios (empty for a simulator that has none)."""
    module = importlib.import_module(SIMULATOR_MODULES[game])
    scenarios: frozenset[str] = getattr(module, "TABLE_SCENARIOS", frozenset())
    return scenarios
