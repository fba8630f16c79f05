"""The archive service's metrics (``services/pipeline/archive_service.py``).

Why it has its own: the archive service keeps every event, alert and case of the
pipeline (GLI-13's independent log). Without metrics a dead or stalled archive service
paged no one and showed no lag, while the ledger went on booking (QA). These count what
each committed batch kept, the batches and their time, so a dashboard and an alert see
the archive fall behind or stop; the broker-side lag of its consumer group is the
watch's (``services.pipeline.kafka_watch``), as for the adjudicator and the ledger.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Final

from prometheus_client import REGISTRY, CollectorRegistry, Counter, Histogram

# One batch is a transaction of up to a few thousand segments: tens of ms to seconds.
WRITE_BUCKETS: Final = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)

# ``keep_batch``'s counts -> (metric, label value).
_SEGMENTS = {"segments": "stored", "repeats": "repeat"}
_ALERTS = {"alerts": "stored", "alert_repeats": "repeat"}
_CASES = {"cases_opened": "opened", "cases_joined": "joined"}


class ArchiveMetrics:
    """Counters of what the archive service kept, and the time of its batches."""

    def __init__(self, registry: CollectorRegistry = REGISTRY) -> None:
        self.segments = Counter(
            "pitwatch_archive_segments_total",
            "Event archive segments taken from the archive topic, by status: stored (new, "
            "or trimmed to the events not yet archived), repeat (already archived whole).",
            ["status"], registry=registry)
        self.conflicts = Counter(
            "pitwatch_archive_conflicts_total",
            "Events offered again with other bytes than the archived ones (SURV-9): kept "
            "in archive_conflicts, the archived event unchanged.",
            registry=registry)
        self.alerts = Counter(
            "pitwatch_archive_alerts_total",
            "Alerts archived, by status: stored, repeat (already archived).",
            ["status"], registry=registry)
        self.cases = Counter(
            "pitwatch_cases_total",
            "Evidence taken into cases by the archive service: opened (a new case), "
            "joined (the open case of the same subject).",
            ["action"], registry=registry)
        self.undecodable = Counter(
            "pitwatch_archive_undecodable_total",
            "Records on the archive, alerts or adjudications topics that are not what the "
            "topic holds (logged, not archived).",
            registry=registry)
        self.batch_seconds = Histogram(
            "pitwatch_archive_batch_seconds",
            "Duration of one archive batch's database transaction (segments, alerts, cases).",
            buckets=WRITE_BUCKETS, registry=registry)
        for status in ("stored", "repeat"):  # every series from the first scrape, at 0
            self.segments.labels(status=status)
            self.alerts.labels(status=status)
        for action in ("opened", "joined"):
            self.cases.labels(action=action)

    def observe_batch(self, counts: Mapping[str, int], seconds: float) -> None:
        """One committed batch: ``counts`` as ``keep_batch`` gives them."""
        self.batch_seconds.observe(seconds)
        for names, metric, label in ((_SEGMENTS, self.segments, "status"),
                                     (_ALERTS, self.alerts, "status"),
                                     (_CASES, self.cases, "action")):
            for key, value in names.items():
                if counts.get(key):
                    metric.labels(**{label: value}).inc(counts[key])
        if counts.get("conflicts"):
            self.conflicts.inc(counts["conflicts"])
        if counts.get("undecodable"):
            self.undecodable.inc(counts["undecodable"])


@cache
def archive_metrics() -> ArchiveMetrics:
    """The process's archive-service metrics (default registry), created on first use."""
    return ArchiveMetrics()
