"""Running the Kafka pipeline in tests: workers as subprocesses, topics read back, the
embedded reference run, and the ledger compared table by table.

Every test gets its own topic prefix, adjudicator app id (consumer group + changelog),
ledger consumer group, ledger database and worker data directories, so tests sharing
the one broker never see each other's records.
"""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeAlias

import orjson
import sqlalchemy as sa
from aiokafka import AIOKafkaConsumer, AIOKafkaProducer, ConsumerRecord, TopicPartition
from aiokafka.admin import AIOKafkaAdminClient
from sqlalchemy.engine import make_url

from services.adjudicator.embedded import EmbeddedRunner, iter_lines
from services.events.contract import decode_record, encode_record
from services.ledger.db import open_ledger
from services.ledger.models import Conflict, Hand, Posting
from services.ledger.posting import post_many
from services.ledger.queries import balances, player_balances, rake_totals
from services.pipeline.failpoints import FAILPOINT_ENV
from services.pipeline.producer import keyed_records, new_producer
from services.pipeline.step import REASON_HEADER
from services.pipeline.topics import StreamSettings, create_topics, delete_topics
from tests.profiles import PROFILES

REPO_ROOT = Path(__file__).resolve().parents[2]
# A killed worker's partitions move after the session timeout; the tests' broker allows
# 1 s (deploy/kafka/server.properties), so kills cost seconds, not the default 15 s.
TEST_SESSION_TIMEOUT_MS = 2000
WAIT_SECONDS = 600.0  # upper bound for a pipeline to finish; a stall fails the test
POLL_SECONDS = 0.5

Message: TypeAlias = ConsumerRecord[bytes, bytes]


# ---------------------------------------------------------------- reference (embedded)


@dataclass
class Reference:
    """What ``pitwatch adjudicate`` makes of a log: records by hand, dead letters."""

    records: dict[str, bytes]  # hand_id -> encode_record bytes
    dead_letters: list[tuple[bytes, str]]  # (raw record, reason)
    open_at_end: int  # hands the embedded run closed only at end of input


def embedded_reference(lines: Iterable[bytes]) -> Reference:
    runner = EmbeddedRunner(PROFILES)
    records: dict[str, bytes] = {}
    dead: list[tuple[bytes, str]] = []
    for raw, where in iter_lines(lines):
        step = runner.feed(raw, where)
        for record in step.records:
            assert record.hand_id not in records, f"hand {record.hand_id} twice in the log"
            records[record.hand_id] = encode_record(record)
        dead += [(d.raw, d.reason) for d in step.dead_letters]
    closing = runner.finish()
    for record in closing.records:
        records[record.hand_id] = encode_record(record)
    return Reference(records, dead, len(closing.records))


# ---------------------------------------------------------------- databases


def create_database(base_url: str, prefix: str) -> str:
    """A new empty database on the server of ``base_url``; returns its URL."""
    base = make_url(base_url)
    name = f"{prefix}_{uuid.uuid4().hex[:10]}"
    admin = sa.create_engine(base, isolation_level="AUTOCOMMIT", poolclass=sa.pool.NullPool)
    with admin.connect() as conn:
        conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    return base.set(database=name).render_as_string(hide_password=False)


DROP_ATTEMPTS = 5


def drop_database(url: str) -> None:
    """Drop a test database, closing its connections. An autovacuum worker that happens
    to be on it cannot be terminated by the test role (PostgreSQL refuses: it is the
    superuser's backend); it finishes in moments, so the drop is tried again."""
    parsed = make_url(url)
    admin = sa.create_engine(parsed.set(database="postgres"), isolation_level="AUTOCOMMIT",
                             poolclass=sa.pool.NullPool)
    try:
        for attempt in range(DROP_ATTEMPTS):
            try:
                with admin.connect() as conn:
                    conn.execute(sa.text(
                        f'DROP DATABASE IF EXISTS "{parsed.database}" WITH (FORCE)'))
                return
            except sa.exc.ProgrammingError:
                if attempt == DROP_ATTEMPTS - 1:
                    raise
                time.sleep(1.0)
    finally:
        admin.dispose()


