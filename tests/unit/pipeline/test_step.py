"""The Kafka processing step without Kafka: batches of one partition's records against
its tables' live states, restored from changelog values.

The worker only adds transport around ``PartitionTables``; these tests pin the behaviour
the pipeline's guarantees rest on: the same bytes as the embedded run however the
records are cut into batches and however often states are checkpointed and restored,
replayed records skipped exactly, every rejected record dead-lettered unchanged with its
reason.
"""

from __future__ import annotations

import heapq
import itertools

import msgspec
import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from services.adjudicator.embedded import EmbeddedRunner, adjudicate_lines
from services.archive.segment import decode_batch, encode_packed, pack_parts
from services.events.contract import decode_record, encode_record
from services.pipeline.producer import record_key
from services.pipeline.step import (
    REASON_HEADER,
    SOURCE_HEADER,
    BatchResult,
    InputRecord,
    Outgoing,
    PartitionTables,
    StateMismatchError,
    decode_stored,
)
from services.pipeline.topics import TopicNames
from tests.profiles import PROFILES
from tests.unit.core.streams import hcf_stream, lines

TOPICS = TopicNames.with_prefix("u-")
ENGINES = pytest.mark.parametrize("engine", ["native", "python"])


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


class FakeChangelog:
    """A compacted changelog partition (key -> latest value) and a worker on it: each
    ``run`` is one batch followed by a checkpoint; ``crash`` forgets the live states, as
    a killed worker does, and the next run restores them from the changelog."""

    def __init__(self, partition: int = 0, engine: str | None = "native",
                 archive: bool = False) -> None:
        self.partition = partition
        self.values: dict[bytes, bytes] = {}
        self.engine = engine
        self.archive = archive
        self.tables = PartitionTables(TOPICS, partition, PROFILES, engine, archive)

    def run(self, records: list[InputRecord], checkpoint: bool = True) -> BatchResult:
        result = self.tables.process(records)
        if checkpoint:
            self.values.update(self.tables.take_changed())
        return result

    def crash(self) -> None:
        self.tables = PartitionTables(TOPICS, self.partition, PROFILES, self.engine,
                                      self.archive)
        for key, value in self.values.items():
            self.tables.restore(key, value)


def reason_of(o: Outgoing) -> str:
    reason = dict(o.headers)[REASON_HEADER]
    assert reason is not None
    return reason.decode()


def embedded_records(raw: list[bytes]) -> list[bytes]:
    return [encode_record(r) for step in adjudicate_lines(raw, PROFILES) for r in step.records]


def outputs(results: list[BatchResult], topic: str) -> list[bytes | None]:
    return [o.value for r in results for o in r.outgoing if o.topic == topic]


@ENGINES
@settings(max_examples=40, deadline=None)
@given(cuts=st.lists(st.integers(min_value=0, max_value=31), max_size=8))
def test_any_batching_gives_the_embedded_bytes(engine: str, cuts: list[int]) -> None:
    raw = two_tables()
    records = as_records(raw)
    bounds = sorted({0, len(records), *(c % (len(records) + 1) for c in cuts)})
    table = FakeChangelog(engine=engine)
    results = [table.run(records[a:b]) for a, b in itertools.pairwise(bounds)]
    assert outputs(results, TOPICS.adjudications) == embedded_records(raw)
    assert outputs(results, TOPICS.dlq) == []


@ENGINES
def test_records_are_keyed_by_table_and_name_their_source(engine: str) -> None:
    result = FakeChangelog(engine=engine).run(as_records(two_tables(hands=1)))
    produced = [o for o in result.outgoing if o.topic == TOPICS.adjudications]
    assert [o.key for o in produced] == [b"T1", b"T2"] or [o.key for o in produced] == [
        b"T2", b"T1"]
    for o in produced:
        source = (dict(o.headers)[SOURCE_HEADER] or b"").decode()
        assert source.startswith(f"{TOPICS.events}/0/")


@ENGINES
def test_state_stores_the_position_of_the_last_record_applied(engine: str) -> None:
    records = as_records(two_tables(hands=1), partition=1, first_offset=100)
    table = FakeChangelog(partition=1, engine=engine)
    table.run(records)
    last_t1 = max(r.offset for r in records if r.key == b"T1")
    stored = decode_stored(table.values[b"T1"])
    assert (stored.partition, stored.offset, stored.engine) == (1, last_t1, engine)
    restored = PartitionTables(TOPICS, 1, PROFILES, engine).tables.restore(stored.state)
    assert restored == "T1"


