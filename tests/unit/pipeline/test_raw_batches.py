"""Record batches handed to the core whole (``raw_batches``, ``Engine.feed_kafka_batch``)
against the same records delivered one by one: the same outputs, byte for byte, the same
offsets and table states, however the records fall into batches and wherever a fetch
begins.

The batches are written by aiokafka's own ``DefaultRecordBatchBuilder`` (what its producer
sends), not by the code under test, and read back through ``RawPartitionRecords`` as the
fetcher reads a fetched partition.
"""

from __future__ import annotations

import itertools
import struct
from collections.abc import Sequence

import aiokafka
import aiokafka.consumer.fetcher as fetcher
import pytest
from aiokafka.record.default_records import DefaultRecordBatch, DefaultRecordBatchBuilder
from aiokafka.record.memory_records import MemoryRecords
from aiokafka.structs import ConsumerRecord, TopicPartition
from hypothesis import given, settings
from hypothesis import strategies as st

from services.pipeline import raw_batches
from services.pipeline.raw_batches import (
    RAW_BATCHES,
    KeptMemoryRecords,
    RawBatch,
    RawPartitionRecords,
)
from services.pipeline.step import BatchResult, InputRecord, Outgoing, PartitionTables
from tests.profiles import PROFILES
from tests.unit.pipeline.test_step import TOPICS, as_records, two_tables

READ_UNCOMMITTED = 0
TP = TopicPartition(TOPICS.events, 0)


def build_batch(records: list[InputRecord], codec: int = DefaultRecordBatch.CODEC_NONE) -> bytes:
    """One batch as aiokafka's producer writes it, its base offset the first record's
    (the broker's part: it is outside the CRC)."""
    builder = DefaultRecordBatchBuilder(2, codec, 0, -1, -1, -1, 10 ** 8)
    base = records[0].offset
    for r in records:
        builder.append(r.offset - base, 1_700_000_000_000, r.key, r.value, list(r.headers))
    built = bytearray(builder.build())
    built[0:8] = struct.pack(">q", base)
    return bytes(built)


def fetched(batches: list[bytes], fetch_offset: int, raw: bool = True) -> list[object]:
    """What the fetcher yields for one fetched partition holding ``batches``."""
    items = RawPartitionRecords(TP, KeptMemoryRecords(b"".join(batches)), [], fetch_offset,
                                None, RAW_BATCHES if raw else None, True, READ_UNCOMMITTED)
    return list(items)


def outgoing(result: BatchResult) -> list[tuple[str, bytes | None, bytes | None, object]]:
    return [(o.topic, o.key, o.value, o.headers) for o in result.outgoing]


def run(items: Sequence[object], skip_below: int = 0, tables: PartitionTables | None = None
        ) -> tuple[PartitionTables, BatchResult]:
    tables = tables or PartitionTables(TOPICS, 0, PROFILES, "native", archive=True)
    return tables, tables.process(items, skip_below)  # type: ignore[arg-type]


def cut(records: list[InputRecord], cuts: list[int]) -> list[list[InputRecord]]:
    bounds = sorted({0, len(records), *(c % (len(records) + 1) for c in cuts)})
    return [records[a:b] for a, b in itertools.pairwise(bounds) if b > a]


def test_plain_batches_come_whole_and_others_record_by_record() -> None:
    records = as_records(two_tables(hands=2))[:30]
    assert len(records) == 30
    items = fetched([build_batch(records[:10]),
                     build_batch(records[10:20], DefaultRecordBatch.CODEC_GZIP),
                     build_batch(records[20:])], fetch_offset=0)
    kinds = [type(i).__name__ for i in items]
    assert kinds == ["RawBatch"] + ["ConsumerRecord"] * 10 + ["RawBatch"]
    first = items[0]
    assert isinstance(first, RawBatch)
    assert (first.fetch_offset, first.until, first.start) == (0, 10, 0)
    # Without the marker the consumer gets what aiokafka always gave.
    plain = fetched([build_batch(records[:10])], fetch_offset=0, raw=False)
    assert [r.value for r in plain if isinstance(r, ConsumerRecord)] == [
        r.value for r in records[:10]]


@settings(max_examples=30, deadline=None)
@given(cuts=st.lists(st.integers(min_value=0, max_value=400), max_size=6),
       start=st.integers(min_value=0, max_value=80), gzip=st.booleans())
