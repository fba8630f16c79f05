"""The pipeline's names keep pipelines apart, and a service whose topics are missing says
so in one line (QA against the real broker, 2026-12-06).

Before: two pipelines on one broker with different ``--topic-prefix`` and the same app id
(the default one) shared the changelog and the consumer group, and the second restored
the first's table states and skipped every record of its own as replayed (0 of 60 hands
adjudicated, no error); ``serve adjudicator`` on a missing ``table-events`` waited in its
group forever, and on a missing changelog logged thousands of lines a second, ignored
SIGTERM and ended in a traceback; ``serve ledger --db nonsense`` printed a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from services.pipeline.topics import StreamSettings
from tests.integration import pipeline_fixtures
from tests.integration.pipeline_fixtures import PipelineFactory

pipeline = pipeline_fixtures.pipeline
REPO = Path(__file__).resolve().parents[2]


def test_the_prefix_keeps_the_state_topic_and_the_group_apart() -> None:
    a = StreamSettings(topic_prefix="casino-a-")
    b = StreamSettings(topic_prefix="casino-b-")
    assert a.app_id == b.app_id  # the default app id, on both
    assert a.changelog == "casino-a-pitwatch-adjudicator-table-state-changelog"
    assert {a.changelog, a.group} & {b.changelog, b.group} == set()
    assert StreamSettings().changelog == "pitwatch-adjudicator-table-state-changelog"
    assert StreamSettings().group == "pitwatch-adjudicator"  # unchanged without a prefix


def _serve(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "services.cli", "serve", *args], cwd=REPO, text=True,
        capture_output=True, timeout=120, check=False,
        env={**os.environ, "PITWATCH_METRICS_PORT": "off"})


def _one_line_error(done: subprocess.CompletedProcess[str], *words: str) -> None:
    assert done.returncode == 2, done.stderr[-2000:]
    errors = [line for line in done.stderr.splitlines() if line.startswith("error: ")]
    assert len(errors) == 1 and "Traceback" not in done.stderr, done.stderr[-2000:]
    for word in words:
        assert word in errors[0], (word, errors[0])


@pytest.mark.integration
def test_a_missing_topic_or_database_is_one_line(pipeline: PipelineFactory,
                                                 kafka_bootstrap: str) -> None:
    p = pipeline()
    s = p.settings
    nowhere = f"{s.topic_prefix}none-"
    _one_line_error(_serve("adjudicator", "--bootstrap", kafka_bootstrap, "--topic-prefix",
                           nowhere, "--app-id", s.app_id),
                    f"topic {nowhere}table-events does not exist")
    other = f"{s.app_id}-other"  # the pipeline's topics, but no state topic for this id
    _one_line_error(_serve("adjudicator", "--bootstrap", kafka_bootstrap, "--topic-prefix",
                           s.topic_prefix, "--app-id", other),
                    f"topic {s.topic_prefix}{other}-table-state-changelog does not exist")
    for service in ("ledger", "archive"):
        _one_line_error(_serve(service, "--bootstrap", kafka_bootstrap, "--topic-prefix",
                               s.topic_prefix, "--db", "nonsense"),
                        "--db", "'nonsense' is not a database URL")
    # a session timeout outside the broker's bounds: a traceback before
    _one_line_error(_serve("ledger", "--bootstrap", kafka_bootstrap, "--topic-prefix",
                           s.topic_prefix, "--db", p.db_url, "--group", f"{s.group}-l",
                           "--session-timeout-ms", "1"),
                    "--session-timeout-ms", "the broker refuses this session timeout")


@pytest.mark.integration
def test_topics_create_fails_before_it_creates_and_says_the_brokers_reason(
        kafka_bootstrap: str) -> None:
    """A wrong --partitions against existing topics failed only after creating the
    missing ones (here a second app id's state topic) with the wrong count, which no later
    run could then recover from; and a replication factor above the brokers was reported
    as "None partition(s)" with advice about partition counts."""
    import asyncio

    from aiokafka.admin import AIOKafkaAdminClient

    from services.pipeline.topics import create_topics, delete_topics
    from tests.integration.conftest import unique_name

    prefix = unique_name("topics") + "-"
    first = StreamSettings(bootstrap=kafka_bootstrap, topic_prefix=prefix, app_id="a")
    other = StreamSettings(bootstrap=kafka_bootstrap, topic_prefix=prefix, app_id="b",
                           partitions=3)
    asyncio.run(create_topics(first))
    try:
        done = subprocess.run(
            [sys.executable, "-m", "services.cli", "topics", "create", "--bootstrap",
             kafka_bootstrap, "--topic-prefix", prefix, "--app-id", "b", "--partitions", "3"],
            cwd=REPO, text=True, capture_output=True, timeout=120, check=False)
        _one_line_error(done, "--partitions", "partition(s), declared 3")

        async def names() -> set[str]:
            admin = AIOKafkaAdminClient(bootstrap_servers=kafka_bootstrap)
            await admin.start()
            try:
                return set(await admin.list_topics())
            finally:
                await admin.close()

        assert other.changelog not in asyncio.run(names())  # nothing was created
        refused = subprocess.run(
            [sys.executable, "-m", "services.cli", "topics", "create", "--bootstrap",
             kafka_bootstrap, "--topic-prefix", prefix + "r-", "--replication", "3"],
            cwd=REPO, text=True, capture_output=True, timeout=120, check=False)
        _one_line_error(refused, "--replication", "the broker refused to create",
                        "replication factor")
    finally:
        asyncio.run(delete_topics(first))


@pytest.mark.integration
def test_a_state_of_the_other_engine_stops_the_worker_in_one_line(
        pipeline: PipelineFactory) -> None:
    """The changelog holds the native engine's states; a worker started with the
    reference engine stopped with a traceback and exit 70 (the code for "restart me"),
    where the cure is a setting: one critical line saying which engine, exit 2."""
    import time

    from tests.integration.pipeline_fixtures import simulated_lines

    p = pipeline(partitions=1)
    native = p.start_adjudicator("native", engine="native")
    lines = simulated_lines(1, 6, 5)
    p.produce_lines(lines)
    p.wait_for_hands(6)
    deadline = time.monotonic() + 60  # the states reach the changelog at a checkpoint
    while not p.reader(p.settings.changelog).poll() and time.monotonic() < deadline:
        time.sleep(0.2)
    native.stop()
    reference = p.start_adjudicator("reference", engine="python")
    assert "PITWATCH_ENGINE=native" in _stopped_in_one_line(reference, 120)


def _stopped_in_one_line(worker: Any, timeout: float) -> str:
    """The worker's exit within ``timeout``: code 2, one critical "adjudicator stopping"
    line (returned), no traceback."""
    worker.process.wait(timeout=timeout)
    worker.stopped_by_test = True
    log = str(worker.log.read_text(errors="replace"))
    assert worker.process.returncode == 2, log[-3000:]
    assert "Traceback" not in log, log[-3000:]
    stopping = [line for line in log.splitlines() if "adjudicator stopping:" in line]
    assert len(stopping) == 1, log[-3000:]
    return stopping[0]


@pytest.mark.integration
def test_the_worker_starts_only_on_co_partitioned_topics(pipeline: PipelineFactory,
                                                         kafka_bootstrap: str) -> None:
    """``serve adjudicator --partitions`` was accepted and never used, and a changelog
    whose partition count differs from ``table-events`` was found only by the restore's
    timeout, and an output topic of fewer partitions stopped it with a traceback at its
    first batch: each is one line at start, exit 2 (the pipeline's topics have 2
    partitions; an app id whose changelog was made by hand with 3; adjudications made
    again with 1)."""
    import asyncio

    from aiokafka.admin import AIOKafkaAdminClient, NewTopic

    p = pipeline(partitions=2)
    s = p.settings
    _one_line_error(_serve("adjudicator", "--bootstrap", kafka_bootstrap, "--topic-prefix",
                           s.topic_prefix, "--app-id", s.app_id, "--partitions", "4"),
                    "--partitions", f"{s.topic_prefix}table-events has 2 partition(s), "
                    "not the 4 --partitions says")
    other = f"{s.app_id}-three"
    changelog = StreamSettings(topic_prefix=s.topic_prefix, app_id=other).changelog

    async def remake(topic: str, partitions: int | None) -> None:
        """Delete ``topic``; then, if ``partitions``, create it again with that many."""
        admin = AIOKafkaAdminClient(bootstrap_servers=kafka_bootstrap)
        await admin.start()
        try:
            if topic in set(await admin.list_topics()):
                await admin.delete_topics([topic])
                while topic in set(await admin.list_topics()):
                    await asyncio.sleep(0.2)
            if partitions is not None:
                await admin.create_topics([NewTopic(topic, partitions, 1)])
        finally:
            await admin.close()

    asyncio.run(remake(changelog, 3))
    try:
        _one_line_error(_serve("adjudicator", "--bootstrap", kafka_bootstrap, "--topic-prefix",
                               s.topic_prefix, "--app-id", other),
                        "--app-id",
                        f"{changelog} has 3 partition(s) and {s.topic_prefix}table-events 2",
                        "delete the changelog and run pitwatch topics create again")
    finally:
        asyncio.run(remake(changelog, None))
    # An output topic of one partition: the first batch stopped the worker with a
    # traceback ("Unrecognized partition") and exit 70.
    asyncio.run(remake(s.topics.adjudications, 1))
    _one_line_error(_serve("adjudicator", "--bootstrap", kafka_bootstrap, "--topic-prefix",
                           s.topic_prefix, "--app-id", s.app_id),
                    "--topic-prefix", f"{s.topics.adjudications} has 1 partition(s) and "
                    f"{s.topic_prefix}table-events 2", "recreate them with as many")


@pytest.mark.integration
def test_an_output_topic_deleted_under_the_worker_stops_it_in_one_line(
        pipeline: PipelineFactory, kafka_bootstrap: str) -> None:
    """QA: ``adjudications`` deleted under a running worker: its produce failed after the
    40 s metadata wait and it stopped with a traceback and exit 70, the code that asks to
    be restarted as it is. One critical line naming the topic and what to do, exit 2."""
    import asyncio
    import time

    from aiokafka.admin import AIOKafkaAdminClient

    from tests.integration.pipeline_fixtures import simulated_lines

    p = pipeline(partitions=1)
    worker = p.start_adjudicator("doomed")
    lines = simulated_lines(1, 8, 5)
    p.produce_lines(lines[: len(lines) // 2])
    deadline = time.monotonic() + 120
    while "adjudicator ready" not in worker.log.read_text(errors="replace"):
        assert time.monotonic() < deadline and worker.process.poll() is None
        time.sleep(0.2)

    async def delete_adjudications() -> None:
        admin = AIOKafkaAdminClient(bootstrap_servers=kafka_bootstrap)
        await admin.start()
        try:
            await admin.delete_topics([p.settings.topics.adjudications])
        finally:
            await admin.close()

    asyncio.run(delete_adjudications())
    p.produce_lines(lines[len(lines) // 2:])
    assert (f"topic {p.settings.topics.adjudications} does not exist at {kafka_bootstrap}: "
            "create the pipeline's topics first") in _stopped_in_one_line(worker, 180)