@dataclass(frozen=True)
class LedgerSnapshot:
    """Everything that must be identical between two ledgers of the same records."""

    hands: dict[str, str]  # hand_id -> record_sha256
    postings: int
    balances: list[tuple[str, int, int]]
    players: list[tuple[str, int]]
    rake: list[tuple[object, ...]]
    conflicts: int


def ledger_snapshot(url: str) -> LedgerSnapshot:
    engine = open_ledger(url)
    try:
        with engine.connect() as conn:
            hands = dict(conn.execute(sa.select(Hand.hand_id, Hand.record_sha256)).all())
            postings = conn.execute(sa.select(sa.func.count()).select_from(Posting)).scalar_one()
            conflicts = conn.execute(sa.select(sa.func.count()).select_from(Conflict)
                                     ).scalar_one()
        return LedgerSnapshot(
            hands=hands,
            postings=postings,
            balances=[(b.name, b.balance, b.postings) for b in balances(engine)],
            players=[(p.player_id, p.balance) for p in player_balances(engine)],
            rake=[tuple(vars(r).values()) for r in rake_totals(engine)],
            conflicts=conflicts,
        )
    finally:
        engine.dispose()


def book_reference(url: str, records: Iterable[bytes]) -> None:
    engine = open_ledger(url)
    try:
        post_many(engine, [decode_record(r) for r in records])
    finally:
        engine.dispose()


def count_hands(url: str, table: str = "hands") -> int:
    """Rows of ``table`` (the ledger's hands; ``archive_segments``...), 0 before the
    schema exists."""
    engine = sa.create_engine(url, poolclass=sa.pool.NullPool)
    try:
        with engine.connect() as conn:
            return int(conn.execute(sa.text(f"SELECT count(*) FROM {table}")).scalar_one())
    except sa.exc.ProgrammingError:  # not migrated yet: the service is still starting
        return 0
    finally:
        engine.dispose()


# ---------------------------------------------------------------- Kafka


async def partitions_of(bootstrap: str, topic: str) -> list[TopicPartition]:
    admin = AIOKafkaAdminClient(bootstrap_servers=bootstrap)
    await admin.start()
    try:
        described = await admin.describe_topics([topic])
    finally:
        await admin.close()
    return [TopicPartition(topic, p["partition"]) for p in described[0]["partitions"]]


class TopicReader:
    """Reads a topic from the beginning, accumulating what has arrived so far."""

    def __init__(self, loop: asyncio.AbstractEventLoop, bootstrap: str, topic: str) -> None:
        self.loop = loop
        self.bootstrap = bootstrap
        self.topic = topic
        self.messages: list[Message] = []
        self.consumer: AIOKafkaConsumer | None = None
        self.tps: list[TopicPartition] = []

    async def _start(self) -> AIOKafkaConsumer:
        consumer = AIOKafkaConsumer(bootstrap_servers=self.bootstrap, enable_auto_commit=False,
                                    auto_offset_reset="earliest")
        await consumer.start()
        self.tps = await partitions_of(self.bootstrap, self.topic)
        consumer.assign(self.tps)
        await consumer.seek_to_beginning(*self.tps)
        return consumer

    async def _poll(self) -> None:
        """Read up to the end offsets as they are when the poll starts, no further.

        Reading "until a fetch comes back empty" never ends while a worker keeps
        producing: a test waiting for "X hands adjudicated" would then only see them once
        the worker had finished the whole log, and a kill meant for the middle of the
        stream would land after its end."""
        if self.consumer is None:
            self.consumer = await self._start()
        consumer = self.consumer
        ends = await consumer.end_offsets(self.tps)
        while [tp for tp, end in ends.items() if await consumer.position(tp) < end]:
            batch = await consumer.getmany(timeout_ms=200, max_records=10_000)
            for messages in batch.values():
                self.messages += messages

    def poll(self) -> list[Message]:
        self.loop.run_until_complete(self._poll())
        return self.messages

    def close(self) -> None:
        if self.consumer is not None:
            self.loop.run_until_complete(self.consumer.stop())
            self.consumer = None


