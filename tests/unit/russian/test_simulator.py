"""The Russian Poker simulator: honest tables adjudicate clean, every injected fault is
caught by its labelled finding codes, nothing unlabelled is flagged, same seed same log."""

from __future__ import annotations

import orjson
import pytest

from services.adjudicator.embedded import adjudicate_lines
from services.events.contract import AdjudicationRecord
from services.simulator.run import simulate
from services.simulator.russian import FAULT_CODES, FAULTS
from services.simulator.scoring import score
from tests.profiles import HOUSE, PROFILES


def _adjudicate(events: list[dict[str, object]]) -> list[AdjudicationRecord]:
    lines = [orjson.dumps(e) for e in events]
    return [r for step in adjudicate_lines(lines, PROFILES) for r in step.records]


def test_every_fault_has_detection_codes() -> None:
    assert set(FAULTS) == set(FAULT_CODES)


def test_honest_tables_adjudicate_without_a_single_finding() -> None:
    log = simulate(["russian"], tables=2, hands=120, seed=3, profile=HOUSE)
    records = _adjudicate(log.events)
    assert len(records) == 240
    assert log.truth == []
    flagged = [(r.hand_id, [f.code for f in r.findings]) for r in records if r.findings]
    assert flagged == []
    assert {r.status for r in records} == {"ok"}


def test_simulation_is_deterministic_for_the_seed() -> None:
    first = simulate(["russian"], tables=1, hands=30, seed=9, faults=frozenset(FAULTS),
                     fault_rate=0.3, profile=HOUSE)
    again = simulate(["russian"], tables=1, hands=30, seed=9, faults=frozenset(FAULTS),
                     fault_rate=0.3, profile=HOUSE)
    assert first.events == again.events
    assert first.truth == again.truth


@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_each_injected_fault_is_detected(fault: str) -> None:
    """Fault rate 1: every hand where the fault fits carries it; each must be detected by
    one of its codes, and no hand without a label may be flagged."""
    log = simulate(["russian"], tables=1, hands=60, seed=21, faults=frozenset({fault}),
                   fault_rate=1.0, profile=HOUSE)
    records = _adjudicate(log.events)
    detection = score(log.truth, records)
    assert fault in detection.by_fault, f"{fault} never fitted a hand in 60"
    result = detection.by_fault[fault]
    assert result.missed_hands == []
    assert detection.unexplained_hands == []
