"""The Kafka topics of the pipeline: their names, partition counts, configs and creation.

Why topics are created by a command and never by the broker or by Faust: a topic created
on first use gets the broker's default partition count, and the adjudicator's per-table
state (the Faust changelog) must have exactly as many partitions as ``table-events`` or
the state of a table would live on a different partition from its events. So the broker
runs with ``auto.create.topics.enable=false``, the Faust app with
``topic_allow_declare=False``, and ``pitwatch topics create`` makes every topic, the
changelog included, with the count and configs declared here. A topic that exists with a
different partition count is an error, never silently accepted.

Every name can carry a prefix (``PITWATCH_TOPIC_PREFIX``) so that several pipelines —
the integration tests run one per test — share one broker without seeing each other.
"""

from __future__ import annotations

import asyncio
import os
from dataclasses import dataclass, field
from typing import Any

from aiokafka import errors as kafka_errors
from aiokafka.admin import AIOKafkaAdminClient, NewTopic
from aiokafka.errors import TopicAlreadyExistsError

from services.pipeline.clients import start_clients

DEFAULT_BOOTSTRAP = "localhost:9092"
DEFAULT_APP_ID = "pitwatch-adjudicator"
DEFAULT_PARTITIONS = 6
STATE_TABLE = "table-state"  # the Faust table holding each table's ``TableState``

DAY_MS = 24 * 3600 * 1000
# Events and adjudications are the audit trail; kept 30 days on the broker (the ledger
# and the archived JSONL logs are the long-term record). The DLQ is kept longer: each
# record in it is a question somebody has to answer.
RETENTION_MS = {
    "events": 30 * DAY_MS,
    "adjudications": 30 * DAY_MS,
    "alerts": 30 * DAY_MS,
    "dlq": 90 * DAY_MS,
    "archive": 30 * DAY_MS,  # the archive service keeps them in the database for years
}
METADATA_RETRIES = 40
METADATA_RETRY_SECONDS = 0.25
MAX_MESSAGE_BYTES = 2_000_000  # the intake limit (1 MB) plus headroom for a large record


@dataclass(frozen=True)
class TopicNames:
    """The pipeline topics (``prefix`` + the published names of architecture.md).

    ``archive``: the adjudicator's event archive segments (one record per hand and per
    run of events between hands, msgpack, compressed), for the archive service."""

    events: str
    adjudications: str
    alerts: str
    dlq: str
    archive: str

    @classmethod
    def with_prefix(cls, prefix: str = "") -> TopicNames:
        return cls(
            events=f"{prefix}table-events",
            adjudications=f"{prefix}adjudications",
            alerts=f"{prefix}alerts",
            dlq=f"{prefix}table-events.dlq",
            archive=f"{prefix}archive",
        )


def service_group(prefix: str, name: str) -> str:
    """A service's default consumer group, ``<prefix><name>``. Prefixed as the topics
    are: two pipelines on one broker with different prefixes shared the ledger's (and
    the archive's) group, each joining member stopping the other pipeline's consumers
    for a rebalance, though their topics, and so their offsets, were apart."""
    return f"{prefix}{name}"


@dataclass(frozen=True)
class StreamSettings:
    """Where the pipeline runs. Every field has an environment variable and a default."""

    bootstrap: str = DEFAULT_BOOTSTRAP  # PITWATCH_KAFKA
    topic_prefix: str = ""  # PITWATCH_TOPIC_PREFIX
    app_id: str = DEFAULT_APP_ID  # PITWATCH_APP_ID (also the adjudicator's consumer group)
    partitions: int = DEFAULT_PARTITIONS  # PITWATCH_PARTITIONS
    replication: int = 1  # PITWATCH_REPLICATION
    topics: TopicNames = field(init=False)

    def __post_init__(self) -> None:
        if self.partitions < 1:
            raise ValueError("partitions must be at least 1")
        object.__setattr__(self, "topics", TopicNames.with_prefix(self.topic_prefix))

    @classmethod
    def from_env(cls) -> StreamSettings:
        env = os.environ
        return cls(
            bootstrap=env.get("PITWATCH_KAFKA") or DEFAULT_BOOTSTRAP,
            topic_prefix=env.get("PITWATCH_TOPIC_PREFIX", ""),
            app_id=env.get("PITWATCH_APP_ID") or DEFAULT_APP_ID,
            partitions=int(env.get("PITWATCH_PARTITIONS") or DEFAULT_PARTITIONS),
            replication=int(env.get("PITWATCH_REPLICATION") or 1),
        )

    @property
    def changelog(self) -> str:
        """The adjudicator's state topic, ``<prefix><app id>-table-state-changelog``.

        The prefix too: two pipelines on one broker with different prefixes and the same
        app id (the default one) shared the changelog, and the second restored the first's
        table states and skipped every record of its own as replayed (QA, 2026-12-06)."""
        return f"{self.topic_prefix}{self.app_id}-{STATE_TABLE}-changelog"

    @property
    def group(self) -> str:
        """The adjudicator's consumer group, ``<prefix><app id>``, kept apart as the
        changelog is."""
        return f"{self.topic_prefix}{self.app_id}"


