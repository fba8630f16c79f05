"""Fetched record batches handed to the native core whole, not record by record.

Why: aiokafka turns every fetched record into two Python objects (its record, then a
``ConsumerRecord``) before pitwatch sees it. At about 75 ``table-events`` records a hand
that was about a quarter of the adjudicator worker's CPU (py-spy, issue #16), more than
the core's whole per-event path. A consumer built with ``value_deserializer=RAW_BATCHES``
instead gets, for each plain record batch (Kafka's message format 2, uncompressed, not a
control batch), one ``RawBatch``: the fetched bytes and where the batch lies in them. The
core splits it into records (``native/src/kafka.rs``, ``Engine.feed_kafka_batch``) as it
splits a file into lines, and only records with an outcome become Python objects.

Everything else stays aiokafka's: the fetch itself, positions and commits, each batch's
CRC check (with the core's CRC-32C when it is built, ``batch_crc_ok``: aiokafka's own
checksum, a byte at a time, was about 5% of the worker's CPU), ``read_committed``
(aborted transactions are skipped before a batch is looked at), control batches; and
every batch that is not plain (lz4, zstd, snappy or gzip compressed, older formats)
comes as ``ConsumerRecord``s as before, through the same ``PartitionTables.process``. A
consumer without the marker is not touched.

How: aiokafka 0.14 builds each fetched partition's records in
``aiokafka.consumer.fetcher`` from three names, ``MemoryRecords``, ``PartitionRecords``
and ``FetchResult``. ``install()`` replaces them there with ``KeptMemoryRecords`` (the
same, with the fetched bytes kept), ``RawPartitionRecords`` (upstream's
``_unpack_records`` with one branch added) and ``RawFetchResult`` (a poll's budget counted
in records, ``records_per_poll``). The pin in pyproject.toml (``aiokafka>=0.14,<0.15``)
is what this is written against; ``install`` refuses another version, and
tests/integration run the worker through it against the real broker (plain, every codec,
transactions, kills).
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

import aiokafka
import aiokafka.consumer.fetcher as fetcher
from aiokafka.record.default_records import DefaultRecordBatch
from aiokafka.record.memory_records import MemoryRecords

try:
    from services._native import kafka_batch_crc_ok as _native_crc_ok
except ImportError:  # a build without the core (the python engine only): aiokafka's check
    _native_crc_ok = None

SUPPORTED_AIOKAFKA = ("0.14.",)
_LENGTH = struct.Struct(">i")
_LOG_OVERHEAD = 12  # a batch's base offset and length, before the length counts


def native_crc() -> bool:
    """Whether fetched v2 batches are checked by the core's CRC-32C (it is built)."""
    return _native_crc_ok is not None


def batch_crc_ok(batch: Any, raw: bytes, start: int, end: int) -> bool:
    """Whether the fetched batch ``raw[start:end]`` (read by aiokafka as ``batch``) holds
    its right CRC: the core's CRC-32C over the same bytes for a v2 batch (the instruction
    SSE 4.2 has, several times faster), aiokafka's ``validate_crc`` otherwise."""
    if _native_crc_ok is not None and isinstance(batch, DefaultRecordBatch):
        return bool(_native_crc_ok(raw, start, end))
    return bool(batch.validate_crc())


def _keep_value(value: bytes | None) -> bytes | None:
    """The value as it came: what a record of a batch that is not plain carries."""
    return value


# The marker: a consumer whose value deserializer is this object gets ``RawBatch``es. It
# is an identity, so the records of batches aiokafka reads come through unchanged.
RAW_BATCHES: Callable[[bytes | None], bytes | None] = _keep_value


@dataclass(frozen=True, slots=True)
class RawBatch:
    """Records of one plain record batch of a fetch, ``buf[start:end]``: those at offsets
    from ``fetch_offset`` up to ``until`` (excluded), at most ``records`` of them. A fetch
    may begin inside a batch, and a poll may end inside one (its record budget), so an
    item can hold part of a batch; the consumer goes on from ``until``."""

    topic: str
    partition: int
    buf: bytes
    start: int
    end: int
    fetch_offset: int
    until: int

    @property
    def records(self) -> int:
        """At most this many records (offsets are counted: a compacted batch's gaps make
        an item hold fewer records than it may, never more)."""
        return self.until - self.fetch_offset


# The records one poll may still take, shared by its partitions (``records_per_poll``).
_poll_budget: ContextVar[list[int] | None] = ContextVar("pitwatch_poll_budget", default=None)


@contextmanager
def records_per_poll(limit: int) -> Iterator[None]:
    """Around ``getmany``: at most ``limit`` records in the poll, across its partitions
    (aiokafka's ``max_records`` counts items, and a ``RawBatch`` is one item of many)."""
    token = _poll_budget.set([limit])
    try:
        yield
    finally:
        _poll_budget.reset(token)


class KeptMemoryRecords:
    """aiokafka's ``MemoryRecords`` with the fetched bytes kept (``raw``)."""

    __slots__ = ("raw", "records")

    def __init__(self, raw: bytes) -> None:
        self.raw = raw
        self.records = MemoryRecords(raw)

    def has_next(self) -> bool:
        return bool(self.records.has_next())

    def size_in_bytes(self) -> int:
        return int(self.records.size_in_bytes())

    def next_batch(self) -> Any:
        return self.records.next_batch()


