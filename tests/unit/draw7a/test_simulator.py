"""The Draw 7-A simulator: realistic clean tables adjudicate clean, every injected fault
is labelled and detected, and the same seed gives the same stream."""

from __future__ import annotations

from collections import Counter
from typing import Any

import orjson
import pytest

from services.adjudicator.embedded import adjudicate_lines
from services.events.contract import AdjudicationRecord
from services.simulator.draw7a import FAULTS
from services.simulator.run import SimulatedLog, simulate
from services.simulator.scoring import score
from tests.profiles import HOUSE, PROFILES


def adjudicate(events: list[dict[str, Any]]) -> list[AdjudicationRecord]:
    return [r for step in adjudicate_lines((orjson.dumps(e) for e in events), PROFILES)
            for r in step.records]


@pytest.fixture(scope="module")
def clean() -> tuple[SimulatedLog, list[AdjudicationRecord]]:
    log = simulate(["draw7a"], tables=12, hands=40, seed=21, profile=HOUSE)
    return log, adjudicate(log.events)


def test_clean_hands_have_no_findings(clean: tuple[SimulatedLog, list[AdjudicationRecord]]
                                      ) -> None:
    _log, records = clean
    assert len(records) == 12 * 40
    assert [r.hand_id for r in records if r.findings] == []
    assert all(r.status == "ok" for r in records)
    for r in records:
        assert r.expected is not None and r.expected == r.recorded


def test_clean_tables_cover_the_game(clean: tuple[SimulatedLog, list[AdjudicationRecord]]
                                     ) -> None:
    """Every structure and rake mode, both decks, reshuffles, stand-pat actions, uncalled
    bets, split or side pots (several seats paid from the pot), all-ins and showdowns."""
    log, _records = clean
    configs = [e["data"] for e in log.events if e["type"] == "table_configured"]
    assert {c["structure"] for c in configs} == {"fixed", "pot", "no"}
    assert {c["rake"]["mode"] for c in configs} == {"all", "players", "designated", "none"}
    types = Counter(e["type"] for e in log.events)
    assert types["stub_reshuffled"] > 0 and types["showdown"] > 0
    decks = Counter(e["data"]["deck"] for e in log.events if e["type"] == "hand_started")
    assert decks[32] > 0 and decks[36] > 0
    actions = Counter(e["data"]["action"] for e in log.events if e["type"] == "action")
    assert actions["stand"] > 0 and actions["all_in"] > 0 and actions["raise"] > 0
    kinds = Counter(e["data"]["kind"] for e in log.events if e["type"] == "payout")
    assert kinds["refund"] > 0
    paid: dict[str, set[int]] = {}
    for e in log.events:
        if e["type"] == "payout" and e["data"]["kind"] == "pot":
            paid.setdefault(e["hand_id"], set()).add(e["data"]["seat"])
    assert any(len(seats) > 1 for seats in paid.values())


def test_every_fault_is_labelled_and_detected() -> None:
    log = simulate(["draw7a"], tables=6, hands=120, seed=5,
                   faults=frozenset(FAULTS), fault_rate=0.3, profile=HOUSE)
    records = adjudicate(log.events)
    detection = score(log.truth, records)
    assert set(detection.by_fault) == set(FAULTS)
    assert {f: s.missed_hands for f, s in detection.by_fault.items() if s.missed_hands} == {}
    assert detection.unexplained_hands == []


def test_same_seed_same_stream() -> None:
    first = simulate(["draw7a"], tables=2, hands=15, seed=9, faults=frozenset(FAULTS),
                     fault_rate=0.5, profile=HOUSE)
    again = simulate(["draw7a"], tables=2, hands=15, seed=9, faults=frozenset(FAULTS),
                     fault_rate=0.5, profile=HOUSE)
    assert first.events == again.events and first.truth == again.truth