@dataclass
class Worker:
    name: str
    process: subprocess.Popen[bytes]
    log: Path
    stopped_by_test: bool = False
    failpoint: str | None = None  # where it was told to kill itself, if anywhere

    @property
    def died(self) -> bool:
        """Exited although the test did not stop it (a crash: the test fails at once).
        A worker armed with a failpoint that killed itself with SIGKILL did what it was
        told: that is not a crash of the pipeline."""
        return (not self.stopped_by_test and self.process.poll() is not None
                and not self.killed_at_failpoint)

    @property
    def killed_at_failpoint(self) -> bool:
        return self.failpoint is not None and self.process.poll() == -signal.SIGKILL

    def kill9(self) -> None:
        """``kill -9``: no shutdown, no commit, no flush."""
        self.stopped_by_test = True
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=30)

    def stop(self) -> None:
        self.stopped_by_test = True
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.kill9()

    def tail(self, lines: int = 40) -> str:
        text = self.log.read_text(errors="replace").splitlines() if self.log.exists() else []
        return "\n".join(text[-lines:])


@dataclass
class Pipeline:
    """One test's pipeline: topics, workers, readers, ledger database."""

    bootstrap: str
    tmp: Path
    db_url: str
    partitions: int = 2
    run_id: str = field(default_factory=lambda: uuid.uuid4().hex[:10])
    workers: list[Worker] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.settings = StreamSettings(bootstrap=self.bootstrap,
                                       topic_prefix=f"t{self.run_id}-",
                                       app_id=f"adj-{self.run_id}",
                                       partitions=self.partitions)
        self.ledger_group = f"ledger-{self.run_id}"
        self.archive_group = f"archive-{self.run_id}"
        self.loop = asyncio.new_event_loop()
        self.readers: dict[str, TopicReader] = {}

    # -- lifecycle

    def create_topics(self) -> None:
        self.loop.run_until_complete(create_topics(self.settings))

    def close(self) -> None:
        """Stop the workers, close the readers, delete the topics: every step runs even
        if one before it failed, and a failure is raised at the end as an ordinary
        exception. A ``CancelledError`` (a BaseException) escaping a fixture's teardown
        stops pytest from tearing down the test's other fixtures: its ``tmp_path`` stayed
        cached, and every later test shared one folder and one ledger."""
        steps: list[Callable[[], None]] = [w.stop for w in self.workers]
        steps += [r.close for r in self.readers.values()]
        steps.append(lambda: self.loop.run_until_complete(delete_topics(self.settings)))
        errors: list[BaseException] = []
        for step in steps:
            try:
                step()
            except (Exception, asyncio.CancelledError) as exc:
                errors.append(exc)
        self.loop.close()
        if errors:
            raise RuntimeError(f"pipeline teardown: {len(errors)} step(s) failed, first: "
                               f"{errors[0]!r}") from errors[0]

    def _spawn(self, name: str, args: list[str], failpoint: str | None = None) -> Worker:
        log = self.tmp / f"{name}.log"
        env = {**os.environ, "PYTHONPATH": str(REPO_ROOT), "PYTHONUNBUFFERED": "1"}
        env.pop(FAILPOINT_ENV, None)
        if failpoint is not None:
            env[FAILPOINT_ENV] = failpoint
        with log.open("ab") as out:
            process = subprocess.Popen(
                [sys.executable, "-m", "services.pipeline.cli", *args],
                cwd=REPO_ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
            )
        worker = Worker(name, process, log, failpoint=failpoint)
        self.workers.append(worker)
        return worker

    def start_adjudicator(self, name: str = "adjudicator", failpoint: str | None = None,
                          batch_max: int = 2000, checkpoint_seconds: float = 1.0,
                          archive: bool = False, engine: str | None = None,
                          checkpoint_batches: int = 0) -> Worker:
        """An adjudicator worker; ``failpoint`` (e.g. ``"delivered:3"``) makes it kill
        itself with SIGKILL there (services/pipeline/failpoints.py); ``archive``: it emits
        the event archive's segments (``--archive``, either engine), else not
        (``--no-archive``, the engine of ``engine`` or ``$PITWATCH_ENGINE``)."""
        s = self.settings
        return self._spawn(name, [
            "serve", "adjudicator", "--bootstrap", s.bootstrap, "--topic-prefix",
            s.topic_prefix, "--app-id", s.app_id, "--partitions", str(s.partitions),
            "--batch-max", str(batch_max), "--checkpoint-seconds", str(checkpoint_seconds),
            "--checkpoint-batches", str(checkpoint_batches),
            "--session-timeout-ms", str(TEST_SESSION_TIMEOUT_MS),
            "--archive" if archive else "--no-archive",
            *(["--engine", engine] if engine else []),
        ], failpoint)

    def start_ledger(self, name: str = "ledger", batch: int = 2000,
                     failpoint: str | None = None) -> Worker:
        s = self.settings
        return self._spawn(name, [
            "serve", "ledger", "--bootstrap", s.bootstrap, "--topic-prefix", s.topic_prefix,
            "--group", self.ledger_group, "--db", self.db_url, "--batch", str(batch),
            "--session-timeout-ms", str(TEST_SESSION_TIMEOUT_MS),
        ], failpoint)

    def start_archive(self, name: str = "archive", batch: int = 2000,
                      failpoint: str | None = None) -> Worker:
        """The archive service (``services/pipeline/archive_service.py``); its failpoints:
        ``polled``, ``archived`` (database committed, offsets not), ``committed``."""
        s = self.settings
        return self._spawn(name, [
            "serve", "archive", "--bootstrap", s.bootstrap, "--topic-prefix", s.topic_prefix,
            "--group", self.archive_group, "--db", self.db_url, "--batch", str(batch),
            "--session-timeout-ms", str(TEST_SESSION_TIMEOUT_MS),
        ], failpoint)

    # -- input

    def produce_lines(self, lines: Iterable[bytes]) -> int:
        return self.produce_keyed(keyed_records(lines))

    def produce_keyed(self, records: Iterable[tuple[bytes | None, bytes | None]],
                      topic: str | None = None) -> int:
        """Publish ``(key, value)`` records (to ``table-events`` unless ``topic``)."""
        async def run() -> int:
            producer = new_producer(self.bootstrap)
            await producer.start()
            try:
                pending = [await producer.send(topic or self.settings.topics.events, key=key,
                                               value=value) for key, value in records]
                await asyncio.gather(*pending)
                return len(pending)
            finally:
                await producer.stop()

        return self.loop.run_until_complete(run())

    # -- output

    def consumer_group_offsets(self) -> dict[TopicPartition, int]:
        """The adjudicator group's committed offsets on ``table-events``."""
        async def run() -> dict[TopicPartition, int]:
            admin = AIOKafkaAdminClient(bootstrap_servers=self.bootstrap)
            await admin.start()
            try:
                offsets = await admin.list_consumer_group_offsets(self.settings.group)
            finally:
                await admin.close()
            return {tp: meta.offset for tp, meta in offsets.items()
                    if tp.topic == self.settings.topics.events and meta.offset >= 0}

        return self.loop.run_until_complete(run())

    def reader(self, topic: str) -> TopicReader:
        if topic not in self.readers:
            self.readers[topic] = TopicReader(self.loop, self.bootstrap, topic)
        return self.readers[topic]

    def adjudications(self) -> list[Message]:
        return self.reader(self.settings.topics.adjudications).poll()

    def dead_letters(self) -> list[Message]:
        return self.reader(self.settings.topics.dlq).poll()

    def alerts(self) -> list[Message]:
        return self.reader(self.settings.topics.alerts).poll()

    def hands_seen(self) -> dict[str, list[bytes]]:
        """Every adjudication value per hand id (more than one: re-emitted after a crash)."""
        seen: dict[str, list[bytes]] = {}
        for message in self.adjudications():
            assert message.value is not None
            seen.setdefault(decode_record(message.value).hand_id, []).append(message.value)
        return seen

    # -- waiting

    def wait_until(self, done: Callable[[], bool], what: str,
                   timeout: float = WAIT_SECONDS) -> None:
        """Poll ``done`` until it holds; fail with the workers' logs if it never does."""
        deadline = time.monotonic() + timeout
        while not done():
            dead = [w.name for w in self.workers if w.died]
            if dead or time.monotonic() > deadline:
                why = f"worker(s) {dead} exited" if dead else f"not within {timeout:.0f}s"
                raise AssertionError(f"pipeline did not finish ({why}): {what}\n"
                                     + self.worker_logs())
            time.sleep(POLL_SECONDS)

    def worker_logs(self) -> str:
        return "\n\n".join(f"--- {w.name} (exit {w.process.poll()})\n{w.tail()}"
                           for w in self.workers)

    def wait_for_hands(self, expected: int, timeout: float = WAIT_SECONDS) -> None:
        self.wait_until(lambda: len(self.hands_seen()) >= expected,
                        f"{expected} adjudicated hands", timeout)

    def wait_for_ledger(self, expected: int, timeout: float = WAIT_SECONDS) -> None:
        self.wait_until(lambda: count_hands(self.db_url) >= expected,
                        f"{expected} hands in the ledger", timeout)