def test_a_state_another_engine_stored_is_refused_at_restore() -> None:
    """The engines store a table differently: a worker of one engine reading the other's
    changelog must stop with what to do, never read the bytes as its own."""
    native = FakeChangelog(engine="native")
    native.run(as_records(two_tables(hands=1)))
    key, value = next(iter(native.values.items()))
    with pytest.raises(StateMismatchError, match="PITWATCH_ENGINE=native"):
        PartitionTables(TOPICS, 0, PROFILES, "python").restore(key, value)


def test_a_changelog_value_of_the_format_before_engines_is_the_reference_s() -> None:
    """A value written before the engine field existed (three fields) reads as python."""
    reference = FakeChangelog(engine="python")
    reference.run(as_records(two_tables(hands=1)))
    key, value = next(iter(reference.values.items()))
    stored = decode_stored(value)
    old = msgspec.msgpack.encode([stored.partition, stored.offset, stored.state])
    assert decode_stored(old).engine == "python"
    PartitionTables(TOPICS, 0, PROFILES, "python").restore(key, old)


@ENGINES
def test_replayed_records_are_skipped_without_findings(engine: str) -> None:
    """A crash after the states were stored but before the offsets were committed: the
    worker gets the same records again. They must change nothing and emit nothing, even
    when they reach further back than the chain check's duplicate window (the previous
    hand: 12 hands of 6 events a table)."""
    raw = two_tables(hands=12)  # 2 x (3 + 12 x 6) = 150 events
    records = as_records(raw)
    assert len(records) > 2 * 64
    table = FakeChangelog(engine=engine)
    first = table.run(records[:120])
    table.crash()
    replay = table.run(records[:120], checkpoint=False)
    assert replay.outgoing == [] and table.tables.take_changed() == []
    assert replay.replayed == 120
    rest = table.run(records[120:])
    assert outputs([first, rest], TOPICS.adjudications) == embedded_records(raw)
    assert outputs([first, replay, rest], TOPICS.alerts) == []


@ENGINES
def test_a_state_stored_for_another_partition_is_refused_at_restore(engine: str) -> None:
    """Offsets of two partitions are unrelated, and a table's events never change
    partition unless the topics were rebuilt with another partition count: a state found
    on the wrong changelog partition stops the restore rather than skip or replay the
    wrong records."""
    table = FakeChangelog(partition=0, engine=engine)
    table.run(as_records(two_tables(hands=1)[:4], partition=0, first_offset=50))
    elsewhere = PartitionTables(TOPICS, 1, PROFILES, engine)
    key, value = next(iter(table.values.items()))
    with pytest.raises(StateMismatchError, match="partition counts changed"):
        elsewhere.restore(key, value)


@ENGINES
def test_malformed_and_invalid_records_go_to_the_dlq_unchanged(engine: str) -> None:
    raw = two_tables(hands=1)
    bad_json = b'{"v": 1, "table_id": "T1",'
    invalid = orjson.dumps({**orjson.loads(raw[0]), "seq": "seven"})
    poisoned = [raw[0], bad_json, invalid, *raw[1:]]
    records = as_records(poisoned)
    records[1] = InputRecord(TOPICS.events, 0, 1, b"T1", bad_json, [("origin", b"pos-7")])
    result = FakeChangelog(engine=engine).run(records)
    dead = [o for o in result.outgoing if o.topic == TOPICS.dlq]
    assert [o.value for o in dead] == [bad_json, invalid]
    assert [o.key for o in dead] == [b"T1", b"T1"]
    assert dead[0].headers[0] == ("origin", b"pos-7")  # the input's own headers are kept
    embedded = [d for step in adjudicate_lines(poisoned, PROFILES) for d in step.dead_letters]
    assert [reason_of(o) for o in dead] == [
        d.reason for d in embedded]
    assert dict(dead[1].headers)[SOURCE_HEADER] == f"{TOPICS.events}/0/2".encode()
    assert result.dead_letters == 2
    assert outputs([result], TOPICS.adjudications) == embedded_records(raw)


@ENGINES
def test_a_record_keyed_for_another_table_is_dead_lettered(engine: str) -> None:
    """The key picks the partition; a table's event under another key could be applied
    out of order, so it is refused (the table's chain then reports the gap)."""
    raw = two_tables(hands=1)
    wrong = InputRecord(TOPICS.events, 0, 0, b"T2", raw[0])
    unkeyed = InputRecord(TOPICS.events, 0, 1, None, raw[0])
    tombstone = InputRecord(TOPICS.events, 0, 2, b"T1", None)
    table = FakeChangelog(engine=engine)
    result = table.run([wrong, unkeyed, tombstone])
    reasons = [reason_of(o) for o in result.outgoing]
    assert len(reasons) == 3 and table.values == {}
    assert "is not its table_id 'T1'" in reasons[0]
    assert "None is not its table_id" in reasons[1]
    assert reasons[2] == "empty record (no value)"
    assert result.outgoing[2].value is None


