"""Event logs for report tests: simulated tables of every game present, re-chained edits."""

from __future__ import annotations

import copy
from collections.abc import Callable
from functools import lru_cache
from typing import Any

import orjson

from services.adjudicator.embedded import adjudicate_lines
from services.events.canonical import GENESIS_HASH, event_hash
from services.events.contract import AdjudicationRecord
from services.games.registry import GAMES as RULES
from services.simulator.registry import SIMULATORS
from services.simulator.run import available_faults, simulate
from tests.profiles import HOUSE, PROFILES

# Every game with rules and a simulator.
GAMES = [g for g in RULES if g in SIMULATORS]


@lru_cache(maxsize=16)
def simulated(game: str, hands: int = 40, faulty: bool = True, seed: int = 5,
              tables: int = 2) -> tuple[tuple[dict[str, Any], ...], tuple[AdjudicationRecord, ...]]:
    """A small simulated log of ``game`` with every fault kind injected, and its records."""
    faults = frozenset(available_faults(game)) if faulty else frozenset()
    log = simulate([game], tables=tables, hands=hands, seed=seed, faults=faults,
                   fault_rate=0.15 if faulty else 0.0, profile=HOUSE)
    records = adjudicate(log.events)
    return tuple(log.events), tuple(records)


def lines_of(events: Any) -> list[bytes]:
    return [orjson.dumps(e) for e in events]


def adjudicate(events: Any) -> list[AdjudicationRecord]:
    return [r for step in adjudicate_lines(lines_of(events), PROFILES) for r in step.records]


def rechain(events: Any, edit: Callable[[dict[str, Any]], None]) -> list[dict[str, Any]]:
    """Apply ``edit`` to every event, then recompute every table's hash chain, as a table
    system that really sent the edited events would have."""
    out = [copy.deepcopy(e) for e in events]
    last: dict[str, str] = {}
    for event in out:
        edit(event)
        event["prev_hash"] = last.get(event["table_id"], GENESIS_HASH)
        last[event["table_id"]] = event_hash(event)
    return out


def first_hand(records: Any, status: str | None = None,
               code: str | None = None) -> AdjudicationRecord:
    for r in records:
        if (status is None or r.status == status) and (
                code is None or any(f.code == code for f in r.findings)):
            return r  # type: ignore[no-any-return]
    raise LookupError(f"no hand with status={status} code={code}")
