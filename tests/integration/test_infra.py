"""The services themselves: a real Kafka broker and a real PostgreSQL, as the app uses them.

These fail when `scripts/services.sh up` did not give the app what it relies on: records
keyed by table_id reaching a consumer in order on one partition, topics never appearing
by accident, and a PostgreSQL database that keeps committed rows and forgets rolled-back
ones with integer chip amounts intact.
"""

from __future__ import annotations

import asyncio

import sqlalchemy as sa
from aiokafka import AIOKafkaConsumer, AIOKafkaProducer
from aiokafka.admin import AIOKafkaAdminClient
from aiokafka.client import AIOKafkaClient
from aiokafka.protocol.metadata import MetadataRequest
from sqlalchemy.engine import make_url

from tests.integration.conftest import SERVICE_TIMEOUT_S, TopicFactory, unique_name

# Kafka protocol error code for a topic the broker does not have.
UNKNOWN_TOPIC_OR_PARTITION = 3


async def _produce(bootstrap: str, topic: str, records: list[tuple[bytes, bytes]]) -> None:
    producer = AIOKafkaProducer(bootstrap_servers=bootstrap, enable_idempotence=True, acks="all")
    await producer.start()
    try:
        for key, value in records:
            await producer.send_and_wait(topic, value, key=key)
    finally:
        await producer.stop()


async def _consume(
    bootstrap: str, topic: str, group: str, count: int
) -> list[tuple[int, int, bytes, bytes]]:
    """The first `count` records as (partition, offset, key, value), in arrival order."""
    consumer = AIOKafkaConsumer(
        topic,
        bootstrap_servers=bootstrap,
        group_id=group,
        auto_offset_reset="earliest",
        enable_auto_commit=False,
    )
    await consumer.start()
    try:
        seen: list[tuple[int, int, bytes, bytes]] = []
        while len(seen) < count:
            msg = await asyncio.wait_for(consumer.getone(), SERVICE_TIMEOUT_S)
            assert msg.key is not None and msg.value is not None
            seen.append((msg.partition, msg.offset, msg.key, msg.value))
        await consumer.commit()
        return seen
    finally:
        await consumer.stop()


async def _committed_offsets(bootstrap: str, group: str) -> dict[int, int]:
    admin = AIOKafkaAdminClient(bootstrap_servers=bootstrap)
    await admin.start()
    try:
        offsets = await admin.list_consumer_group_offsets(group)
        return {tp.partition: meta.offset for tp, meta in offsets.items()}
    finally:
        await admin.close()


def test_kafka_round_trip_keeps_per_key_order(
    kafka_bootstrap: str, kafka_topic: TopicFactory
) -> None:
    """Records with one key land on one partition and are consumed in the order produced.

    Five records: three for table "T1" (h1, h2, h3), two for "T2" (h1, h2), on a
    3-partition topic. Whatever partitions the keys hash to, the T1 values must arrive as
    h1, h2, h3 at offsets 0, 1, 2 of one partition (T2 likewise, or after T1's when both
    keys share a partition), and the group's committed offsets must add up to 5.
    """
    topic = kafka_topic("infra-roundtrip", partitions=3)
    group = unique_name("infra-group")
    records = [
        (b"T1", b"h1"),
        (b"T2", b"h1"),
        (b"T1", b"h2"),
        (b"T1", b"h3"),
        (b"T2", b"h2"),
    ]

    asyncio.run(_produce(kafka_bootstrap, topic, records))
    consumed = asyncio.run(_consume(kafka_bootstrap, topic, group, len(records)))

    for key, expected_values in ((b"T1", [b"h1", b"h2", b"h3"]), (b"T2", [b"h1", b"h2"])):
        mine = [(p, o, v) for p, o, k, v in consumed if k == key]
        assert [v for _, _, v in mine] == expected_values
        assert len({p for p, _, _ in mine}) == 1, f"key {key!r} spread over partitions"
        offsets = [o for _, o, _ in mine]
        assert offsets == sorted(offsets)
    committed = asyncio.run(_committed_offsets(kafka_bootstrap, group))
    assert sum(committed.values()) == len(records)


def test_kafka_topics_are_never_created_implicitly(kafka_bootstrap: str) -> None:
    """A metadata request that allows auto-creation must not create a missing topic.

    The app creates its topics explicitly; with auto-creation on, a misspelt topic name
    would silently become a new empty topic instead of an error.
    """
    missing = unique_name("infra-never-created")

    async def ask_and_list() -> tuple[int, list[str]]:
        client = AIOKafkaClient(bootstrap_servers=kafka_bootstrap)
        await client.bootstrap()
        try:
            node = client.get_random_node()
            assert node is not None
            response = await client.send(
                node, MetadataRequest([missing], allow_auto_topic_creation=True)
            )
            (error_code, name, *_rest) = response.topics[0]
            assert name == missing
        finally:
            await client.close()
        admin = AIOKafkaAdminClient(bootstrap_servers=kafka_bootstrap)
        await admin.start()
        try:
            topics: list[str] = await admin.list_topics()
        finally:
            await admin.close()
        return error_code, topics

    error_code, topics = asyncio.run(ask_and_list())
    assert error_code == UNKNOWN_TOPIC_OR_PARTITION
    assert missing not in topics


def test_postgres_round_trip_in_a_session_database(pg_url: str) -> None:
    """Committed rows persist, rolled-back rows vanish, BIGINT chip amounts stay exact ints.

    Insert (1, 2**53 + 1) and commit; insert (2, 500) and roll back. Only row 1 remains and
    its amount reads back as the int 9007199254740993 (not representable as a float).
    """
    url = make_url(pg_url)
    assert url.database is not None and url.database.startswith("pitwatch_test_")
    engine = sa.create_engine(url)
    big = 2**53 + 1
    try:
        with engine.begin() as conn:
            conn.execute(sa.text("CREATE TABLE chips (id INT PRIMARY KEY, amount BIGINT NOT NULL)"))
            conn.execute(sa.text("INSERT INTO chips VALUES (1, :a)"), {"a": big})
        with engine.connect() as conn:
            conn.execute(sa.text("INSERT INTO chips VALUES (2, 500)"))
            conn.rollback()
        with engine.connect() as conn:
            current = conn.execute(sa.text("SELECT current_database()")).scalar_one()
            rows = conn.execute(sa.text("SELECT id, amount FROM chips ORDER BY id")).all()
    finally:
        engine.dispose()

    assert current == url.database
    assert [tuple(r) for r in rows] == [(1, big)]
    assert type(rows[0][1]) is int
