"""The archive service: keeps every event, alert and case of the pipeline in the database.

It consumes three topics: ``archive`` (the adjudicator's segments: one record per hand and
per run of events between hands, already compressed, ``services.archive.segment``; with
them the stream alerts of the same batch, so that a tampered event is never kept before
the alert that reported it),
``alerts`` (the adjudicator's stream alerts and the surveillance service's SURV-2..8) and
``adjudications`` (read only for the findings that open cases). Each batch goes into the
database in one transaction (``services.archive.writer.write_archive``, then
``services.cases.intake.take_evidence``), and only after that commit are the offsets
committed: a crash before the database commit writes nothing of the batch and the
records come again; a crash after it and before the offsets re-delivers records already
written, which the archive recognises (segments by key and by event, alerts by id, case
evidence by source) and writes nothing twice. So the archive equals the input whatever the
crash point (``tests/integration/test_archive_pipeline.py`` kills it with SIGKILL).

Why its own service and not the ledger's: what it writes is append-only and keyed by
source, like the ledger, but at a different rate (a hand's segment is ten times its record)
and with a different retention (years); separate, each can be scaled, restarted and
monitored on its own, and a kill of one proves nothing about the other.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TypeAlias

import msgspec
from aiokafka import AIOKafkaConsumer, ConsumerRecord, TopicPartition
from sqlalchemy import Engine
from sqlalchemy.exc import IntegrityError

from services.archive.segment import PackedSegment
from services.archive.segment import decode_batch as decode_archive_record
from services.archive.writer import write_archive
from services.cases.audit import now_utc
from services.cases.intake import evidence_of, take_evidence
from services.events.contract import AdjudicationRecord, Alert, decode_alert, decode_record
from services.ledger.db import DEFAULT_URL, default_url, open_ledger, write_transaction
from services.ledger.gc_policy import tune_for_batches
from services.observability.archive_metrics import archive_metrics
from services.pipeline.clients import require_topics, start_clients
from services.pipeline.failpoints import arm_from_env, failpoint
from services.pipeline.monitoring import start_archive_monitoring
from services.pipeline.offsets import commit_batch
from services.pipeline.signals import stop_on_signals
from services.pipeline.topics import DEFAULT_BOOTSTRAP, TopicNames, service_group

log = logging.getLogger("pitwatch.archive")

DEFAULT_GROUP = "pitwatch-archive"
DEFAULT_BATCH = 2000
POLL_MS = 200
SESSION_TIMEOUT_MS = 15_000
HEARTBEAT_MS = 3_000
# Fetch sizes as the adjudicator's (worker.py): an archive record is up to 0.9 MB.
FETCH_PARTITION_BYTES = 8 * 1024 * 1024
FETCH_MAX_BYTES = 64 * 1024 * 1024
# Batches gathered by the broker: a fetch is answered once this many bytes are there, or
# after FETCH_WAIT_MS. Each batch is a transaction (its key lookups, COPY, catalog
# update and commit) and an offset commit, whatever its size: keeping pace with the
# adjudicator a fetch brought a few segments each, and the per-batch work was most of
# the service's and PostgreSQL's CPU. An archived event waits at most this much longer.
FETCH_MIN_BYTES = 1024 * 1024
FETCH_WAIT_MS = 250
ATTEMPTS = 3  # a batch whose case intake raced another writer runs again

Message: TypeAlias = ConsumerRecord[bytes, bytes]


@dataclass(frozen=True)
class ArchiveServiceSettings:
    """Where the archive service reads and writes (environment variables in brackets)."""

    bootstrap: str = DEFAULT_BOOTSTRAP  # PITWATCH_KAFKA
    topics: TopicNames = field(default_factory=TopicNames.with_prefix)  # TOPIC_PREFIX
    group_id: str = DEFAULT_GROUP  # PITWATCH_ARCHIVE_GROUP
    db_url: str = DEFAULT_URL  # PITWATCH_DB
    batch: int = DEFAULT_BATCH  # PITWATCH_ARCHIVE_BATCH
    session_timeout_ms: int = SESSION_TIMEOUT_MS

    @classmethod
    def from_env(cls) -> ArchiveServiceSettings:
        env = os.environ
        return cls(bootstrap=env.get("PITWATCH_KAFKA") or DEFAULT_BOOTSTRAP,
                   topics=TopicNames.with_prefix(env.get("PITWATCH_TOPIC_PREFIX", "")),
                   group_id=env.get("PITWATCH_ARCHIVE_GROUP") or service_group(
                env.get("PITWATCH_TOPIC_PREFIX", ""), DEFAULT_GROUP),
                   db_url=default_url(),
                   batch=int(env.get("PITWATCH_ARCHIVE_BATCH") or DEFAULT_BATCH))


@dataclass
class Decoded:
    segments: list[PackedSegment]
    alerts: list[Alert]
    records: list[AdjudicationRecord]
    undecodable: int = 0


def decode_messages(messages: Sequence[Message], topics: TopicNames) -> Decoded:
    """Each message by its topic, in offset order; one that is not what its topic holds
    is logged (critical) and passed over: holding the partition for it would stop every
    record behind it."""
    out = Decoded([], [], [])
    for m in messages:
        try:
            if m.topic == topics.archive:
                archived = decode_archive_record(m.value or b"")
                out.segments += archived.segments
                out.alerts += [decode_alert(a) for a in archived.alerts]
            elif m.topic == topics.alerts:
                out.alerts.append(decode_alert(m.value or b""))
            elif _may_open_a_case(m.value or b""):
                out.records.append(decode_record(m.value or b""))
        except (msgspec.ValidationError, msgspec.DecodeError) as exc:
            out.undecodable += 1
            log.critical("not a record of %s at partition %s offset %s, not archived: %s",
                         m.topic, m.partition, m.offset, exc)
    return out


def _may_open_a_case(value: bytes) -> bool:
    """Whether a record may hold a finding at warning or above (``MIN_SEVERITY``): the
    others are the ledger's business only, and not decoding them here costs nothing."""
    return b'"severity":"warning"' in value or b'"severity":"critical"' in value


