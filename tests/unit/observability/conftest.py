from __future__ import annotations

import pytest
from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.parser import text_string_to_metric_families

from services.observability.archive_metrics import ArchiveMetrics
from services.observability.metrics import (
    AdjudicatorMetrics,
    KafkaWatchMetrics,
    LedgerMetrics,
    SurveillanceMetrics,
)


@pytest.fixture(scope="session")
def exported_names() -> set[str]:
    """Every sample name the services can export (histogram parts included), with the
    scrape's ``up`` and the process collector's ``process_*`` names."""
    registry = CollectorRegistry()
    adjudicator = AdjudicatorMetrics(registry)
    adjudicator.latency.observe(0.1)
    ledger = LedgerMetrics(registry)
    ledger.write_seconds.observe(0.1)
    watch = KafkaWatchMetrics(registry)
    watch.set_lag("g", [("t", 0, 1)])
    watch.set_dlq("t.dlq", 1)
    SurveillanceMetrics(registry).set_lag(0, 1)
    ArchiveMetrics(registry).observe_batch({"conflicts": 1, "undecodable": 1}, 0.1)
    for counter in (adjudicator.hands, adjudicator.findings, adjudicator.table_findings,
                    adjudicator.mispays, adjudicator.mispaid_chips, adjudicator.wagered,
                    adjudicator.paid, adjudicator.collected, adjudicator.raked,
                    adjudicator.between, adjudicator.alerts, adjudicator.chain_failures,
                    *ledger.booked.counters.values()):
        counter.labels(*["x"] * len(counter._labelnames)).inc()
    text = generate_latest(registry).decode()
    names = {s.name for f in text_string_to_metric_families(text) for s in f.samples}
    return names | {"up", "process_resident_memory_bytes", "process_cpu_seconds_total",
                     "process_start_time_seconds"}
