"""The pipeline under faults: workers killed with SIGKILL mid-stream at exact places, a
worker of two lost for good and another added, the broker restarted. Each run must end
exactly where an uninterrupted run ends: every hand adjudicated byte for byte as the
embedded run does it (repeats allowed, deduplicated by hand, but always identical), and
the same ledger: no hand missing, none booked twice, no conflict.

Kills are failpoints (services/pipeline/failpoints.py): a worker told
``PITWATCH_FAILPOINT=<point>:<n>`` kills itself with SIGKILL the n-th time it passes
``<point>``, so a kill lands exactly between, say, the outputs' acknowledgement and the
changelog write, which no kill timed from outside can promise. The points and counts are
drawn from a seeded generator (the seed and the plan are in every failure message). Each
kill must leave work to do (the test fails rather than pass on a kill after the end).
"""

from __future__ import annotations

import random
import signal
import time
from collections.abc import Callable

from services.events.contract import decode_record
from services.pipeline.worker import WORKER_HEADER
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
RANDOM_ADJUDICATOR_KILLS = 16
RANDOM_LEDGER_KILLS = 10
LEDGER_BATCH = 5
# Small batches and frequent checkpoints: many batches and checkpoints per worker, so
# every kill point is passed several times before the log is done.
BATCH_MAX = 50
CHECKPOINT_SECONDS = 0.1
# And a checkpoint at least every 2 batches: a checkpoint kill point's count is then
# reached within a bounded number of records, whatever the engine's speed (by time
# alone, the native rules read the whole backlog in a few checkpoints, and a kill
# planned for the 3rd commit of a worker was never reached).
CHECKPOINT_BATCHES = 2
KILL_WAIT_SECONDS = 240.0
BROKER_DOWN_SECONDS = 5.0

# Where the adjudicator can be killed, with the largest count drawn for each: per batch
# (processed: in memory only; producing: some outputs sent, none acknowledged;
# delivered: outputs acknowledged, states not written), per checkpoint (changelog: some
# states sent; checkpointed: states acknowledged, offsets not committed; committed), and
# per (re)start (assigned: restored, nothing read yet; restoring: in the middle of
# reading the changelog).
ADJUDICATOR_POINTS = {"processed": 8, "producing": 8, "delivered": 8, "changelog": 4,
                      "checkpointed": 4, "committed": 4, "assigned": 1, "restoring": 1}
LEDGER_POINTS = {"polled": 5, "booked": 5, "committed": 5}


def crash_plan(points: dict[str, int], kills: int, seed: int) -> list[str]:
    """``kills`` kill points: every point once (in a seeded order), then seeded draws;
    each with a seeded count up to the point's maximum."""
    rng = random.Random(seed)
    names = sorted(points)
    rng.shuffle(names)
    chosen = names + [rng.choice(sorted(points)) for _ in range(kills - len(names))]
    return [f"{p}:{rng.randint(1, points[p])}" for p in chosen]


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
    assert set(got) == set(expected), f"{context}: hands the embedded run does not have"
    assert ledger_snapshot(p.db_url) == log.ledger, f"{context}: ledger differs"


def assert_mid_stream(done: int, total: int, what: str) -> None:
    """A kill only proves something if work was left: fail (rather than pass vacuously)
    when the killed worker had already finished the whole log."""
    assert done < total, f"{what} after all {total} hands were done: not a mid-stream kill"


def wait_killed(p: Pipeline, worker: Worker, context: str) -> None:
    """Until ``worker`` has killed itself at its failpoint (SIGKILL, nothing else)."""
    p.wait_until(lambda: worker.process.poll() is not None,
                 f"{worker.name} to reach failpoint {worker.failpoint} ({context})",
                 KILL_WAIT_SECONDS)
    code = worker.process.poll()
    assert code == -signal.SIGKILL, (f"{worker.name} exited {code}, not by its failpoint "
                                     f"{worker.failpoint} ({context})\n{worker.tail()}")


def changelog_has_states(p: Pipeline) -> bool:
    return bool(p.reader(p.settings.changelog).poll())


def run_adjudicator_kills(p: Pipeline, log: EventLog, plan: list[str], context: str) -> None:
    """Start a worker per planned kill, each killing itself at its point, then one that
    finishes; every kill must leave hands to do. A restore can only be interrupted once
    the changelog holds states: before that, ``restoring`` is replaced by ``assigned``."""
    total = len(log.reference.records)
    for n, point in enumerate(plan, start=1):
        if point.startswith("restoring") and not changelog_has_states(p):
            point = "assigned:1"
        worker = p.start_adjudicator(f"adjudicator-{n}", failpoint=point, batch_max=BATCH_MAX,
                                     checkpoint_seconds=CHECKPOINT_SECONDS,
                                     checkpoint_batches=CHECKPOINT_BATCHES)
        wait_killed(p, worker, f"{context}, kill {n} of {plan}")
        assert_mid_stream(len(p.hands_seen()), total, f"{worker.name} killed at {point}")
    p.start_adjudicator(f"adjudicator-{len(plan) + 1}", batch_max=BATCH_MAX,
                        checkpoint_seconds=CHECKPOINT_SECONDS,
                        checkpoint_batches=CHECKPOINT_BATCHES)
    assert_exact(p, log, f"{context}: adjudicator killed at {plan} of {total} hands")


