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
from typing import Any

import pytest
from sqlalchemy import Engine

from services.adjudicator.embedded import EmbeddedRunner
from services.archive.verify import verify_archive
from services.cases.recheck import recheck_cases
from services.ledger.db import open_ledger
from services.recording import RunKeeper, keep_run
from tests.databases import fresh_schema
from tests.profiles import PROFILES
from tests.unit.archive.support import run, simulated_log
from tests.unit.ledger.dbread import count, rows, whole_database

Database = dict[str, list[tuple[object, ...]]]
# Where each case table holds its case's id (the column's position).
CASE_ID_AT = {"cases": 0, "case_audit": 0, "case_evidence": 1, "case_hands": 0,
              "case_tags": 0}


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
                    after_each: list[tuple[int, int]] | None = None,
                    stop_after: int | None = None) -> None:
    """The log through the embedded runner, each step handed to a keeper of ``hands``
    records a batch; ``after_each`` gets (records handed over, hands booked) after every
    step that had records. ``stop_after``: the run stops after that many lines, the
    keeper never finished (a process killed between two batches)."""
    runner = EmbeddedRunner(PROFILES, archive=True)
    keeper = RunKeeper(engine, archive=True, hands=hands)
    read = lines if stop_after is None else lines[:stop_after]
    steps = (runner.feed(raw, f"line {n}") for n, raw in enumerate(read, start=1))
    handed = 0
    for step in [*steps, *([runner.finish()] if stop_after is None else [])]:
        keeper.add(step.records, step.alerts, step.archive)
        handed += len(step.records)
        if after_each is not None and step.records:
            after_each.append((handed, count(engine, "hands")))
    if stop_after is None:
        keeper.finish()


def cases_by_subject(db: Database) -> Database:
    """``db`` with each case's id replaced by its subject: cases are numbered as they are
    opened, and a run kept in batches opens an alert's case with the batch that archives
    its event, one kept at its end after every finding's."""
    subject = {row[0]: row[1] for row in db["cases"]}
    return {table: found if table not in CASE_ID_AT else sorted(
                ((*row[:CASE_ID_AT[table]], subject[row[CASE_ID_AT[table]]],
                  *row[CASE_ID_AT[table] + 1:]) for row in found), key=repr)
            for table, found in db.items()}


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
    assert cases_by_subject(kept) == cases_by_subject(expected)
    assert len(kept["hands"]) == len(done.records) and kept["cases"] and kept["archive_alerts"]


@pytest.mark.parametrize("stop_after", [0.4, 0.75])
def test_a_run_stopped_part_way_holds_the_streams_tampering_as_received(
        engine: Engine, stop_after: float) -> None:
    """A run stopped between two batches (killed), its log not finished: every tampered
    event it archived is listed as the stream had it, beside the alert that reported it,
    and every finding and alert it kept is in a case. The run kept its alerts to its end:
    verify listed each tampering as a change to the archive ("at intake: no"), until the
    log was run again (QA)."""
    lines = simulated_log().lines
    keep_as_it_goes(engine, lines, hands=7, stop_after=int(len(lines) * stop_after))
    report = verify_archive(engine)
    assert any(b.kind == "altered" and b.at_intake for b in report.breaks)  # (one came)
    assert [b for b in report.breaks if not b.at_intake] == []
    assert recheck_cases(engine).breaks == []


class Killed(Exception):
    """The process killed while it kept a batch."""


def test_a_run_killed_while_keeping_a_batch_kept_all_of_it_or_none(
        engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    """Killed as it opened the cases of its fourth batch (its hands booked, its events
    archived in the same transaction): the batch is kept whole or not at all, so verify
    finds no hand booked past the archive's events and no finding in no case. Booked,
    archived and taken into cases one commit after the other, the batch's hands were
    booked and their findings in no case until the log was run again."""
    import services.cases.intake as intake
    import services.recording as recording

    taken = intake.take_evidence
    batches: list[int] = []

    def dies_at_the_fourth(*args: object, **kwargs: object) -> object:
        batches.append(1)
        if len(batches) == 4:
            raise Killed
        return taken(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(recording, "take_evidence", dies_at_the_fourth, raising=False)
    monkeypatch.setattr(intake, "take_evidence", dies_at_the_fourth)  # (``open_cases``)
    lines = simulated_log().lines
    with pytest.raises(Killed):
        keep_as_it_goes(engine, lines, hands=7)
    assert count(engine, "hands") == 21  # three batches of 7
    report = verify_archive(engine)
    assert [b for b in report.breaks if not b.at_intake] == []
    assert recheck_cases(engine).breaks == []


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


def test_a_batch_with_a_hand_the_database_refuses_is_booked_hand_by_hand_and_kept(
        engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    """The ledger books inside the batch's transaction, in savepoints: a write the
    database refuses is taken back alone, the batch's hands booked one by one (as
    ``post_many`` books them on its own), and the rest of the batch kept with them."""
    from sqlalchemy.exc import IntegrityError

    import services.ledger.posting as posting

    insert = posting._insert_new_hands
    calls: list[int] = []

    def refuses_the_second(*args: Any) -> None:
        calls.append(1)
        if len(calls) == 2:
            raise IntegrityError("INSERT", None, Exception("refused"))
        insert(*args)

    monkeypatch.setattr(posting, "_insert_new_hands", refuses_the_second)
    lines = simulated_log().lines
    keep_as_it_goes(engine, lines, hands=7)
    assert len(calls) > 9  # the refused batch's 7 hands then went one by one
    assert count(engine, "hands") == len(run(lines).records)
    assert [b for b in verify_archive(engine).breaks if not b.at_intake] == []
    assert recheck_cases(engine).breaks == []
