"""Simulate -> adjudicate -> ledger, embedded, for every game whose simulator exists.

Replay must be byte-identical, chips conserved in every expected result, every injected
fault detected, and the ledger idempotent.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest

from services.adjudicator.embedded import adjudicate_lines
from services.events.contract import AdjudicationRecord, encode_record
from services.simulator.registry import SIMULATORS
from services.simulator.run import SimulatedLog, available_faults, simulate
from services.simulator.scoring import score
from tests.profiles import HOUSE, PROFILES

GAMES = list(SIMULATORS)
Run = tuple[str, SimulatedLog, list[AdjudicationRecord]]


def _adjudicate(events: list[dict[str, Any]]) -> list[AdjudicationRecord]:
    lines = [orjson.dumps(e) for e in events]
    return [r for step in adjudicate_lines(lines, PROFILES) for r in step.records]


@pytest.fixture(scope="module", params=GAMES)
def run(request: pytest.FixtureRequest) -> Run:
    game = request.param
    log = simulate([game], tables=3, hands=150, seed=11,
                   faults=frozenset(available_faults(game)), fault_rate=0.05, profile=HOUSE)
    return game, log, _adjudicate(log.events)


def test_at_least_hcf_is_simulated() -> None:
    assert "hcf" in GAMES


def test_replay_is_byte_identical(run: Run) -> None:
    _game, log, records = run
    again = _adjudicate(log.events)
    assert [encode_record(r) for r in again] == [encode_record(r) for r in records]


def test_every_hand_adjudicated_and_conserved(run: Run) -> None:
    _game, _log, records = run
    assert len(records) == 3 * 150
    for r in records:
        assert r.status != "rejected", r.findings
        assert r.expected is not None and sum(r.expected.net.values()) == 0, r.hand_id


def test_every_injected_fault_detected(run: Run) -> None:
    _game, log, records = run
    detection = score(log.truth, records)
    assert detection.by_fault, "no fault was injected: raise the rate or the hand count"
    missed = {f: s.missed_hands for f, s in detection.by_fault.items() if s.missed_hands}
    assert missed == {}


def test_ledger_books_every_hand_once(run: Run, tmp_path: Path) -> None:
    from services.ledger.db import open_ledger
    from services.ledger.posting import post_many
    from services.ledger.queries import balances

    _game, _log, records = run
    engine = open_ledger(f"sqlite:///{tmp_path / 'ledger.sqlite'}")
    post_many(engine, records)
    first = balances(engine)
    post_many(engine, records)
    assert balances(engine) == first
