"""Consumer lag and dead-letter size, read from the broker the way lag exporters do.

Why from the broker and not from inside the consumers: lag measured by the consumer itself
stops being reported exactly when it matters — when the consumer is stuck or dead. The
broker knows both numbers: a partition's log end offset, and the offset the consumer group
last committed. Their difference is the records the group has not finished, whoever is (or
is not) running. The same reads give the size of a dead-letter topic: end offsets minus
start offsets (what retention still holds).

A ``KafkaWatch`` polls in a daemon thread with its own event loop, so a service starts it
with one call and its own loop never waits for the broker's answers. Errors (broker away,
group not yet known) are counted in ``pitwatch_kafka_watch_polls_total{outcome="error"}``
and retried at the next poll; they never stop the service.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field

from aiokafka import AIOKafkaConsumer, TopicPartition
from aiokafka.admin import AIOKafkaAdminClient

from services.observability.metrics import KafkaWatchMetrics, kafka_watch_metrics
from services.pipeline.clients import start_clients

log = logging.getLogger("pitwatch.kafka_watch")

DEFAULT_INTERVAL_S = 5.0


@dataclass(frozen=True)
class GroupLag:
    """The lag of one consumer group on one topic, per partition."""

    group: str
    topic: str
    behind: dict[int, int] = field(default_factory=dict)


def lag_per_partition(ends: dict[int, int], starts: dict[int, int],
                      committed: dict[int, int]) -> dict[int, int]:
    """Records not yet committed by the group, per partition.

    A partition the group has never committed reads from the start of the log (the
    pipeline's consumers use ``auto_offset_reset=earliest``), so all it holds is lag.
    """
    behind: dict[int, int] = {}
    for partition, end in ends.items():
        position = committed.get(partition, -1)
        if position < 0:
            position = starts.get(partition, 0)
        behind[partition] = max(end - position, 0)
    return behind


class KafkaWatch:
    """Polls the lag of ``groups`` ((group, topic) pairs) and the size of ``dlq_topics``."""

    def __init__(self, bootstrap: str, groups: Sequence[tuple[str, str]],
                 dlq_topics: Sequence[str] = (), interval_s: float = DEFAULT_INTERVAL_S,
                 metrics: KafkaWatchMetrics | None = None) -> None:
        self.bootstrap = bootstrap
        self.groups = list(groups)
        self.dlq_topics = list(dlq_topics)
        self.interval_s = interval_s
        self.metrics = metrics or kafka_watch_metrics()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # ------------------------------------------------------------ one poll

    async def poll_once(self) -> tuple[list[GroupLag], dict[str, int]]:
        """Read offsets once and update the gauges; returns what it read."""
        admin = AIOKafkaAdminClient(bootstrap_servers=self.bootstrap,
                                    client_id="pitwatch-kafka-watch")
        consumer = AIOKafkaConsumer(bootstrap_servers=self.bootstrap,
                                    client_id="pitwatch-kafka-watch",
                                    enable_auto_commit=False)
        await start_clients(self.bootstrap, admin, consumer)
        try:
            return await self._read(admin, consumer)
        finally:
            await consumer.stop()
            await admin.close()

    async def _read(self, admin: AIOKafkaAdminClient, consumer: AIOKafkaConsumer
                    ) -> tuple[list[GroupLag], dict[str, int]]:
        lags: list[GroupLag] = []
        for group, topic in self.groups:
            ends, starts = await _offsets(admin, consumer, topic)
            committed = {tp.partition: meta.offset
                         for tp, meta in (await admin.list_consumer_group_offsets(group)).items()
                         if tp.topic == topic}
            lag = GroupLag(group, topic, lag_per_partition(ends, starts, committed))
            self.metrics.set_lag(group, [(topic, p, n) for p, n in sorted(lag.behind.items())])
            lags.append(lag)
        sizes: dict[str, int] = {}
        for topic in self.dlq_topics:
            ends, starts = await _offsets(admin, consumer, topic)
            sizes[topic] = sum(end - starts.get(p, 0) for p, end in ends.items())
            self.metrics.set_dlq(topic, sizes[topic])
        return lags, sizes

    # ------------------------------------------------------------ background thread

    def start(self) -> KafkaWatch:
        """Poll every ``interval_s`` in a daemon thread until ``stop``."""
        self._thread = threading.Thread(target=self._run, name="pitwatch-kafka-watch",
                                        daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout_s: float = 10.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout_s)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                asyncio.run(asyncio.wait_for(self.poll_once(), timeout=max(self.interval_s, 10)))
            except Exception as exc:  # the broker may be away; count it and try again
                self.metrics.polls.labels(outcome="error").inc()
                log.warning("kafka watch poll failed: %r", exc)
            else:
                self.metrics.polls.labels(outcome="ok").inc()
            self._stop.wait(self.interval_s)


async def _offsets(admin: AIOKafkaAdminClient, consumer: AIOKafkaConsumer, topic: str
                   ) -> tuple[dict[int, int], dict[int, int]]:
    """(end offsets, start offsets) by partition; empty when the topic does not exist.

    The partitions come from the admin client's fresh metadata: the consumer, assigned
    nothing, would only know the topics of its first metadata fetch.
    """
    described = await admin.describe_topics([topic])
    partitions = [p["partition"] for d in described if d.get("error_code", 0) == 0
                  for p in d.get("partitions", [])]
    tps = [TopicPartition(topic, p) for p in sorted(partitions)]
    if not tps:
        return {}, {}
    ends = await consumer.end_offsets(tps)
    starts = await consumer.beginning_offsets(tps)
    return ({tp.partition: off for tp, off in ends.items()},
            {tp.partition: off for tp, off in starts.items()})


def start_kafka_watch(bootstrap: str, groups: Sequence[tuple[str, str]],
                      dlq_topics: Sequence[str] = (),
                      interval_s: float = DEFAULT_INTERVAL_S) -> KafkaWatch:
    """Start watching (one line in a service): lag of each (group, topic), DLQ sizes."""
    return KafkaWatch(bootstrap, groups, dlq_topics, interval_s).start()
