"""The adjudicator worker: ``table-events`` in; ``adjudications``, ``alerts`` and
``table-events.dlq`` out; each table's state in a compacted changelog topic.

Run it with ``pitwatch serve adjudicator``; start more with the same ``--app-id`` to
scale out (they share the consumer group, and so the partitions).

Why plain aiokafka and not Faust: the per-event path is the hot path, and Faust's
per-message machinery (fetcher, conductor, one task and one ack per record) cost
200-350 µs a message here, about twenty times what pitwatch's own step costs. This
worker takes records in batches (``getmany``), hands each partition's batch to the same
step the embedded runner uses (``step.PartitionTables``), and keeps the table states as
live objects in memory, writing them to the changelog only at checkpoints. With the
native engine the fetched record batches go to the core whole (``raw_batches``): no
Python object per record.

Delivery is at-least-once with idempotent effects (architecture.md: Kafka's and Faust's
exactly-once are not relied upon). The order of effects is what makes it safe:

1. each batch is processed in memory, partition by partition, in offset order;
2. its outputs are produced at once (so a hand's latency is one batch, not one
   checkpoint); the next batches are processed while they are on the wire, at most
   ``MAX_IN_FLIGHT_BATCHES`` of them unacknowledged;
3. at a checkpoint (every ``checkpoint_seconds``, or every ``checkpoint_batches``
   batches if set, on revocation, at a clean stop) the
   outputs still in flight are awaited, then the states of the tables that changed
   since the last one are written to the changelog
   and acknowledged;
4. only then are the offsets committed.

A crash before 2 completes re-processes the batch (outputs repeat with the same bytes;
downstream deduplicates by hand id). A crash between 2 and 4 re-delivers records whose
outputs are out: each stored state remembers the offset of the last record applied to
its table, and ``PartitionTables`` skips those records; a table whose state was not yet
written re-applies them to its older state and gives the same outputs again. No crash
point can commit an offset whose records' outputs and states are not on the broker.

On assignment, the new partitions are paused; the main loop (not the rebalance callback,
during which aiokafka sends no heartbeat) restores their tables by reading their
changelog partitions to their ends, seeks each to its committed offset (or the
beginning) and resumes it. Records fetched for a partition that is not restored are not
processed (the seek after the restore fetches them again). On revocation the worker
takes a checkpoint and forgets the partition's tables, inside the same lock as batch
processing and restores, so neither straddles a rebalance.

Any error while processing, any produce the broker finally refuses, and any failure to
restore stops the process at once (exit 70, ``os._exit``): its in-memory position is
then ahead of what is safely stored, and the only safe continuation is a restart from the
committed offsets and the changelog.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import time
from collections import deque
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

from services.adjudicator.engine import engine_name
from services.games.profile import Profiles
from services.games.profiles import read_profiles
from services.pipeline import raw_batches
from services.pipeline.clients import (
    TopicMissing,
    missing_topics,
    require_topics,
    start_clients,
)
from services.pipeline.failpoints import arm_from_env, failpoint
from services.pipeline.monitoring import observe_adjudicator_batch, start_adjudicator_monitoring
from services.pipeline.producer import new_producer
from services.pipeline.signals import stop_on_signals
from services.pipeline.step import BatchResult, Outgoing, PartitionTables, StateMismatchError
from services.pipeline.topics import StreamSettings, TopicNames, check_copartitioned

log = logging.getLogger("pitwatch.adjudicator")

Message: TypeAlias = ConsumerRecord[bytes, bytes] | raw_batches.RawBatch

WORKER_HEADER = "pitwatch-worker"  # "<host>/<pid>" of the worker that produced a record
EXIT_PROCESSING_FAILED = 70  # EX_SOFTWARE: restart from the committed offsets
EXIT_USAGE = 2  # a state of the other engine: restart it with that engine (one line says)
BATCH_MAX = 2000  # records per poll: one produce round trip for their outputs
POLL_MS = 100  # a poll returns as soon as records are there; this bounds an idle wait
CHECKPOINT_SECONDS = 1.0
# Batches whose outputs may be on the wire unacknowledged while the next is processed
# (all are acknowledged before any state is written: the checkpoint's first step).
MAX_IN_FLIGHT_BATCHES = 4  # states to the changelog and offsets committed this often
FETCH_PARTITION_BYTES = 8 * 1024 * 1024
FETCH_MAX_BYTES = 64 * 1024 * 1024
SESSION_TIMEOUT_MS = 15_000  # a killed worker's partitions move after this long
HEARTBEAT_MS = 3_000
GONE_CHECK_SECONDS = 10.0  # how long a failed worker asks the broker for its topics
PROGRESS_SECONDS = 5.0
RESTORE_POLL_MS = 500


def fail_stop(why: str, exc: BaseException | None = None,
              code: int = EXIT_PROCESSING_FAILED) -> NoReturn:
    """Stop without committing anything more (see the module docstring). ``exc``: its
    traceback is logged (a fault to look into); without it, ``why`` is the one line."""
    log.critical("adjudicator stopping: %s", why, exc_info=exc)
    logging.shutdown()
    os._exit(code)


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
    # Also checkpoint after this many batches with records (0: by time only). Bounds the
    # work a crash re-processes in records, whatever the rules' speed: with time alone a
    # fast engine can read a whole backlog between two checkpoints.
    checkpoint_batches: int = 0
    session_timeout_ms: int = SESSION_TIMEOUT_MS
    engine: str | None = None  # native (default) or python; None: $PITWATCH_ENGINE
    # Emit the event archive's segments to topic ``archive`` (either engine cuts them).
    archive: bool = True
    # The partitions ``table-events`` must have (``--partitions``); None: whatever it has.
    # Its changelog must have as many either way (``check_copartitioned``).
    partitions: int | None = None

    @property
    def heartbeat_ms(self) -> int:
        return min(HEARTBEAT_MS, self.session_timeout_ms // 3)


@dataclass(frozen=True)
class InFlight:
    """A batch's outputs, sent; its metrics are observed once all are acknowledged."""

    sent: list[asyncio.Future[object]]
    outgoing: list[Outgoing]
    consumed: int