def test_adjudicator_killed_before_its_first_commit(fault_log: EventLog,
                                                   pipeline: PipelineFactory) -> None:
    """The restarts that lost records in the Faust worker: killed right after its first
    outputs were acknowledged, after its first states were stored but before any offset
    was committed, right after a restore, and in the middle of a restore."""
    p = pipeline(partitions=2)
    p.start_ledger()
    p.produce_lines(fault_log.lines)
    run_adjudicator_kills(p, fault_log, ["delivered:1", "checkpointed:1", "assigned:1",
                                         "restoring:1"], "before the first commit")
    assert p.consumer_group_offsets() != {}, "the finishing worker committed nothing"


def test_adjudicator_killed_at_random_points(fault_log: EventLog,
                                            pipeline: PipelineFactory) -> None:
    plan = crash_plan(ADJUDICATOR_POINTS, RANDOM_ADJUDICATOR_KILLS, CRASH_SEED)
    p = pipeline(partitions=2)
    p.start_ledger()
    p.produce_lines(fault_log.lines)
    run_adjudicator_kills(p, fault_log, plan, f"seed {CRASH_SEED}")


def test_ledger_killed_at_random_points(fault_log: EventLog,
                                       pipeline: PipelineFactory) -> None:
    total = len(fault_log.reference.records)
    plan = crash_plan(LEDGER_POINTS, RANDOM_LEDGER_KILLS, CRASH_SEED + 1)
    p = pipeline(partitions=2)
    p.start_adjudicator()
    p.produce_lines(fault_log.lines)
    # Small batches: each restarted ledger books in many transactions, so its kill
    # lands between two of them rather than after the whole backlog.
    for n, point in enumerate(plan, start=1):
        ledger = p.start_ledger(f"ledger-{n}", batch=LEDGER_BATCH, failpoint=point)
        wait_killed(p, ledger, f"ledger kill {n} of {plan}")
        assert_mid_stream(count_hands(p.db_url), total, f"{ledger.name} killed at {point}")
    p.start_ledger(f"ledger-{len(plan) + 1}", batch=LEDGER_BATCH)
    assert_exact(p, fault_log, f"ledger killed at {plan} of {total} hands")


def worker_of(message: Message) -> str:
    worker: bytes = dict(message.headers)[WORKER_HEADER]
    return worker.decode().rsplit("/", 1)[1]


def table_of(message: Message) -> str:
    assert message.value is not None
    return decode_record(message.value).table_id


def wait_ready(p: Pipeline, workers: list[Worker]) -> None:
    p.wait_until(lambda: all("adjudicator ready" in w.log.read_text(errors="replace")
                             for w in workers), "workers ready")


def tables_by(p: Pipeline, worker: Worker, since: int = 0) -> set[str]:
    pid = str(worker.process.pid)
    return {table_of(m) for m in p.adjudications()[since:] if worker_of(m) == pid}


def test_two_workers_one_killed_one_added(fault_log: EventLog,
                                         pipeline: PipelineFactory) -> None:
    """Two workers over four partitions; one kills itself mid-stream (first rebalance:
    the survivor takes its tables); a third joins (second rebalance) before the second
    half of the log is produced. The result is exact, the survivor finished tables the
    dead worker had started, and the newcomer adjudicated some of the second half."""
    half = len(fault_log.lines) // 2
    p = pipeline(partitions=4)
    first = p.start_adjudicator("adjudicator-a", batch_max=BATCH_MAX,
                                checkpoint_seconds=CHECKPOINT_SECONDS)
    second = p.start_adjudicator("adjudicator-b", failpoint="delivered:6",
                                 batch_max=BATCH_MAX, checkpoint_seconds=CHECKPOINT_SECONDS)
    wait_ready(p, [first, second])
    p.start_ledger()
    p.produce_lines(fault_log.lines[:half])
    wait_killed(p, second, "the second of two workers")
    killed_at = len(p.adjudications())
    assert_mid_stream(len(p.hands_seen()), len(fault_log.reference.records), "second killed")
    dead_tables = tables_by(p, second)
    third = p.start_adjudicator("adjudicator-c", batch_max=BATCH_MAX,
                                checkpoint_seconds=CHECKPOINT_SECONDS)
    wait_ready(p, [third])
    p.produce_lines(fault_log.lines[half:])
    assert_exact(p, fault_log, "second worker killed, third added")
    assert dead_tables, "the killed worker adjudicated nothing before it died"
    taken_over = tables_by(p, first, killed_at) | tables_by(p, third, killed_at)
    assert dead_tables <= taken_over
    assert tables_by(p, third, killed_at), "the added worker got no work"


def adjudicated_by(p: Pipeline, worker: Worker, hands: int) -> Callable[[], bool]:
    """``hands`` adjudicated in all, and ``worker`` is producing (not still starting)."""
    pid = str(worker.process.pid)
    return lambda: (len(p.hands_seen()) >= hands
                    and any(worker_of(m) == pid for m in p.adjudications()))


def test_broker_restart_mid_stream(private_broker: Broker, fault_log: EventLog,
                                   pipeline: PipelineFactory) -> None:
    """The broker stops cleanly and comes back; both services reconnect by themselves
    and take the second half of the log, produced after the restart."""
    total = len(fault_log.reference.records)
    half = len(fault_log.lines) // 2
    p = pipeline(partitions=2, bootstrap=private_broker.bootstrap)
    worker = p.start_adjudicator(batch_max=BATCH_MAX)
    p.start_ledger()
    p.produce_lines(fault_log.lines[:half])
    p.wait_until(adjudicated_by(p, worker, total // 3), "a third of the hands")
    private_broker.stop()
    time.sleep(BROKER_DOWN_SECONDS)
    private_broker.start()
    p.produce_lines(fault_log.lines[half:])
    assert_exact(p, fault_log, "broker restarted")
