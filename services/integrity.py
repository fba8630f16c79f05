"""``pitwatch verify``: the whole database re-checked from what it holds.

Three checks, each of its own layer, put together here at the top (the cases sit above
the archive and the ledger, so no lower module can call all three):

* the event archive: every hash chain from the stored bytes, its columns, its ends
  against the catalog, the ledger's record of each hand's last event
  (``services.archive.verify``);
* the ledger: every booked hand's postings and rake rows derived again from its stored
  record, rows of hands never booked, archived hands the ledger lost
  (``services.ledger.recheck``);
* the cases: every case's row against its audit trail, and every archived alert at
  warning or above held as some case's evidence (``services.cases.recheck``).

Each break is listed with its table, seq, event (or hand, or case) and what is wrong;
the command exits 1 on any break in the database (``--strict``: also on breaks the
table's stream already had when it arrived).

The archive's check and the ledger's take about as long each (on 10,000 High Card Flush
hands, 2.1 and 2.2 s) and share nothing but the database, so on a machine of two cores or
more the ledger's and the cases' run in a second process while this one checks the
archive (``_side_checks``): the command took 4.9 s there, and 3.2 s so. A process, not a
thread: both checks are Python's work, which one interpreter runs one thread at a time.
Started fresh (``spawn``), not forked: a fork would copy this process's open database
connections and any lock another thread held at that moment. Where no second process can
be made, or it dies, the checks run here: the same result, later.
"""

from __future__ import annotations

import datetime as dt
import os
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from multiprocessing import get_context
from typing import TYPE_CHECKING, Annotated

import typer

from services.archive.cli import (
    DbOption,
    FormatOption,
    day_span,
    emit_listing,
    errors,
    refuse_nothing_to_verify,
)
from services.exits import INPUT_PROBLEMS, OK
from services.ledger.db import DEFAULT_URL
from services.ledger.listing import Cell, Column, Format, Listing
from services.terminal import progress_bar

if TYPE_CHECKING:
    from sqlalchemy import Engine

    from services.cases.recheck import CaseRecheck
    from services.ledger.recheck import RecheckReport

SideChecks = tuple["RecheckReport", "CaseRecheck"]


def verify(
    first: Annotated[str | None, typer.Option("--from", help="first UTC day, YYYY-MM-DD")]
    = None,
    last: Annotated[str | None, typer.Option("--to", help="last UTC day, YYYY-MM-DD")] = None,
    table: Annotated[str | None, typer.Option("--table", help="one table only")] = None,
    db: DbOption = DEFAULT_URL,
    strict: Annotated[bool, typer.Option(
        "--strict", help="exit 1 also for breaks the stream had when it arrived")] = False,
    fmt: FormatOption = Format.table,
) -> None:
    """Re-verify the archive's hash chains, the booked hands and the cases; list each break.

    Every hash chain in the archive from the stored bytes, every booked hand's postings and
    rake against its stored record, and every case against its audit trail. Exits 1 on a
    break in the database."""
    from services.archive.verify import verify_archive
    from services.games.profiles import read_profiles
    from services.ledger.cli import open_for_reading
    from services.ledger.gc_policy import tune_for_batches

    first_day, last_day = day_span(first, last)
    engine = open_for_reading(db)
    refuse_nothing_to_verify(engine, first_day, last_day, table)  # exit 2, as replay's
    # A table's decoded events and a chunk's rows live until they are checked: with the
    # collector's default thresholds it walked them again and again (about a quarter of
    # the archive's part, 380,000 events of one table).
    tune_for_batches()
    with _side_checks(db, first_day, last_day, table) as side, progress_bar(errors) as progress:
        task = progress.add_task("verifying", total=None, unit="tables", note="")
        report = verify_archive(engine, first_day, last_day, table,
                                on_table=lambda _t, _n: progress.advance(task),
                                profiles=read_profiles())
        ledger, cases = side()
    # JSON and CSV are evidence: every hash a break names whole (the table shows 16 digits).
    whole = fmt is not Format.table
    rows: list[tuple[Cell, ...]] = [
        (b.table_id, b.seq, b.event_id, b.kind, "yes" if b.at_intake else "no", b.said(whole))
        for b in report.breaks]
    rows += [(b.table_id, None, b.event_id, "ledger", "no", b.message) for b in ledger.breaks]
    rows += [(None, None, None, "case", "no", b.message) for b in cases.breaks]
    listing = Listing("Breaks", [Column("table"), Column("seq", count=True), Column("event"),
                                 Column("kind"), Column("at intake"), Column("what")], rows)
    notes = [*report.notes, *ledger.notes]
    if rows or fmt is not Format.table:
        emit_listing(listing, fmt, {"tables": report.tables, "segments": report.segments,
                             "events": report.events, "kept_states": report.kept_states,
                             "alerts": report.alerts,
                             "hands": ledger.hands,
                             "postings": ledger.postings, "cases": cases.cases,
                             "breaks": listing.records(), "notes": notes})
    for note in notes:
        errors.print(f"note: {note}", markup=False)
    archive = len(report.archive_breaks)
    intake = len(report.breaks) - archive
    where = f" at table {table}" if table else ""
    span = f" from {first_day or 'the first day'} to {last_day or 'the last'}" if (
        first_day or last_day) else ""
    errors.print(f"verified {report.tables:,} table(s){where}{span}: {report.segments:,} "
                 f"segment(s), {report.events:,} event(s); "
                 + (f"{archive:,} break(s) in the archive" if archive else
                    "no break in the archive")
                 + (f", {intake:,} break(s) the stream had when it arrived (reported then)"
                    if intake else ""), markup=False)
    altered = sum(b.kind == "alert" for b in report.breaks)
    errors.print(f"checked {report.alerts:,} archived alert(s) against their JSON: "
                 + (f"{altered:,} changed (the alert breaks above)" if altered
                    else "as produced"), markup=False)
    carried = sum(b.kind == "carry" for b in report.breaks)
    if report.kept_states or carried:  # (QA: "as kept" stood beside a carry break)
        errors.print(f"derived {report.kept_states:,} kept table state(s) again from the "
                     "archived events: as kept" + (f"; {carried:,} other(s) not (the carry "
                                                    "breaks above)" if carried else ""),
                     markup=False)
    errors.print(f"checked {ledger.hands:,} booked hand(s), {ledger.postings:,} posting(s) "
                 "against their records: " + (f"{len(ledger.breaks):,} difference(s) in the "
                                              "ledger" if ledger.breaks else "as booked"),
                 markup=False)
    astray = sum(b.case_id is not None for b in cases.breaks)
    uncased = len(cases.breaks) - astray
    errors.print(f"checked {cases.cases:,} case(s), {cases.entries:,} audit entries: "
                 + (f"{astray:,} case(s) not where their trail leads" if astray
                    else "each where its trail leads")
                 + (f"; {uncased:,} alert(s) or hand finding(s) in no case" if uncased else ""),
                 markup=False)
    if report.tables == 0:
        errors.print(_why_nothing_here(engine, first_day, last_day, table, report.alerts),
                     markup=False)
    failed = report.failed(strict) or ledger.breaks or cases.breaks
    raise typer.Exit(INPUT_PROBLEMS if failed else OK)


