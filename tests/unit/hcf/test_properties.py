"""Properties of HCF adjudication over simulated play (hypothesis).

- chips are conserved: expected ``net`` plus the house sums to zero for every hand (GEN-8);
- adjudication is deterministic: the same hand always gives the same record bytes, in
  processes with different hash seeds;
- clean simulated play adjudicates without a finding above info: the simulator's own,
  independently written settlement agrees with the adjudicator's;
- every injected fault is detected by one of the codes its label names.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import orjson
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from services.adjudicator.adjudicate import adjudicate_hand
from services.games.hcf import adjudicate as hcf
from services.simulator.hcf import FAULTS
from tests.profiles import HOUSE, PROFILES
from tests.unit.hcf.determinism_child import Case
from tests.unit.hcf.streams import simulated

REPO = Path(__file__).resolve().parents[3]

PROPERTY = settings(max_examples=25, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
seeds = st.integers(min_value=0, max_value=2**32 - 1)
table_indexes = st.integers(min_value=0, max_value=11)
fault_sets = st.frozensets(st.sampled_from(sorted(FAULTS)), min_size=1)


@PROPERTY
@given(seed=seeds, table_index=table_indexes, faults=fault_sets)
def test_expected_net_sums_to_zero_with_house(seed: int, table_index: int,
                                              faults: frozenset[str]) -> None:
    hands, _ = simulated(seed, table_index, 12, faults, fault_rate=0.5)
    profile = HOUSE
    for hand in hands:
        outcome = hcf.adjudicate(hand, profile)
        assert sum(outcome.net.values()) + outcome.house == 0
        assert outcome.house == sum(outcome.rake.values())
        record = adjudicate_hand(hand, PROFILES)
        assert record.expected is not None
        assert sum(record.expected.net.values()) == 0


def _digests_in_child(cases: list[Case], hash_seed: str) -> list[dict[str, object]]:
    """The digests ``determinism_child`` prints, from a fresh interpreter whose string
    hashing is seeded with ``hash_seed`` (so set and dict iteration orders differ)."""
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    done = subprocess.run([sys.executable, "-m", "tests.unit.hcf.determinism_child"],
                          input=orjson.dumps(cases), capture_output=True, cwd=REPO, env=env,
                          check=False)
    assert done.returncode == 0, done.stderr.decode()
    result: list[dict[str, object]] = orjson.loads(done.stdout)
    return result


cases = st.lists(st.tuples(seeds, table_indexes, st.just(8),
                           fault_sets.map(sorted)), min_size=3, max_size=3)


@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(batch=cases)
def test_adjudication_is_deterministic_across_processes(batch: list[Case]) -> None:
    """The same hands give the same events and record bytes in three processes with
    different hash seeds: nothing depends on an iteration order of a set or a dict of
    strings, on object identity, or on state a first run leaves behind in a process."""
    first = _digests_in_child(batch, "0")
    assert first == _digests_in_child(batch, "1")
    assert first == _digests_in_child(batch, "4242")
    assert all(case["records"] for case in first)


@PROPERTY
@given(seed=seeds, table_index=table_indexes)
def test_clean_play_has_no_findings(seed: int, table_index: int) -> None:
    hands, labels = simulated(seed, table_index, 30)
    assert labels == []
    for hand in hands:
        record = adjudicate_hand(hand, PROFILES)
        serious = [f for f in record.findings if f.severity != "info"]
        assert serious == [], (hand.hand_id, serious)
        assert record.status in ("ok", "dead")


@PROPERTY
@given(seed=seeds, table_index=table_indexes, faults=fault_sets)
def test_every_injected_fault_is_detected(seed: int, table_index: int,
                                          faults: frozenset[str]) -> None:
    hands, labels = simulated(seed, table_index, 15, faults, fault_rate=0.6)
    records = {h.hand_id: adjudicate_hand(h, PROFILES) for h in hands}
    for label in labels:
        found = {f.code for f in records[label.hand_id].findings}
        assert found & set(label.codes), (label, found)


def test_simulator_is_deterministic_for_a_seed() -> None:
    first, labels_first = simulated(7, 2, 20, frozenset(FAULTS), 0.3)
    second, labels_second = simulated(7, 2, 20, frozenset(FAULTS), 0.3)
    assert [h.events for h in first] == [h.events for h in second]
    assert labels_first == labels_second


def test_simulation_covers_every_fault_and_rake_mode() -> None:
    """Over three tables (one per rake mode) every fault kind is injected at least once."""
    injected: set[str] = set()
    modes: set[str] = set()
    for index in range(3):
        hands, labels = simulated(11 + index, index, 120, frozenset(FAULTS), 0.3)
        injected |= {label.fault for label in labels}
        config = hands[0].table.config
        assert config is not None
        modes.add(config.rake.mode)
    assert injected == set(FAULTS)
    assert modes == {"all", "players", "designated"}