def test_batches_give_what_records_give(cuts: list[int], start: int, gzip: bool) -> None:
    records = as_records(two_tables(hands=2))
    batches = [build_batch(part, DefaultRecordBatch.CODEC_GZIP if gzip and i == 1 else 0)
               for i, part in enumerate(cut(records, cuts))]
    items = fetched(batches, fetch_offset=start)
    tables, whole = run(items, skip_below=start)
    one_by_one, expected = run(list(records), skip_below=start)
    assert outgoing(whole) == outgoing(expected)
    assert (whole.consumed, whole.next_offset, whole.hands) == (
        expected.consumed, expected.next_offset, expected.hands)
    assert tables.offsets == one_by_one.offsets
    assert tables.take_changed() == one_by_one.take_changed()


def hostile_records() -> list[InputRecord]:
    """A table's stream with records no table system should send, each kind once."""
    good = as_records(two_tables(hands=1))
    headers: list[tuple[str, bytes | None]] = [("trace", b"x"), ("empty", None)]
    extra = [
        InputRecord(TOPICS.events, 0, 0, b"T1", None, headers),  # no value
        InputRecord(TOPICS.events, 0, 0, None, good[3].value, headers),  # no key
        InputRecord(TOPICS.events, 0, 0, b"\xff\xfe", good[4].value),  # key not UTF-8
        InputRecord(TOPICS.events, 0, 0, b"T9", good[5].value),  # another table's key
        InputRecord(TOPICS.events, 0, 0, b"T1", b"{not json", headers),
        InputRecord(TOPICS.events, 0, 0, b"T1", b""),
    ]
    mixed = good[:6] + extra + good[6:]
    return [InputRecord(r.topic, r.partition, i, r.key, r.value, r.headers)
            for i, r in enumerate(mixed)]


@pytest.mark.parametrize("size", [1, 4, 1000])
def test_hostile_records_are_dead_lettered_alike(size: int) -> None:
    records = hostile_records()
    items = fetched([build_batch(p) for p in cut(records, list(range(size, 1000, size)))], 0)
    tables, whole = run(items)
    one_by_one, expected = run(records)
    assert outgoing(whole) == outgoing(expected)
    dead = [o for o in whole.outgoing if o.topic == TOPICS.dlq]
    assert len(dead) >= 5
    # The dead-lettered record is the input as it came: its value and its headers first.
    no_value = next(o for o in dead if o.value is None)
    assert no_value.headers[:2] == [("trace", b"x"), ("empty", None)]
    assert tables.offsets == one_by_one.offsets


def test_replayed_records_are_skipped_by_their_tables_offsets() -> None:
    records = as_records(two_tables(hands=2))
    tables, first = run(fetched([build_batch(records[:50])], 0))
    # A restart from an older commit: the 50 records come again (replays), and 10 more.
    _, again = run(fetched([build_batch(records[:60])], 0), tables=tables)
    reference, ref_first = run(records[:50])
    _, ref_again = run(records[:60], tables=reference)
    assert again.replayed == ref_again.replayed > 0
    assert outgoing(again) == outgoing(ref_again)
    assert outgoing(first) == outgoing(ref_first)


def test_a_broken_batch_is_refused_whole_before_any_record_is_fed() -> None:
    records = as_records(two_tables(hands=1))
    batch = bytearray(build_batch(records))
    batch[-3:] = b"\x7f\x7f\x7f"  # the last record's bytes run short
    item = RawBatch(TOPICS.events, 0, bytes(batch), 0, len(batch), 0, len(records))
    tables = PartitionTables(TOPICS, 0, PROFILES, "native", archive=True)
    with pytest.raises(ValueError, match="malformed record batch: a record"):
        run([item], tables=tables)
    # Nothing of it was taken: the same tables then read the good batch as fresh ones do.
    assert tables.offsets == {} and tables.take_changed() == []
    _, after = run(fetched([build_batch(records)], 0), tables=tables)
    _, fresh = run(records)
    assert outgoing(after) == outgoing(fresh) and after.hands > 0


def crc_verdicts(buf: bytes) -> tuple[bool, bool]:
    """(the core's verdict, aiokafka's own ``validate_crc``) on one whole batch."""
    batch = MemoryRecords(buf).next_batch()
    return raw_batches.batch_crc_ok(batch, buf, 0, len(buf)), bool(batch.validate_crc())


