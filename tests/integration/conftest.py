"""Fixtures for tests that run against the real services started by `scripts/services.sh up`.

Every test under tests/integration/ is marked `integration`. A service that is not up is a
failure, never a skip: CI starts the services before pytest, so a missing broker or
database means the setup is broken, and a skipped test would hide that.

Fixtures:
- `kafka_bootstrap` (session): "127.0.0.1:<port>" of the broker, checked to answer.
- `kafka_topic` (function): a factory that creates a uniquely named topic (the broker does
  not auto-create topics) and deletes it after the test.
- `pg_url` (session, from tests/conftest.py): SQLAlchemy URL of a database created for
  this test session and dropped after it, so sessions never see each other's tables.

Addresses come from the same environment variables the scripts read
(PITWATCH_KAFKA_PORT, PITWATCH_PG_*); PITWATCH_KAFKA_BOOTSTRAP and PITWATCH_PG_URL, when
set, take precedence.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from aiokafka.admin import AIOKafkaAdminClient, NewTopic

from tests.databases import START_HINT, unique_name

__all__ = ["SERVICE_TIMEOUT_S", "TopicFactory", "unique_name"]

REPO_ROOT = Path(__file__).resolve().parents[2]
INTEGRATION_DIR = Path(__file__).resolve().parent

# How long fixtures wait for a service to answer before failing. Generous: the machine
# has 2 cores shared with test workers, and a slow answer is not what these tests judge.
SERVICE_TIMEOUT_S = 30.0

TopicFactory = Callable[..., str]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test collected from this directory `integration` (`-m integration`)."""
    for item in items:
        if INTEGRATION_DIR in item.path.parents:
            item.add_marker(pytest.mark.integration)


def kafka_bootstrap_address() -> str:
    """The broker address scripts/kafka.sh starts (same env variables, same default)."""
    explicit = os.environ.get("PITWATCH_KAFKA_BOOTSTRAP")
    if explicit:
        return explicit
    return f"127.0.0.1:{os.environ.get('PITWATCH_KAFKA_PORT', '9092')}"


async def _list_topics(bootstrap: str) -> list[str]:
    admin = AIOKafkaAdminClient(
        bootstrap_servers=bootstrap, request_timeout_ms=int(SERVICE_TIMEOUT_S * 1000)
    )
    await admin.start()
    try:
        topics: list[str] = await admin.list_topics()
        return topics
    finally:
        await admin.close()


async def _create_topic(bootstrap: str, name: str, partitions: int, config: dict[str, str]) -> None:
    admin = AIOKafkaAdminClient(bootstrap_servers=bootstrap)
    await admin.start()
    try:
        await admin.create_topics(
            [NewTopic(name, partitions, 1, topic_configs=config)],
            timeout_ms=int(SERVICE_TIMEOUT_S * 1000),
        )
    finally:
        await admin.close()


async def _delete_topics(bootstrap: str, names: list[str]) -> None:
    admin = AIOKafkaAdminClient(bootstrap_servers=bootstrap)
    await admin.start()
    try:
        await admin.delete_topics(names, timeout_ms=int(SERVICE_TIMEOUT_S * 1000))
    finally:
        await admin.close()


@pytest.fixture(scope="session")
def kafka_bootstrap() -> str:
    """The bootstrap address of the running broker; fails (never skips) if it is not up."""
    bootstrap = kafka_bootstrap_address()
    problem: Exception | None = None
    try:
        asyncio.run(asyncio.wait_for(_list_topics(bootstrap), SERVICE_TIMEOUT_S))
    except Exception as exc:
        problem = exc
    if problem is not None:  # failed outside the except block: no chained traceback noise
        pytest.fail(
            f"Kafka broker at {bootstrap} does not answer ({problem!r}); {START_HINT} "
            f"(broker log: var/kafka/broker.log)",
            pytrace=False,
        )
    return bootstrap


@pytest.fixture
def kafka_topic(kafka_bootstrap: str) -> Iterator[TopicFactory]:
    """Factory `kafka_topic(prefix="t", partitions=1, config=None) -> topic name`.

    Creates each topic before returning its name and deletes them all after the test.
    """
    created: list[str] = []

    def create(
        prefix: str = "test", partitions: int = 1, config: dict[str, str] | None = None
    ) -> str:
        name = unique_name(prefix)
        asyncio.run(_create_topic(kafka_bootstrap, name, partitions, config or {}))
        created.append(name)
        return name

    yield create
    if created:
        asyncio.run(_delete_topics(kafka_bootstrap, created))
