"""What each observation adds to which series, with numbers worked out by hand."""

from __future__ import annotations

import random
import uuid
from collections import Counter

import orjson
import pytest
from prometheus_client import CollectorRegistry, generate_latest

from services.adjudicator.embedded import EmbeddedRunner
from services.events.contract import AdjudicationRecord, Finding, Movement
from services.observability import metrics as m
from services.observability.labels import REASON_CLASSES
from services.simulator.handbuilder import table_config
from services.simulator.stream import TableStream

ENDED = "2026-03-01T20:00:00.000Z"
ENDED_EPOCH = 1772395200.0  # 2026-03-01T20:00:00Z


def _move(kind: str, src: str, dst: str, amount: int, seq: int) -> Movement:
    return Movement(event_id=str(uuid.UUID(int=seq, version=4)), seq=seq, from_=src, to=dst,
                    amount=amount, kind=kind)


def _finding(code: str, rule: str, severity: str, amount: int | None = None) -> Finding:
    return Finding(code=code, rule=rule, severity=severity, seat=1,  # type: ignore[arg-type]
                   amount=amount, message="test")


def _record(**overrides: object) -> AdjudicationRecord:
    base: dict[str, object] = dict(
        v=1, table_id="T9", hand_id="T9-000001", game="hcf", status="discrepancy",
        rule_profile="house-v1", expected=None, recorded=None, findings=[],
        players={"1": "P-ONE", "3": "P-THREE"}, dealer_id="D77", rake_mode="players",
        ended_at=ENDED)
    base.update(overrides)
    return AdjudicationRecord(**base)  # type: ignore[arg-type]


def _value(registry: CollectorRegistry, name: str, **label_values: str) -> float:
    value = registry.get_sample_value(name, label_values)
    assert value is not None, f"no sample {name}{label_values}"
    return value


@pytest.fixture
def registry() -> CollectorRegistry:
    return CollectorRegistry()


def test_record_chips_findings_mispays_latency(registry: CollectorRegistry) -> None:
    """Seat 1 antes 5 and raises 10 (wagered 5+10 = 15); the DP takes the ante (collected
    5) and pays 10 on the raise (paid 10); seat 1 pays 1 rake (raked 1); the raise (10)
    goes back at hand_ended (layout_return: moves chips, wagers nothing, not counted).
    Findings: MISPAY (settlement, 4 chips short), RAKE_OVER (settlement), DUPLICATE_CARD
    (GEN-1, integrity), RAISE_OVER_CAP (HCF-4, procedure). Record produced 0.2 s after
    hand_ended: one observation in the le=0.25 bucket, none in le=0.15."""
    metrics = m.AdjudicatorMetrics(registry)
    record = _record(
        movements=[
            _move("wager", "stack:1", "layout:1", 5, 2),
            _move("wager", "stack:1", "layout:1", 10, 3),
            _move("wager_collected", "layout:1", "stack:3", 5, 4),
            _move("payout", "stack:3", "stack:1", 10, 5),
            _move("rake", "stack:1", "house", 1, 6),
            _move("layout_return", "layout:1", "stack:1", 10, 7),
        ],
        findings=[
            _finding("MISPAY", "HCF-7", "critical", amount=-4),
            _finding("RAKE_OVER", "HCF-12", "warning", amount=1),
            _finding("DUPLICATE_CARD", "GEN-1", "critical"),
            _finding("RAISE_OVER_CAP", "HCF-4", "warning"),
        ])
    metrics.observe_record(record, now=ENDED_EPOCH + 0.2)

    chips = {"game": "hcf", "rake_mode": "players"}
    assert _value(registry, "pitwatch_wagered_chips_total", **chips) == 15
    assert _value(registry, "pitwatch_collected_chips_total", **chips) == 5
    assert _value(registry, "pitwatch_paid_chips_total", **chips) == 10
    assert _value(registry, "pitwatch_raked_chips_total", **chips) == 1
    assert _value(registry, "pitwatch_hands_adjudicated_total",
                  table="T9", game="hcf", status="discrepancy") == 1
    assert _value(registry, "pitwatch_findings_total", game="hcf", rule="HCF-7", code="MISPAY",
                  severity="critical", category="settlement") == 1
    assert _value(registry, "pitwatch_findings_total", game="hcf", rule="GEN-1",
                  code="DUPLICATE_CARD", severity="critical", category="integrity") == 1
    assert _value(registry, "pitwatch_findings_total", game="hcf", rule="HCF-4",
                  code="RAISE_OVER_CAP", severity="warning", category="procedure") == 1
    assert _value(registry, "pitwatch_table_findings_total", table="T9",
                  category="settlement", severity="warning") == 1
    assert _value(registry, "pitwatch_mispays_total", table="T9", dealer="D77", game="hcf") == 1
    assert _value(registry, "pitwatch_mispaid_chips_total",
                  table="T9", dealer="D77", game="hcf") == 4
    assert _value(registry, "pitwatch_adjudication_latency_seconds_bucket", le="0.15") == 0
    assert _value(registry, "pitwatch_adjudication_latency_seconds_bucket", le="0.25") == 1
    assert _value(registry, "pitwatch_adjudication_latency_seconds_sum") == pytest.approx(0.2)


