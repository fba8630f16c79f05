"""The surveillance service's metrics: what it observes, with bounded labels only."""

from __future__ import annotations

import asyncio
import urllib.request
from dataclasses import dataclass, field
from typing import cast

import msgspec
import pytest
from aiokafka import TopicPartition
from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.parser import text_string_to_metric_families

from services.adjudicator.embedded import DeadLetter, iter_lines
from services.events.contract import Alert, Severity
from services.observability import labels, server
from services.observability.metrics import SurveillanceMetrics
from services.pipeline.monitoring import observe_surveillance_lag, start_surveillance_monitoring
from services.surveillance import chip_dumping, collusion, drift, improbable, soft_play
from services.surveillance.alert_id import SUBJECTS
from services.surveillance.engine import SurveillanceEngine
from services.surveillance.profile import surveillance_config
from services.surveillance.run import SurveillanceStep
from tests.profiles import HOUSE, PROFILES
from tests.unit.surveillance.test_incremental import REVIEW_EVERY, scenario


@pytest.fixture
def registry() -> CollectorRegistry:
    return CollectorRegistry()


def _value(registry: CollectorRegistry, name: str, **label_values: str) -> float | None:
    return registry.get_sample_value(name, label_values)


def _alert(rule: str, code: str, severity: str) -> Alert:
    """Any severity, as a producer outside pitwatch might put on the topic (the metrics
    must bucket what the contract does not allow)."""
    return Alert(table_id="T1", code=code, rule=rule, severity=cast(Severity, severity),
                 message="m", hand_id="T1-000001")


@dataclass
class Out:
    """A ``SurveillanceOutput`` as the metrics read it."""

    dead_letters: list[DeadLetter] = field(default_factory=list)
    hands_surveilled: int = 0


@dataclass
class Schedule:
    hands_surveilled: int
    review_every: int | None


def test_fixed_sets_are_those_of_services_surveillance() -> None:
    """The rules with an alert id are SURV-2..8, and each detector's code is the one the
    label set pairs with its rule (a new rule or code must be added to labels.py)."""
    engine = SurveillanceEngine(surveillance_config(HOUSE))
    codes = {
        engine.sweethearting.rule.rule: engine.sweethearting.rule.code,
        engine.exposure.rule.rule: engine.exposure.rule.code,
        "SURV-3": chip_dumping.CODE, "SURV-4": soft_play.CODE,
        "SURV-5": collusion.CODE, "SURV-6": improbable.CODE, "SURV-8": drift.CODE,
    }
    assert codes == labels.SURVEILLANCE_CODES
    assert set(SUBJECTS) == labels.SURVEILLANCE_RULES


def test_alerts_by_rule_code_severity_and_phase(registry: CollectorRegistry) -> None:
    """Replay: 2 critical SURV-2 alerts; caught up after 12.5 s; live: 1 critical SURV-2,
    1 warning SURV-8. Each (rule, code, severity, phase) series counts its own alerts."""
    m = SurveillanceMetrics(registry)
    assert _value(registry, "pitwatch_surveillance_replaying") == 0
    m.replay_started()
    assert _value(registry, "pitwatch_surveillance_replaying") == 1
    m.observe_alert(_alert("SURV-2", "SWEETHEARTING", "critical"))
    m.observe_alert(_alert("SURV-2", "SWEETHEARTING", "critical"))
    m.replay_caught_up(12.5)
    m.observe_alert(_alert("SURV-2", "SWEETHEARTING", "critical"))
    m.observe_alert(_alert("SURV-8", "PROCEDURE_DRIFT", "warning"))

    def alerts(rule: str, code: str, severity: str, phase: str) -> float | None:
        return _value(registry, "pitwatch_surveillance_alerts_total", rule=rule, code=code,
                      severity=severity, phase=phase)

    assert alerts("SURV-2", "SWEETHEARTING", "critical", "replay") == 2
    assert alerts("SURV-2", "SWEETHEARTING", "critical", "live") == 1
    assert alerts("SURV-8", "PROCEDURE_DRIFT", "warning", "live") == 1
    assert alerts("SURV-8", "PROCEDURE_DRIFT", "warning", "replay") == 0
    assert alerts("SURV-6", "IMPROBABLE_RESULTS", "critical", "live") == 0  # exists at 0
    assert _value(registry, "pitwatch_surveillance_replaying") == 0
    assert _value(registry, "pitwatch_surveillance_replay_seconds") == 12.5


def test_values_outside_the_fixed_sets_read_other(registry: CollectorRegistry) -> None:
    m = SurveillanceMetrics(registry)
    m.observe_alert(_alert("SURV-2", "SOMETHING_NEW", "critical"))
    m.observe_alert(_alert("SURV-99", "SWEETHEARTING", "severe"))
    assert _value(registry, "pitwatch_surveillance_alerts_total", rule="SURV-2",
                  code="other", severity="critical", phase="live") == 1
    assert _value(registry, "pitwatch_surveillance_alerts_total", rule="other",
                  code="SWEETHEARTING", severity="other", phase="live") == 1
    m.observe_review("whenever")
    assert _value(registry, "pitwatch_surveillance_reviews_total", trigger="other") == 1


