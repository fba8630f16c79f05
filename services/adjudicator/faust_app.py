"""The adjudicator as a Faust stream processor: ``table-events`` in; ``adjudications``,
``alerts`` and ``table-events.dlq`` out; each table's state in a changelogged table.

Run it with ``pitwatch serve adjudicator`` or ``faust -A services.adjudicator.faust_app
worker`` (configured by ``PITWATCH_*`` environment variables, see ``StreamSettings``).

Delivery is at-least-once, by design (architecture.md: Faust's exactly-once is not
reliable, agent concurrency above 1 can commit past unprocessed records). The order of
effects for every batch of records is what makes that safe:

1. the batch is processed in memory (``stream_step``), one agent, concurrency 1;
2. every output record is produced **and acknowledged by the broker**;
3. only then are the new table states written to the table and its changelog;
4. the batch is acknowledged; Faust commits its offsets later, after flushing the
   producer (so after the changelog writes of step 3 are on the broker).

A crash before 2 completes re-processes the batch (outputs may repeat: downstream
dedupes by hand id; the same hand always gives the same bytes). A crash between 3 and
the commit re-delivers records the stored state already holds: the state remembers the
offset of the last record applied, and ``stream_step`` skips them. No crash point can
store a state whose outputs are not on the broker, so no adjudication is ever lost.

Any error in a batch, or any produce the broker finally refuses, stops the process at
once (``os._exit``): its in-memory position is then ahead of what is safely stored, and
the only safe continuation is a restart from the committed offsets.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, cast

import faust
from faust.sensors import Sensor
from faust.types import EventT, ProducerT

from services.adjudicator.faust_recovery import SeekThenResumeTableManager
from services.adjudicator.stream_step import BatchResult, InputRecord, Outgoing, step_batch
from services.adjudicator.topics import STATE_TABLE, StreamSettings
from services.games.profiles import read_profiles
from services.observability.hooks import (
    observe_adjudicator_batch,
    start_adjudicator_monitoring,
)

log = logging.getLogger("pitwatch.adjudicator")

WORKER_HEADER = "pitwatch-worker"  # "<host>/<pid>" of the worker that produced a record
EXIT_PROCESSING_FAILED = 70  # EX_SOFTWARE: restart from the committed offsets
BATCH_MAX = 1000  # records per batch (one broker round trip for its outputs)
# A partial batch waits at most this long. It bounds the latency a batch adds, and it
# amortises the one broker round trip per batch (outputs are acknowledged before the
# state is stored): too short and the worker spends its time waiting for acks.
BATCH_WITHIN_SECONDS = 0.05
SESSION_TIMEOUT_SECONDS = 15.0  # a killed worker's partitions move after this long
DEFAULT_DATA_DIR = Path("var/faust")
PROGRESS_SECONDS = 5.0


def fail_stop(why: str, exc: BaseException | None = None) -> None:
    """Stop the worker without committing anything more (see the module docstring)."""
    log.critical("adjudicator stopping: %s", why, exc_info=exc)
    logging.shutdown()
    os._exit(EXIT_PROCESSING_FAILED)


class FailStopOnSendError(Sensor):
    """A produce the broker refused after all retries (including changelog writes) must
    not be followed by an offset commit: Faust only logs it, so this stops the worker."""

    def on_send_error(self, producer: ProducerT, exc: BaseException, state: Any) -> None:
        fail_stop(f"a record could not be produced: {exc!r}", exc)


class Progress:
    """Counts for the periodic progress line in the worker's log."""

    def __init__(self) -> None:
        self.records = self.hands = self.dead = self.replayed = self.batches = 0
        self.next_report = time.monotonic() + PROGRESS_SECONDS

    def add(self, records: int, result: BatchResult) -> None:
        self.batches += 1
        self.records += records
        self.hands += result.hands
        self.dead += result.dead_letters
        self.replayed += result.replayed
        if time.monotonic() >= self.next_report or result.replayed:
            self.next_report = time.monotonic() + PROGRESS_SECONDS
            log.info("progress: %d records in %d batches, %d hands adjudicated, "
                     "%d dead-lettered, %d replayed records skipped", self.records,
                     self.batches, self.hands, self.dead, self.replayed)


def data_dir_from_env(app_id: str) -> Path:
    base = os.environ.get("PITWATCH_FAUST_DATA")
    return Path(base) if base else DEFAULT_DATA_DIR / app_id


