"""``pitwatch serve surveillance`` against the real broker.

A simulated 3-table HCF log in which one table's dealers overpay one player's wins by 3
chips (the sweethearting scenario of tests/unit/surveillance/test_simulated.py) is
produced to ``table-events`` (3 partitions, keyed by table as the table systems do). The
service runs as a subprocess. Its alerts must be, byte for byte, what ``pitwatch
surveil`` writes for the same file, keyed by their alert id; a ``kill -9`` half-way and
a restart (which replays the topic from the beginning) may repeat alerts but must lose
none and change none.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
from typer.testing import CliRunner

from services.cli import app
from services.events.contract import Alert
from services.pipeline.producer import keyed_records, new_producer
from services.pipeline.topics import StreamSettings, create_topics, delete_topics
from services.surveillance.alert_id import alert_id
from tests.integration.pipeline_support import (
    REPO_ROOT,
    TopicReader,
    Worker,
    produce_over_every_transport,
)
from tests.unit.surveillance import sweetheart

PARTITIONS = 3
WAIT_SECONDS = 300.0  # a stall fails the test; the run itself takes seconds


def sweethearting_log() -> list[bytes]:
    """3 tables x 300 hands; T001's wins to its most-paid player are 3 chips too large."""
    return sweetheart.sweethearting_log(3, 300, seed=3)


