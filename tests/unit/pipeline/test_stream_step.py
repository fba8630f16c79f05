"""The Kafka processing step without Kafka: batches of records against stored states.

The Faust app only adds transport around ``step_batch``; these tests pin the behaviour
the pipeline's guarantees rest on: the same bytes as the embedded run however the
records are cut into batches, replayed records skipped exactly, every rejected record
dead-lettered unchanged with its reason.
"""

from __future__ import annotations

import heapq
import itertools

import orjson
from hypothesis import given, settings
from hypothesis import strategies as st

from services.adjudicator.embedded import adjudicate_lines
from services.adjudicator.producer import record_key
from services.adjudicator.stream_step import (
    REASON_HEADER,
    SOURCE_HEADER,
    BatchResult,
    InputRecord,
    decode_stored,
    step_batch,
)
from services.adjudicator.table import decode_state
from services.adjudicator.topics import TopicNames
from services.events.contract import encode_record
from tests.unit.core.streams import hcf_stream, lines

TOPICS = TopicNames.with_prefix("u-")


def two_tables(hands: int = 3) -> list[bytes]:
    """Two tables' streams interleaved by timestamp, as a table network publishes them."""
    merged = heapq.merge(hcf_stream("T1", hands, seed=3), hcf_stream("T2", hands, seed=4),
                         key=lambda e: (e["ts"], e["table_id"]))
    return lines(list(merged))


def as_records(raw: list[bytes], partition: int = 0, first_offset: int = 0
               ) -> list[InputRecord]:
    """Records as Kafka delivers them: keyed by table_id, consecutive offsets."""
    return [InputRecord(TOPICS.events, partition, first_offset + i, record_key(value), value)
            for i, value in enumerate(raw)]


class FakeTable:
    """The Faust table: key -> stored value, written only when a batch is complete."""

    def __init__(self) -> None:
        self.values: dict[bytes, bytes] = {}

    def run(self, records: list[InputRecord]) -> BatchResult:
        result = step_batch(TOPICS, self.values.get, records)
        for key, (_partition, value) in result.states.items():
            self.values[key] = value
        return result


def embedded_records(raw: list[bytes]) -> list[bytes]:
    return [encode_record(r) for step in adjudicate_lines(raw) for r in step.records]


def outputs(results: list[BatchResult], topic: str) -> list[bytes | None]:
    return [o.value for r in results for o in r.outgoing if o.topic == topic]


@settings(max_examples=40, deadline=None)
@given(cuts=st.lists(st.integers(min_value=0, max_value=31), max_size=8))
def test_any_batching_gives_the_embedded_bytes(cuts: list[int]) -> None:
    raw = two_tables()
    records = as_records(raw)
    bounds = sorted({0, len(records), *(c % (len(records) + 1) for c in cuts)})
    table = FakeTable()
    results = [table.run(records[a:b]) for a, b in itertools.pairwise(bounds)]
    assert outputs(results, TOPICS.adjudications) == embedded_records(raw)
    assert outputs(results, TOPICS.dlq) == []


def test_records_are_keyed_by_table_and_name_their_source() -> None:
    result = FakeTable().run(as_records(two_tables(hands=1)))
    produced = [o for o in result.outgoing if o.topic == TOPICS.adjudications]
    assert [o.key for o in produced] == [b"T1", b"T2"] or [o.key for o in produced] == [
        b"T2", b"T1"]
    for o in produced:
        source = dict(o.headers)[SOURCE_HEADER].decode()
        assert source.startswith(f"{TOPICS.events}/0/")


def test_state_stores_the_position_of_the_last_record_applied() -> None:
    records = as_records(two_tables(hands=1), partition=1, first_offset=100)
    table = FakeTable()
    table.run(records)
    last_t1 = max(r.offset for r in records if r.key == b"T1")
    stored = decode_stored(table.values[b"T1"])
    assert (stored.partition, stored.offset) == (1, last_t1)
    assert decode_state(stored.state).table_id == "T1"


def test_replayed_records_are_skipped_without_findings() -> None:
    """A crash after the states were stored but before the offsets were committed: the
    worker gets the same records again. They must change nothing and emit nothing, even
    when they reach further back than the chain check's duplicate window (the previous
    hand: 12 hands of 6 events a table)."""
    raw = two_tables(hands=12)  # 2 x (3 + 12 x 6) = 150 events
    records = as_records(raw)
    assert len(records) > 2 * 64
    table = FakeTable()
    first = table.run(records[:120])
    replay = table.run(records[:120])
    assert replay.outgoing == [] and replay.states == {}
    assert replay.replayed == 120
    rest = table.run(records[120:])
    assert outputs([first, rest], TOPICS.adjudications) == embedded_records(raw)
    assert outputs([first, replay, rest], TOPICS.alerts) == []


def test_a_record_from_another_partition_is_not_taken_for_a_replay() -> None:
    """Positions compare only within one partition (offsets of two partitions are
    unrelated); a table's events never change partition unless the topic is rebuilt."""
    raw = two_tables(hands=1)
    table = FakeTable()
    table.run(as_records(raw[:4], partition=0, first_offset=50))
    later = table.run(as_records(raw[4:], partition=1, first_offset=0))
    assert later.replayed == 0


def test_malformed_and_invalid_records_go_to_the_dlq_unchanged() -> None:
    raw = two_tables(hands=1)
    bad_json = b'{"v": 1, "table_id": "T1",'
    invalid = orjson.dumps({**orjson.loads(raw[0]), "seq": "seven"})
    poisoned = [raw[0], bad_json, invalid, *raw[1:]]
    records = as_records(poisoned)
    records[1] = InputRecord(TOPICS.events, 0, 1, b"T1", bad_json, [("origin", b"pos-7")])
    result = FakeTable().run(records)
    dead = [o for o in result.outgoing if o.topic == TOPICS.dlq]
    assert [o.value for o in dead] == [bad_json, invalid]
    assert [o.key for o in dead] == [b"T1", b"T1"]
    assert dead[0].headers[0] == ("origin", b"pos-7")  # the input's own headers are kept
    embedded = [d for step in adjudicate_lines(poisoned) for d in step.dead_letters]
    assert [dict(o.headers)[REASON_HEADER].decode() for o in dead] == [
        d.reason for d in embedded]
    assert dict(dead[1].headers)[SOURCE_HEADER] == f"{TOPICS.events}/0/2".encode()
    assert result.dead_letters == 2
    assert outputs([result], TOPICS.adjudications) == embedded_records(raw)


def test_a_record_keyed_for_another_table_is_dead_lettered() -> None:
    """The key picks the partition; a table's event under another key could be applied
    out of order, so it is refused (the table's chain then reports the gap)."""
    raw = two_tables(hands=1)
    wrong = InputRecord(TOPICS.events, 0, 0, b"T2", raw[0])
    unkeyed = InputRecord(TOPICS.events, 0, 1, None, raw[0])
    tombstone = InputRecord(TOPICS.events, 0, 2, b"T1", None)
    result = FakeTable().run([wrong, unkeyed, tombstone])
    reasons = [dict(o.headers)[REASON_HEADER].decode() for o in result.outgoing]
    assert len(reasons) == 3 and result.states == {}
    assert "is not its table_id 'T1'" in reasons[0]
    assert "None is not its table_id" in reasons[1]
    assert reasons[2] == "empty record (no value)"
    assert result.outgoing[2].value is None