@pytest.mark.parametrize("codec", [DefaultRecordBatch.CODEC_NONE, DefaultRecordBatch.CODEC_GZIP])
def test_the_cores_crc_check_says_what_aiokafkas_says(codec: int) -> None:
    # The core's CRC-32C is in use (a build without the core falls back to aiokafka's,
    # which would make this comparison empty).
    assert raw_batches.native_crc()
    good = build_batch(as_records(two_tables(hands=1))[:40], codec)
    assert crc_verdicts(good) == (True, True)
    covered_from = 21  # the attributes on; offset, length, epoch, magic and CRC are not
    for at in [*range(len(good) - 1, len(good) - 600, -7), *range(covered_from, 200)]:
        changed = bytearray(good)
        changed[at] ^= 0x04
        assert crc_verdicts(bytes(changed)) == (False, False), at
    for at in (0, 7, 12):  # base offset and leader epoch: outside the CRC for both
        changed = bytearray(good)
        changed[at] ^= 0x04
        assert crc_verdicts(bytes(changed)) == (True, True), at


def test_a_plain_batch_with_a_wrong_crc_is_refused_as_aiokafka_refuses_it() -> None:
    records = as_records(two_tables(hands=1))
    good = build_batch(records[:20])
    changed = bytearray(good)
    changed[-5] ^= 0x01  # a byte of the last record's value
    with pytest.raises(fetcher.Errors.CorruptRecordException, match="Invalid CRC"):
        fetched([good, bytes(changed)], fetch_offset=0)
    assert len(fetched([good], fetch_offset=0)) == 1


def test_only_the_pinned_aiokafka_is_patched(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(aiokafka, "__version__", "0.15.0")
    with pytest.raises(raw_batches.UnsupportedAiokafka, match=r"0\.14"):
        raw_batches.install()


def test_outgoing_is_a_list_of_outgoing() -> None:
    _, result = run(fetched([build_batch(as_records(two_tables(hands=1)))], 0))
    assert result.outgoing and all(isinstance(o, Outgoing) for o in result.outgoing)


class FakeState:
    """A partition's position in the consumer, as aiokafka's assignment keeps it."""

    def __init__(self, position: int) -> None:
        self.position = position
        self.paused = False

    def consumed_to(self, position: int) -> None:
        self.position = position


class FakeAssignment:
    active = True

    def __init__(self, position: int) -> None:
        self.state = FakeState(position)

    def state_value(self, tp: TopicPartition) -> FakeState:
        return self.state


@settings(max_examples=25, deadline=None)
@given(cuts=st.lists(st.integers(min_value=0, max_value=400), max_size=5),
       budget=st.integers(min_value=1, max_value=70), start=st.integers(0, 30))
def test_polls_take_at_most_their_budget_and_every_record_once(
        cuts: list[int], budget: int, start: int) -> None:
    """Each poll's records are the same outputs as those records delivered one by one
    (the archive's outputs are grouped per poll, so the polls are compared one to one)."""
    records = as_records(two_tables(hands=2))
    batches = [build_batch(part, DefaultRecordBatch.CODEC_GZIP if i == 2 else 0)
               for i, part in enumerate(cut(records, cuts))]
    assignment = FakeAssignment(start)
    partition = RawPartitionRecords(TP, KeptMemoryRecords(b"".join(batches)), [], start,
                                    None, RAW_BATCHES, True, READ_UNCOMMITTED)
    fetch = raw_batches.RawFetchResult(TP, assignment=assignment,
                                       partition_records=partition, backoff=0)
    tables = PartitionTables(TOPICS, 0, PROFILES, "native", archive=True)
    one_by_one = PartitionTables(TOPICS, 0, PROFILES, "native", archive=True)
    polls = 0
    while fetch.has_more():
        before = assignment.state.position
        with raw_batches.records_per_poll(budget):
            items = fetch.getall(max_records=budget)
        taken = sum(i.records if isinstance(i, RawBatch) else 1 for i in items)
        assert taken <= budget
        result = tables.process(items, skip_below=before)
        after = assignment.state.position
        assert result.consumed == taken == after - before
        expected = one_by_one.process(records[before:after], skip_below=before)
        assert outgoing(result) == outgoing(expected)
        polls += 1
    assert assignment.state.position == len(records)
    assert polls >= (len(records) - start) // budget
    assert tables.offsets == one_by_one.offsets