class SurveillanceRig:
    """This test's topics (own prefix), the service subprocesses and the alerts reader."""

    def __init__(self, bootstrap: str, tmp: Path) -> None:
        run_id = uuid.uuid4().hex[:10]
        self.settings = StreamSettings(bootstrap=bootstrap, topic_prefix=f"s{run_id}-",
                                       app_id=f"surv-{run_id}", partitions=PARTITIONS)
        self.tmp = tmp
        self.loop = asyncio.new_event_loop()
        self.loop.run_until_complete(create_topics(self.settings))
        self.reader = TopicReader(self.loop, bootstrap, self.settings.topics.alerts)
        self.workers: list[Worker] = []

    def produce(self, lines: list[bytes]) -> None:
        async def run() -> None:
            producer = new_producer(self.settings.bootstrap)
            await producer.start()
            try:
                pending = [await producer.send(self.settings.topics.events, key=key,
                                               value=value)
                           for key, value in keyed_records(lines)]
                await asyncio.gather(*pending)
            finally:
                await producer.stop()

        self.loop.run_until_complete(run())

    def start(self, name: str) -> Worker:
        log = self.tmp / f"{name}.log"
        env = {**os.environ, "PYTHONPATH": str(REPO_ROOT), "PYTHONUNBUFFERED": "1"}
        with log.open("ab") as out:
            process = subprocess.Popen(
                [sys.executable, "-m", "services.pipeline.surveillance_service",
                 "--bootstrap", self.settings.bootstrap,
                 "--topic-prefix", self.settings.topic_prefix,
                 "--review-every", "100000"],  # review at shutdown only, as `surveil` does
                cwd=REPO_ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
        worker = Worker(name, process, log)
        self.workers.append(worker)
        return worker

    def alerts(self) -> list[tuple[bytes, bytes]]:
        """Every (key, value) on ``alerts`` so far, repeats included."""
        return [(m.key or b"", m.value or b"") for m in self.reader.poll()]

    def wait_until(self, done: Any, what: str) -> None:
        deadline = time.monotonic() + WAIT_SECONDS
        while not done():
            dead = [w for w in self.workers if w.died]
            if dead or time.monotonic() > deadline:
                logs = "\n".join(f"--- {w.name}\n{w.tail()}" for w in self.workers)
                raise AssertionError(f"not reached: {what}\n{logs}")
            time.sleep(0.3)

    def close(self) -> None:
        for worker in self.workers:
            worker.stop()
        self.reader.close()
        try:
            self.loop.run_until_complete(delete_topics(self.settings))
        finally:
            self.loop.close()


@pytest.fixture
def rig(kafka_bootstrap: str, tmp_path: Path) -> Iterator[SurveillanceRig]:
    made = SurveillanceRig(kafka_bootstrap, tmp_path)
    try:
        yield made
    finally:
        made.close()


def surveil_reference(lines: list[bytes], tmp: Path) -> list[bytes]:
    """What ``pitwatch surveil LOG --out alerts.jsonl`` writes for the log."""
    log, out = tmp / "log.jsonl", tmp / "alerts.jsonl"
    log.write_bytes(b"".join(line + b"\n" for line in lines))
    result = CliRunner().invoke(app, ["surveil", str(log), "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out.read_bytes().splitlines()


def by_key(messages: list[tuple[bytes, bytes]]) -> dict[bytes, set[bytes]]:
    seen: dict[bytes, set[bytes]] = {}
    for key, value in messages:
        seen.setdefault(key, set()).add(value)
    return seen


def test_service_alerts_match_surveil_across_a_kill(rig: SurveillanceRig,
                                                   tmp_path: Path) -> None:
    """First half of the log in; the service raises its first SURV-2 alert; kill -9;
    a record that is not an event and the second half in; restart. After the restart has caught up and been stopped cleanly:
    every alert ``pitwatch surveil`` gives (SURV-2 per hand, and the end review) is on
    ``alerts`` under its id with exactly the same bytes, and no key ever carried two
    different values (repeats from the replay are identical)."""
    lines = sweethearting_log()
    reference = surveil_reference(lines, tmp_path)
    expected = {alert_id(msgspec.json.decode(v, type=Alert)).encode(): v for v in reference}
    sweet = {k: v for k, v in expected.items() if k.startswith(b"SURV-2/")}
    assert len(sweet) >= 3, "the scenario must raise several SURV-2 alerts"

    half = len(lines) // 2
    rig.produce(lines[:half])
    first = rig.start("surveillance-1")
    rig.wait_until(lambda: any(k in sweet for k, _ in rig.alerts()),
                   "a first SURV-2 alert from the first half")
    first.kill9()
    before_restart = by_key(rig.alerts())
    assert set(sweet) - set(before_restart), "the kill must come before the last alert"

    rig.produce([b"not an event", *lines[half:]])  # poison: skipped, nothing else
    second = rig.start("surveillance-2")
    rig.wait_until(lambda: "caught up" in second.log.read_text(errors="replace"),
                   "the restarted service caught up with the whole log")
    second.stop()
    assert second.process.returncode == 0, second.tail()
    assert "not a table event" in second.log.read_text(errors="replace")

    seen = by_key(rig.alerts())
    assert {k: {v} for k, v in expected.items()} == {k: seen.get(k) for k in expected}
    assert set(seen) == set(expected)  # nothing the command does not give either
    # Repeats: what the first run produced before the kill came again, identical.
    assert all(seen[k] == values for k, values in before_restart.items())


def test_service_reads_every_codec_null_headers_and_skips_aborted_records(
        rig: SurveillanceRig, tmp_path: Path) -> None:
    """The log published the way Java producers commonly do (gzip, lz4, zstd and snappy
    batches, null header values, an aborted transaction of altered copies before a
    committed one): the service's alerts are exactly ``pitwatch surveil``'s."""
    lines = sweethearting_log()
    reference = surveil_reference(lines, tmp_path)
    expected = {alert_id(msgspec.json.decode(v, type=Alert)).encode(): v for v in reference}
    rig.loop.run_until_complete(produce_over_every_transport(
        rig.settings.bootstrap, rig.settings.topics.events, list(keyed_records(lines))))
    service = rig.start("surveillance")
    rig.wait_until(lambda: "caught up" in service.log.read_text(errors="replace"),
                   "the service caught up with the whole log")
    service.stop()
    assert service.process.returncode == 0, service.tail()
    seen = by_key(rig.alerts())
    assert {k: {v} for k, v in expected.items()} == seen