@dataclass(frozen=True)
class TopicSpec:
    name: str
    partitions: int
    replication: int
    configs: dict[str, str]


def topic_specs(settings: StreamSettings) -> list[TopicSpec]:
    """Every topic the pipeline needs, with its partition count and configs.

    All topics keyed by ``table_id`` get the same partition count: a table's events, its
    state (changelog) and its outputs then share a partition number, which keeps every
    table's records in order end to end. The changelog is compacted (only the latest
    state per table matters) and never deleted by age.
    """
    n, rf, names = settings.partitions, settings.replication, settings.topics

    def timed(kind: str) -> dict[str, str]:
        return {
            "cleanup.policy": "delete",
            "retention.ms": str(RETENTION_MS[kind]),
            "max.message.bytes": str(MAX_MESSAGE_BYTES),
        }

    return [
        TopicSpec(names.events, n, rf, timed("events")),
        TopicSpec(names.adjudications, n, rf, timed("adjudications")),
        TopicSpec(names.alerts, n, rf, timed("alerts")),
        TopicSpec(names.dlq, n, rf, timed("dlq")),
        TopicSpec(names.archive, n, rf, timed("archive")),
        TopicSpec(
            settings.changelog,
            n,
            rf,
            {
                "cleanup.policy": "compact",
                "retention.ms": "-1",
                "min.compaction.lag.ms": str(60 * 1000),
                "max.message.bytes": str(4 * MAX_MESSAGE_BYTES),  # a state holds a hand
            },
        ),
    ]


class TopicMismatchError(RuntimeError):
    """A topic exists with a partition count other than the declared one; ``option``: the
    command-line option that would set it right."""

    def __init__(self, message: str, option: str = "--partitions") -> None:
        super().__init__(message)
        self.option = option


async def create_topics(settings: StreamSettings) -> list[tuple[str, str]]:
    """Create the missing topics; returns ``(topic, "created" | "exists")`` per topic.

    Raises ``TopicMismatchError`` when an existing topic has the wrong partition count
    (the state and events of a table would no longer be co-partitioned).
    """
    admin = AIOKafkaAdminClient(bootstrap_servers=settings.bootstrap,
                                client_id=f"{settings.app_id}-admin")
    await start_clients(settings.bootstrap, admin)
    try:
        specs = topic_specs(settings)
        existing = set(await admin.list_topics())
        # The topics there already first: a wrong count there once failed the command
        # after it had created the missing ones with the wrong count too, a state no later
        # run could recover from (QA, 2026-12-06).
        await _check_partitions(admin, [s for s in specs if s.name in existing])
        wanted = [s for s in specs if s.name not in existing]
        outcome = {s.name: "exists" for s in specs if s.name in existing}
        for spec in wanted:
            try:
                response = await admin.create_topics([
                    NewTopic(spec.name, spec.partitions, spec.replication,
                             topic_configs=spec.configs)
                ])
                _raise_refusal(response, spec.name)
                outcome[spec.name] = "created"
            except TopicAlreadyExistsError:  # another process created it meanwhile
                outcome[spec.name] = "exists"
        await _check_partitions(admin, specs)
        return [(s.name, outcome[s.name]) for s in specs]
    finally:
        await admin.close()


