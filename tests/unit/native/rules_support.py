"""What the native-rules differential tests of every game share: both engines' records of
one log, simulated logs of one game, the house profile with one section changed, a panic
in the core's rules, a game's unit suites run with ``native_rules_plugin``, and the
hypothesis generators' betting round (Five Card Draw 7-A and Texas Hold'em), and the
check that a profile lacking a required reading is refused by both engines."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import orjson
import pytest

from services.adjudicator.adjudicate import adjudicate_hand
from services.adjudicator.native_runner import NativeRunner
from services.adjudicator.python_runner import ReferenceRunner
from services.events.contract import AdjudicationRecord, encode_record
from services.games.betting import BettingHand
from services.games.model import HandInput
from services.games.profile import InvalidProfileError, Profiles, RuleProfile
from services.games.profiles import BUILTIN_PROFILE, read_profile_folder
from services.simulator.handbuilder import EventSpec
from services.simulator.run import simulate
from tests.profiles import HOUSE
from tests.unit.betting.generator import legal_choices

REPO = Path(__file__).resolve().parents[3]
PROFILES_DIR = REPO / "services" / "games" / "profiles"


def records(lines: list[bytes], profiles: Profiles, closed_hands: bool) -> tuple[
        list[bytes], list[bytes], tuple[int, int, int, str | None]]:
    """(reference records, native records, the native runner's counters)."""
    reference = ReferenceRunner(profiles)
    ref = [encode_record(r) for i, line in enumerate(lines, 1)
           for r in reference.feed(line, f"line {i}").records]
    ref += [encode_record(r) for r in reference.finish().records]
    native = NativeRunner(profiles, closed_hands=closed_hands)
    structs = [r for step in native.feed_lines(lines) for r in step.records]
    structs += native.finish().records
    nat = [encode_record(r) for r in structs]
    assert_encoded_as_structs(lines, profiles, structs)
    return ref, nat, native.native_rules_stats()


def assert_encoded_as_structs(lines: list[bytes], profiles: Profiles,
                              structs: list[AdjudicationRecord]) -> None:
    """The same log through a runner asked for encoded records (``encode_records``: the
    core writes its records' bytes in Rust) gives, record for record, the structs'
    ``encode_record`` bytes, hand id, status and findings."""
    runner = NativeRunner(profiles, closed_hands=False)
    runner.encode_records()
    steps = [*runner.feed_lines(lines), runner.finish()]
    assert all(not step.records for step in steps)
    encoded = [e for step in steps for e in step.encoded]
    assert [e.json for e in encoded] == [encode_record(r) for r in structs]
    assert [(e.hand_id, e.status, e.findings) for e in encoded] == [
        (r.hand_id, r.status, [(f.rule, f.code, f.severity) for f in r.findings])
        for r in structs]


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


def assert_a_rules_panic_goes_to_the_python_rules(lines: list[bytes],
                                                  profiles: Profiles) -> None:
    """The core's rules panic on the third hand of ``lines``: that hand goes to the Python
    rules (the panic is caught per hand), every record is the reference's, and the core's
    counters say one hand panicked and the others were native."""
    ref, _, _ = records(lines, profiles, False)
    victim = orjson.loads(ref[2])["hand_id"]
    native = NativeRunner(profiles, closed_hands=False)
    native._engine._inject_rules_panic(victim)
    nat = [encode_record(r) for step in native.feed_lines(lines) for r in step.records]
    assert nat == ref
    adjudicated, deferred, panicked, _ = native.native_rules_stats()
    assert (adjudicated, deferred, panicked) == (len(ref) - 1, 0, 1)


def unit_suites_checked_natively(suites: Sequence[str], tmp_path: Path) -> dict[str, Any]:
    """Run the unit ``suites`` (paths under the repository) with every hand they adjudicate
    also adjudicated by the core and compared (``native_rules_plugin``); the plugin's
    report, after checking that the suites passed and no record differed."""
    report = tmp_path / "check.json"
    env = {**os.environ, "PITWATCH_NATIVE_CHECK": str(report)}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p",
         "tests.unit.native.native_rules_plugin", *suites],
        cwd=REPO, env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    seen: dict[str, Any] = json.loads(report.read_text())
    assert seen["differences"] == []
    return seen


ENGINE_KINDS = ("fold", "check", "call", "bet", "raise", "all_in",
                "post_small_blind", "post_big_blind", "post_ante")


def action(seat: int, kind: str, amount: int | None) -> EventSpec:
    """An ``action`` event's spec (``amount`` left out when None)."""
    data: dict[str, Any] = {"seat": seat, "action": kind}
    if amount is not None:
        data["amount"] = amount
    return "action", data


def betting_round(rng: random.Random, engine: BettingHand | None, seats: list[int],
                  events: list[EventSpec], *, kinds: Sequence[str], steps: int,
                  stop_chance: float, legal_chance: float) -> None:
    """One betting round: legal actions mostly (the reference engine says which), now and
    then a random one (out of turn, wrong sizes, unknown seats and ``kinds``). Without a
    legal action the round stops with ``stop_chance``; with one, it is taken with
    ``legal_chance``; at most ``steps`` actions."""
    for _ in range(steps):
        legal = engine.legal_actions() if engine is not None else None
        if legal is None and rng.random() < stop_chance:
            return
        if legal is not None and rng.random() < legal_chance:
            choice = rng.choice(legal_choices(legal, engine.bet_level if engine else 0))
            seat, kind, amount = choice.seat, choice.kind, choice.amount
        else:
            seat = rng.choice([*seats, *seats, 9])
            kind = rng.choice(kinds)
            amount = rng.choice([None, 0, 1, 2, 3, 4, 7, 10, 25, rng.randint(0, 200)])
        if engine is not None and kind in ENGINE_KINDS:
            engine.apply(seat, kind, amount)
        events.append(action(seat, kind, amount))


def assert_refused_without(field: str, game: str, struct: type[Any], without: RuleProfile,
                           hand: HandInput, tmp_path: Path) -> None:
    """A reading with no default: the house profile's ``game`` section without ``field``
    (``without``) does not load, naming it; a profile folder whose ``game`` file lacks its
    line is refused when read; and the native core leaves a hand judged under such a
    profile to the reference, which rejects it."""
    with pytest.raises(ValueError, match=field):
        without.section(game, struct)
    folder = tmp_path / "no-reading"
    shutil.copytree(PROFILES_DIR / BUILTIN_PROFILE, folder)
    toml = folder / f"{game}.toml"
    lines = toml.read_text().splitlines(keepends=True)
    kept = [line for line in lines if not line.startswith(field)]
    assert len(kept) == len(lines) - 1
    toml.write_text("".join(kept))
    with pytest.raises(InvalidProfileError, match=field):
        read_profile_folder(folder)
    profiles = Profiles({HOUSE.name: without})
    native, why = NativeRunner(profiles).adjudicate_hand(hand)
    assert native is None and why == f"a profile whose {game} section did not load"
    assert adjudicate_hand(hand, profiles).status == "rejected"


def both_engines(hand: HandInput, profiles: Profiles) -> AdjudicationRecord:
    """The reference's record of one hand, after checking the core adjudicated the hand
    itself (no hand-back to the reference) and wrote the same bytes."""
    reference = adjudicate_hand(hand, profiles)
    native, why = NativeRunner(profiles).adjudicate_hand(hand)
    assert native is not None, why
    assert encode_record(native) == encode_record(reference)
    return reference
