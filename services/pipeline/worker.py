"""The adjudicator worker: ``table-events`` in; ``adjudications``, ``alerts`` and
``table-events.dlq`` out; each table's state in a compacted changelog topic.

Run it with ``pitwatch serve adjudicator``; start more with the same ``--app-id`` to
scale out (they share the consumer group, and so the partitions).

Why plain aiokafka and not Faust: the per-event path is the hot path, and Faust's
per-message machinery (fetcher, conductor, one task and one ack per record) cost
200-350 µs a message here, about twenty times what pitwatch's own step costs. This
worker takes records in batches (``getmany``), hands each partition's batch to the same
step the embedded runner uses (``step.PartitionTables``), and keeps the table states as
live objects in memory, writing them to the changelog only at checkpoints.

Delivery is at-least-once with idempotent effects (architecture.md: Kafka's and Faust's
exactly-once are not relied upon). The order of effects is what makes it safe:

1. each batch is processed in memory, partition by partition, in offset order;
2. its outputs are produced and every one is acknowledged by the broker before the next
   batch is processed (so a hand's latency is one batch, not one checkpoint);
3. at a checkpoint (every ``checkpoint_seconds``, on revocation, at a clean stop) the
   states of the tables that changed since the last one are written to the changelog
   and acknowledged;
4. only then are the offsets committed.

A crash before 2 completes re-processes the batch (outputs repeat with the same bytes;
downstream deduplicates by hand id). A crash between 2 and 4 re-delivers records whose
outputs are out: each stored state remembers the offset of the last record applied to
its table, and ``PartitionTables`` skips those records; a table whose state was not yet
written re-applies them to its older state and gives the same outputs again. No crash
point can commit an offset whose records' outputs and states are not on the broker.

On assignment, a partition's tables are restored by reading its changelog partition to
its end, and only then is the partition read, from its committed offset (or the
beginning). Records fetched for a partition that is not restored yet are not processed
(the seek after the restore fetches them again). On revocation the worker takes a
checkpoint and forgets the partition's tables, inside the same lock as batch
processing, so a batch never straddles a rebalance.

Any error while processing, any produce the broker finally refuses, and any failure to
restore stops the process at once (exit 70, ``os._exit``): its in-memory position is
then ahead of what is safely stored, and the only safe continuation is a restart from the
committed offsets and the changelog.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import socket
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import NoReturn, TypeAlias

from aiokafka import (
    AIOKafkaConsumer,
    AIOKafkaProducer,
    ConsumerRebalanceListener,
    ConsumerRecord,
    TopicPartition,
)
from aiokafka.errors import CommitFailedError

from services.games.profile import Profiles
from services.games.profiles import read_profiles
from services.pipeline.failpoints import arm_from_env, failpoint
from services.pipeline.monitoring import observe_adjudicator_batch, start_adjudicator_monitoring
from services.pipeline.producer import new_producer
from services.pipeline.step import BatchResult, InputRecord, Outgoing, PartitionTables
from services.pipeline.topics import StreamSettings

log = logging.getLogger("pitwatch.adjudicator")

Message: TypeAlias = ConsumerRecord[bytes, bytes]

WORKER_HEADER = "pitwatch-worker"  # "<host>/<pid>" of the worker that produced a record
EXIT_PROCESSING_FAILED = 70  # EX_SOFTWARE: restart from the committed offsets
BATCH_MAX = 2000  # records per poll: one produce round trip for their outputs
POLL_MS = 100  # a poll returns as soon as records are there; this bounds an idle wait
CHECKPOINT_SECONDS = 1.0  # states to the changelog and offsets committed this often
SESSION_TIMEOUT_MS = 15_000  # a killed worker's partitions move after this long
HEARTBEAT_MS = 3_000
PROGRESS_SECONDS = 5.0
RESTORE_POLL_MS = 500


def fail_stop(why: str, exc: BaseException | None = None) -> NoReturn:
    """Stop without committing anything more (see the module docstring)."""
    log.critical("adjudicator stopping: %s", why, exc_info=exc)
    logging.shutdown()
    os._exit(EXIT_PROCESSING_FAILED)


@dataclass
class Progress:
    """Counts for the progress line of the worker's log."""

    records: int = 0
    hands: int = 0
    dead: int = 0
    replayed: int = 0
    batches: int = 0
    outside_hand: int = 0
    checkpoints: int = 0
    reported: float = field(default_factory=time.monotonic)
    reported_records: int = -1

    def line(self) -> str:
        return (f"progress: {self.records} records in {self.batches} batches, {self.hands} "
                f"hands adjudicated, {self.dead} dead-lettered, {self.outside_hand} chain "
                f"breaks outside a hand, {self.replayed} replayed records skipped, "
                f"{self.checkpoints} checkpoints")

    def maybe_report(self, force: bool = False) -> None:
        now = time.monotonic()
        moved = self.records != self.reported_records
        if force or (moved and now - self.reported >= PROGRESS_SECONDS):
            self.reported, self.reported_records = now, self.records
            log.info(self.line())


