"""Properties of HCF adjudication over simulated play (hypothesis).

- chips are conserved: expected ``net`` plus the house sums to zero for every hand (GEN-8);
- adjudication is deterministic: the same hand always gives the same record bytes;
- clean simulated play adjudicates without a finding above info: the simulator's own,
  independently written settlement agrees with the adjudicator's;
- every injected fault is detected by one of the codes its label names.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from services.adjudicator.adjudicate import adjudicate_hand
from services.events.contract import encode_record
from services.games import hcf
from services.games.profile import load_profile
from services.simulator.hcf import FAULTS
from tests.unit.hcf.streams import simulated

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
    profile = load_profile("house-v1")
    for hand in hands:
        outcome = hcf.adjudicate(hand, profile)
        assert sum(outcome.net.values()) + outcome.house == 0
        assert outcome.house == sum(outcome.rake.values())
        record = adjudicate_hand(hand)
        assert record.expected is not None
        assert sum(record.expected.net.values()) == 0


@PROPERTY
@given(seed=seeds, table_index=table_indexes, faults=fault_sets)
def test_adjudication_is_deterministic(seed: int, table_index: int,
                                       faults: frozenset[str]) -> None:
    hands, _ = simulated(seed, table_index, 8, faults, fault_rate=0.5)
    for hand in hands:
        assert encode_record(adjudicate_hand(hand)) == encode_record(adjudicate_hand(hand))


@PROPERTY
@given(seed=seeds, table_index=table_indexes)
def test_clean_play_has_no_findings(seed: int, table_index: int) -> None:
    hands, labels = simulated(seed, table_index, 30)
    assert labels == []
    for hand in hands:
        record = adjudicate_hand(hand)
        serious = [f for f in record.findings if f.severity != "info"]
        assert serious == [], (hand.hand_id, serious)
        assert record.status in ("ok", "dead")


@PROPERTY
@given(seed=seeds, table_index=table_indexes, faults=fault_sets)
def test_every_injected_fault_is_detected(seed: int, table_index: int,
                                          faults: frozenset[str]) -> None:
    hands, labels = simulated(seed, table_index, 15, faults, fault_rate=0.6)
    records = {h.hand_id: adjudicate_hand(h) for h in hands}
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