class TopicRefused(RuntimeError):
    """The broker refused to create a topic; the message is its reason."""


def _raise_refusal(response: Any, name: str) -> None:
    """The broker's refusal of a topic as ``TopicRefused`` (aiokafka returns the error
    code of each topic instead of raising: a replication factor above the brokers was
    reported as "None partition(s)" with advice about partition counts)."""
    for topic, code, *message in getattr(response, "topic_errors", []) or []:
        if code == TopicAlreadyExistsError.errno:
            raise TopicAlreadyExistsError
        if code:
            reason = (message[0] if message and message[0] else
                      kafka_errors.for_code(code).__name__)
            raise TopicRefused(f"the broker refused to create {topic or name}: {reason}")


async def partition_counts(admin: AIOKafkaAdminClient, names: list[str]) -> dict[str, int]:
    described = await admin.describe_topics(names)
    return {d["topic"]: len(d["partitions"]) for d in described if not d.get("error_code")}


async def _check_partitions(admin: AIOKafkaAdminClient, specs: list[TopicSpec]) -> None:
    names = [s.name for s in specs]
    counts = await partition_counts(admin, names)
    for _ in range(METADATA_RETRIES):  # a just-created topic takes a moment to describe
        if all(name in counts for name in names):
            break
        await asyncio.sleep(METADATA_RETRY_SECONDS)
        counts = await partition_counts(admin, names)
    wrong = [f"{s.name} has {counts.get(s.name)} partition(s), declared {s.partitions}"
             for s in specs if counts.get(s.name) != s.partitions]
    if wrong:
        raise TopicMismatchError(
            "; ".join(wrong) + ". Partition counts cannot change under running state: "
            "use new topic names (PITWATCH_TOPIC_PREFIX) or recreate the topics."
        )


async def check_copartitioned(bootstrap: str, events: str, changelog: str,
                              outputs: list[str], expected: int | None) -> None:
    """``TopicMismatchError`` unless ``changelog`` and every one of ``outputs`` has as
    many partitions as ``events`` (and ``events`` ``expected``, when given): a table's
    state is restored from the changelog partition of its events' partition, and its
    outputs go to that partition number. A worker on a changelog of another count waited
    out its restore's timeout before saying anything, one on an output topic of fewer
    partitions stopped with a traceback at its first batch, and one given
    ``--partitions`` took it as a declaration and never looked (QA, 2026-12-06)."""
    admin = AIOKafkaAdminClient(bootstrap_servers=bootstrap)
    await start_clients(bootstrap, admin)
    try:
        counts = await partition_counts(admin, [events, changelog, *outputs])
    finally:
        await admin.close()
    have = counts.get(events)
    if expected is not None and have != expected:
        raise TopicMismatchError(
            f"{events} has {have} partition(s), not the {expected} --partitions says: give "
            "the count the topics were created with", option="--partitions")
    if counts.get(changelog) != have:
        raise TopicMismatchError(
            f"{changelog} has {counts.get(changelog)} partition(s) and {events} {have}: a "
            "table's state must live in its events' partition; delete the changelog and "
            "run pitwatch topics create again, or start under a new --app-id",
            option="--app-id")
    wrong = [f"{topic} has {counts.get(topic)}" for topic in outputs
             if counts.get(topic) != have]
    if wrong:
        raise TopicMismatchError(
            f"{'; '.join(wrong)} partition(s) and {events} {have}: a table's outputs go to "
            "its events' partition number; recreate them with as many, or use new topic "
            "names (--topic-prefix)", option="--topic-prefix")


async def delete_topics(settings: StreamSettings) -> None:
    """Delete this pipeline's topics (tests clean up after themselves with this)."""
    admin = AIOKafkaAdminClient(bootstrap_servers=settings.bootstrap,
                                client_id=f"{settings.app_id}-admin")
    await start_clients(settings.bootstrap, admin)
    try:
        existing = set(await admin.list_topics())
        names = [s.name for s in topic_specs(settings) if s.name in existing]
        if names:
            await admin.delete_topics(names)
    finally:
        await admin.close()