@dataclass(frozen=True)
class WorkerOptions:
    """How a worker batches and checkpoints (``pitwatch serve adjudicator`` options)."""

    batch_max: int = BATCH_MAX
    checkpoint_seconds: float = CHECKPOINT_SECONDS
    session_timeout_ms: int = SESSION_TIMEOUT_MS
    archive: bool = True  # emit the event archive's segments to topic ``archive``

    @property
    def heartbeat_ms(self) -> int:
        return min(HEARTBEAT_MS, self.session_timeout_ms // 3)


@dataclass
class OwnedPartition:
    """A partition this worker owns and has restored."""

    tables: PartitionTables
    next_offset: int  # records below it were processed (or belong to an earlier owner)
    committed: int | None  # the offset last committed, None before the first commit


class AdjudicatorWorker:
    """One member of the adjudicator's consumer group."""

    def __init__(self, settings: StreamSettings, profiles: Profiles,
                 options: WorkerOptions | None = None) -> None:
        self.settings = settings
        self.profiles = profiles
        self.topics = settings.topics
        self.options = options or WorkerOptions()
        self.checkpoint_seconds = self.options.checkpoint_seconds
        self.batch_max = self.options.batch_max
        self.owned: dict[int, OwnedPartition] = {}
        self.lock = asyncio.Lock()  # batch processing vs rebalance callbacks
        self.stopping = asyncio.Event()
        self.progress = Progress()
        self.worker_header = (WORKER_HEADER, f"{socket.gethostname()}/{os.getpid()}".encode())
        self.next_checkpoint = time.monotonic() + self.checkpoint_seconds
        self.consumer = self._new_consumer()
        self.restorer = AIOKafkaConsumer(
            bootstrap_servers=settings.bootstrap, enable_auto_commit=False,
            client_id=f"{settings.app_id}-restore-{os.getpid()}",
            auto_offset_reset="earliest")
        self.producer: AIOKafkaProducer = new_producer(
            settings.bootstrap, client_id=f"{settings.app_id}-{os.getpid()}", linger_ms=2)

    def _new_consumer(self) -> AIOKafkaConsumer:
        return AIOKafkaConsumer(
            bootstrap_servers=self.settings.bootstrap,
            group_id=self.settings.app_id,
            client_id=f"{self.settings.app_id}-{os.getpid()}",
            enable_auto_commit=False,  # offsets only at checkpoints, after the states
            auto_offset_reset="earliest",
            isolation_level="read_committed",  # never read a transaction's aborted records
            max_poll_records=self.batch_max,
            session_timeout_ms=self.options.session_timeout_ms,
            heartbeat_interval_ms=self.options.heartbeat_ms,
        )

    # -- life cycle

    async def run(self) -> None:
        await self.producer.start()
        await self.restorer.start()
        await self.consumer.start()
        self.consumer.subscribe([self.topics.events], listener=_Rebalance(self))
        log.info("adjudicator consuming %s as group %s", self.topics.events,
                 self.settings.app_id)
        try:
            while not self.stopping.is_set():
                batch = await self.consumer.getmany(timeout_ms=POLL_MS,
                                                    max_records=self.batch_max)
                try:
                    async with self.lock:
                        await self._handle(batch)
                        if time.monotonic() >= self.next_checkpoint:
                            await self._checkpoint()
                except Exception as exc:  # any failure: stop, restart from the commit
                    fail_stop("processing a batch failed", exc)
                self.progress.maybe_report()
            async with self.lock:
                await self._checkpoint()
            self.progress.maybe_report(force=True)
        finally:
            await self.consumer.stop()
            await self.restorer.stop()
            await self.producer.stop()

    def stop(self) -> None:
        self.stopping.set()

    # -- one batch

    async def _handle(self, batch: dict[TopicPartition, list[Message]]) -> None:
        outgoing: list[tuple[int, Outgoing]] = []
        consumed = 0
        for tp in sorted(batch):
            owned = self.owned.get(tp.partition)
            if owned is None:
                continue  # not restored (yet): fetched again after the restore's seek
            messages = [m for m in batch[tp] if m.offset >= owned.next_offset]
            if not messages:
                continue
            result = owned.tables.process([_input_record(m) for m in messages])
            owned.next_offset = messages[-1].offset + 1
            outgoing += [(tp.partition, o) for o in result.outgoing]
            consumed += len(messages)
            self._count(len(messages), result)
        if consumed:
            failpoint("processed")
            await self._deliver(outgoing)
            failpoint("delivered")
            observe_adjudicator_batch([o for _, o in outgoing], self.topics, consumed=consumed)

    def _count(self, records: int, result: BatchResult) -> None:
        p = self.progress
        p.batches += 1
        p.records += records
        p.hands += result.hands
        p.dead += result.dead_letters
        p.outside_hand += result.outside_hand
        p.replayed += result.replayed
        if result.replayed:
            log.info("skipped %d replayed record(s) whose tables' stored states hold them",
                     result.replayed)

    async def _deliver(self, outgoing: Iterable[tuple[int, Outgoing]]) -> None:
        """Produce every record on the partition of its input; wait for every ack.

        The explicit partition keeps a table's outputs on its input's partition number
        whatever partitioner the table systems' producers used."""
        pending = []
        for partition, o in outgoing:
            pending.append(await self.producer.send(
                o.topic, value=o.value, key=o.key, partition=partition,
                headers=[*o.headers, self.worker_header]))
            if len(pending) == 1:
                failpoint("producing")  # some outputs sent, none acknowledged
        await _acknowledged(pending)

    # -- checkpoints

    async def _checkpoint(self) -> None:
        """Changed states to the changelog (acknowledged), then the offsets."""
        self.next_checkpoint = time.monotonic() + self.checkpoint_seconds
        changelog = self.settings.changelog
        pending = []
        offsets: dict[TopicPartition, int] = {}
        for partition, owned in sorted(self.owned.items()):
            for key, value in owned.tables.take_changed():
                pending.append(await self.producer.send(changelog, value=value, key=key,
                                                        partition=partition))
                if len(pending) == 1:
                    failpoint("changelog")  # some states sent, none acknowledged
            if owned.committed != owned.next_offset and owned.next_offset > 0:
                offsets[TopicPartition(self.topics.events, partition)] = owned.next_offset
        if not pending and not offsets:
            return
        await _acknowledged(pending)
        failpoint("checkpointed")
        self.progress.checkpoints += 1
        if offsets:
            await self._commit(offsets)
            failpoint("committed")

    async def _commit(self, offsets: dict[TopicPartition, int]) -> None:
        """Commit, or, when the group has moved on (this member lost its generation),
        forget every partition: the states are on the changelog, so whoever owns them
        next restores them and skips what they hold; this worker gets partitions back
        only through a new assignment, restored afresh."""
        try:
            await self.consumer.commit(offsets)
        except CommitFailedError as exc:
            log.warning("offset commit refused (%s); dropping partitions %s until the "
                        "group assigns again", exc, sorted(self.owned))
            self.owned.clear()
            return
        for tp, offset in offsets.items():
            self.owned[tp.partition].committed = offset

    # -- rebalancing

    async def revoked(self, partitions: Iterable[TopicPartition]) -> None:
        async with self.lock:
            try:
                await self._checkpoint()
            except Exception as exc:  # states or offsets not stored: restart safely
                fail_stop("checkpoint before a rebalance failed", exc)
            for tp in partitions:
                self.owned.pop(tp.partition, None)
        log.info("partitions revoked: %s", sorted(tp.partition for tp in partitions))

    async def assigned(self, partitions: Iterable[TopicPartition]) -> None:
        async with self.lock:
            try:
                for tp in sorted(partitions):
                    await self._restore(tp)
            except Exception as exc:
                fail_stop("restoring table states failed", exc)
        log.info("adjudicator ready: partitions %s of %s restored",
                 sorted(self.owned), self.topics.events)
        failpoint("assigned")

    async def _restore(self, tp: TopicPartition) -> None:
        started = time.monotonic()
        tables = PartitionTables(self.topics, tp.partition, self.profiles,
                                 archive=self.options.archive)
        read = await read_changelog(self.restorer, self.settings.changelog, tp.partition,
                                    tables)
        committed = await self.consumer.committed(tp)
        if committed is None:
            await self.consumer.seek_to_beginning(tp)
        else:
            self.consumer.seek(tp, committed)
        self.owned[tp.partition] = OwnedPartition(tables, committed or 0, committed)
        log.info("partition %d: %d table state(s) from %d changelog record(s) in %.2fs; "
                 "reading from offset %s", tp.partition, len(tables.slots), read,
                 time.monotonic() - started,
                 committed if committed is not None else "the beginning")


class _Rebalance(ConsumerRebalanceListener):  # type: ignore[misc]
    """aiokafka's listener, calling the worker (aiokafka awaits both coroutines)."""

    def __init__(self, worker: AdjudicatorWorker) -> None:
        self.worker = worker

    async def on_partitions_revoked(self, revoked: Iterable[TopicPartition]) -> None:
        await self.worker.revoked(list(revoked))

    async def on_partitions_assigned(self, assigned: Iterable[TopicPartition]) -> None:
        await self.worker.assigned(list(assigned))


async def read_changelog(consumer: AIOKafkaConsumer, topic: str, partition: int,
                         tables: PartitionTables) -> int:
    """Read changelog ``partition`` from its beginning to its end into ``tables``; returns
    the number of records read (the latest value of each key is the table's state)."""
    tp = TopicPartition(topic, partition)
    consumer.assign([tp])
    await consumer.seek_to_beginning(tp)
    end = (await consumer.end_offsets([tp]))[tp]
    read = 0
    while await consumer.position(tp) < end:
        batch = await consumer.getmany(tp, timeout_ms=RESTORE_POLL_MS, max_records=5000)
        for message in batch.get(tp, []):
            if message.offset >= end:
                break
            read += 1
            if message.key is not None and message.value is not None:
                tables.restore(message.key, message.value)
        if read:
            failpoint("restoring")
    consumer.unsubscribe()  # stop fetching the changelog until the next restore
    return read


async def _acknowledged(pending: Sequence[asyncio.Future[object]]) -> None:
    """Wait for every produce; the first one the broker refused stops the worker."""
    if pending:
        await asyncio.gather(*pending)


def _input_record(message: Message) -> InputRecord:
    headers = [(str(k), None if v is None else bytes(v)) for k, v in message.headers or ()]
    return InputRecord(message.topic, message.partition, message.offset, message.key,
                       message.value, headers)


async def serve(settings: StreamSettings, options: WorkerOptions | None = None) -> None:
    """Run one worker until SIGINT/SIGTERM, then stop cleanly (checkpoint first)."""
    arm_from_env()
    worker = AdjudicatorWorker(settings, read_profiles(), options)
    start_adjudicator_monitoring(settings.bootstrap, settings.app_id, settings.topics.events,
                                 settings.topics.dlq)
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, worker.stop)
    await worker.run()


def run_worker(settings: StreamSettings, options: WorkerOptions | None = None) -> None:
    """Run one adjudicator worker in this process until it is stopped."""
    logging.basicConfig(level=logging.INFO,
                        format="[%(asctime)s] [%(process)d] [%(levelname)s] %(message)s")
    asyncio.run(serve(settings, options))
