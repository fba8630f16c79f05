"""Lag and DLQ size read from a real broker: committed offsets against log ends."""

from __future__ import annotations

import asyncio

from aiokafka import AIOKafkaConsumer, AIOKafkaProducer, TopicPartition
from aiokafka.structs import OffsetAndMetadata
from prometheus_client import CollectorRegistry

from services.observability.metrics import KafkaWatchMetrics
from services.pipeline.kafka_watch import KafkaWatch
from tests.integration.conftest import TopicFactory, unique_name


async def _fill(bootstrap: str, topic: str, per_partition: dict[int, int]) -> None:
    producer = AIOKafkaProducer(bootstrap_servers=bootstrap)
    await producer.start()
    try:
        for partition, count in per_partition.items():
            for n in range(count):
                await producer.send_and_wait(topic, f"r{n}".encode(), partition=partition)
    finally:
        await producer.stop()


async def _commit(bootstrap: str, group: str, offsets: dict[TopicPartition, int]) -> None:
    consumer = AIOKafkaConsumer(bootstrap_servers=bootstrap, group_id=group,
                                enable_auto_commit=False)
    await consumer.start()
    try:
        consumer.assign(list(offsets))
        await consumer.commit({tp: OffsetAndMetadata(o, "") for tp, o in offsets.items()})
    finally:
        await consumer.stop()


def test_lag_and_dlq_size_from_the_broker(kafka_bootstrap: str,
                                          kafka_topic: TopicFactory) -> None:
    """events: partition 0 holds 5 records, partition 1 holds 3. The group committed 2 on
    partition 0 (5 - 2 = 3 behind) and nothing on partition 1 (all 3 behind). A group
    that never committed is 8 behind. The DLQ holds 4 records (1 + 3)."""
    events = kafka_topic("events", partitions=2)
    dlq = kafka_topic("dlq", partitions=2)
    group, idle = unique_name("group"), unique_name("idle")
    asyncio.run(_fill(kafka_bootstrap, events, {0: 5, 1: 3}))
    asyncio.run(_fill(kafka_bootstrap, dlq, {0: 1, 1: 3}))
    asyncio.run(_commit(kafka_bootstrap, group, {TopicPartition(events, 0): 2}))

    registry = CollectorRegistry()
    watch = KafkaWatch(kafka_bootstrap, [(group, events), (idle, events)], [dlq],
                       metrics=KafkaWatchMetrics(registry))
    lags, sizes = asyncio.run(watch.poll_once())

    assert [(lag.group, lag.behind) for lag in lags] == [(group, {0: 3, 1: 3}),
                                                         (idle, {0: 5, 1: 3})]
    assert sizes == {dlq: 4}
    assert registry.get_sample_value("pitwatch_consumer_lag_records", {
        "consumer_group": group, "topic": events, "partition": "0"}) == 3
    assert registry.get_sample_value("pitwatch_dlq_records", {"topic": dlq}) == 4
