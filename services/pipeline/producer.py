"""Publish a JSONL event log to ``table-events``, keyed by ``table_id``, in file order.

The key is what keeps a table's events in order: Kafka orders records per partition and
the key picks the partition, so every event of a table lands on one partition in the
order of the file. The producer is idempotent (``enable_idempotence``): a retried batch
can neither duplicate nor re-order records within a partition.

Lines are published exactly as they are in the file (only surrounding whitespace is
stripped, like the embedded runner does), so the adjudicator sees the same bytes
``pitwatch adjudicate`` sees. A line that is not JSON or has no string ``table_id`` is
still published (the adjudicator sends it to the DLQ with the reason, as the embedded
run would reject it), without a key.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import orjson
from aiokafka import AIOKafkaProducer
from aiokafka.errors import UnknownTopicOrPartitionError

from services.adjudicator.embedded import iter_lines
from services.events.logfile import open_log
from services.pipeline.clients import TopicMissing, require_topics, start_clients
from services.pipeline.topics import MAX_MESSAGE_BYTES, StreamSettings

IN_FLIGHT = 5000  # records sent before waiting for their acknowledgements
# The changelog's limit (4x a record's) and room for the headers of a dead letter.
MAX_REQUEST_BYTES = 4 * MAX_MESSAGE_BYTES + 64 * 1024


# The largest line published: the topic's limit less room for the batch around it and the
# key (a table id). A larger line cannot be on the topic; it is reported, not sent (the
# intake refuses a record over MAX_RECORD_BYTES anyway, as the embedded run does).
MAX_PUBLISHED_BYTES = MAX_MESSAGE_BYTES - 64 * 1024


@dataclass(frozen=True)
class ProduceReport:
    records: int
    unkeyed: int  # lines without a readable table_id (they will land in the DLQ)
    seconds: float
    too_large: list[tuple[str, int]] = field(default_factory=list)  # (line, bytes) not sent


def record_key(raw: bytes) -> bytes | None:
    """``table_id`` of a record as the Kafka key, or None when it has none."""
    try:
        obj = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return None
    table_id = obj.get("table_id") if isinstance(obj, dict) else None
    return table_id.encode() if isinstance(table_id, str) else None


def keyed_records(lines: Iterable[bytes], too_large: list[tuple[str, int]] | None = None
                  ) -> Iterator[tuple[bytes | None, bytes]]:
    """``(key, line)`` of every line; with ``too_large``, a record over
    ``MAX_PUBLISHED_BYTES`` (its line and its key: a megabyte ``table_id`` doubles the
    record, and the broker refused it with a traceback) is noted there (where, bytes)
    instead of yielded."""
    for raw, where in iter_lines(lines):
        key = record_key(raw)
        size = len(raw) + len(key or b"")
        if too_large is not None and size > MAX_PUBLISHED_BYTES:
            too_large.append((where, size))
            continue
        yield key, raw


def new_producer(bootstrap: str, client_id: str = "pitwatch-producer",
                 linger_ms: int = 5) -> AIOKafkaProducer:
    """Idempotent, acks from all replicas; ``linger_ms`` trades latency for batching.

    Requests may be as large as the largest record a pipeline topic accepts (a table
    state on the changelog, or a record the broker took on ``table-events`` that must go
    to the DLQ unchanged, with its headers): with aiokafka's default of 1 MB, a 1.5 MB
    record the broker accepted could never be dead-lettered, and the worker would stop on
    it at every restart."""
    return AIOKafkaProducer(
        bootstrap_servers=bootstrap,
        client_id=client_id,
        acks="all",
        enable_idempotence=True,
        linger_ms=linger_ms,
        max_batch_size=256 * 1024,
        max_request_size=MAX_REQUEST_BYTES,
        compression_type=None,
    )


async def produce_records(
    producer: AIOKafkaProducer, topic: str, records: Iterable[tuple[bytes | None, bytes]]
) -> tuple[int, int]:
    """Send every ``(key, value)`` and wait for all acknowledgements; (sent, unkeyed).

    A log that stops being readable part way (a compressed file cut short: ``OSError``
    from ``open_log``) stops the sending; what was sent is acknowledged first and the
    error says how many records went out (else a user who publishes a whole copy again
    cannot tell what the broker holds and which alerts the repeats will raise)."""
    sent = unkeyed = 0
    pending: list[asyncio.Future[object]] = []
    try:
        for key, value in records:
            pending.append(await producer.send(topic, value=value, key=key))
            sent += 1
            unkeyed += key is None
            if len(pending) >= IN_FLIGHT:
                await asyncio.gather(*pending)
                pending.clear()
    except OSError as exc:
        await asyncio.gather(*pending)
        raise OSError(exc.errno, f"{exc.strerror}; {sent:,} record(s) before it were "
                                 f"published to {topic} (an event published again is "
                                 "applied once, and reported as a DUPLICATE_EVENT or "
                                 "STALE_EVENT alert)", exc.filename) from None
    await asyncio.gather(*pending)
    return sent, unkeyed


async def produce_file(path: Path, settings: StreamSettings) -> ProduceReport:
    """Publish ``path`` to the settings' ``table-events`` topic."""
    started = time.perf_counter()
    # Asked first: a send to a missing topic waits out the metadata timeout, logging
    # "not found in cluster metadata" hundreds of times, before it fails.
    await require_topics(settings.bootstrap, [settings.topics.events])
    producer = new_producer(settings.bootstrap)
    too_large: list[tuple[str, int]] = []
    await start_clients(settings.bootstrap, producer)
    try:
        with open_log(path) as fh:
            sent, unkeyed = await produce_records(producer, settings.topics.events,
                                                  keyed_records(fh, too_large))
    except UnknownTopicOrPartitionError:  # deleted meanwhile
        raise TopicMissing(f"topic {settings.topics.events}", settings.bootstrap) from None
    finally:
        await producer.stop()
    return ProduceReport(sent, unkeyed, time.perf_counter() - started, too_large)
