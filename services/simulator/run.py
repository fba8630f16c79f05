"""Simulate whole event logs: many tables, interleaved as a table network would publish them.

Per-table simulators (``services.simulator.<game>``) write each table's stream; this module
seeds them deterministically, injects the stream-level fault (``tamper``: an event altered
after it was hash-chained, SURV-9), gives each table-level scenario (``TABLE_SCENARIOS`` of
a game, e.g. HCF ``sweetheart``) to the first table whose game has it, so the other tables
are its control, places the injected patterns (``services.simulator.patterns``) and gives
every table the floor's dealer pool and the player styles when asked
(``services.simulator.options``), and merges the tables by timestamp.
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from services.events.stream import TableStream
from services.games.profile import RuleProfile
from services.simulator.options import DealerPool, SimulationOptions, TableOptions
from services.simulator.patterns import place_patterns
from services.simulator.registry import scenarios_for, simulator_for
from services.simulator.truth import TruthLabel

DEFAULT_FAULT_RATE = 0.02  # probability per hand of a fault, when faults are asked for

STREAM_FAULTS: dict[str, str] = {
    "tamper": "one event per affected table altered after hashing (caught by the next "
    "event's prev_hash, SURV-9)",
}


@dataclass
class SimulatedLog:
    events: list[dict[str, Any]]
    truth: list[TruthLabel]


def available_faults(game: str) -> dict[str, str]:
    _, faults = simulator_for(game)
    return {**faults, **STREAM_FAULTS}


def simulate(
    games: Sequence[str],
    tables: int,
    hands: int,
    seed: int,
    faults: frozenset[str] = frozenset(),
    fault_rate: float = DEFAULT_FAULT_RATE,
    on_table_done: Callable[[int], None] | None = None,
    *,
    profile: RuleProfile,
    options: SimulationOptions | None = None,
) -> SimulatedLog:
    """``tables`` tables (games assigned round-robin), ``hands`` hands each, every table
    posting ``profile`` (the simulators play by its numbers); ``options``: the dealer
    pool, styles, table size and patterns (none: each game's own tables, as always)."""
    options = options or SimulationOptions()
    pool = DealerPool(options.dealers) if options.dealers else None
    table_games = [games[i % len(games)] for i in range(tables)]
    placed = place_patterns(table_games, options.patterns)
    streams: list[list[dict[str, Any]]] = []
    truth: list[TruthLabel] = []
    hosted: set[str] = set()  # table-level scenarios already given to a table
    for index in range(tables):
        game = table_games[index]
        simulate_table, game_faults = simulator_for(game)
        unknown = faults - set(game_faults) - set(STREAM_FAULTS)
        table_faults = frozenset(faults - unknown - hosted)
        hosted |= table_faults & scenarios_for(game)
        rng = random.Random(f"{seed}:{index}")
        stream = TableStream(f"T{index + 1:03d}", rng)
        table_options = TableOptions(index, pool, options.styles, options.players,
                                     placed.get(index, ()),
                                     random.Random(f"{seed}:{index}:patterns"))
        truth += simulate_table(stream, hands, rng, table_faults, fault_rate, index, profile,
                                table_options)
        if "tamper" in table_faults:
            label = _tamper_one(stream.events, rng)
            if label is not None:
                truth.append(label)
        streams.append(stream.events)
        if on_table_done is not None:
            on_table_done(index)
    merged = list(heapq.merge(*streams, key=lambda e: (e["ts"], e["table_id"])))
    return SimulatedLog(events=merged, truth=truth)


def _tamper_one(events: list[dict[str, Any]], rng: random.Random) -> TruthLabel | None:
    """Alter one chip amount inside a hand (not the table's last event) after hashing."""
    candidates = [
        i for i, e in enumerate(events[:-1])
        if isinstance(e["data"].get("amount"), int) and e["data"]["amount"] > 1
        and events[i + 1]["hand_id"] is not None
    ]
    if not candidates:
        return None
    i = rng.choice(candidates)
    events[i]["data"]["amount"] -= 1
    following = events[i + 1]
    return TruthLabel(
        table_id=events[i]["table_id"],
        hand_id=following["hand_id"],
        fault="tamper",
        codes=["CHAIN_BROKEN"],
        detail=f"seq {events[i]['seq']} amount lowered by 1 after it was hashed",
    )