def create_app(settings: StreamSettings, data_dir: Path) -> faust.App:
    """The Faust app for ``settings`` (topics must exist: ``pitwatch topics create``)."""
    app = faust.App(
        settings.app_id,
        broker=f"kafka://{settings.bootstrap}",
        store="memory://",
        datadir=str(data_dir),
        processing_guarantee="at_least_once",
        topic_partitions=settings.partitions,
        topic_replication_factor=settings.replication,
        topic_allow_declare=False,  # topics come from `pitwatch topics create` only
        topic_disable_leader=True,
        consumer_auto_offset_reset="earliest",
        producer_acks=-1,
        broker_commit_interval=1.0,
        broker_session_timeout=SESSION_TIMEOUT_SECONDS,
        web_enabled=False,
        # Seek and clear before the streams resume (see faust_recovery: upstream's order
        # can drop records fetched during the seek after a rebalance).
        TableManager=SeekThenResumeTableManager,
    )
    names = settings.topics
    profiles = read_profiles()  # once per worker: the profiles every table may post
    state = app.Table(
        STATE_TABLE,
        partitions=settings.partitions,
        key_type=bytes,  # bytes -> Faust's "raw" serializer, in recovery too
        value_type=bytes,
        help="per table: StoredState (input position + encode_state(TableState))",
    )
    raw: dict[str, Any] = {"key_type": bytes, "value_type": bytes,
                           "key_serializer": "raw", "value_serializer": "raw"}
    source = app.topic(names.events, partitions=settings.partitions, **raw)
    outputs = {name: app.topic(name, partitions=settings.partitions, **raw)
               for name in (names.adjudications, names.alerts, names.dlq)}
    app.sensors.add(FailStopOnSendError())

    def load(key: bytes) -> bytes | None:
        value: bytes | None = state.data.get(key)
        return value

    worker = (WORKER_HEADER, f"{socket.gethostname()}/{os.getpid()}".encode())

    async def deliver(outgoing: list[Outgoing]) -> None:
        """Produce every output and wait until the broker has acknowledged all of them."""
        pending = [
            await outputs[o.topic].send(key=o.key, value=o.value, headers=[*o.headers, worker])
            for o in outgoing
        ]
        if pending:
            await asyncio.gather(*pending)

    progress = Progress()

    async def handle(events: Sequence[EventT[bytes]]) -> None:
        result = step_batch(names, load, [_input_record(e) for e in events], profiles)
        await deliver(result.outgoing)
        observe_adjudicator_batch(result.outgoing, names, consumed=len(events))
        for key, (partition, value) in result.states.items():
            state.data[key] = value
            state.send_changelog(partition, key, value,
                                 key_serializer="raw", value_serializer="raw")
        progress.add(len(events), result)

    @app.agent(source, name="adjudicate", concurrency=1)
    async def adjudicate(stream: faust.StreamT[bytes]) -> None:
        # take_events acks a batch's records only after this loop body finished with it.
        batches = cast(faust.Stream[bytes], stream).take_events(
            BATCH_MAX, within=BATCH_WITHIN_SECONDS)
        async for events in batches:
            try:
                await handle(events)
            except Exception as exc:  # any failure: stop, restart from the commit
                fail_stop("processing a batch failed", exc)

    return app


def _input_record(event: EventT[bytes]) -> InputRecord:
    message = event.message
    raw_headers = message.headers or []
    pairs = raw_headers.items() if isinstance(raw_headers, Mapping) else raw_headers
    headers = [(str(k), bytes(v)) for k, v in pairs]
    key = message.key if message.key is None else bytes(message.key)
    value = message.value if message.value is None else bytes(message.value)
    return InputRecord(message.topic, message.partition, message.offset, key, value, headers)


def run_worker(settings: StreamSettings, data_dir: Path, loglevel: str = "info") -> None:
    """Run one adjudicator worker in this process until it is stopped."""
    from faust.worker import Worker

    data_dir.mkdir(parents=True, exist_ok=True)
    app = create_app(settings, data_dir.absolute())
    start_adjudicator_monitoring(settings.bootstrap, settings.app_id, settings.topics.events,
                                 settings.topics.dlq)
    Worker(app, loglevel=loglevel).execute_from_commandline()


_env_app: list[faust.App] = []


def env_app() -> faust.App:
    """The app configured from ``PITWATCH_*`` variables, made on first use."""
    if not _env_app:
        settings = StreamSettings.from_env()
        _env_app.append(create_app(settings, data_dir_from_env(settings.app_id)))
    return _env_app[0]


def __getattr__(name: str) -> faust.App:
    """``faust -A services.adjudicator.faust_app worker`` looks up ``app`` here; it is
    built lazily so that importing this module (the CLI does) connects and builds nothing."""
    if name == "app":
        return env_app()
    raise AttributeError(name)


if __name__ == "__main__":  # pragma: no cover - `python -m services.adjudicator.faust_app worker`
    env_app().main()