def keep_batch(engine: Engine, batch: Decoded) -> Counter[str]:
    """Archive and open cases in one transaction; run again if another writer opened a
    case of the same subject meanwhile."""
    for attempt in range(ATTEMPTS):
        try:
            with write_transaction(engine) as conn:
                archived = write_archive(conn, batch.segments, batch.alerts)
                cases = take_evidence(conn, evidence_of(batch.records, batch.alerts),
                                      now_utc())
            break
        except IntegrityError:
            if attempt == ATTEMPTS - 1:
                raise
    counts: Counter[str] = Counter({
        "segments": archived.segments + archived.trimmed, "repeats": archived.repeats,
        "conflicts": archived.conflicts, "alerts": archived.alerts,
        "alert_repeats": archived.alert_repeats, "cases_opened": cases.opened,
        "cases_joined": cases.joined, "undecodable": batch.undecodable})
    if archived.conflicts:
        log.critical("%d event(s) offered again with other bytes: kept in archive_conflicts "
                     "(SURV-9)", archived.conflicts)
    return counts


class ArchiveService:
    """Consume archive, alerts and adjudications; keep them; commit after each batch."""

    def __init__(self, settings: ArchiveServiceSettings,
                 stopping: asyncio.Event | None = None) -> None:
        self.settings = settings
        self.engine = open_ledger(settings.db_url)
        self.stopping = stopping or asyncio.Event()
        self.totals: Counter[str] = Counter()

    def new_consumer(self) -> AIOKafkaConsumer:
        t = self.settings.topics
        return AIOKafkaConsumer(
            t.archive, t.alerts, t.adjudications,
            bootstrap_servers=self.settings.bootstrap, group_id=self.settings.group_id,
            client_id=f"{self.settings.group_id}-{os.getpid()}",
            enable_auto_commit=False,  # only after the database commit
            auto_offset_reset="earliest", isolation_level="read_committed",
            max_poll_records=self.settings.batch,
            # An ``archive`` record holds a batch's segments (up to MAX_BATCH_BYTES, 0.9
            # MB): with aiokafka's 1 MB default a fetch brings about one per partition,
            # and each poll, transaction and commit then keeps only that much.
            max_partition_fetch_bytes=FETCH_PARTITION_BYTES,
            fetch_max_bytes=FETCH_MAX_BYTES,
            fetch_min_bytes=FETCH_MIN_BYTES, fetch_max_wait_ms=FETCH_WAIT_MS,
            session_timeout_ms=self.settings.session_timeout_ms,
            heartbeat_interval_ms=min(HEARTBEAT_MS, self.settings.session_timeout_ms // 3))

    async def run(self) -> None:
        consumer = self.new_consumer()
        await start_clients(self.settings.bootstrap, consumer)
        log.info("archive service consuming %s, %s, %s as group %s into %s",
                 self.settings.topics.archive, self.settings.topics.alerts,
                 self.settings.topics.adjudications, self.settings.group_id,
                 self.engine.url.render_as_string(hide_password=True))
        try:
            while not self.stopping.is_set():
                batch = await consumer.getmany(timeout_ms=POLL_MS,
                                               max_records=self.settings.batch)
                if batch:
                    await self.handle(consumer, batch)
        finally:
            await consumer.stop()
            self.engine.dispose()

    async def handle(self, consumer: AIOKafkaConsumer,
                     batch: dict[TopicPartition, list[Message]]) -> None:
        messages = [m for tp in sorted(batch) for m in batch[tp]]
        failpoint("polled")
        decoded = decode_messages(messages, self.settings.topics)
        # The database work runs in a thread so the consumer keeps heart-beating.
        started = time.perf_counter()
        counts = await asyncio.to_thread(keep_batch, self.engine, decoded)
        archive_metrics().observe_batch(counts, time.perf_counter() - started)
        self.totals.update(counts)
        log.info("archived batch of %d: %s", len(messages), dict(+counts))
        failpoint("archived")
        await commit_batch(consumer, batch, log)

    def stop(self) -> None:
        self.stopping.set()


async def serve(settings: ArchiveServiceSettings) -> None:
    """Run until SIGINT/SIGTERM, then stop cleanly (the current batch finishes first)."""
    arm_from_env()
    tune_for_batches()
    stopping = stop_on_signals()
    topics = settings.topics
    await require_topics(settings.bootstrap,
                         [topics.archive, topics.alerts, topics.adjudications])
    service = ArchiveService(settings, stopping)
    start_archive_monitoring(settings.bootstrap, settings.group_id,
                             [topics.archive, topics.alerts, topics.adjudications])
    await service.run()
