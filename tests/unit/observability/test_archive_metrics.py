"""The archive service's metrics: what each committed batch kept (QA: the archive
service served no metrics, so a stalled archive paged no one)."""

from __future__ import annotations

from prometheus_client import CollectorRegistry

from services.observability.archive_metrics import ArchiveMetrics


def _value(registry: CollectorRegistry, name: str, **labels: str) -> float | None:
    return registry.get_sample_value(name, labels)


def test_every_series_is_there_at_zero_before_the_first_batch() -> None:
    registry = CollectorRegistry()
    ArchiveMetrics(registry)
    for status in ("stored", "repeat"):
        assert _value(registry, "pitwatch_archive_segments_total", status=status) == 0
        assert _value(registry, "pitwatch_archive_alerts_total", status=status) == 0
    for action in ("opened", "joined"):
        assert _value(registry, "pitwatch_cases_total", action=action) == 0
    assert _value(registry, "pitwatch_archive_conflicts_total") == 0
    assert _value(registry, "pitwatch_archive_batch_seconds_count") == 0


def test_two_batches_add_up_by_status() -> None:
    """Batch one: 5 segments stored (3 new, 2 trimmed: the service adds them up), 1
    repeat, 2 alerts, a case opened and one joined. Batch two: 4 repeats, an alert
    repeat, 3 conflicting events, 1 undecodable record."""
    registry = CollectorRegistry()
    metrics = ArchiveMetrics(registry)
    metrics.observe_batch({"segments": 5, "repeats": 1, "conflicts": 0, "alerts": 2,
                           "alert_repeats": 0, "cases_opened": 1, "cases_joined": 1,
                           "undecodable": 0}, 0.03)
    metrics.observe_batch({"segments": 0, "repeats": 4, "conflicts": 3, "alerts": 0,
                           "alert_repeats": 1, "cases_opened": 0, "cases_joined": 0,
                           "undecodable": 1}, 0.2)
    assert _value(registry, "pitwatch_archive_segments_total", status="stored") == 5
    assert _value(registry, "pitwatch_archive_segments_total", status="repeat") == 5
    assert _value(registry, "pitwatch_archive_alerts_total", status="stored") == 2
    assert _value(registry, "pitwatch_archive_alerts_total", status="repeat") == 1
    assert _value(registry, "pitwatch_cases_total", action="opened") == 1
    assert _value(registry, "pitwatch_cases_total", action="joined") == 1
    assert _value(registry, "pitwatch_archive_conflicts_total") == 3
    assert _value(registry, "pitwatch_archive_undecodable_total") == 1
    assert _value(registry, "pitwatch_archive_batch_seconds_count") == 2
    assert _value(registry, "pitwatch_archive_batch_seconds_bucket", le="0.05") == 1
