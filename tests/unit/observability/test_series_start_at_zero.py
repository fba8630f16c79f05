"""The adjudicator's per-table series exist at 0 before their first count (QA problem 1).

Prometheus's ``increase()`` sees a step only between two samples of a series, so a
series that first appears at 1 hides its first count: the first chain failure at a
table never fired PitwatchHashChainFailure. The exporter now creates a table's chain
failure and table-findings series at 0 when the table is first seen, its hands series
per status with its game, and its mispay series with its dealer.
"""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from prometheus_client import CollectorRegistry

from services.adjudicator.embedded import EmbeddedRunner
from services.events.contract import AdjudicationRecord, Alert
from services.observability import labels
from services.observability.metrics import AdjudicatorMetrics
from services.simulator.run import simulate
from tests.profiles import HOUSE, PROFILES
from tests.unit.observability.logs import tamper_one_per_table

CHAIN_CODES = ("CHAIN_BROKEN", "EVENT_ID_CONFLICT", "REORDERED", "SEQ_CONFLICT", "SEQ_GAP")
CATEGORIES = ("integrity", "procedure", "settlement")
SEVERITIES = ("critical", "info", "warning")
STATUSES = ("dead", "discrepancy", "ok", "rejected", "unverified")


def _record(**overrides: object) -> AdjudicationRecord:
    base: dict[str, object] = dict(
        v=1, table_id="T9", hand_id="T9-000001", game="hcf", status="ok",
        rule_profile="house-v1", expected=None, recorded=None, findings=[],
        players={"1": "P-ONE"}, dealer_id="D77", rake_mode="players",
        ended_at="2026-03-01T20:00:00.000Z")
    base.update(overrides)
    return AdjudicationRecord(**base)  # type: ignore[arg-type]


def _series(registry: CollectorRegistry, name: str) -> dict[tuple[str, ...], float]:
    """Every sample of counter ``name`` (its ``_total``) by label values in label order."""
    found: dict[tuple[str, ...], float] = {}
    for family in registry.collect():
        for sample in family.samples:
            if sample.name == name:
                found[tuple(sample.labels.values())] = sample.value
    return found


def test_the_closed_sets_written_out_here_are_the_exporters() -> None:
    assert set(CHAIN_CODES) == labels.CHAIN_FAILURE_CODES
    assert set(CATEGORIES) == labels.FINDING_CATEGORIES
    assert set(SEVERITIES) == labels.SEVERITIES
    assert set(STATUSES) == labels.HAND_STATUSES


def test_a_clean_hand_creates_its_tables_series_at_zero() -> None:
    """One hand at T9 (hcf, dealer D77), no finding: 5 chain-failure series (one per
    code), 3 x 3 table-findings series (category x severity), 5 hands series (one per
    status; "ok" at 1), 1 mispay and 1 mispaid-chips series, all at 0 but "ok"."""
    registry = CollectorRegistry()
    metrics = AdjudicatorMetrics(registry)
    metrics.observe_record(_record(), now=0.0)

    assert _series(registry, "pitwatch_chain_failures_total") == {
        ("T9", code): 0.0 for code in CHAIN_CODES}
    assert _series(registry, "pitwatch_table_findings_total") == {
        ("T9", category, severity): 0.0 for category in CATEGORIES for severity in SEVERITIES}
    assert _series(registry, "pitwatch_hands_adjudicated_total") == {
        ("T9", "hcf", status): 1.0 if status == "ok" else 0.0 for status in STATUSES}
    assert _series(registry, "pitwatch_mispays_total") == {("T9", "D77", "hcf"): 0.0}
    assert _series(registry, "pitwatch_mispaid_chips_total") == {("T9", "D77", "hcf"): 0.0}

    # The first failure is then a step 0 -> 1 that increase() sees.
    metrics.observe_alert(Alert(table_id="T9", rule="SURV-9", code="CHAIN_BROKEN",
                                severity="critical", message="test"))
    assert _series(registry, "pitwatch_chain_failures_total") == {
        ("T9", code): 1.0 if code == "CHAIN_BROKEN" else 0.0 for code in CHAIN_CODES}


@pytest.mark.parametrize(("overrides", "mispay_series"), [
    ({"dealer_id": None}, {}),  # no dealer: nothing to label a mispay series with
    ({"game": None, "status": "rejected"}, {}),  # rejected, no game: no mispay can come
    ({"dealer_id": "P-ONE"}, {("T9", "redacted", "hcf"): 0.0}),  # a player id, never shown
])
def test_mispay_series_wait_for_a_dealer_and_a_game(
        overrides: dict[str, Any], mispay_series: dict[tuple[str, ...], float]) -> None:
    registry = CollectorRegistry()
    AdjudicatorMetrics(registry).observe_record(_record(**overrides), now=0.0)
    assert _series(registry, "pitwatch_mispays_total") == mispay_series
    assert len(_series(registry, "pitwatch_chain_failures_total")) == len(CHAIN_CODES)


def test_an_alert_is_enough_to_see_a_table() -> None:
    """A table whose first output is an alert (GEN-5, no hand yet) has its series too."""
    registry = CollectorRegistry()
    AdjudicatorMetrics(registry).observe_alert(Alert(
        table_id="T4", rule="GEN-5", code="UNAUTHORISED_CONFIGURATION", severity="warning",
        message="test"))
    assert _series(registry, "pitwatch_chain_failures_total") == {
        ("T4", code): 0.0 for code in CHAIN_CODES}


def test_the_chain_failure_series_is_zero_from_the_first_hand_to_the_tampered_event() -> None:
    """The tester's case, small: one HCF table, 8 hands (seed 5), one wager altered after
    it was hashed (the middle eligible wager). Fed through the real embedded runner and
    exporter one event at a time: no series until the first hand_ended (the exporter sees
    the table in the first record), then CHAIN_BROKEN at 0 for every event up to the one
    after the altered wager, whose prev_hash no longer matches: 1 from there on."""
    events = simulate(["hcf"], tables=1, hands=8, seed=5, profile=HOUSE).events
    before = [orjson.dumps(e) for e in events]
    assert tamper_one_per_table(events) == 1
    altered = next(i for i, (e, raw) in enumerate(zip(events, before, strict=True))
                   if orjson.dumps(e) != raw)
    first_end = next(i for i, e in enumerate(events) if e["type"] == "hand_ended")
    assert first_end < altered  # the failure is not in the first hand

    registry = CollectorRegistry()
    metrics = AdjudicatorMetrics(registry)
    runner = EmbeddedRunner(PROFILES)
    seen: list[float | None] = []
    for n, event in enumerate(events, start=1):
        metrics.observe_step(runner.feed(orjson.dumps(event), f"line {n}"))
        seen.append(registry.get_sample_value(
            "pitwatch_chain_failures_total", {"table": "T001", "code": "CHAIN_BROKEN"}))

    expected = ([None] * first_end + [0.0] * (altered + 1 - first_end)
                + [1.0] * (len(events) - altered - 1))
    assert seen == expected
