"""The ledger service: books every record of ``adjudications`` into the ledger database.

Delivery from Kafka is at-least-once, so the same record can arrive twice (after a crash,
a rebalance, or because the adjudicator re-emitted a hand after its own crash). The
ledger's ``post_many`` is idempotent: each hand's ``hand_id`` is under a unique constraint
written in the same transaction as its postings, a repeat with the same bytes is a no-op,
a repeat with different bytes is refused and recorded as a critical ``LEDGER_CONFLICT``
finding. Nothing here stops for one bad record.

Offsets are committed only after the database transaction of the batch has committed. A
crash between the two re-delivers records that are already booked: duplicates, no-ops.
A crash before the database commit books nothing of the batch (every hand is
all-or-nothing), and the records are delivered again. So no hand is lost and none is
booked twice, whatever the crash point.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections import Counter, deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeAlias

import msgspec
from aiokafka import AIOKafkaConsumer, ConsumerRecord, TopicPartition
from sqlalchemy import Engine

from services.events.contract import AdjudicationRecord, decode_record
from services.ledger.db import DEFAULT_URL, default_url, open_ledger
from services.ledger.entries import HandEntry
from services.ledger.gc_policy import tune_for_batches
from services.ledger.posting import PostResult, post_prepared, prepare_entries
from services.observability.metrics import ledger_metrics, timed_ledger_write
from services.pipeline.clients import require_topics, start_clients
from services.pipeline.failpoints import arm_from_env, failpoint
from services.pipeline.monitoring import start_ledger_monitoring
from services.pipeline.offsets import commit_batch
from services.pipeline.signals import stop_on_signals
from services.pipeline.topics import DEFAULT_BOOTSTRAP, TopicNames, service_group

log = logging.getLogger("pitwatch.ledger")

Batch: TypeAlias = dict[TopicPartition, list[ConsumerRecord[bytes, bytes]]]

DEFAULT_GROUP = "pitwatch-ledger"
DEFAULT_BATCH = 2000  # records per poll, booked in one or a few database transactions
POLL_MS = 200
DEFAULT_IN_FLIGHT = 2  # database transactions at once (see LedgerService.run)
SESSION_TIMEOUT_MS = 15_000
HEARTBEAT_MS = 3_000
# Batches gathered by the broker, as the archive service's: a fetch is answered once this
# many bytes are there (a record is about 2 kB: a few hundred hands), or after
# FETCH_WAIT_MS. Each batch is a database transaction and an offset commit whatever its
# size; with the defaults (answer at the first byte) a ledger keeping pace with the
# adjudicator booked a handful of hands a transaction. A hand is booked at most this much
# later; the adjudication itself (the latency target) is not delayed.
FETCH_MIN_BYTES = 512 * 1024
FETCH_WAIT_MS = 200


@dataclass(frozen=True)
class LedgerServiceSettings:
    """Where the ledger service reads and writes (environment variables in brackets)."""

    bootstrap: str = DEFAULT_BOOTSTRAP  # PITWATCH_KAFKA
    topic: str = TopicNames.with_prefix().adjudications  # from PITWATCH_TOPIC_PREFIX
    group_id: str = DEFAULT_GROUP  # PITWATCH_LEDGER_GROUP
    db_url: str = DEFAULT_URL  # PITWATCH_DB
    batch: int = DEFAULT_BATCH  # PITWATCH_LEDGER_BATCH: records per poll and commit
    session_timeout_ms: int = SESSION_TIMEOUT_MS  # a dead service's partitions move then
    in_flight: int = DEFAULT_IN_FLIGHT  # PITWATCH_LEDGER_IN_FLIGHT: transactions at once

    def __post_init__(self) -> None:
        if self.in_flight < 1:
            raise ValueError(f"the ledger needs at least one transaction in flight, not "
                             f"{self.in_flight}: set PITWATCH_LEDGER_IN_FLIGHT (or "
                             f"--in-flight) to 1 or more")

    @classmethod
    def from_env(cls) -> LedgerServiceSettings:
        env = os.environ
        return cls(
            bootstrap=env.get("PITWATCH_KAFKA") or DEFAULT_BOOTSTRAP,
            topic=TopicNames.with_prefix(env.get("PITWATCH_TOPIC_PREFIX", "")).adjudications,
            group_id=env.get("PITWATCH_LEDGER_GROUP") or service_group(
                env.get("PITWATCH_TOPIC_PREFIX", ""), DEFAULT_GROUP),
            db_url=default_url(),
            batch=int(env.get("PITWATCH_LEDGER_BATCH") or DEFAULT_BATCH),
            in_flight=int(env.get("PITWATCH_LEDGER_IN_FLIGHT") or DEFAULT_IN_FLIGHT),
        )


@dataclass(frozen=True)
class Prepared:
    """A fetched batch made ready to book: its hands' entries, with their postings built
    (``posting.prepare_entries``), and how many of its messages were not records."""

    entries: list[HandEntry]
    undecodable: int
    messages: int


def decode_batch(messages: Sequence[ConsumerRecord[bytes, bytes]]
                 ) -> tuple[list[AdjudicationRecord], int]:
    """Records in offset order; a value that is not a v1 record is logged and counted.

    Such a value can only come from something other than the adjudicator writing to the
    topic; it cannot be booked, and holding the partition for it would stop every hand
    behind it, so it is reported (critical) and passed over.
    """
    records: list[AdjudicationRecord] = []
    bad = 0
    for message in messages:
        try:
            records.append(decode_record(message.value or b""))
        except (msgspec.ValidationError, msgspec.DecodeError) as exc:
            bad += 1
            log.critical("not an adjudication record at %s/%s/%s, not booked: %s",
                         message.topic, message.partition, message.offset, exc)
    return records, bad


def book_prepared(engine: Engine, entries: list[HandEntry]) -> Counter[str]:
    """Post entries built beforehand (``prepare_entries``) in one transaction (idempotent;
    a hand that trips a database constraint sends the batch to one transaction per hand,
    see ``post_many``); every conflict or refusal is logged as critical."""
    results: list[PostResult] = post_prepared(engine, entries)
    # One result per entry, in order: the money of the hands this batch posted (a
    # duplicate was counted when it was posted; a refused hand books no chips).
    ledger_metrics().observe_booked(
        entry.record for entry, result in zip(entries, results, strict=True)
        if result.status == "posted" and result.hand_id == entry.hand_id)
    for result in results:
        if result.status in ("conflict", "refused"):
            for finding in result.findings:
                log.critical("hand %s %s: %s [%s %s]", result.hand_id, result.status,
                             finding.message, finding.code, finding.rule)
    return Counter(result.status for result in results)


class LedgerService:
    """Consume ``adjudications`` and book them, committing offsets after each booking."""

    def __init__(self, settings: LedgerServiceSettings,
                 stopping: asyncio.Event | None = None) -> None:
        self.settings = settings
        self.engine = open_ledger(settings.db_url)
        self.stopping = stopping or asyncio.Event()
        self.totals: Counter[str] = Counter()

    def new_consumer(self) -> AIOKafkaConsumer:
        return AIOKafkaConsumer(
            self.settings.topic,
            bootstrap_servers=self.settings.bootstrap,
            group_id=self.settings.group_id,
            client_id=f"{self.settings.group_id}-{os.getpid()}",
            enable_auto_commit=False,  # commit only after the database commit
            auto_offset_reset="earliest",
            isolation_level="read_committed",
            max_poll_records=self.settings.batch,
            fetch_min_bytes=FETCH_MIN_BYTES, fetch_max_wait_ms=FETCH_WAIT_MS,
            session_timeout_ms=self.settings.session_timeout_ms,
            heartbeat_interval_ms=min(HEARTBEAT_MS, self.settings.session_timeout_ms // 3),
        )

    async def run(self) -> None:
        """Fetch, prepare and book batch after batch, ``in_flight`` database transactions
        at once.

        Why more than none in flight: booking a batch is Python (decoding, building each
        hand's postings) and then PostgreSQL (the COPY, the guards' triggers, the
        commit), and done in turns each waited for the other, so one ledger could not use
        two cores. So the next batch is fetched and prepared while the database books the
        previous one. Why more than one (``PITWATCH_LEDGER_IN_FLIGHT``, default 2): one
        transaction at a time left the ledger waiting on a single PostgreSQL backend,
        whose work (the rows, the triggers, the commit) is most of a batch's time; two
        transactions on two connections let PostgreSQL use both cores. Their hands are
        independent: a hand delivered in both waits on the other's unique key and is then
        found a duplicate (``post_prepared``), and new accounts are inserted in name order
        (no deadlock; should PostgreSQL still find one, the batch it rolled back is
        written again: ``posting.RETRY_SQLSTATES``). On SQLite, which has one writer, the
        second transaction waits for the first's lock (``BEGIN IMMEDIATE``) and only the
        overlap is gained. Offsets are committed in batch order, each only after its own
        batch's database commit and every earlier batch's offsets (``store``), so a crash
        at any point re-delivers only batches whose effects may not all be committed, and
        those come again as duplicates (at least once)."""
        consumer = self.new_consumer()
        await start_clients(self.settings.bootstrap, consumer)
        log.info("ledger service consuming %s as group %s into %s (%d transactions in "
                 "flight)", self.settings.topic, self.settings.group_id,
                 self.engine.url.render_as_string(hide_password=True),
                 self.settings.in_flight)
        in_flight: deque[asyncio.Task[None]] = deque()
        try:
            while not self.stopping.is_set():
                batch = await consumer.getmany(timeout_ms=POLL_MS,
                                               max_records=self.settings.batch)
                if not batch:
                    continue
                # In a thread too: building a batch's entries is CPU for a few hundred
                # milliseconds, which would hold up the consumer's heartbeats here.
                prepared = await asyncio.to_thread(self.prepare, batch)
                while len(in_flight) >= self.settings.in_flight:
                    await in_flight.popleft()
                before = in_flight[-1] if in_flight else None
                in_flight.append(asyncio.create_task(
                    self.store(consumer, batch, prepared, before)))
        finally:
            try:
                while in_flight:  # the batches in flight finish (and their offsets)
                    await in_flight.popleft()
            finally:
                await consumer.stop()
                self.engine.dispose()

    def prepare(self, batch: Batch) -> Prepared:
        """Decode the batch and build its hands' entries (no database work)."""
        messages = [m for tp in sorted(batch) for m in batch[tp]]
        failpoint("polled")
        records, bad = decode_batch(messages)
        return Prepared(prepare_entries(records, decoded=True), bad, len(messages))

    async def store(self, consumer: AIOKafkaConsumer, batch: Batch, prepared: Prepared,
                    before: asyncio.Task[None] | None = None) -> None:
        """Book a prepared batch in one transaction, then, once the batch ``before`` it
        is stored and its offsets committed, commit this one's."""
        # The database work runs in a thread so the consumer keeps heart-beating.
        statuses = await asyncio.to_thread(timed_ledger_write, book_prepared, self.engine,
                                           prepared.entries)
        if before is not None:
            await before
        ledger_metrics().observe_undecodable(prepared.undecodable)
        statuses["undecodable"] += prepared.undecodable
        self.totals.update(statuses)
        log.info("booked batch of %d: %s", prepared.messages, dict(statuses))
        failpoint("booked")
        await commit_batch(consumer, batch, log)

    def stop(self) -> None:
        self.stopping.set()


async def serve(settings: LedgerServiceSettings) -> None:
    """Run until SIGINT/SIGTERM, then stop cleanly (the current batch finishes first)."""
    arm_from_env()
    tune_for_batches()
    stopping = stop_on_signals()
    await require_topics(settings.bootstrap, [settings.topic])
    service = LedgerService(settings, stopping)
    start_ledger_monitoring(settings.bootstrap, settings.group_id, settings.topic)
    await service.run()


def main() -> None:  # pragma: no cover - `python -m services.pipeline.ledger_service`
    logging.basicConfig(level=logging.INFO,
                        format="[%(asctime)s] [%(process)d] [%(levelname)s] %(message)s")
    asyncio.run(serve(LedgerServiceSettings.from_env()))


if __name__ == "__main__":  # pragma: no cover
    main()