@dataclass
class OwnedPartition:
    """A partition this worker owns and has restored."""

    tables: PartitionTables
    next_offset: int  # records below it were processed (or belong to an earlier owner)
    committed: int | None  # the offset last committed, None before the first commit


class AdjudicatorWorker:
    """One member of the adjudicator's consumer group."""

    def __init__(self, settings: StreamSettings, profiles: Profiles,
                 options: WorkerOptions | None = None,
                 stopping: asyncio.Event | None = None) -> None:
        self.settings = settings
        self.profiles = profiles
        self.topics = settings.topics
        self.options = options or WorkerOptions()
        self.checkpoint_seconds = self.options.checkpoint_seconds
        self.checkpoint_batches = self.options.checkpoint_batches
        self.batches_since_checkpoint = 0
        self.batch_max = self.options.batch_max
        self.owned: dict[int, OwnedPartition] = {}
        self.restoring: set[TopicPartition] = set()  # assigned, paused, not restored yet
        self.in_flight: deque[InFlight] = deque()  # batches sent, not all acknowledged
        self.lock = asyncio.Lock()  # batch processing vs rebalance callbacks
        self.stopping = stopping or asyncio.Event()
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
        # The native engine takes each plain fetched record batch whole (raw_batches.py):
        # no Python object per record.
        raw = engine_name(self.options.engine) == "native"
        if raw:
            raw_batches.install()
        return AIOKafkaConsumer(
            value_deserializer=raw_batches.RAW_BATCHES if raw else None,
            bootstrap_servers=self.settings.bootstrap,
            group_id=self.settings.group,
            client_id=f"{self.settings.app_id}-{os.getpid()}",
            enable_auto_commit=False,  # offsets only at checkpoints, after the states
            auto_offset_reset="earliest",
            isolation_level="read_committed",  # never read a transaction's aborted records
            max_poll_records=self.batch_max,
            # aiokafka fetches a partition again only once its buffered records are
            # taken, so the loop waits one fetch round trip per fetch: large fetches make
            # those waits rare (measured: a 1 MB fetch, the default, is ~60 ms of work).
            max_partition_fetch_bytes=FETCH_PARTITION_BYTES,
            fetch_max_bytes=FETCH_MAX_BYTES,
            session_timeout_ms=self.options.session_timeout_ms,
            heartbeat_interval_ms=self.options.heartbeat_ms,
        )

    # -- life cycle

    async def run(self) -> None:
        await start_clients(self.settings.bootstrap, self.producer, self.restorer,
                            self.consumer)
        self.consumer.subscribe([self.topics.events], listener=_Rebalance(self))
        log.info("adjudicator consuming %s as group %s", self.topics.events,
                 self.settings.group)
        try:
            while not self.stopping.is_set():
                if self.restoring:
                    try:
                        async with self.lock:
                            if self.restoring:
                                await self._restore_assigned()
                    except StateMismatchError as exc:  # a setting, not a fault: restarting
                        fail_stop(str(exc), code=EXIT_USAGE)  # as it is would not help
                    except Exception as exc:
                        fail_stop("restoring table states failed", exc)
                with raw_batches.records_per_poll(self.batch_max):
                    batch = await self.consumer.getmany(timeout_ms=POLL_MS,
                                                        max_records=self.batch_max)
                try:
                    async with self.lock:
                        await self._handle(batch)
                        if batch:
                            self.batches_since_checkpoint += 1
                        if self._checkpoint_due():
                            await self._checkpoint()
                except Exception as exc:  # any failure: stop, restart from the commit
                    gone = await self._topics_gone()
                    if gone:  # a setting, not a fault: restarting as it is would not help
                        fail_stop(str(TopicMissing(f"topic {gone[0]}",
                                                   self.settings.bootstrap)),
                                  code=EXIT_USAGE)
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

    async def _topics_gone(self) -> list[str]:
        """The worker's topics the broker no longer has, asked once after a failure (a
        topic deleted under a running worker failed its produce after the 40 s metadata
        wait, and the worker stopped with a traceback asking to be restarted); none when
        the broker does not answer within ``GONE_CHECK_SECONDS``."""
        t = self.topics
        wanted = [t.events, self.settings.changelog, *output_topics(t, self.options)]
        try:
            return await asyncio.wait_for(missing_topics(self.settings.bootstrap, wanted),
                                          GONE_CHECK_SECONDS)
        except Exception:  # the broker gone too: the failure is reported as it is
            return []

    # -- one batch

    async def _handle(self, batch: dict[TopicPartition, list[Message]]) -> None:
        outgoing: list[tuple[int, Outgoing]] = []
        consumed = 0
        for tp in sorted(batch):
            owned = self.owned.get(tp.partition)
            if owned is None:
                continue  # not restored (yet): fetched again after the restore's seek
            result = owned.tables.process(batch[tp], skip_below=owned.next_offset)
            if not result.consumed:
                continue
            owned.next_offset = result.next_offset
            outgoing += [(tp.partition, o) for o in result.outgoing]
            consumed += result.consumed
            self._count(result.consumed, result)
        if consumed:
            failpoint("processed")
            sent = await self._send(outgoing)
            self.in_flight.append(InFlight(sent, [o for _, o in outgoing], consumed))
        await self._settle_acknowledged(keep=MAX_IN_FLIGHT_BATCHES)

    async def _settle_acknowledged(self, keep: int) -> None:
        """Take the batches whose outputs the broker acknowledged, oldest first, and wait
        for the oldest until at most ``keep`` are still in flight (``keep=0``: all; the
        checkpoint's first step). A produce the broker refused raises here."""
        while self.in_flight and (len(self.in_flight) > keep
                                  or all(f.done() for f in self.in_flight[0].sent)):
            batch = self.in_flight.popleft()
            await _acknowledged(batch.sent)
            failpoint("delivered")
            observe_adjudicator_batch(batch.outgoing, self.topics, consumed=batch.consumed)

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

    async def _send(self, outgoing: Iterable[tuple[int, Outgoing]]
                    ) -> list[asyncio.Future[object]]:
        """Produce every record on the partition of its input; the acknowledgements are
        awaited later (``_settle_acknowledged``), so the next batch is processed while
        these are on the wire.

        The explicit partition keeps a table's outputs on its input's partition number
        whatever partitioner the table systems' producers used."""
        pending = []
        for partition, o in outgoing:
            pending.append(await self.producer.send(
                o.topic, value=o.value, key=o.key, partition=partition,
                headers=[*o.headers, self.worker_header]))
            if len(pending) == 1:
                failpoint("producing")  # some outputs sent, none acknowledged
        return pending

    # -- checkpoints

    def _checkpoint_due(self) -> bool:
        by_batches = (self.checkpoint_batches > 0
                      and self.batches_since_checkpoint >= self.checkpoint_batches)
        return by_batches or time.monotonic() >= self.next_checkpoint

    async def _checkpoint(self) -> None:
        """Every output acknowledged, then the changed states to the changelog
        (acknowledged), then the offsets."""
        self.next_checkpoint = time.monotonic() + self.checkpoint_seconds
        self.batches_since_checkpoint = 0
        await self._settle_acknowledged(keep=0)
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
            self.restoring.clear()
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
                self.restoring.discard(tp)
        log.info("partitions revoked: %s", sorted(tp.partition for tp in partitions))

    async def assigned(self, partitions: Iterable[TopicPartition]) -> None:
        """Pause the new partitions and leave their restore to the main loop.

        Why not restore here: aiokafka sends no heartbeat while a rebalance callback runs,
        so a restore longer than the session timeout (a large changelog, a slow broker)
        would get this member thrown out of the group while it goes on to process its
        partitions, a zombie whose changelog writes could land after the next owner's."""
        async with self.lock:
            for tp in partitions:
                self.consumer.pause(tp)
                self.restoring.add(tp)
        log.info("partitions assigned: %s (restoring)", sorted(tp.partition for tp in partitions))

    async def _restore_assigned(self) -> None:
        """Restore every partition waiting for it (under the lock: a revocation waits
        until this is done), then read each from its committed offset."""
        started = time.monotonic()
        partitions = sorted(self.restoring)
        tables = {tp.partition: PartitionTables(self.topics, tp.partition, self.profiles,
                                                self.options.engine, self.options.archive)
                  for tp in partitions}
        read = await read_changelog(self.restorer, self.settings.changelog, tables)
        for tp in partitions:
            committed = await self.consumer.committed(tp)
            if committed is None:
                await self.consumer.seek_to_beginning(tp)
            else:
                self.consumer.seek(tp, committed)
            self.owned[tp.partition] = OwnedPartition(tables[tp.partition], committed or 0,
                                                      committed)
            self.consumer.resume(tp)
            log.info("partition %d: %d table state(s); reading from offset %s", tp.partition,
                     len(tables[tp.partition].table_ids),
                     committed if committed is not None else "the beginning")
        self.restoring.clear()
        # The process's CPU seconds so far: what start-up and restores cost, for a reader
        # of the log (and bench_pipeline) to tell them from the CPU the hands take.
        log.info("adjudicator ready: partitions %s of %s restored (%d changelog record(s) "
                 "in %.2fs; process CPU %.3fs)", sorted(self.owned), self.topics.events,
                 read, time.monotonic() - started, time.process_time())
        failpoint("assigned")


