"""``pitwatch serve surveillance``: cross-hand surveillance on the Kafka pipeline.

Consumes ``table-events`` and produces SURV-2..SURV-8 alerts to ``alerts``, through the
same ``SurveillanceStep`` as ``pitwatch surveil`` (the embedded adjudication of each
record, then the engine on each hand as it closes).

One instance owns the global state. Surveillance is cross-table: a dealer's or a
player's counters gather hands from every table they go to, and ``table-events`` is
partitioned by table, so the state cannot be split by partition. The service therefore
assigns itself every partition (no consumer group, no rebalancing) and a deployment runs
ONE instance. A second one is harmless, not useful: it reads the same log in the same
order (``merge.py``) and produces the same alerts with the same keys, which downstream
takes as at-least-once repeats.

State and restarts: no offsets are committed and nothing is stored. The surveillance
state is a pure function of the log, so every start replays ``table-events`` from the
beginning and rebuilds it, producing again the alerts it had produced (same keys, same
bytes: ``alert_id.py``). The cost is a replay of the topic's whole retention at each
start, and the statistics cover only what retention still holds (docs/surveillance.md).

Delivery: at least once. Each alert is produced and acknowledged (acks=all, idempotent
producer) before the next chunk of records is taken. A produce that fails after the
producer's own retries stops the service with an error; the restart replays and produces
it again. No alert is ever lost, some are delivered twice.

Reviews (SURV-8, SURV-5) run every ``review_every`` hands, counted in the merged log
order (a function of the log, not of the clock), and once more at a clean shutdown.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from dataclasses import dataclass, field
from itertools import islice
from typing import Annotated, TypeAlias

import msgspec
import typer
from aiokafka import AIOKafkaConsumer, AIOKafkaProducer, ConsumerRecord, TopicPartition
from aiokafka.admin import AIOKafkaAdminClient

from services.events.contract import Alert
from services.games.profiles import read_profiles
from services.observability.metrics import surveillance_metrics
from services.pipeline.clients import (
    TopicMissing,
    bootstrap_servers,
    broker_as_usage_error,
    start_clients,
)
from services.pipeline.monitoring import (
    check_monitoring_settings,
    observe_surveillance_lag,
    start_surveillance_monitoring,
)
from services.pipeline.producer import new_producer
from services.pipeline.signals import stop_on_signals
from services.pipeline.topics import DEFAULT_BOOTSTRAP, TopicNames, partition_counts
from services.surveillance.alert_id import alert_id
from services.surveillance.merge import PartitionMerge, order_key
from services.surveillance.profile import SurveillanceConfig, surveillance_config
from services.surveillance.run import SurveillanceStep

log = logging.getLogger("pitwatch.surveillance")

Message: TypeAlias = ConsumerRecord[bytes, bytes]

DEFAULT_REVIEW_EVERY = 1000  # hands between two SURV-8 / SURV-5 reviews
POLL_MS = 200
FETCH_RECORDS = 5000  # records per poll
RECORDS_PER_FEED = 4096  # released records fed to the step in one call
MAX_BUFFERED = 50_000  # per partition: pause fetching it beyond this (the merge waits
# for the slowest partition, so a fast one would otherwise fill memory)
METADATA_RETRIES = 40
METADATA_RETRY_SECONDS = 0.25
ALERT_ID_HEADER = "alert-id"


@dataclass(frozen=True)
class SurveillanceServiceSettings:
    bootstrap: str = DEFAULT_BOOTSTRAP
    topics: TopicNames = field(default_factory=TopicNames.with_prefix)
    profile: str = "house-v1"
    review_every: int = DEFAULT_REVIEW_EVERY
    client_id: str = "pitwatch-surveillance"


@dataclass
class ServiceCounts:
    """What the service has done since it started (logged when it catches up and stops)."""

    records: int = 0
    skipped: int = 0  # records with no event envelope: not events, changed no state
    dead_letters: int = 0  # records the adjudication rejected (its DLQ has them)
    hands: int = 0
    alerts: int = 0


class SurveillanceService:
    def __init__(self, settings: SurveillanceServiceSettings,
                 config: SurveillanceConfig | None = None,
                 stopping: asyncio.Event | None = None) -> None:
        self.settings = settings
        profiles = read_profiles()  # once per service: the profiles every table may post
        self.step = SurveillanceStep(config or surveillance_config(profiles.get(settings.profile)),
                                     profiles, review_every=settings.review_every)
        self.counts = ServiceCounts()
        self.stopping = stopping or asyncio.Event()

    def stop(self) -> None:
        self.stopping.set()

    async def run(self) -> None:
        s = self.settings
        # read_committed: a transactional producer's aborted records are never events.
        consumer = AIOKafkaConsumer(bootstrap_servers=s.bootstrap, group_id=None,
                                    enable_auto_commit=False, auto_offset_reset="earliest",
                                    isolation_level="read_committed",
                                    client_id=f"{s.client_id}-{os.getpid()}")
        producer = new_producer(s.bootstrap, client_id=f"{s.client_id}-{os.getpid()}",
                                linger_ms=0)
        await start_clients(s.bootstrap, consumer, producer)
        try:
            await self._consume(consumer, producer)
            # A clean stop: the review over everything seen (not a function of the log
            # alone: it depends on where the stop fell; docs/surveillance.md).
            await self._publish(producer, self.step.review())
            surveillance_metrics().observe_review("shutdown")
            log.info("stopped: %s", self.counts)
        finally:
            await consumer.stop()
            await producer.stop()

    async def _consume(self, consumer: AIOKafkaConsumer, producer: AIOKafkaProducer) -> None:
        topic = self.settings.topics.events
        tps = await _all_partitions(self.settings.bootstrap, topic)
        consumer.assign(tps)  # every partition, no group: this instance owns them all
        await consumer.seek_to_beginning(*tps)
        replay_end = await consumer.end_offsets(tps)
        surveillance_metrics().replay_started()
        log.info("replaying %s from the beginning: %d record(s) in %d partition(s)",
                 topic, sum(replay_end.values()), len(tps))
        merge: PartitionMerge[Message] = PartitionMerge(tp.partition for tp in tps)
        started, replaying = time.monotonic(), True
        while not self.stopping.is_set():
            batch = await consumer.getmany(timeout_ms=POLL_MS, max_records=FETCH_RECORDS)
            for messages in batch.values():
                for message in messages:
                    self._buffer(merge, message)
            ended = {tp.partition for tp in tps
                     if await _read_to_end(consumer, tp, replay_end[tp])}
            released = merge.release(ended)
            while chunk := list(islice(released, RECORDS_PER_FEED)):
                await self._process(producer, chunk)
            _flow_control(consumer, merge, tps)
            await observe_surveillance_lag(consumer, tps, replay_end, merge.buffered)
            if replaying and len(ended) == len(tps) and not any(
                    merge.buffered(tp.partition) for tp in tps):
                replaying = False
                log.info("caught up in %.1fs: %s", time.monotonic() - started, self.counts)
                surveillance_metrics().replay_caught_up(time.monotonic() - started)

    def _buffer(self, merge: PartitionMerge[Message], message: Message) -> None:
        key = order_key(message.value) if message.value is not None else None
        if key is None:
            # Not an event: the adjudicator dead-letters it; here it goes nowhere.
            self.counts.skipped += 1
            surveillance_metrics().observe_skipped(message.value)
            log.warning("skipped %s/%d/%d: not a table event", message.topic,
                        message.partition, message.offset)
            return
        merge.push(message.partition, key, message)

    async def _process(self, producer: AIOKafkaProducer, messages: list[Message]) -> None:
        """Records in the merged order, fed to the step in one call (the native core
        splits them, and only those with an outcome reach Python: fed one at a time, the
        Python around each record was most of the service's time on a table game), then
        the alerts they raised, produced in that order."""
        values = [m.value or b"" for m in messages]  # ``_buffer`` keeps records with one
        wheres = [f"partition {m.partition} offset {m.offset}" for m in messages]
        metrics = surveillance_metrics()
        alerts: list[Alert] = []
        with_outcome = 0
        for index, result in self.step.runner.feed_records(values, wheres):
            out = self.step.surveil(result)
            with_outcome += 1
            self.counts.hands += out.hands_surveilled
            metrics.observe_output(out, self.step)
            for dead in out.dead_letters:
                self.counts.dead_letters += 1
                log.warning("skipped %s: %s (the adjudicator dead-letters it)",
                            wheres[index], dead.reason)
            alerts += out.alerts
        self.counts.records += len(messages)
        metrics.observe_consumed(len(messages) - with_outcome)
        await self._publish(producer, alerts)

    async def _publish(self, producer: AIOKafkaProducer, alerts: list[Alert]) -> None:
        """Produce each alert and wait for its acknowledgement, in order."""
        for alert in alerts:
            key = alert_id(alert).encode()
            await producer.send_and_wait(self.settings.topics.alerts,
                                         value=msgspec.json.encode(alert), key=key,
                                         headers=[(ALERT_ID_HEADER, key)])
            self.counts.alerts += 1
            surveillance_metrics().observe_alert(alert)
            log.info("alert %s on %s %s", key.decode(), alert.table_id, alert.hand_id)


async def _all_partitions(bootstrap: str, topic: str) -> list[TopicPartition]:
    admin = AIOKafkaAdminClient(bootstrap_servers=bootstrap)
    await start_clients(bootstrap, admin)
    try:
        for _ in range(METADATA_RETRIES):
            counts = await partition_counts(admin, [topic])
            if counts.get(topic):
                return [TopicPartition(topic, p) for p in range(counts[topic])]
            await asyncio.sleep(METADATA_RETRY_SECONDS)
    finally:
        await admin.close()
    raise TopicMissing(f"topic {topic}", bootstrap)


async def _read_to_end(consumer: AIOKafkaConsumer, tp: TopicPartition, replay_end: int) -> bool:
    """Everything the partition held has been fetched: at least up to where it ended when
    the replay started (so the replay's order never depends on fetch timing), and up to
    the latest stable offset seen (read_committed reads no further than that: records
    of a transaction still open wait behind it)."""
    end = max(replay_end, consumer.last_stable_offset(tp) or 0)
    position: int = await consumer.position(tp)
    return position >= end


def _flow_control(consumer: AIOKafkaConsumer, merge: PartitionMerge[Message],
                  tps: list[TopicPartition]) -> None:
    paused = consumer.paused()
    for tp in tps:
        held = merge.buffered(tp.partition)
        if held >= MAX_BUFFERED and tp not in paused:
            consumer.pause(tp)
        elif held <= MAX_BUFFERED // 2 and tp in paused:
            consumer.resume(tp)


async def serve(settings: SurveillanceServiceSettings) -> None:
    """Run until SIGINT/SIGTERM; then review once more and stop."""
    stopping = stop_on_signals()
    service = SurveillanceService(settings, stopping=stopping)
    start_surveillance_monitoring()
    await service.run()


def serve_surveillance(
    bootstrap: Annotated[str, typer.Option("--bootstrap", envvar="PITWATCH_KAFKA",
                                           callback=bootstrap_servers,
                                           help="Kafka bootstrap server(s), host:port")]
    = DEFAULT_BOOTSTRAP,
    topic_prefix: Annotated[str, typer.Option("--topic-prefix", envvar="PITWATCH_TOPIC_PREFIX",
                                              help="prefix of every topic name")] = "",
    profile: Annotated[str, typer.Option("--profile", envvar="PITWATCH_PROFILE",
                                         help="rule profile holding surveillance.toml")]
    = "house-v1",
    review_every: Annotated[int, typer.Option(
        "--review-every", envvar="PITWATCH_REVIEW_EVERY", min=1,
        help="hands between two SURV-8 / SURV-5 reviews (also one at shutdown)")]
    = DEFAULT_REVIEW_EVERY,
) -> None:
    """Cross-hand surveillance (SURV-2..8): table-events -> alerts. Run ONE instance.

    It reads every partition and replays the topic from the beginning at each start."""
    logging.basicConfig(level=logging.INFO,
                        format="[%(asctime)s] [%(process)d] [%(levelname)s] %(message)s")
    settings = SurveillanceServiceSettings(bootstrap=bootstrap,
                                           topics=TopicNames.with_prefix(topic_prefix),
                                           profile=profile, review_every=review_every)
    check_monitoring_settings("surveillance")
    with broker_as_usage_error():
        asyncio.run(serve(settings))


def main() -> None:  # pragma: no cover - `python -m services.pipeline.surveillance_service`
    typer.run(serve_surveillance)


if __name__ == "__main__":  # pragma: no cover
    main()
