"""The adjudicator's metrics through a real Prometheus, from the embedded replay (no broker).

The cheap half of the proof (tests/integration/test_prometheus_pipeline.py is the whole
pipeline through Kafka): ``python -m services.observability.replay`` adjudicates a live
simulated log and serves /metrics; a Prometheus started from the deployed config scrapes
it every second; then every dashboard query about the adjudicator returns finite data,
every alert expression parses and evaluates, and the counts Prometheus holds equal what
the embedded runner produced for the same log.
"""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

from tests.integration.prometheus_live import (
    alert_problems,
    free_port,
    label_values,
    live_log,
    panel_problems,
    prometheus,
    service_env,
    settled,
    wait_for,
)

BROKER_SIDE = ("pitwatch_ledger_", "pitwatch_consumer_lag", "pitwatch_dlq_records",
               "pitwatch_kafka_watch",
               # the surveillance service's own metrics: not exported by the replay
               "pitwatch_surveillance_")


def _adjudicator_side(expr: str) -> bool:
    return not any(name in expr for name in BROKER_SIDE)


def test_replay_metrics_answer_every_adjudicator_panel(tmp_path: Path) -> None:
    log = live_log(("chinese", "russian"), tables=3, hands=30, seed=21)
    path = tmp_path / "live.jsonl"
    lines = log.lines_at(datetime.now(UTC))
    path.write_bytes(b"\n".join(lines) + b"\n")
    port = free_port()
    with prometheus({"pitwatch-adjudicator": [f"127.0.0.1:{port}"]},
                    tmp_path / "prometheus") as server:
        # Paced like a live floor (a few seconds), so Prometheus sees the counters rise.
        replay = subprocess.Popen(
            [sys.executable, "-m", "services.observability.replay", str(path),
             "--events-per-second", str(len(lines) // 8)],
            env=service_env(port), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            wait_for("every hand to be scraped", lambda: server.scalar(
                "sum(pitwatch_hands_adjudicated_total)") == len(log.records), 120)
            wait_for("three scrapes after the last change", lambda: settled(server), 60)

            assert panel_problems(server, include=_adjudicator_side) == []
            assert alert_problems(server) == []

            statuses = Counter(r.status for r in log.records)
            for status, count in statuses.items():
                assert server.scalar(f'sum(pitwatch_hands_adjudicated_total{{status="{status}"}})'
                                     ) == count, status
            mispays = sum(f.code == "MISPAY" for r in log.records for f in r.findings)
            assert mispays > 0
            assert server.scalar("sum(pitwatch_mispays_total)") == mispays
            assert server.scalar('pitwatch_events_rejected_total{reason="malformed"}') == 1
            assert server.scalar('pitwatch_events_rejected_total{reason="schema"}') == 1
            assert server.scalar('sum(pitwatch_chain_failures_total{code="CHAIN_BROKEN"})'
                                 ) == log.chain_alerts > 0
            assert server.scalar("pitwatch_events_consumed_total") == len(lines)
            assert server.scalar("pitwatch_adjudication_latency_seconds_count") == len(
                log.records)
            assert label_values(server, "pitwatch_hands_adjudicated_total", "table"
                                ) == log.tables
        finally:
            replay.terminate()
            _, err = replay.communicate(timeout=30)
    assert b"Traceback" not in err, err.decode()