def _why_nothing_here(engine: Engine, first_day: dt.date | None, last_day: dt.date | None,
                      table: str | None, alerts: int) -> str:
    """Why the live archive held no event to verify: days of the span detached past
    retention (QA: it said to archive a run, and the reports pointed back at verify),
    only ``alerts`` archived (``surveil --db``'s: QA, it said the archive held nothing,
    and checked none of them), or nothing archived."""
    from sqlalchemy import select

    from services.ledger.archive_tables import ArchiveDetached as D

    query = select(D.day).distinct().order_by(D.day)
    if first_day is not None:
        query = query.where(D.day >= first_day)
    if last_day is not None:
        query = query.where(D.day <= last_day)
    if table is not None:
        query = query.where(D.table_id == table)
    with engine.connect() as conn:
        days = list(conn.execute(query).scalars())
    if days:
        span = days[0].isoformat() + ("" if len(days) == 1 else f" to {days[-1].isoformat()}")
        return (f"the archive holds nothing here: {len(days):,} day(s) of it ({span}) are "
                "detached past retention (`pitwatch archive detach`); verify checks the "
                "live archive: restore a day's table and attach it again to verify it")
    if alerts:
        return (f"the archive holds {alerts:,} alert(s) here (checked above) and no event "
                "segment (`pitwatch surveil --db` archives its alerts, not the events): "
                "archive the events with `pitwatch adjudicate LOG --ledger URL` to verify "
                "their hash chains")
    return ("the archive holds nothing here: archive a run with `pitwatch adjudicate LOG "
            "--ledger URL` or `pitwatch serve archive`")


@contextmanager
def _side_checks(db: str, first_day: dt.date | None, last_day: dt.date | None,
                 table: str | None) -> Iterator[Callable[[], SideChecks]]:
    """The ledger's and the cases' checks started in a second process (module docstring);
    what it yields gives their results. They run here, after the archive's, on a machine
    of one core, where no second process can be made (no POSIX semaphores: some
    containers), and when the second process dies (killed, out of memory)."""
    def here() -> SideChecks:
        return ledger_and_cases(db, first_day, last_day, table)

    if (os.cpu_count() or 1) < 2:
        yield here
        return
    try:
        pool = ProcessPoolExecutor(max_workers=1, mp_context=get_context("spawn"),
                                   initializer=exit_with_parent, initargs=(os.getpid(),))
        started = pool.submit(ledger_and_cases, db, first_day, last_day, table)
    except (OSError, NotImplementedError, BrokenProcessPool):
        yield here
        return

    def there() -> SideChecks:
        try:
            return started.result()
        except BrokenProcessPool:
            return here()

    try:
        yield there
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def exit_with_parent(parent: int) -> None:
    """The second process's start: it ends when the verify that started it is gone
    (killed -9, out of memory). Left alone it waited on its task pipe for good, whose
    writing end it holds itself, and held the verify's standard output open: `pitwatch
    verify | tail` never returned (QA)."""
    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


def ledger_and_cases(db: str, first_day: dt.date | None, last_day: dt.date | None,
                     table: str | None) -> SideChecks:
    """The ledger's and the cases' checks on their own engine (in a second process)."""
    from services.cases.recheck import recheck_cases
    from services.ledger.cli import open_for_reading
    from services.ledger.gc_policy import tune_for_batches
    from services.ledger.recheck import recheck_ledger

    tune_for_batches()
    engine = open_for_reading(db)
    try:
        return (recheck_ledger(engine, first_day, last_day, table),
                recheck_cases(engine, first_day, last_day, table))
    finally:
        engine.dispose()
