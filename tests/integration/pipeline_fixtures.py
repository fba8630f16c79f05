"""Pytest fixtures of the pipeline tests (imported by the ``test_pipeline*`` modules).

The simulated event log, its embedded adjudication and its reference ledger are made
once per session: they are the expensive part, and every pipeline test compares against
the same reference.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import orjson
import pytest

from services.simulator.run import available_faults, simulate
from tests.integration.pipeline_support import (
    Broker,
    LedgerSnapshot,
    Pipeline,
    Reference,
    book_reference,
    create_database,
    drop_database,
    embedded_reference,
    ledger_snapshot,
)
from tests.profiles import HOUSE

# Several tables, with every HCF fault the simulator knows (dealer errors, cheating
# patterns, an event altered after hashing) at a low rate, so that the records carry
# findings of all kinds.
TABLES = 4
HANDS_PER_TABLE = 400
SEED = 20261129
FAULT_RATE = 0.03


@dataclass(frozen=True)
class EventLog:
    lines: list[bytes]
    reference: Reference
    ledger: LedgerSnapshot


def simulated_lines(tables: int, hands: int, seed: int) -> list[bytes]:
    faults = frozenset(available_faults("hcf"))
    log = simulate(["hcf"], tables, hands, seed, faults, FAULT_RATE, profile=HOUSE)
    return [orjson.dumps(event) for event in log.events]


@pytest.fixture(scope="session")
def event_log(pg_url: str) -> Iterator[EventLog]:
    """The standard log, its embedded records and the ledger those records book into."""
    lines = simulated_lines(TABLES, HANDS_PER_TABLE, SEED)
    reference = embedded_reference(lines)
    assert reference.open_at_end == 0 and not reference.dead_letters
    url = create_database(pg_url, "pw_reference")
    try:
        book_reference(url, reference.records.values())
        yield EventLog(lines, reference, ledger_snapshot(url))
    finally:
        drop_database(url)


PipelineFactory = Callable[..., Pipeline]


@pytest.fixture
def pipeline(kafka_bootstrap: str, pg_url: str, tmp_path: Path) -> Iterator[PipelineFactory]:
    """Factory ``pipeline(partitions=2)``: topics created, workers stopped and topics and
    database dropped after the test."""
    made: list[Pipeline] = []

    def make(partitions: int = 2, bootstrap: str | None = None) -> Pipeline:
        db_url = create_database(pg_url, "pw_ledger")
        p = Pipeline(bootstrap or kafka_bootstrap, tmp_path, db_url, partitions)
        made.append(p)
        p.create_topics()
        return p

    yield make
    errors: list[Exception] = []
    for p in made:  # every pipeline closed and dropped, whatever failed before
        for step in (p.close, partial(drop_database, p.db_url)):
            try:
                step()
            except Exception as exc:  # Pipeline.close raises nothing else
                errors.append(exc)
    if errors:
        raise errors[0]


# A smaller log for the fault tests (crash, scale-out, broker restart): they run the
# pipeline several times over, and what they prove does not need thousands of hands.
# Eight tables, so that the tables spread over every partition of a 4-partition topic.
FAULT_TABLES = 8
FAULT_HANDS_PER_TABLE = 45


@pytest.fixture(scope="session")
def fault_log(pg_url: str) -> Iterator[EventLog]:
    lines = simulated_lines(FAULT_TABLES, FAULT_HANDS_PER_TABLE, SEED + 1)
    reference = embedded_reference(lines)
    assert reference.open_at_end == 0 and not reference.dead_letters
    url = create_database(pg_url, "pw_reference")
    try:
        book_reference(url, reference.records.values())
        yield EventLog(lines, reference, ledger_snapshot(url))
    finally:
        drop_database(url)


@pytest.fixture
def private_broker(tmp_path: Path) -> Iterator[Broker]:
    """A broker of this test's own (scripts/kafka.sh on free ports, data under tmp), for
    the test that stops and restarts it: the shared broker is never restarted."""
    broker = Broker(tmp_path / "kafka-var")
    broker.start()
    try:
        yield broker
    finally:
        broker.stop()
