"""Bounded label values, lag arithmetic, and the /metrics endpoint."""

from __future__ import annotations

import socket
import urllib.request

import pytest
from prometheus_client import CollectorRegistry, Counter

from services.observability import labels, server
from services.pipeline.kafka_watch import lag_per_partition


def test_bounded_values_admit_the_first_n_then_other() -> None:
    bounded = labels.BoundedValues(2)
    assert [bounded(v) for v in ("T1", "T2", "T3", "T1", "T4", "T2")] == [
        "T1", "T2", "other", "T1", "other", "T2"]
    assert bounded(None) == "unknown" and bounded("") == "unknown"


def test_floor_id_label_refuses_player_ids() -> None:
    bounded = labels.BoundedValues(10)
    assert labels.floor_id_label("D1", {"P1", "P2"}, bounded) == "D1"
    assert labels.floor_id_label("P2", {"P1", "P2"}, bounded) == "redacted"


@pytest.mark.parametrize(("code", "rule", "category"), [
    ("MISPAY", "CP-7", "settlement"),
    ("RAKE_UNDER", "GEN-10", "settlement"),
    ("POT_NOT_EMPTY", "GEN-8", "settlement"),
    ("CHAIN_BROKEN", "SURV-9", "integrity"),
    ("FOREIGN_CARD", "GEN-1", "integrity"),
    ("CHIPS_DURING_HAND", "GEN-3", "integrity"),
    ("WAGER_OUTSIDE_LIMITS", "GEN-5", "integrity"),
    ("DRAW_OUT_OF_ORDER", "RP-5", "procedure"),
    ("WALK_AWAY_FOLD", "GEN-7", "procedure"),
])
def test_finding_category(code: str, rule: str, category: str) -> None:
    assert labels.finding_category(code, rule) == category


def test_closed_vocabulary() -> None:
    assert labels.closed("hcf", labels.GAMES) == "hcf"
    assert labels.closed("baccarat", labels.GAMES) == "unknown"
    assert labels.closed(None, labels.GAMES) == "unknown"


def test_lag_per_partition() -> None:
    """Partition 0: end 10, committed 4 -> 6 behind. Partition 1: never committed, log
    starts at 2 (retention), ends at 5 -> 3 behind. Partition 2: committed -1 (no offset)
    reads from its start 0, end 7 -> 7. Partition 3: committed past a truncated end -> 0."""
    assert lag_per_partition(
        ends={0: 10, 1: 5, 2: 7, 3: 4}, starts={0: 0, 1: 2, 2: 0, 3: 0},
        committed={0: 4, 2: -1, 3: 9}) == {0: 6, 1: 3, 2: 7, 3: 0}


def test_metrics_endpoint_serves_the_registry() -> None:
    registry = CollectorRegistry()
    Counter("pitwatch_probe_total", "probe", registry=registry).inc(3)
    port = server.start_metrics_server(0, registry=registry)
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as reply:
        body = reply.read().decode()
    assert "pitwatch_probe_total 3.0" in body


def test_metrics_port_from_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(server.PORT_ENV, raising=False)
    assert server.metrics_port_from_env("ledger") == 9402
    monkeypatch.setenv(server.PORT_ENV, "19555")
    assert server.metrics_port_from_env("ledger") == 19555
    monkeypatch.setenv(server.PORT_ENV, "off")
    assert server.metrics_port_from_env("adjudicator") is None
    assert server.serve_metrics("adjudicator") is None
    monkeypatch.setenv(server.PORT_ENV, "70000")
    with pytest.raises(ValueError, match="not a TCP port"):
        server.metrics_port_from_env("adjudicator")


def test_a_taken_port_leaves_the_service_running(monkeypatch: pytest.MonkeyPatch,
                                                 caplog: pytest.LogCaptureFixture) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        monkeypatch.setenv(server.PORT_ENV, str(taken.getsockname()[1]))
        monkeypatch.setenv(server.ADDR_ENV, "127.0.0.1")
        assert server.serve_metrics("ledger") is None
    assert "ledger metrics not served" in caplog.text
