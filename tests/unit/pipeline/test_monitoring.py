"""The adjudicator's batch hook reads exactly what the stream step produced."""

from __future__ import annotations

from dataclasses import dataclass, field

import msgspec
from prometheus_client import CollectorRegistry

from services.events.contract import AdjudicationRecord, Alert, Finding, encode_record
from services.observability.metrics import AdjudicatorMetrics
from services.pipeline.monitoring import observe_adjudicator_batch
from services.pipeline.step import REASON_HEADER


@dataclass(frozen=True)
class Out:
    topic: str
    value: bytes | None
    headers: list[tuple[str, bytes]] = field(default_factory=list)


@dataclass(frozen=True)
class Topics:
    adjudications: str = "p-adjudications"
    alerts: str = "p-alerts"
    dlq: str = "p-table-events.dlq"


def test_batch_of_records_alerts_and_dead_letters() -> None:
    """A batch of 40 consumed records produced: two hands (one ok, one with a MISPAY),
    one CHAIN_BROKEN alert, and three dead letters — one whose input already carried a
    reason header of its own (the last header is ours), one without a value."""
    registry = CollectorRegistry()
    metrics = AdjudicatorMetrics(registry)
    topics = Topics()

    def hand(hand_id: str, findings: list[Finding]) -> bytes:
        return encode_record(AdjudicationRecord(
            v=1, table_id="T2", hand_id=hand_id, game="russian",
            status="discrepancy" if findings else "ok", rule_profile="house-v1",
            expected=None, recorded=None, findings=findings, dealer_id="D9",
            ended_at="2026-03-01T20:00:00.000Z"))

    mispay = Finding(code="MISPAY", rule="RP-7", severity="critical", seat=2, amount=5,
                     message="x")
    alert = Alert(table_id="T2", code="CHAIN_BROKEN", rule="SURV-9", severity="critical",
                  message="seq 9 altered", seq=10)
    batch = [
        Out(topics.adjudications, hand("T2-000001", [])),
        Out(topics.alerts, msgspec.json.encode(alert)),
        Out(topics.adjudications, hand("T2-000002", [mispay])),
        Out(topics.dlq, b"{oops", [(REASON_HEADER, b"malformed JSON: unexpected character")]),
        Out(topics.dlq, b"{}", [(REASON_HEADER, b"upstream said so"),
                                (REASON_HEADER, b"schema: Object missing required field `v`")]),
        Out(topics.dlq, None, [(REASON_HEADER, b"empty record (no value)")]),
    ]
    observe_adjudicator_batch(batch, topics, consumed=40, now=1772395200.1, metrics=metrics)

    def value(name: str, **labels: str) -> float | None:
        return registry.get_sample_value(name, labels)

    assert value("pitwatch_events_consumed_total") == 40
    assert value("pitwatch_hands_adjudicated_total", table="T2", game="russian",
                 status="ok") == 1
    assert value("pitwatch_mispays_total", table="T2", dealer="D9", game="russian") == 1
    assert value("pitwatch_chain_failures_total", table="T2", code="CHAIN_BROKEN") == 1
    assert value("pitwatch_events_rejected_total", reason="malformed") == 2
    assert value("pitwatch_events_rejected_total", reason="schema") == 1
    assert value("pitwatch_events_rejected_total", reason="other") == 0
    assert value("pitwatch_adjudication_latency_seconds_count") == 2