class _Rebalance(ConsumerRebalanceListener):  # type: ignore[misc]
    """aiokafka's listener, calling the worker (aiokafka awaits both coroutines)."""

    def __init__(self, worker: AdjudicatorWorker) -> None:
        self.worker = worker

    async def on_partitions_revoked(self, revoked: Iterable[TopicPartition]) -> None:
        await self.worker.revoked(list(revoked))

    async def on_partitions_assigned(self, assigned: Iterable[TopicPartition]) -> None:
        await self.worker.assigned(list(assigned))


async def read_changelog(consumer: AIOKafkaConsumer, topic: str,
                         tables: dict[int, PartitionTables]) -> int:
    """Read the changelog partitions of ``tables`` from their beginning to their ends, in
    one pass; returns the number of records read (the latest value of a key is its
    table's state)."""
    tps = [TopicPartition(topic, partition) for partition in sorted(tables)]
    if not tps:
        return 0
    consumer.assign(tps)
    await consumer.seek_to_beginning(*tps)
    ends = await consumer.end_offsets(tps)
    read = 0
    while waiting := [tp for tp in tps if await consumer.position(tp) < ends[tp]]:
        batch = await consumer.getmany(*waiting, timeout_ms=RESTORE_POLL_MS,
                                       max_records=5000)
        for tp, messages in batch.items():
            for message in messages:
                if message.offset >= ends[tp]:
                    break
                read += 1
                if message.key is not None and message.value is not None:
                    tables[tp.partition].restore(message.key, message.value)
        if read:
            failpoint("restoring")
    consumer.unsubscribe()  # stop fetching the changelog until the next restore
    return read