def test_rejected_hand_without_game_or_movements(registry: CollectorRegistry) -> None:
    """A rejected hand (no configuration): game and rake mode unknown, no chips moved,
    no timestamp for the latency."""
    metrics = m.AdjudicatorMetrics(registry)
    metrics.observe_record(_record(game=None, status="rejected", rake_mode=None,
                                   ended_at=None, players=None), now=0.0)
    assert _value(registry, "pitwatch_hands_adjudicated_total",
                  table="T9", game="unknown", status="rejected") == 1
    assert _value(registry, "pitwatch_latency_unmeasured_total", reason="no_timestamp") == 1
    assert registry.get_sample_value("pitwatch_wagered_chips_total",
                                     {"game": "unknown", "rake_mode": "unknown"}) is None


def test_a_player_id_in_the_dealer_or_table_field_is_redacted(
        registry: CollectorRegistry) -> None:
    metrics = m.AdjudicatorMetrics(registry)
    metrics.observe_record(_record(table_id="P-ONE", dealer_id="P-THREE",
                                   findings=[_finding("MISPAY", "HCF-7", "critical", 3)]),
                           now=ENDED_EPOCH)
    text = generate_latest(registry).decode()
    assert "P-ONE" not in text and "P-THREE" not in text
    assert _value(registry, "pitwatch_mispays_total",
                  table="redacted", dealer="redacted", game="hcf") == 1


@pytest.mark.parametrize(("ended_at", "now", "expected"), [
    (None, 0.0, "no_timestamp"),
    ("yesterday", 0.0, "no_timestamp"),
    ("2026-02-30T18:00:00.000Z", 0.0, "no_timestamp"),  # issue #19: shape of a ts, no day
    (ENDED, ENDED_EPOCH + 0.25, 0.25),
    (ENDED, ENDED_EPOCH - 0.5, 0.0),  # table clock 0.5 s ahead: within tolerance, 0
    (ENDED, ENDED_EPOCH - 5.0, "table_clock_ahead"),
    (ENDED, ENDED_EPOCH + 3599.0, 3599.0),
    (ENDED, ENDED_EPOCH + 7200.0, "replayed"),
])
def test_latency_or_reason(ended_at: str | None, now: float, expected: float | str) -> None:
    assert m.latency_or_reason(ended_at, now) == expected


def test_closed_label_sets_start_at_zero(registry: CollectorRegistry) -> None:
    m.AdjudicatorMetrics(registry)
    for reason in REASON_CLASSES:
        assert _value(registry, "pitwatch_events_rejected_total", reason=reason) == 0
    ledger = CollectorRegistry()
    m.LedgerMetrics(ledger)
    for reason in ("error", "conflict", "refused", "undecodable"):
        assert _value(ledger, "pitwatch_ledger_write_failures_total", reason=reason) == 0


# ---------------------------------------------------------------- rejections, real reasons


def _configured_table() -> TableStream:
    stream = TableStream("T5", random.Random(4))
    stream.emit("table_configured", table_config("russian"))
    return stream


def test_rejections_are_classed_from_the_runners_own_reasons(
        registry: CollectorRegistry) -> None:
    """Every record the embedded runner refuses, with the reason it gives, lands in the
    class named here: two malformed, two schema, one oversize, one orphan (a wager of a
    hand that never started), one duplicate (the same event twice), one chain (another
    event claiming a taken seq)."""
    metrics = m.AdjudicatorMetrics(registry)
    runner = EmbeddedRunner()
    stream = _configured_table()
    configured = orjson.dumps(stream.events[0])
    orphan = orjson.dumps(stream.emit("wager", {"seat": 1, "kind": "ante", "amount": 5},
                                      hand_id="T5-000009"))
    forged = dict(stream.events[0], event_id=str(uuid.UUID(int=77, version=4)))
    records = [
        b"{not json", b"", b"[1, 2]", b'{"v": 1, "table_id": "T5"}',
        b'{"pad": "' + b"x" * 1_000_001 + b'"}',
        configured, orphan, configured, orjson.dumps(forged),
    ]
    for n, raw in enumerate(records, start=1):
        metrics.observe_step(runner.feed(raw, f"line {n}"))
    expected = Counter(malformed=2, schema=2, oversize=1, orphan=1, duplicate=1, chain=1)
    for reason in REASON_CLASSES:
        assert _value(registry, "pitwatch_events_rejected_total",
                      reason=reason) == expected[reason], reason
    assert _value(registry, "pitwatch_events_consumed_total") == len(records)
    assert _value(registry, "pitwatch_chain_failures_total", table="T5",
                  code="SEQ_CONFLICT") == 1
    assert _value(registry, "pitwatch_alerts_total", rule="SURV-9", code="ORPHAN_EVENT",
                  severity="warning") == 1