def reason_of(message: Message) -> str:
    reason: bytes = dict(message.headers)[REASON_HEADER]
    return reason.decode()


def deduplicated(seen: dict[str, list[bytes]]) -> dict[str, bytes]:
    """One record per hand; every repeat of a hand must be byte-identical to the first."""
    out: dict[str, bytes] = {}
    for hand_id, values in seen.items():
        assert len(set(values)) == 1, f"hand {hand_id} emitted with different bodies"
        out[hand_id] = values[0]
    return out



# ---------------------------------------------------------------- a broker of one's own


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class Broker:
    """A broker started with the repo's scripts/kafka.sh on free ports under ``var``."""

    def __init__(self, var: Path) -> None:
        self.var = var
        self.port = free_port()
        self.env = {**os.environ, "PITWATCH_VAR": str(var),
                    "PITWATCH_KAFKA_PORT": str(self.port),
                    "PITWATCH_KAFKA_CONTROLLER_PORT": str(free_port())}

    @property
    def bootstrap(self) -> str:
        return f"127.0.0.1:{self.port}"

    def _script(self, command: str) -> None:
        subprocess.run(["bash", str(REPO_ROOT / "scripts" / "kafka.sh"), command],
                       env=self.env, check=True, capture_output=True, timeout=300)

    def start(self) -> None:
        self._script("start")

    def stop(self) -> None:
        self._script("stop")