@ENGINES
def test_a_null_header_value_is_passed_on_unchanged(engine: str) -> None:
    """Kafka allows a header without a value (Java producers send them); a dead-lettered
    record keeps it as it came, and it stops nothing."""
    raw = two_tables(hands=1)
    records = as_records([b"not json", *raw])
    records[0] = InputRecord(TOPICS.events, 0, 0, b"T1", b"not json",
                             [("trace", None), ("origin", b"x")])
    result = FakeChangelog(engine=engine).run(records)
    dead = [o for o in result.outgoing if o.topic == TOPICS.dlq]
    assert dead[0].headers[:2] == [("trace", None), ("origin", b"x")]
    assert outputs([result], TOPICS.adjudications) == embedded_records(raw)


@ENGINES
@settings(max_examples=60, deadline=None)
@given(plan=st.lists(st.tuples(st.integers(min_value=1, max_value=40),
                               st.sampled_from(["none", "states", "states+offsets"]),
                               st.booleans()), min_size=1, max_size=12))
def test_checkpoints_and_crashes_anywhere_give_the_embedded_bytes(
        engine: str, plan: list[tuple[int, str, bool]]) -> None:
    """The worker's life as the step sees it: batches of any size; after a batch nothing
    stored, or the states stored (a crash before the commit), or the states stored and
    the offset committed; then maybe a crash, after which the tables are restored from
    the changelog and the records from the last committed offset are delivered again.
    Every hand comes out, every repeat with the same bytes; so does every event archive
    segment the embedded run cuts before its end; and nothing else comes out (no finding
    or dead letter a replay could cause)."""
    raw = two_tables(hands=4)
    records = as_records(raw)
    table = FakeChangelog(engine=engine, archive=True)
    committed = position = 0
    seen: dict[str, set[bytes]] = {}
    archived: dict[tuple[str, int, int], set[bytes]] = {}
    others: list[Outgoing] = []
    # The plan once, then the rest of the log without crashes (a plan that crashes
    # before every commit would otherwise never get past its first records).
    steps = itertools.chain(plan, itertools.repeat((40, "states+offsets", False)))
    while position < len(records):
        size, stored, crash = next(steps)
        result = table.run(records[position:position + size], checkpoint=stored != "none")
        position = min(len(records), position + size)
        if stored == "states+offsets":
            committed = position
        for o in result.outgoing:
            if o.topic == TOPICS.adjudications:
                assert o.value is not None
                seen.setdefault(decode_record(o.value).hand_id, set()).add(o.value)
            elif o.topic == TOPICS.archive:
                assert o.value is not None
                for part in decode_batch(o.value).segments:
                    archived.setdefault((part.table_id, part.head_seq, part.ordinal),
                                        set()).add(encode_packed(part))
            else:
                others.append(o)
        if crash:
            table.crash()
            position = committed
    expected = {decode_record(r).hand_id: r for r in embedded_records(raw)}
    assert {hand: sorted(values) for hand, values in seen.items()} == {
        hand: [value] for hand, value in expected.items()}
    assert {key: sorted(values) for key, values in archived.items()} == embedded_archive(raw)
    assert others == []


@ENGINES
def test_the_archive_goes_out_only_when_asked(engine: str) -> None:
    """``archive`` off (the library's default): no archive record; on: the segments."""
    records = as_records(two_tables(hands=1))
    off = FakeChangelog(engine=engine).run(records)
    on = FakeChangelog(engine=engine, archive=True).run(records)
    assert outputs([off], TOPICS.archive) == [] and off.segments == 0
    assert on.segments == 4  # per table: the set-up, then the hand
    assert outputs([on], TOPICS.adjudications) == outputs([off], TOPICS.adjudications)


def embedded_archive(raw: list[bytes]) -> dict[tuple[str, int, int], list[bytes]]:
    """The segments the embedded run cuts while the log lasts (not those of its end),
    packed as the worker sends them."""
    runner = EmbeddedRunner(PROFILES, "python", archive=True)  # the reference's segments
    out: dict[tuple[str, int, int], list[bytes]] = {}
    for n, value in enumerate(raw):
        for segment in runner.feed(value, f"line {n}").archive:
            for part in pack_parts(segment):
                out[(part.table_id, part.head_seq, part.ordinal)] = [encode_packed(part)]
    return out