async def _acknowledged(pending: Sequence[asyncio.Future[object]]) -> None:
    """Wait for every produce; the first one the broker refused stops the worker."""
    if pending:
        await asyncio.gather(*pending)


async def serve(settings: StreamSettings, options: WorkerOptions | None = None) -> None:
    """Run one worker until SIGINT/SIGTERM, then stop cleanly (checkpoint first).

    Every topic it reads and writes must exist first (``TopicMissing``: one line): on a
    missing ``table-events`` it waited forever in its group, and on a missing changelog
    it logged thousands of lines a second, ignored SIGTERM and ended in a traceback. And
    its changelog and its outputs must be partitioned as ``table-events``
    (``TopicMismatchError``)."""
    arm_from_env()
    stopping = stop_on_signals()
    t = settings.topics
    options = options or WorkerOptions()
    outputs = output_topics(t, options)
    await require_topics(settings.bootstrap, [t.events, settings.changelog, *outputs])
    await check_copartitioned(settings.bootstrap, t.events, settings.changelog, outputs,
                              options.partitions)
    worker = AdjudicatorWorker(settings, read_profiles(), options, stopping)
    start_adjudicator_monitoring(settings.bootstrap, settings.group, settings.topics.events,
                                 settings.topics.dlq)
    await worker.run()


def output_topics(topics: TopicNames, options: WorkerOptions) -> list[str]:
    """The topics a worker writes besides its changelog (``archive`` only with it on)."""
    return [topics.adjudications, topics.alerts, topics.dlq,
            *([topics.archive] if options.archive else [])]


def run_worker(settings: StreamSettings, options: WorkerOptions | None = None) -> None:
    """Run one adjudicator worker in this process until it is stopped."""
    logging.basicConfig(level=logging.INFO,
                        format="[%(asctime)s] [%(process)d] [%(levelname)s] %(message)s")
    asyncio.run(serve(settings, options))
