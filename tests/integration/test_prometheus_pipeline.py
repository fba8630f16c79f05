"""The proof against a real Prometheus, through Kafka (issue 10).

The Faust adjudicator and the ledger service run as subprocesses with their /metrics on
free ports; a Prometheus (Debian package, ``scripts/prometheus.sh run``) started from the
deployed config — same job names, same alert rules — scrapes them every second. A live
simulated log goes through Kafka: every fault the simulators know, a tampered event per
table, a malformed and a schema-invalid record; then, on the adjudications topic, one
record that is not an adjudication and one hand re-sent with different bytes (the ledger
refuses both). Then:

- every query of every dashboard panel parses and returns finite data;
- every alert expression parses, and the server loaded and evaluated every rule;
- the numbers Prometheus holds are the numbers of the run: hands, statuses, mispays,
  rejected records by reason, DLQ size, chain failures, ledger postings and failures,
  latency observations, lag back to zero.

The expected numbers come from the embedded runner on the same log and from the ledger
database, not from metrics.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

import msgspec
import pytest
import sqlalchemy as sa

from services.events.contract import decode_record, encode_record
from services.pipeline.producer import new_producer
from services.simulator.registry import SIMULATORS
from tests.integration import pipeline_fixtures
from tests.integration.pipeline_fixtures import PipelineFactory
from tests.integration.prometheus_live import (
    PrometheusServer,
    alert_problems,
    free_port,
    label_values,
    live_log,
    panel_problems,
    prometheus,
    settled,
    wait_for,
)

pipeline = pipeline_fixtures.pipeline

GAMES = tuple(SIMULATORS)
WAIT_S = 300.0


def _produce(bootstrap: str, topic: str, records: list[tuple[bytes, bytes]]) -> None:
    async def run() -> None:
        producer = new_producer(bootstrap)
        await producer.start()
        try:
            for key, value in records:
                await (await producer.send(topic, key=key, value=value))
        finally:
            await producer.stop()

    asyncio.run(run())


def _ledger_statuses(db_url: str) -> Counter[str]:
    """Hands in the ledger database by ledger status (posted, refused)."""
    engine = sa.create_engine(db_url, poolclass=sa.pool.NullPool)
    try:
        with engine.connect() as conn:
            rows = conn.execute(sa.text(
                "SELECT ledger_status, count(*) FROM hands GROUP BY ledger_status")).all()
    finally:
        engine.dispose()
    return Counter({status: int(count) for status, count in rows})


def _rows(db_url: str, *tables: str) -> dict[str, int]:
    """Each table's row count in the pipeline's database."""
    engine = sa.create_engine(db_url, poolclass=sa.pool.NullPool)
    try:
        with engine.connect() as conn:
            return {t: int(conn.execute(sa.text(f"SELECT count(*) FROM {t}")).scalar_one())
                    for t in tables}
    finally:
        engine.dispose()


def _one(server: PrometheusServer, expr: str) -> float | None:
    return server.scalar(expr)


def test_every_panel_returns_data_from_a_run_through_kafka(
        pipeline: PipelineFactory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert len(GAMES) >= 2, GAMES
    log = live_log(GAMES, tables=2 * len(GAMES), hands=25, seed=1129)
    p = pipeline(partitions=2)
    adjudicator_port, ledger_port, archive_port = free_port(), free_port(), free_port()
    monkeypatch.setenv("PITWATCH_KAFKA_WATCH_SECONDS", "1")
    monkeypatch.setenv("PITWATCH_METRICS_ADDR", "127.0.0.1")
    monkeypatch.setenv("PITWATCH_METRICS_PORT", str(adjudicator_port))
    p.start_adjudicator(archive=True)
    monkeypatch.setenv("PITWATCH_METRICS_PORT", str(ledger_port))
    p.start_ledger()
    monkeypatch.setenv("PITWATCH_METRICS_PORT", str(archive_port))
    p.start_archive()
    targets = {"pitwatch-adjudicator": [f"127.0.0.1:{adjudicator_port}"],
               "pitwatch-ledger": [f"127.0.0.1:{ledger_port}"],
               "pitwatch-archive": [f"127.0.0.1:{archive_port}"]}

    with prometheus(targets, tmp_path / "prometheus") as server:
        p.wait_until(lambda: len(server.values('up{job=~"pitwatch-.*"} == 1')) == 3,
                     "the three services scraped", WAIT_S)
        p.wait_until(lambda: bool(server.values("pitwatch_consumer_lag_records")),
                     "the broker watch reporting", WAIT_S)

        p.produce_lines(log.lines_at(datetime.now(UTC)))
        hands = len(log.records)
        p.wait_for_hands(hands, WAIT_S)
        p.wait_for_ledger(hands, WAIT_S)

        # Two records the ledger must refuse: not a record at all, and a hand already
        # booked, re-sent with different bytes.
        booked = decode_record(p.adjudications()[0].value or b"")
        altered = msgspec.structs.replace(booked, rule_profile="house-v0")
        key = booked.table_id.encode()
        _produce(p.bootstrap, p.settings.topics.adjudications,
                 [(key, b"not an adjudication record"), (key, encode_record(altered))])

        def ledger_failures_seen() -> bool:
            return (_one(server, 'pitwatch_ledger_write_failures_total{reason="conflict"}') == 1
                    and _one(server,
                             'pitwatch_ledger_write_failures_total{reason="undecodable"}') == 1)

        p.wait_until(ledger_failures_seen, "the ledger's refusals in Prometheus", WAIT_S)
        p.wait_until(lambda: _one(server, "sum(pitwatch_hands_adjudicated_total)") == hands,
                     "every hand in Prometheus", WAIT_S)
        p.wait_until(lambda: _one(server, "sum(max by (consumer_group, topic, partition) "
                                          "(pitwatch_consumer_lag_records))") == 0
                     and len(label_values(server, "pitwatch_consumer_lag_records",
                                          "consumer_group")) == 3,
                     "the three consumer groups caught up", WAIT_S)
        wait_for("three scrapes after the last change", lambda: settled(server), 60)

        # The surveillance service does not run here: its panels are parsed by promtool
        # (tests/unit/observability/test_rules.py) and their metrics unit-tested.
        assert panel_problems(server, include=lambda e: "pitwatch_surveillance_" not in e) == []
        assert alert_problems(server) == []

        statuses = Counter(r.status for r in log.records)
        for status, count in statuses.items():
            assert _one(server, f'sum(pitwatch_hands_adjudicated_total{{status="{status}"}})'
                        ) == count, status
        assert label_values(server, "pitwatch_hands_adjudicated_total", "table") == log.tables
        assert label_values(server, "pitwatch_hands_adjudicated_total", "game") == set(GAMES)
        mispays = sum(f.code == "MISPAY" for r in log.records for f in r.findings)
        assert mispays > 0
        assert _one(server, "sum(pitwatch_mispays_total)") == mispays
        critical = sum(f.severity == "critical" for r in log.records for f in r.findings)
        assert _one(server, 'sum(pitwatch_findings_total{severity="critical"})') == critical
        assert _one(server, 'pitwatch_events_rejected_total{reason="malformed"}') == 1
        assert _one(server, 'pitwatch_events_rejected_total{reason="schema"}') == 1
        assert _one(server, "max(pitwatch_dlq_records)") == log.dead_letters
        assert _one(server, 'sum(pitwatch_chain_failures_total{code="CHAIN_BROKEN"})'
                    ) == log.chain_alerts > 0
        assert _one(server, "pitwatch_adjudication_latency_seconds_count") == hands
        in_ledger = _ledger_statuses(p.db_url)
        assert sum(in_ledger.values()) == hands
        for ledger_status in ("posted", "refused"):
            assert _one(server, f'pitwatch_ledger_hands_total{{status="{ledger_status}"}}'
                        ) == in_ledger[ledger_status], ledger_status
        assert _one(server, 'pitwatch_ledger_hands_total{status="conflict"}') == 1
        assert (_one(server, "pitwatch_ledger_write_seconds_count") or 0) >= 1
        # The archive service's (QA: it served none): what it kept, counted in the
        # database, each stored once whatever the batches.
        kept = _rows(p.db_url, "archive_segments", "archive_alerts", "cases")
        assert kept["archive_segments"] > 0 and kept["cases"] > 0
        assert _one(server, 'pitwatch_archive_segments_total{status="stored"}'
                    ) == kept["archive_segments"]
        assert _one(server, 'pitwatch_archive_alerts_total{status="stored"}'
                    ) == kept["archive_alerts"]
        assert _one(server, 'pitwatch_cases_total{action="opened"}') == kept["cases"]
        assert (_one(server, "pitwatch_archive_batch_seconds_count") or 0) >= 1