def test_pipeline_key_reason_is_its_own_class() -> None:
    from services.observability.labels import reason_class

    assert reason_class("record key b'X' is not its table_id 'T1': table-events must be "
                        "keyed by table_id") == "key"
    assert reason_class("something nobody foresaw") == "other"


@pytest.mark.parametrize(("reason", "cls"), [
    ("nesting: objects and arrays nested deeper than 8 levels", "oversize"),
    ("repeated key: key 'stack' appears more than once in the object at `$.data`", "malformed"),
    ("control character: U+000A in the string at `$.data.reason`", "malformed"),
    ("schema: '2026-02-30T18:00:00.000Z' is not a real instant", "schema"),
])
def test_the_contract_refusals_of_issue_19_have_their_classes(reason: str, cls: str) -> None:
    from services.observability.labels import reason_class

    assert reason_class(reason) == cls


# ---------------------------------------------------------------- ledger


def test_ledger_write_outcomes(registry: CollectorRegistry) -> None:
    """A batch of 5 hands: 3 posted, 1 duplicate, 1 conflict (a failure); then a batch
    whose transaction raised (a failure of the whole write); then 2 undecodable records."""
    ledger = m.LedgerMetrics(registry)
    ledger.observe_write(0.02, Counter(posted=3, duplicate=1, conflict=1))
    ledger.observe_write(0.4, None)
    ledger.observe_undecodable(2)
    assert _value(registry, "pitwatch_ledger_hands_total", status="posted") == 3
    assert _value(registry, "pitwatch_ledger_hands_total", status="duplicate") == 1
    assert _value(registry, "pitwatch_ledger_hands_total", status="undecodable") == 2
    assert _value(registry, "pitwatch_ledger_write_failures_total", reason="conflict") == 1
    assert _value(registry, "pitwatch_ledger_write_failures_total", reason="error") == 1
    assert _value(registry, "pitwatch_ledger_write_failures_total", reason="undecodable") == 2
    assert _value(registry, "pitwatch_ledger_write_seconds_count") == 2
    assert _value(registry, "pitwatch_ledger_write_seconds_bucket", le="0.025") == 1


def test_timed_ledger_write_observes_and_reraises() -> None:
    """Runs against the process-wide ledger metrics, so it compares before and after."""
    from prometheus_client import REGISTRY

    def failures() -> float:
        return REGISTRY.get_sample_value("pitwatch_ledger_write_failures_total",
                                         {"reason": "error"}) or 0.0

    def posted() -> float:
        return REGISTRY.get_sample_value("pitwatch_ledger_hands_total",
                                         {"status": "posted"}) or 0.0

    def book(n: int) -> Counter[str]:
        return Counter(posted=n)

    def broken(n: int) -> Counter[str]:
        raise RuntimeError(f"database gone after {n}")

    before_failures, before_posted = failures(), posted()
    assert m.timed_ledger_write(book, 4) == Counter(posted=4)
    with pytest.raises(RuntimeError, match="database gone after 2"):
        m.timed_ledger_write(broken, 2)
    assert posted() - before_posted == 4
    assert failures() - before_failures == 1


def test_kafka_watch_gauges(registry: CollectorRegistry) -> None:
    watch = m.KafkaWatchMetrics(registry)
    watch.set_lag("pitwatch-ledger", [("adjudications", 0, 12), ("adjudications", 1, -3)])
    watch.set_dlq("table-events.dlq", 7)
    assert _value(registry, "pitwatch_consumer_lag_records", consumer_group="pitwatch-ledger",
                  topic="adjudications", partition="0") == 12
    assert _value(registry, "pitwatch_consumer_lag_records", consumer_group="pitwatch-ledger",
                  topic="adjudications", partition="1") == 0
    assert _value(registry, "pitwatch_dlq_records", topic="table-events.dlq") == 7
