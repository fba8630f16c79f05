"""Hash chain and seq verification (SURV-9) and hand assembly, on hand-written streams."""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Any

import orjson
from hypothesis import given, settings
from hypothesis import strategies as st

from services.adjudicator.embedded import DeadLetter, EmbeddedRunner, adjudicate_lines
from services.events.contract import AdjudicationRecord, Alert
from tests.profiles import PROFILES
from tests.unit.core.streams import hcf_stream, lines


def run(raw_lines: list[bytes]
        ) -> tuple[list[AdjudicationRecord], list[Alert], list[DeadLetter]]:
    records: list[AdjudicationRecord] = []
    alerts: list[Alert] = []
    dead: list[DeadLetter] = []
    for step in adjudicate_lines(raw_lines, PROFILES):
        records += step.records
        alerts += step.alerts
        dead += step.dead_letters
    return records, alerts, dead


def codes(alerts: Iterable[Alert]) -> list[str]:
    return [a.code for a in alerts]


def test_clean_stream_has_no_chain_findings() -> None:
    records, alerts, dead = run(lines(hcf_stream()))
    assert [r.hand_id for r in records] == ["T1-000001", "T1-000002"]
    assert alerts == [] and dead == []
    for r in records:
        assert not any(f.rule == "SURV-9" for f in r.findings)


def test_altered_event_is_caught_by_the_next_prev_hash() -> None:
    events = hcf_stream()
    events[4]["data"]["amount"] = 4  # seq 5, the ante of hand 1, altered after hashing
    records, alerts, _ = run(lines(events))
    assert codes(alerts) == ["CHAIN_BROKEN"]
    assert alerts[0].seq == 6
    hand1 = records[0]
    assert any(f.code == "CHAIN_BROKEN" and f.severity == "critical" for f in hand1.findings)
    assert not any(f.rule == "SURV-9" for f in records[1].findings)


def test_missing_event_is_a_gap() -> None:
    events = hcf_stream()
    del events[5]  # seq 6
    _, alerts, _ = run(lines(events))
    assert "SEQ_GAP" in codes(alerts)
    gap = next(a for a in alerts if a.code == "SEQ_GAP")
    assert "seq 6" in gap.message and gap.seq == 7


def test_same_event_twice_is_ignored_with_info_alert() -> None:
    raw = lines(hcf_stream())
    raw.insert(6, raw[5])
    records, alerts, _ = run(raw)
    assert codes(alerts) == ["DUPLICATE_EVENT"]
    assert alerts[0].severity == "info"
    assert len(records) == 2
    assert not any(f.rule == "SURV-9" for r in records for f in r.findings)


def test_same_event_id_different_body_is_critical() -> None:
    events = hcf_stream()
    twin = copy.deepcopy(events[4])
    twin["data"]["amount"] = 50
    raw = lines(events)
    raw.insert(6, orjson.dumps(twin))
    records, alerts, _ = run(raw)
    assert "EVENT_ID_CONFLICT" in codes(alerts)
    assert any(f.code == "EVENT_ID_CONFLICT" for f in records[0].findings)


def test_swapped_events_are_reordered_and_still_assembled() -> None:
    raw = lines(hcf_stream())
    raw[5], raw[6] = raw[6], raw[5]
    records, alerts, _ = run(raw)
    assert {"SEQ_GAP", "REORDERED"} <= set(codes(alerts))
    assert "CHAIN_BROKEN" not in codes(alerts)
    assert len(records) == 2


def test_replayed_old_event_under_new_id_is_a_seq_conflict() -> None:
    events = hcf_stream()
    forged = copy.deepcopy(events[4])
    forged["event_id"] = "00000000-0000-4000-8000-000000000001"
    raw = lines(events) + [orjson.dumps(forged)]
    _, alerts, _ = run(raw)
    assert codes(alerts)[-1] == "SEQ_CONFLICT"


def test_two_tables_interleaved_do_not_disturb_each_other() -> None:
    a, b = hcf_stream("TA"), hcf_stream("TB", seed=9)
    merged = [x for pair in zip(a, b, strict=True) for x in pair]
    records, alerts, dead = run(lines(merged))
    assert alerts == [] and dead == []
    assert sorted(r.hand_id for r in records) == sorted(
        ["TA-000001", "TA-000002", "TB-000001", "TB-000002"])


def test_open_hand_at_end_of_input_is_reported_not_dropped() -> None:
    events = hcf_stream()[:-1]
    records, _, _ = run(lines(events))
    assert records[-1].hand_id == "T1-000002"
    assert records[-1].status == "rejected"
    assert records[-1].findings[-1].code == "INCOMPLETE_HAND"


def test_event_for_a_hand_that_is_not_open_goes_to_dlq() -> None:
    events = hcf_stream()
    raw = lines(events)
    runner = EmbeddedRunner(PROFILES)
    for i, line in enumerate(raw[:3]):
        runner.feed(line, f"line {i + 1}")
    step = runner.feed(raw[4], "line 5")  # wager before hand_started (seq 4 skipped)
    assert step.dead_letters and "no hand is open" in step.dead_letters[0].reason


def _mutations(value: object) -> list[object]:
    if isinstance(value, bool):
        return [not value]
    if isinstance(value, int):
        return [value + 1, value - 1] if value > 1 else [value + 1]
    if isinstance(value, str):
        return [value + "x"] if len(value) < 60 else [value[:-1] + ("0" if value[-1] != "0" else "1")]
    return []


def _leaf_paths(obj: object, prefix: tuple[str | int, ...] = ()) -> list[tuple[str | int, ...]]:
    if isinstance(obj, dict):
        return [p for k, v in obj.items() for p in _leaf_paths(v, (*prefix, k))]
    if isinstance(obj, list):
        return [p for i, v in enumerate(obj) for p in _leaf_paths(v, (*prefix, i))]
    return [prefix] if _mutations(obj) else []


@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_any_single_field_tamper_is_detected(data: st.DataObject) -> None:
    """Change one field of any event that has a successor: the run must notice.

    Detected means: a SURV-9 alert, or the record rejected to the DLQ (a tamper that breaks
    the schema), or a changed adjudication (never silently identical and clean)."""
    events = hcf_stream(hands=3)
    index = data.draw(st.integers(0, len(events) - 2))
    path = data.draw(st.sampled_from(_leaf_paths(events[index])))
    target: Any = events[index]
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = data.draw(st.sampled_from(_mutations(target[path[-1]])))
    _, alerts, dead = run(lines(events))
    surv9 = [a for a in alerts if a.rule == "SURV-9" and a.severity != "info"]
    assert surv9 or dead, f"tamper of {path} in event {index} went unnoticed"
