"""The hold'em simulator: deterministic, correct irregularities come out clean, every
injected fault is detected by the codes of its label, chips are conserved."""

from __future__ import annotations

from collections import Counter

import orjson
import pytest

from services.adjudicator.embedded import adjudicate_lines
from services.events.contract import AdjudicationRecord
from services.simulator.holdem import FAULT_CODES, FAULTS
from services.simulator.run import SimulatedLog, simulate
from services.simulator.scoring import score
from tests.profiles import HOUSE, PROFILES


def adjudicate(log: SimulatedLog) -> list[AdjudicationRecord]:
    lines = [orjson.dumps(e) for e in log.events]
    return [r for step in adjudicate_lines(lines, PROFILES) for r in step.records]


@pytest.fixture(scope="module")
def clean() -> tuple[SimulatedLog, list[AdjudicationRecord]]:
    log = simulate(["holdem"], tables=4, hands=150, seed=7, profile=HOUSE)
    return log, adjudicate(log)


@pytest.fixture(scope="module")
def faulty() -> tuple[SimulatedLog, list[AdjudicationRecord]]:
    log = simulate(["holdem"], tables=6, hands=120, seed=19, faults=frozenset(FAULTS),
                   fault_rate=0.3, profile=HOUSE)
    return log, adjudicate(log)


def test_every_fault_has_codes() -> None:
    assert set(FAULT_CODES) == set(FAULTS)


def test_same_seed_same_stream() -> None:
    first = simulate(["holdem"], tables=2, hands=20, seed=3, profile=HOUSE)
    again = simulate(["holdem"], tables=2, hands=20, seed=3, profile=HOUSE)
    assert first.events == again.events


def test_fault_free_tables_come_out_ok_or_dead(
        clean: tuple[SimulatedLog, list[AdjudicationRecord]]) -> None:
    log, records = clean
    assert log.truth == []
    assert len(records) == 600
    statuses = Counter(r.status for r in records)
    assert set(statuses) <= {"ok", "dead"}
    assert [r.findings for r in records if any(f.severity != "info" for f in r.findings)] == []


def test_correctly_handled_irregularities_occur(
        clean: tuple[SimulatedLog, list[AdjudicationRecord]]) -> None:
    """The clean log does contain corrections (TH-3..TH-7) and misdeals (dead hands)."""
    log, records = clean
    types = Counter(e["type"] for e in log.events)
    assert types["card_moved"] > 0
    assert types["stub_reshuffled"] > 0
    assert types["misdeal"] > 0
    assert sum(r.status == "dead" for r in records) == types["misdeal"]


def test_every_injected_fault_is_detected(
        faulty: tuple[SimulatedLog, list[AdjudicationRecord]]) -> None:
    log, records = faulty
    detection = score(log.truth, records)
    injected = {fault for fault, s in detection.by_fault.items() if s.injected}
    assert len(injected) >= 14, injected
    assert {f: s.missed_hands for f, s in detection.by_fault.items() if s.missed_hands} == {}
    assert detection.unexplained_hands == []


def test_chips_conserved_in_every_expected_result(
        faulty: tuple[SimulatedLog, list[AdjudicationRecord]]) -> None:
    _, records = faulty
    for record in records:
        assert record.status != "rejected", record.findings
        assert record.expected is not None
        assert sum(record.expected.net.values()) == 0, record.hand_id
