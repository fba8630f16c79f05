"""``RunKeeper``: an embedded run kept in the database as it goes, a batch of hands at a
time, is the run kept at its end (``keep_run``), row for row; and it is kept during the
run, not after it (``pitwatch adjudicate --ledger`` held 852 MB for 20,000 hands until the
run ended). On SQLite and PostgreSQL.

The expected database is the one ``keep_run`` writes from the whole run at once, another
path through the ledger, archive and case code (one call each, not one per batch).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from sqlalchemy import Engine

from services.adjudicator.embedded import EmbeddedRunner
from services.ledger.db import open_ledger
from services.recording import RunKeeper, keep_run
from tests.databases import fresh_schema
from tests.profiles import PROFILES
from tests.unit.archive.support import run, simulated_log
from tests.unit.ledger.dbread import count, rows, whole_database


@contextmanager
def another(engine: Engine, request: pytest.FixtureRequest, tmp_path: Path
            ) -> Iterator[Engine]:
    """A second empty database on the same backend."""
    if engine.dialect.name == "postgresql":
        with fresh_schema(request.getfixturevalue("pg_url")) as url:
            other = open_ledger(url)
            yield other
            other.dispose()
        return
    other = open_ledger(f"sqlite:///{tmp_path}/other.sqlite")
    yield other
    other.dispose()


def keep_as_it_goes(engine: Engine, lines: tuple[bytes, ...], hands: int,
                    after_each: list[tuple[int, int]] | None = None) -> None:
    """The log through the embedded runner, each step handed to a keeper of ``hands``
    records a batch; ``after_each`` gets (records handed over, hands booked) after every
    step that had records."""
    runner = EmbeddedRunner(PROFILES, archive=True)
    keeper = RunKeeper(engine, archive=True, hands=hands)
    steps = (runner.feed(raw, f"line {n}") for n, raw in enumerate(lines, start=1))
    handed = 0
    for step in [*steps, runner.finish()]:
        keeper.add(step.records, step.alerts, step.archive)
        handed += len(step.records)
        if after_each is not None and step.records:
            after_each.append((handed, count(engine, "hands")))
    keeper.finish()


def test_a_run_kept_in_batches_is_the_run_kept_at_its_end(
        engine: Engine, request: pytest.FixtureRequest, tmp_path: Path) -> None:
    """Every fault kind injected (findings open cases; a tampered event raises alerts):
    batches of 7 hands give the same ledger, archive and cases as one keeping."""
    lines = simulated_log().lines
    done = run(lines)
    assert done.alerts and any(r.findings for r in done.records)
    with another(engine, request, tmp_path) as whole:
        keep_run(whole, done.records, done.alerts, done.segments)
        expected = whole_database(whole)
    keep_as_it_goes(engine, lines, hands=7)
    kept = whole_database(engine)
    assert kept == expected
    assert len(kept["hands"]) == len(done.records) and kept["cases"] and kept["archive_alerts"]


def test_hands_are_booked_during_the_run(engine: Engine) -> None:
    """A keeper of 10 records a batch: hands are in the ledger while the run goes on, and
    never 10 of them wait."""
    lines = simulated_log(faults=False).lines
    seen: list[tuple[int, int]] = []
    keep_as_it_goes(engine, lines, hands=10, after_each=seen)
    assert count(engine, "hands") == 120
    assert seen[0] == (1, 0)  # the first hand waits for its batch
    assert all(handed - booked < 10 for handed, booked in seen)
    assert (10, 10) in seen and seen[-1][0] == 120


def test_a_keeper_without_the_archive_books_only(engine: Engine) -> None:
    lines = simulated_log(faults=False).lines
    runner = EmbeddedRunner(PROFILES, archive=False)
    keeper = RunKeeper(engine, archive=False, hands=25)
    assert not keeper.archives
    for step in [*(runner.feed(raw, "line") for raw in lines), runner.finish()]:
        keeper.add(step.records, step.alerts, step.archive)
    kept = keeper.finish()
    assert kept.archived is None and kept.cases is None
    assert kept.posted.counts == {"posted": 120}
    assert count(engine, "hands") == 120 and count(engine, "archive_segments") == 0
    assert rows(engine, "SELECT MIN(day) FROM hands") == [(dt.date(2026, 1, 5).isoformat(),)]
