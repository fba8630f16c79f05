"""The pipeline under faults: workers killed with SIGKILL mid-stream, a worker of two lost
for good, the broker restarted. Each run must end exactly where an uninterrupted run
ends: every hand adjudicated byte for byte as the embedded run does it (repeats allowed,
deduplicated by hand, but always identical), and the same ledger — no hand missing,
none booked twice, no conflict.

Kill points are random (seeded, printed in the failure message) fractions of the log.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from services.adjudicator.faust_app import WORKER_HEADER
from services.events.contract import decode_record
from tests.integration import pipeline_fixtures
from tests.integration.pipeline_fixtures import EventLog, PipelineFactory
from tests.integration.pipeline_support import (
    Broker,
    Message,
    Pipeline,
    Worker,
    count_hands,
    deduplicated,
    ledger_snapshot,
)

fault_log = pipeline_fixtures.fault_log
pipeline = pipeline_fixtures.pipeline
private_broker = pipeline_fixtures.private_broker

CRASH_SEED = 4
LEDGER_BATCH = 5
BROKER_DOWN_SECONDS = 5.0


def assert_exact(p: Pipeline, log: EventLog, context: str) -> None:
    expected = log.reference.records
    p.wait_for_hands(len(expected))
    p.wait_for_ledger(len(expected))
    got = deduplicated(p.hands_seen())
    missing = sorted(set(expected) - set(got))
    assert not missing, f"{context}: {len(missing)} hand(s) never adjudicated: {missing[:5]}"
    differ = sorted(h for h in expected if got[h] != expected[h])
    assert not differ, (f"{context}: {len(differ)} record(s) differ from the embedded run; "
                        + "".join(f"\n{h}\n  embedded: {expected[h]!r}\n  pipeline: {got[h]!r}"
                                  for h in differ[:3]) + "\n" + p.worker_logs())
    assert ledger_snapshot(p.db_url) == log.ledger, f"{context}: ledger differs"


def assert_mid_stream(done: int, total: int, what: str) -> None:
    """A kill only proves something if work was left: fail (rather than pass vacuously)
    when the killed worker had already finished the whole log."""
    assert done < total, f"{what} after all {total} hands were done: not a mid-stream kill"


def kill_points(count: int) -> list[float]:
    rng = random.Random(CRASH_SEED)
    return sorted(rng.uniform(0.1, 0.85) for _ in range(count))


def test_adjudicator_killed_twice_mid_stream(fault_log: EventLog,
                                            pipeline: PipelineFactory) -> None:
    total = len(fault_log.reference.records)
    points = kill_points(2)
    p = pipeline(partitions=2)
    adjudicator = p.start_adjudicator("adjudicator-1")
    p.start_ledger()
    p.produce_lines(fault_log.lines)
    for n, point in enumerate(points, start=2):
        p.wait_until(adjudicated_by(p, adjudicator, int(point * total)),
                     f"{point:.0%} of the hands, some by {adjudicator.name}")
        adjudicator.kill9()
        assert_mid_stream(len(p.hands_seen()), total, f"{adjudicator.name} killed")
        adjudicator = p.start_adjudicator(f"adjudicator-{n}")
    assert_exact(p, fault_log, f"adjudicator killed at {points} of {total} hands")


def test_ledger_killed_twice_mid_stream(fault_log: EventLog,
                                       pipeline: PipelineFactory) -> None:
    total = len(fault_log.reference.records)
    points = kill_points(2)
    p = pipeline(partitions=2)
    p.start_adjudicator()
    # Small batches: a restarted ledger catches up in many transactions, so the next
    # kill lands between two of them rather than after the whole backlog.
    ledger = p.start_ledger("ledger-1", batch=LEDGER_BATCH)
    p.produce_lines(fault_log.lines)
    for n, point in enumerate(points, start=2):
        p.wait_until(booked_by(p, ledger, int(point * total)),
                     f"{point:.0%} of the hands booked, some by {ledger.name}")
        ledger.kill9()
        assert_mid_stream(count_hands(p.db_url), total, f"{ledger.name} killed")
        ledger = p.start_ledger(f"ledger-{n}", batch=LEDGER_BATCH)
    assert_exact(p, fault_log, f"ledger killed at {points} of {total} hands")


def adjudicated_by(p: Pipeline, worker: Worker, hands: int) -> Callable[[], bool]:
    """``hands`` adjudicated in all, and ``worker`` is producing (not still starting)."""
    pid = str(worker.process.pid)
    return lambda: (len(p.hands_seen()) >= hands
                    and any(worker_of(m) == pid for m in p.adjudications()))


def booked_by(p: Pipeline, worker: Worker, hands: int) -> Callable[[], bool]:
    """``hands`` booked in all, and ``worker`` has booked a batch (not still starting)."""
    return lambda: (count_hands(p.db_url) >= hands
                    and "booked batch" in worker.log.read_text(errors="replace"))


def worker_of(message: Message) -> str:
    worker: bytes = dict(message.headers)[WORKER_HEADER]
    return worker.decode().rsplit("/", 1)[1]


def table_of(message: Message) -> str:
    assert message.value is not None
    return decode_record(message.value).table_id


def wait_ready(p: Pipeline, workers: list[Worker]) -> None:
    p.wait_until(lambda: all("Worker]: Ready" in w.log.read_text(errors="replace")
                             for w in workers), "workers ready")


def test_two_workers_one_killed_the_other_takes_over(fault_log: EventLog,
                                                    pipeline: PipelineFactory) -> None:
    """Two workers in one group over four partitions; once both adjudicate, one is killed
    for good. The survivor must finish the dead worker's tables exactly."""
    p = pipeline(partitions=4)
    first = p.start_adjudicator("adjudicator-a")
    second = p.start_adjudicator("adjudicator-b")
    wait_ready(p, [first, second])
    p.start_ledger()
    p.produce_lines(fault_log.lines)
    pids = {str(first.process.pid), str(second.process.pid)}
    p.wait_until(lambda: {worker_of(m) for m in p.adjudications()} >= pids,
                 "both workers adjudicating")
    second.kill9()
    killed_at = len(p.adjudications())
    assert_mid_stream(len(p.hands_seen()), len(fault_log.reference.records), "second killed")
    assert_exact(p, fault_log, "second worker killed")

    dead_tables = {table_of(m) for m in p.adjudications()[:killed_at]
                   if worker_of(m) == str(second.process.pid)}
    taken_over = {table_of(m) for m in p.adjudications()[killed_at:]
                  if worker_of(m) == str(first.process.pid)}
    assert dead_tables and dead_tables <= taken_over


def test_broker_restart_mid_stream(private_broker: Broker, fault_log: EventLog,
                                   pipeline: PipelineFactory) -> None:
    """The broker stops cleanly and comes back; both services reconnect by themselves."""
    total = len(fault_log.reference.records)
    p = pipeline(partitions=2, bootstrap=private_broker.bootstrap)
    p.start_adjudicator()
    p.start_ledger()
    p.produce_lines(fault_log.lines)
    p.wait_for_hands(total // 3)
    private_broker.stop()
    time.sleep(BROKER_DOWN_SECONDS)
    private_broker.start()
    assert_exact(p, fault_log, "broker restarted")