def test_skips_by_reason_and_consumed(registry: CollectorRegistry) -> None:
    """Before the merge: no value and ``{oops`` are malformed, ``{"ts": 5}`` is JSON but
    not an event (schema). Fed: one record with two dead letters (rejected 2), one that
    closed a hand. Consumed 3 + 2 = 5; skipped 2 + 1 + 2 = 5 of which 2 rejected."""
    m = SurveillanceMetrics(registry)
    for value in (None, b"{oops", b'{"ts": 5}'):
        m.observe_skipped(value)
    dead = [DeadLetter("p0/1", "schema: bad", b"x"), DeadLetter("p0/2", "event seq 9", b"y")]
    m.observe_output(Out(dead_letters=dead), Schedule(0, None))
    m.observe_output(Out(hands_surveilled=1), Schedule(1, None))
    assert _value(registry, "pitwatch_surveillance_records_consumed_total") == 5
    assert _value(registry, "pitwatch_surveillance_records_skipped_total",
                  reason="malformed") == 2
    assert _value(registry, "pitwatch_surveillance_records_skipped_total", reason="schema") == 1
    assert _value(registry, "pitwatch_surveillance_records_skipped_total",
                  reason="rejected") == 2
    assert _value(registry, "pitwatch_surveillance_hands_total") == 1
    assert _value(registry, "pitwatch_surveillance_reviews_total", trigger="periodic") == 0


class CountingEngine(SurveillanceEngine):
    """Counts the reviews the step really runs, to check the metric against."""

    reviews = 0

    def review(self) -> list[Alert]:
        self.reviews += 1
        return super().review()


def test_a_real_run_reviews_hands_and_alerts_with_bounded_labels(
        registry: CollectorRegistry) -> None:
    """The 3-table scenario of test_incremental.py (SURV-2 and SURV-8 alerts, review every
    40 hands) fed as the service feeds it: the periodic reviews counted equal those the
    engine ran, the hands those the step surveilled, the alerts those produced, and no
    label carries a player, dealer, table or hand id."""
    lines, thresholds = scenario()
    engine = CountingEngine(thresholds)
    step = SurveillanceStep(thresholds, PROFILES, engine, review_every=REVIEW_EVERY)
    m = SurveillanceMetrics(registry)
    produced: list[Alert] = []
    for raw, where in iter_lines(lines):
        out = step.feed(raw, where)
        m.observe_output(out, step)
        for alert in out.alerts:
            m.observe_alert(alert)
        produced += out.alerts
    assert engine.reviews >= 2 and len(produced) >= 5
    assert _value(registry, "pitwatch_surveillance_reviews_total",
                  trigger="periodic") == engine.reviews
    assert _value(registry, "pitwatch_surveillance_hands_total") == step.hands_surveilled
    assert _value(registry, "pitwatch_surveillance_records_consumed_total") == len(lines)
    text = generate_latest(registry).decode()
    total = sum(s.value for f in text_string_to_metric_families(text) for s in f.samples
                if s.name == "pitwatch_surveillance_alerts_total")
    assert total == len(produced)

    allowed = {"rule": labels.SURVEILLANCE_RULES, "code": labels.SURVEILLANCE_CODE_SET,
               "severity": labels.SEVERITIES, "phase": labels.SURVEILLANCE_PHASES,
               "reason": labels.SURVEILLANCE_SKIP_REASONS, "trigger": labels.REVIEW_TRIGGERS}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            for name, value in sample.labels.items():
                assert value in allowed[name], (sample.name, name, value)
    events = [msgspec.json.decode(raw) for raw in lines]
    ids = {e["hand_id"] for e in events if e.get("hand_id")} | {e["table_id"] for e in events}
    ids |= {str(p) for a in produced for p in (a.evidence or {}).values()
            if isinstance(p, str)}
    assert not [i for i in ids if f'"{i}"' in text]


class FakeConsumer:
    """Positions and high watermarks as aiokafka's consumer holds them locally."""

    def __init__(self, positions: dict[int, int], highwater: dict[int, int | None]) -> None:
        self.positions, self.highwaters = positions, highwater

    async def position(self, tp: TopicPartition, /) -> int:
        return self.positions[tp.partition]

    def highwater(self, tp: TopicPartition, /) -> int | None:
        return self.highwaters[tp.partition]


def test_lag_per_partition(registry: CollectorRegistry) -> None:
    """p0: end 100 (watermark), at 60, 15 buffered -> 40 + 15 = 55. p1: no watermark yet,
    end offset at start 30, at 0 -> 30. p2: at its end 7, nothing buffered -> 0."""
    m = SurveillanceMetrics(registry)
    tps = [TopicPartition("table-events", p) for p in range(3)]
    consumer = FakeConsumer({0: 60, 1: 0, 2: 7}, {0: 100, 1: None, 2: 7})
    replay_end = {tps[0]: 80, tps[1]: 30, tps[2]: 7}
    buffered = {0: 15, 1: 0, 2: 0}
    asyncio.run(observe_surveillance_lag(consumer, tps, replay_end, buffered.__getitem__, m))
    lag = {p: _value(registry, "pitwatch_surveillance_lag_records", partition=str(p))
           for p in range(3)}
    assert lag == {0: 55, 1: 30, 2: 0}


def test_the_hook_serves_the_metrics_on_its_port(monkeypatch: pytest.MonkeyPatch) -> None:
    """Port 0 (PITWATCH_METRICS_PORT) asks for a free one; the endpoint carries the
    surveillance series at zero from the first scrape. The default port is 9403."""
    monkeypatch.delenv(server.PORT_ENV, raising=False)
    assert server.metrics_port_from_env("surveillance") == 9403
    monkeypatch.setenv(server.PORT_ENV, "0")
    monkeypatch.setenv(server.ADDR_ENV, "127.0.0.1")
    port = start_surveillance_monitoring()
    assert port is not None and port != 0
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as reply:
        body = reply.read().decode()
    assert "pitwatch_surveillance_records_consumed_total" in body
    assert ('pitwatch_surveillance_alerts_total{code="SWEETHEARTING",phase="live",'
            'rule="SURV-2",severity="critical"}') in body
    assert "pitwatch_surveillance_replaying 0.0" in body