class RawPartitionRecords(fetcher.PartitionRecords):  # type: ignore[misc]
    """``PartitionRecords`` that yields a ``RawBatch`` for each plain batch when its
    consumer asked for them, and behaves as upstream's otherwise."""

    next_fetch_offset: int  # upstream's, untyped
    # Records the next item may hold (set by ``RawFetchResult.getall``; None: no bound).
    budget: int | None = None

    @property
    def raw_wanted(self) -> bool:
        return self._value_deserializer is RAW_BATCHES and isinstance(self._records,
                                                                      KeptMemoryRecords)

    def _unpack_records(self) -> Iterator[Any]:
        if not self.raw_wanted:
            yield from super()._unpack_records()
            return
        yield from self._unpack_raw(self._records)

    def _unpack_raw(self, kept: KeptMemoryRecords) -> Iterator[Any]:
        # Upstream's ``_unpack_records`` (aiokafka 0.14), with the plain-batch branch, and
        # the position never moved back by a batch that ends before it (upstream sets it
        # to each batch's end: harmless there, as a broker's first batch holds the fetch
        # offset, but an item here must never hold records the consumer has passed).
        tp = self._tp
        records = kept.records
        raw = kept.raw
        pos = 0
        while records.has_next():
            next_batch = records.next_batch()
            start = pos
            pos += _LOG_OVERHEAD + _LENGTH.unpack_from(raw, start + 8)[0]
            if self._check_crcs and not batch_crc_ok(next_batch, raw, start, pos):
                raise fetcher.Errors.CorruptRecordException(f"Invalid CRC - {tp}")
            if (self._isolation_level == fetcher.READ_COMMITTED
                    and next_batch.producer_id is not None):
                self._consume_aborted_up_to(next_batch.base_offset)
                if next_batch.is_control_batch and self._contains_abort_marker(next_batch):
                    self._aborted_producers.discard(next_batch.producer_id)
                if (next_batch.is_transactional
                        and next_batch.producer_id in self._aborted_producers):
                    self.next_fetch_offset = max(self.next_fetch_offset, next_batch.next_offset)
                    continue
            if next_batch.is_control_batch:
                self.next_fetch_offset = max(self.next_fetch_offset, next_batch.next_offset)
                continue
            if (isinstance(next_batch, DefaultRecordBatch)
                    and next_batch.compression_type == DefaultRecordBatch.CODEC_NONE):
                yield from self._parts(tp, raw, start, pos, next_batch.next_offset)
                continue
            for record in next_batch:
                if record.offset < self.next_fetch_offset:
                    continue
                consumer_record = self._consumer_record(tp, record)
                self.next_fetch_offset = record.offset + 1
                yield consumer_record
            self.next_fetch_offset = max(self.next_fetch_offset, next_batch.next_offset)

    def _parts(self, tp: Any, raw: bytes, start: int, end: int, next_offset: int
               ) -> Iterator[RawBatch]:
        """A plain batch's records from the fetch position on, in items of at most the
        poll's remaining budget (``RawBatch.records``)."""
        while self.next_fetch_offset < next_offset:
            low = self.next_fetch_offset
            take = next_offset - low
            if self.budget is not None:
                take = max(1, min(take, self.budget))
            self.next_fetch_offset = low + take
            yield RawBatch(tp.topic, tp.partition, raw, start, end, low, low + take)


class RawFetchResult(fetcher.FetchResult):  # type: ignore[misc]
    """``FetchResult`` whose ``getall`` counts the records a ``RawBatch`` holds against
    the poll's budget (``records_per_poll``), not one an item as upstream does."""

    _partition_records: Any  # upstream's, untyped

    def getall(self, max_records: int | None = None) -> list[Any]:
        records = self._partition_records
        if not isinstance(records, RawPartitionRecords) or not records.raw_wanted:
            return list(super().getall(max_records))
        if not self.check_assignment(self._topic_partition) or not self.has_more():
            return []
        shared = _poll_budget.get()
        left = shared[0] if shared is not None else max_records
        taken: list[Any] = []
        while left is None or left > 0:
            records.budget = left
            item = next(records, None)
            if item is None:  # all taken: as upstream, the partition fetches again
                self._update_position()
                self._partition_records = None
                break
            taken.append(item)
            if left is not None:
                left -= item.records if isinstance(item, RawBatch) else 1
        else:  # the budget is spent: the rest stays for the next poll
            self._update_position()
        if shared is not None and left is not None:
            shared[0] = left
        return taken


class UnsupportedAiokafka(RuntimeError):
    """The installed aiokafka is not the one the raw batches were written against."""


def install() -> None:
    """Make aiokafka's fetcher build ``RawPartitionRecords`` over ``KeptMemoryRecords``
    (idempotent; consumers without ``RAW_BATCHES`` behave exactly as before)."""
    if not aiokafka.__version__.startswith(SUPPORTED_AIOKAFKA):
        raise UnsupportedAiokafka(
            f"aiokafka {aiokafka.__version__} is installed; pitwatch's raw batches are "
            f"written against {', '.join(v + 'x' for v in SUPPORTED_AIOKAFKA)}: install "
            "the version pyproject.toml pins (make install)")
    fetcher.MemoryRecords = KeptMemoryRecords
    fetcher.PartitionRecords = RawPartitionRecords
    fetcher.FetchResult = RawFetchResult