# ---------------------------------------------------------------- hostile transport


CODECS = ("gzip", "lz4", "zstd", "snappy")
NULL_HEADER_EVERY = 7  # every 7th record carries a header without a value
ABORTED_RECORDS = 40  # altered copies sent in a transaction that is then aborted


def _altered(value: bytes) -> bytes:
    """The same event with its timestamp's millisecond changed: a valid record with the
    same id and seq but other bytes, which a reader of aborted records would apply."""
    event = orjson.loads(value)
    ts = str(event["ts"])
    event["ts"] = ts[:-2] + ("1" if ts[-2] != "1" else "2") + ts[-1]
    return orjson.dumps(event)


async def produce_over_every_transport(bootstrap: str, topic: str,
                                       records: list[tuple[bytes | None, bytes]]) -> None:
    """Publish ``records`` in order, in consecutive slices: one slice per compression
    codec (gzip, lz4, zstd, snappy), every seventh record with a null header value,
    then the last slice through a transactional producer, preceded by an aborted
    transaction holding altered copies of the slice's first records. Each slice is
    acknowledged before the next starts, so every table's order is kept."""
    slices = [records[i * len(records) // 5:(i + 1) * len(records) // 5] for i in range(5)]
    for codec, part in zip(CODECS, slices, strict=False):
        producer = AIOKafkaProducer(bootstrap_servers=bootstrap, acks="all",
                                    enable_idempotence=True, compression_type=codec,
                                    linger_ms=5)
        await producer.start()
        try:
            pending = []
            for n, (key, value) in enumerate(part):
                headers: list[tuple[str, bytes | None]] = (
                    [("trace", None), ("origin", b"table-system")]
                    if n % NULL_HEADER_EVERY == 0 else [])
                pending.append(await producer.send(topic, value=value, key=key,
                                                   headers=headers))
            await asyncio.gather(*pending)
        finally:
            await producer.stop()
    last = slices[-1]
    producer = AIOKafkaProducer(bootstrap_servers=bootstrap, transactional_id=(
        f"pitwatch-test-{uuid.uuid4().hex[:8]}"), enable_idempotence=True)
    await producer.start()
    try:
        await producer.begin_transaction()
        for key, value in last[:ABORTED_RECORDS]:
            await producer.send(topic, value=_altered(value), key=key)
        await producer.abort_transaction()
        async with producer.transaction():
            for key, value in last:
                await producer.send(topic, value=value, key=key)
    finally:
        await producer.stop()
