"""The adjudicator's Faust recovery: stream partitions are resumed only after the seek to
the committed offsets and after the queues are cleared (see services/adjudicator/
faust_recovery.py for the records upstream's order loses)."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any, cast

from faust.types import TP

from services.adjudicator.faust_app import create_app
from services.adjudicator.faust_recovery import SeekThenResumeRecovery
from services.adjudicator.topics import StreamSettings

EVENTS_0 = TP("table-events", 0)
EVENTS_1 = TP("table-events", 1)
CHANGELOG_0 = TP("app-table-state-changelog", 0)


class Recorder:
    """Every call the recovery makes on the consumer, flow control and fetcher, in order."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def note(self, call: str) -> None:
        self.calls.append(call)


class FakeConsumer:
    def __init__(self, rec: Recorder) -> None:
        self.rec = rec

    def assignment(self) -> set[TP]:
        return {EVENTS_0, EVENTS_1, CHANGELOG_0}

    async def perform_seek(self) -> None:
        self.rec.note("seek start")
        await asyncio.sleep(0)  # other tasks (the fetcher) run here
        self.rec.note("seek done")

    def resume_partitions(self, tps: set[TP]) -> None:
        self.rec.note(f"resume {sorted(tp.partition for tp in tps)} "
                      f"{sorted({tp.topic for tp in tps})}")

    def resume_flow(self) -> None:
        self.rec.note("resume_flow")


class FakeFlowControl:
    def __init__(self, rec: Recorder) -> None:
        self.rec = rec

    def resume(self) -> None:
        self.rec.note("clear queues")


class FakeSignal:
    async def send(self) -> None:
        return None


class FakeFetcher:
    def __init__(self, rec: Recorder) -> None:
        self.rec = rec

    async def maybe_start(self) -> None:
        self.rec.note("fetcher")


def fake_recovery(rec: Recorder, generation: int) -> Any:
    """An object with just what ``on_recovery_completed`` reads, bound to the real method."""
    app = type("App", (), {})()
    app.consumer = FakeConsumer(rec)
    app.flow_control = FakeFlowControl(rec)
    app.on_rebalance_complete = FakeSignal()
    app.consumer_generation_id = generation
    app.conf = type("Conf", (), {"broker_request_timeout": 5.0})()
    app._fetcher = FakeFetcher(rec)
    app.assignor = type("Assignor", (), {"assigned_standbys": lambda self: set()})()
    app.on_rebalance_end = lambda: rec.note("rebalance end")
    tables = type("Tables", (), {})()
    tables.values = lambda: []
    tables.on_actives_ready = lambda: None
    tables.on_standbys_ready = lambda: None
    recovery = type("R", (), {})()
    recovery.app = app
    recovery.tables = tables
    recovery.log = logging.getLogger("test")
    recovery.completed = asyncio.Event()
    recovery._set_recovery_ended = lambda: rec.note("recovery ended")
    recovery._is_changelog_tp = lambda tp: tp.topic.endswith("-changelog")

    async def wait(coro: Any, timeout: float | None = None) -> None:
        await coro

    recovery._wait = wait
    return recovery


def run_completion(generation_of_call: int, generation_now: int) -> list[str]:
    rec = Recorder()
    recovery = fake_recovery(rec, generation_now)
    asyncio.run(SeekThenResumeRecovery.on_recovery_completed(recovery, generation_of_call))
    return rec.calls


def test_streams_resume_only_after_the_seek_and_the_queue_clearing() -> None:
    assert run_completion(3, 3) == [
        "recovery ended",
        "seek start",
        "seek done",
        "clear queues",
        "resume [0, 1] ['table-events']",  # the changelog partition stays paused
        "resume_flow",
        "fetcher",
        "rebalance end",
    ]


def test_a_newer_rebalance_leaves_everything_paused() -> None:
    """Upstream behaviour kept: a completion for an old generation resumes nothing."""
    assert run_completion(2, 3) == ["recovery ended"]


def test_the_adjudicator_app_uses_this_recovery(tmp_path: Path) -> None:
    app = create_app(StreamSettings(bootstrap="127.0.0.1:1", topic_prefix="t-",
                                    app_id="recovery-test", partitions=2), tmp_path)
    assert type(cast(Any, app.tables).recovery) is SeekThenResumeRecovery
