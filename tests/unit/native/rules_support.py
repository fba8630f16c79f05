"""What the native-rules differential tests of every game share: both engines' records of
one log, simulated logs of one game, and the house profile with one section changed."""

from __future__ import annotations

from typing import Any

import orjson

from services.adjudicator.native_runner import NativeRunner
from services.adjudicator.python_runner import ReferenceRunner
from services.events.contract import encode_record
from services.games.profile import Profiles, RuleProfile
from services.simulator.run import simulate
from tests.profiles import HOUSE


def records(lines: list[bytes], profiles: Profiles, closed_hands: bool) -> tuple[
        list[bytes], list[bytes], tuple[int, int, int, str | None]]:
    """(reference records, native records, the native runner's counters)."""
    reference = ReferenceRunner(profiles)
    ref = [encode_record(r) for i, line in enumerate(lines, 1)
           for r in reference.feed(line, f"line {i}").records]
    ref += [encode_record(r) for r in reference.finish().records]
    native = NativeRunner(profiles, closed_hands=closed_hands)
    nat = [encode_record(r) for step in native.feed_lines(lines) for r in step.records]
    nat += [encode_record(r) for r in native.finish().records]
    return ref, nat, native.native_rules_stats()


def simulated_game(game: str, seed: int, tables: int, hands: int, faults: frozenset[str],
                   rate: float) -> list[bytes]:
    log = simulate([game], tables, hands, seed, faults, rate, profile=HOUSE)
    return [orjson.dumps(e) for e in log.events]


def merged(base: dict[str, Any], change: dict[str, Any]) -> dict[str, Any]:
    """``base`` with ``change`` laid over it, nested tables merged key by key."""
    out = dict(base)
    for key, value in change.items():
        out[key] = merged(base[key], value) if isinstance(value, dict) and key in base \
            else value
    return out


def house_with(section: str, change: dict[str, Any]) -> RuleProfile:
    """The house profile with its ``section`` changed as ``change`` says."""
    sections = {name: dict(values) for name, values in HOUSE.sections.items()}
    sections[section] = merged(sections[section], change)
    return RuleProfile(HOUSE.name, sections)
