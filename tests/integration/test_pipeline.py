"""The Kafka pipeline end to end: a simulated log through Kafka, the adjudicator worker
and the ledger service on PostgreSQL gives exactly what the embedded run gives.
"""

from __future__ import annotations

import copy
import dataclasses
import hashlib
from typing import Any

import orjson

from services.events.contract import Finding, decode_record, encode_record
from services.pipeline.producer import keyed_records
from services.pipeline.step import SOURCE_HEADER
from services.simulator.run import simulate
from tests.integration import pipeline_fixtures
from tests.integration.pipeline_fixtures import SEED, EventLog, PipelineFactory
from tests.integration.pipeline_support import (
    book_reference,
    count_hands,
    create_database,
    deduplicated,
    drop_database,
    embedded_reference,
    ledger_snapshot,
    produce_over_every_transport,
    reason_of,
)
from tests.profiles import HOUSE

event_log = pipeline_fixtures.event_log
fault_log = pipeline_fixtures.fault_log
pipeline = pipeline_fixtures.pipeline


def test_end_to_end_equals_the_embedded_run(event_log: EventLog,
                                            pipeline: PipelineFactory) -> None:
    """Every hand once, byte-identical to ``pitwatch adjudicate``; the same ledger."""
    p = pipeline(partitions=3)
    p.start_adjudicator()
    p.start_ledger()
    p.produce_lines(event_log.lines)
    expected = event_log.reference.records
    p.wait_for_hands(len(expected))
    p.wait_for_ledger(len(expected))

    seen = p.hands_seen()
    assert {hand: len(values) for hand, values in seen.items() if len(values) > 1} == {}
    assert deduplicated(seen) == expected
    assert p.dead_letters() == []
    assert ledger_snapshot(p.db_url) == event_log.ledger


def test_every_codec_null_headers_and_aborted_transactions(fault_log: EventLog,
                                                         pipeline: PipelineFactory) -> None:
    """What Java producers commonly send: batches compressed with gzip, lz4, zstd and
    snappy, headers without a value, and a transactional producer whose first
    transaction (altered copies of real events) is aborted. Exactly the embedded run's
    records and ledger: the aborted records are never read, nothing is dead-lettered."""
    p = pipeline(partitions=2)
    p.start_adjudicator()
    p.start_ledger()
    records = [(key, value) for key, value in keyed_records(fault_log.lines)]
    p.loop.run_until_complete(
        produce_over_every_transport(p.bootstrap, p.settings.topics.events, records))
    expected = fault_log.reference.records
    p.wait_for_hands(len(expected))
    p.wait_for_ledger(len(expected))
    assert deduplicated(p.hands_seen()) == expected
    assert p.dead_letters() == []
    assert not [m for m in p.alerts() if b"CONFLICT" in (m.value or b"")]
    assert ledger_snapshot(p.db_url) == fault_log.ledger


