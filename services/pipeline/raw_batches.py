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
CRC check, ``read_committed`` (aborted transactions are skipped before a batch is
looked at), control batches; and every batch that is not plain (lz4, zstd, snappy or gzip
compressed, older formats) comes as ``ConsumerRecord``s as before, through the same
``PartitionTables.process``. A consumer without the marker is not touched.

How: aiokafka 0.14 builds each fetched partition's records in
``aiokafka.consumer.fetcher`` from two names, ``MemoryRecords`` and ``PartitionRecords``.
``install()`` replaces them there with ``KeptMemoryRecords`` (the same, with the fetched
bytes kept) and ``RawPartitionRecords`` (upstream's ``_unpack_records`` with one branch
added). The pin in pyproject.toml (``aiokafka>=0.14,<0.15``) is what this is written
against; ``install`` refuses another version, and tests/integration run the worker through
it against the real broker (plain, every codec, transactions, kills).
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import aiokafka
import aiokafka.consumer.fetcher as fetcher
from aiokafka.record.default_records import DefaultRecordBatch
from aiokafka.record.memory_records import MemoryRecords

SUPPORTED_AIOKAFKA = ("0.14.",)
_LENGTH = struct.Struct(">i")
_LOG_OVERHEAD = 12  # a batch's base offset and length, before the length counts


def _keep_value(value: bytes | None) -> bytes | None:
    """The value as it came: what a record of a batch that is not plain carries."""
    return value


# The marker: a consumer whose value deserializer is this object gets ``RawBatch``es. It
# is an identity, so the records of batches aiokafka reads come through unchanged.
RAW_BATCHES: Callable[[bytes | None], bytes | None] = _keep_value


@dataclass(frozen=True, slots=True)
class RawBatch:
    """One plain record batch of a fetch: ``buf[start:end]``. Records below
    ``fetch_offset`` were before the position the fetch asked for (a fetch may begin
    inside a batch) and are not the consumer's; ``next_offset`` is the offset after the
    batch's last."""

    topic: str
    partition: int
    buf: bytes
    start: int
    end: int
    fetch_offset: int
    next_offset: int


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

    def _unpack_records(self) -> Iterator[Any]:
        if self._value_deserializer is not RAW_BATCHES or not isinstance(
                self._records, KeptMemoryRecords):
            yield from super()._unpack_records()
            return
        yield from self._unpack_raw(self._records)

    def _unpack_raw(self, kept: KeptMemoryRecords) -> Iterator[Any]:
        # Upstream's ``_unpack_records`` (aiokafka 0.14), with the plain-batch branch.
        tp = self._tp
        records = kept.records
        raw = kept.raw
        pos = 0
        while records.has_next():
            next_batch = records.next_batch()
            start = pos
            pos += _LOG_OVERHEAD + _LENGTH.unpack_from(raw, start + 8)[0]
            if self._check_crcs and not next_batch.validate_crc():
                raise fetcher.Errors.CorruptRecordException(f"Invalid CRC - {tp}")
            if (self._isolation_level == fetcher.READ_COMMITTED
                    and next_batch.producer_id is not None):
                self._consume_aborted_up_to(next_batch.base_offset)
                if next_batch.is_control_batch and self._contains_abort_marker(next_batch):
                    self._aborted_producers.discard(next_batch.producer_id)
                if (next_batch.is_transactional
                        and next_batch.producer_id in self._aborted_producers):
                    self.next_fetch_offset = next_batch.next_offset
                    continue
            if next_batch.is_control_batch:
                self.next_fetch_offset = next_batch.next_offset
                continue
            if (isinstance(next_batch, DefaultRecordBatch)
                    and next_batch.compression_type == DefaultRecordBatch.CODEC_NONE):
                batch = RawBatch(tp.topic, tp.partition, raw, start, pos,
                                 self.next_fetch_offset, next_batch.next_offset)
                self.next_fetch_offset = next_batch.next_offset
                yield batch
                continue
            for record in next_batch:
                if record.offset < self.next_fetch_offset:
                    continue
                consumer_record = self._consumer_record(tp, record)
                self.next_fetch_offset = record.offset + 1
                yield consumer_record
            self.next_fetch_offset = next_batch.next_offset


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