def _tamper(events: list[dict[str, Any]], table_id: str) -> str:
    """Alter one chip amount in the middle of ``table_id``'s stream after it was hashed
    (the next event's ``prev_hash`` no longer matches); returns the hand it belongs to."""
    mine = [i for i, e in enumerate(events) if e["table_id"] == table_id]
    for i in mine[len(mine) // 2:]:
        amount = events[i]["data"].get("amount")
        if isinstance(amount, int) and amount > 1 and events[i]["hand_id"] is not None:
            events[i]["data"]["amount"] = amount - 1
            return str(events[i]["hand_id"])
    raise AssertionError("no event with an amount to alter")


def _poison(valid: dict[str, Any]) -> list[bytes]:
    """Records a broken table system could publish: not JSON, not an object, not v1."""
    return [
        b'{"v": 1, "table_id": "T001", "seq": 12',  # cut off mid-record
        b"\xff\xfe\x00 binary noise",
        b"[1, 2, 3]",
        orjson.dumps({**valid, "data": {**valid["data"], "colour": "red"}}),  # unknown field
        orjson.dumps({**valid, "seq": "7"}),  # wrong type
        orjson.dumps({**valid, "type": "teleport"}),  # unknown event type
        orjson.dumps({k: v for k, v in valid.items() if k != "prev_hash"}),  # field missing
    ]


def test_poison_input_is_dead_lettered_or_found_and_nothing_else_is_lost(
        pipeline: PipelineFactory) -> None:
    """Malformed and schema-invalid records land in the DLQ unchanged with the embedded
    run's reason; a tampered event becomes a SURV-9 finding on its hand; records keyed
    for another table or without a value are dead-lettered; every hand is adjudicated."""
    clean = simulate(["hcf"], 2, 30, SEED + 2, profile=HOUSE).events
    clean_hands = set(embedded_reference([orjson.dumps(e) for e in clean]).records)
    events = copy.deepcopy(clean)
    tampered_hand = _tamper(events, "T001")
    lines = [orjson.dumps(e) for e in events]
    poison = _poison(events[5])
    for n, record in enumerate(poison):  # spread over the log
        lines.insert((n + 1) * len(lines) // (len(poison) + 1), record)
    reference = embedded_reference(lines)
    assert len(reference.dead_letters) == len(poison) and reference.open_at_end == 0

    p = pipeline(partitions=2)
    p.start_adjudicator()
    p.start_ledger()
    misrouted = orjson.dumps(events[-1])  # a valid T00x event under another table's key
    other_key = b"T002" if events[-1]["table_id"] == "T001" else b"T001"
    p.produce_keyed([(other_key, misrouted), (b"T001", None)])
    p.produce_lines(lines)
    p.wait_for_hands(len(reference.records))
    p.wait_for_ledger(len(reference.records))
    p.wait_until(lambda: len(p.dead_letters()) >= len(poison) + 2, "every dead letter")

    assert deduplicated(p.hands_seen()) == reference.records
    assert set(reference.records) == clean_hands
    broken = decode_record(reference.records[tampered_hand]).findings
    assert any(f.code == "CHAIN_BROKEN" and f.severity == "critical" for f in broken)
    assert any(b'"CHAIN_BROKEN"' in (m.value or b"") for m in p.alerts())

    dead = p.dead_letters()
    kafka_only = {(m.key, m.value): reason_of(m) for m in dead
                  if m.value is None or m.value == misrouted}
    from_log = [(m.value, reason_of(m)) for m in dead if (m.key, m.value) not in kafka_only]
    assert sorted(from_log) == sorted(reference.dead_letters)
    assert kafka_only.keys() == {(other_key, misrouted), (b"T001", None)}
    assert kafka_only[(other_key, misrouted)].startswith(
        f"record key {other_key!r} is not its table_id")
    assert kafka_only[(b"T001", None)] == "empty record (no value)"
    for m in p.dead_letters():
        assert dict(m.headers)[SOURCE_HEADER].startswith(p.settings.topics.events.encode())

    booked = ledger_snapshot(p.db_url)
    assert set(booked.hands) == clean_hands and booked.conflicts == 0


def test_ledger_service_books_repeats_once_and_reports_a_changed_repeat(
        pipeline: PipelineFactory, pg_url: str) -> None:
    """At-least-once delivery on ``adjudications``: a record delivered again is booked
    once; a hand delivered again with a different body is refused and kept as a critical
    LEDGER_CONFLICT (the booked hand is unchanged), and every later hand is still booked."""
    events = simulate(["hcf"], 2, 6, SEED + 3, profile=HOUSE).events
    records = list(embedded_reference([orjson.dumps(e) for e in events]).records.values())
    changed = decode_record(records[3])
    changed.findings.append(Finding(code="X", rule="GEN-8", severity="info", seat=None,
                                    amount=None, message="altered after booking"))
    stream = [*records[:4], records[1], records[2], encode_record(changed), *records[4:],
              records[0]]
    reference_url = create_database(pg_url, "pw_reference")
    try:
        book_reference(reference_url, records)
        reference = ledger_snapshot(reference_url)
    finally:
        drop_database(reference_url)

    p = pipeline(partitions=2)
    p.produce_keyed([(decode_record(r).table_id.encode(), r) for r in stream],
                    topic=p.settings.topics.adjudications)
    ledger = p.start_ledger()
    p.wait_until(lambda: "LEDGER_CONFLICT" in ledger.log.read_text(errors="replace")
                 and count_hands(p.db_url) == len(records), "every hand and the conflict")

    booked = ledger_snapshot(p.db_url)
    assert booked.conflicts == 1
    assert booked.hands == {decode_record(r).hand_id: hashlib.sha256(r).hexdigest()
                            for r in records}
    assert dataclasses.replace(booked, conflicts=0) == reference
