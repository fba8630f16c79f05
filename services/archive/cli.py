"""``pitwatch replay`` and ``pitwatch archive days|detach|checkpoint`` (``pitwatch verify``, which
also reads the ledger and the cases, is ``services/integrity.py``; what it refuses to verify
is here: ``refuse_nothing_to_verify``).

The lead mounts these on the main command (``services/cli.py``). Every command takes
``--db URL`` (default ``PITWATCH_DB``, else the embedded SQLite file) and only reads the
database, except ``archive detach`` and ``archive checkpoint``; a URL that holds no
pitwatch database is a usage error (exit 2). Listings print as a table, JSON or CSV (``--format``).

Exit codes: ``replay`` exits 1 when a stored
record differs from its replay under the posted profiles (an audit), 0 for any result of
a what-if (``--profile``: the differences are the answer).
"""

from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console

from services.events.days import parse_day
from services.exits import INPUT_PROBLEMS, OK, Refused
from services.ledger.db import DB_ENV_VAR, DEFAULT_URL
from services.ledger.listing import Column, Format, Listing, json_bytes
from services.terminal import StdoutConsole, progress_bar

if TYPE_CHECKING:
    from sqlalchemy import Engine

    from services.archive.cut import CutPlan
    from services.games.profile import Profiles, RuleProfile

archive_app = typer.Typer(help="The event archive's days; detaching the days past retention "
                               "(PostgreSQL).", no_args_is_help=True)
console = StdoutConsole()
errors = Console(stderr=True, soft_wrap=True, highlight=False)

DbOption = Annotated[str, typer.Option("--db", "--ledger", envvar=DB_ENV_VAR,
                                       help="SQLAlchemy URL of the pitwatch database.")]
FormatOption = Annotated[Format, typer.Option("--format",
                                              help="table (for people), json or csv.")]


def _day(value: str | None, option: str) -> dt.date | None:
    if value is None:
        return None
    try:
        return parse_day(value)
    except ValueError:
        raise typer.BadParameter(f"{value!r} is not a day: write YYYY-MM-DD",
                                 param_hint=option) from None


def day_span(first: str | None, last: str | None) -> tuple[dt.date | None, dt.date | None]:
    a, b = _day(first, "--from"), _day(last, "--to")
    if a is not None and b is not None and b < a:
        raise typer.BadParameter(f"--to {b} is before --from {a}", param_hint="--to")
    return a, b


def emit_listing(listing: Listing, fmt: Format, value: object) -> None:
    if fmt is Format.table:
        listing.print_to(console)
    elif fmt is Format.json:
        sys.stdout.buffer.write(json_bytes(value))
    else:
        sys.stdout.write(listing.csv())
    sys.stdout.flush()


# ---------------------------------------------------------------- verify


def refuse_nothing_to_verify(engine: Engine, first_day: dt.date | None,
                             last_day: dt.date | None, table: str | None) -> None:
    """``pitwatch verify`` of a span or table that holds nothing is a usage error (exit 2),
    as ``replay``'s: a typo in a scheduled audit's ``--table`` or days verified nothing
    and passed (exit 0). The line names what the database does hold."""
    found = nothing_to_verify(engine, first_day, last_day, table)
    if found is not None:
        option, message = found
        raise typer.BadParameter(message, param_hint=option)


def nothing_to_verify(engine: Engine, first_day: dt.date | None, last_day: dt.date | None,
                      table_id: str | None) -> tuple[str, str] | None:
    """None when a verify of the span (and table) has something to check: segments
    archived in it, a table the catalog names (a verify of every day: a table whose
    segments are all gone is verified, and found), hands the ledger booked in it, alerts
    archived (a verify of every day: ``surveil --db`` archives its alerts and no event,
    and they are checked). Else (the option to change, a line naming the tables and days
    the database holds)."""
    from sqlalchemy import select

    from services.archive.reader import raw_text
    from services.ledger.archive_tables import ArchiveAlert as A
    from services.ledger.archive_tables import ArchiveSegment as S
    from services.ledger.archive_tables import ArchiveTable as C
    from services.ledger.models import Hand as H
    from services.ledger.spans import within_days

    def of(column: Any) -> Any:  # the rows of the table asked for, or of every table
        return select(column) if table_id is None else select(column).where(
            column == table_id)

    queries = [within_days(of(S.table_id), S.day, first_day, last_day),
               within_days(of(H.table_id), H.day, first_day, last_day)]
    if first_day is None and last_day is None:
        queries += [of(C.table_id), of(A.table_id)]
    with engine.connect() as conn:
        if any(conn.execute(q.limit(1)).first() is not None for q in queries):
            return None
        tables = sorted({t for column in (S.table_id, H.table_id, C.table_id, A.table_id)
                         for t in conn.execute(select(column).distinct()).scalars()})
        days: set[str] = set()
        for day, at_table in ((S.day, S.table_id), (H.day, H.table_id)):
            query = select(raw_text(day, "day")).distinct().where(day.is_not(None))
            if table_id in tables:
                query = query.where(at_table == table_id)
            days.update(map(str, conn.execute(query).scalars()))
    if not tables:
        return "--db", ("the archive holds nothing: archive a run with `pitwatch adjudicate "
                        "LOG --ledger URL` or `pitwatch serve archive`, then verify it")
    if table_id is not None and table_id not in tables:
        named = ", ".join(tables[:10]) + (f" and {len(tables) - 10:,} more"
                                          if len(tables) > 10 else "")
        return "--table", (f"the database holds no table {table_id!r}: it holds {named} "
                           "(check --table)")
    held = sorted(days)
    span = (f"from {first_day} to {last_day}" if first_day and last_day
            else f"from {first_day} on" if first_day else f"up to {last_day}")
    holder = "the database" if table_id is None else f"table {table_id}"
    holds = ("no day" if not held else f"1 day, {held[0]}" if len(held) == 1
             else f"{len(held):,} days, {held[0]} to {held[-1]}")
    return "--from" if first_day else "--to", (
        f"{holder} holds nothing {span}: it holds {holds} (check --from and --to)")


# ---------------------------------------------------------------- replay


def replay(
    first: Annotated[str, typer.Option("--from", help="first UTC day, YYYY-MM-DD")],
    last: Annotated[str, typer.Option("--to", help="last UTC day, YYYY-MM-DD")],
    profile: Annotated[str | None, typer.Option(
        "--profile", help="judge every table under this rule profile (a built-in name or "
                          "a profile folder) instead of the one it posted: a what-if")]
    = None,
    table: Annotated[str | None, typer.Option("--table", help="one table only")] = None,
    db: DbOption = DEFAULT_URL,
    fmt: FormatOption = Format.table,
    engine: Annotated[str | None, typer.Option(
        "--engine", help="per-event path: native (the Rust core, default) or python (the "
                         "reference); default $PITWATCH_ENGINE")] = None,
) -> None:
    """Re-adjudicate a span of days' archived hands; list each record that differs.

    Each hand whose record differs from the stored one is listed with the difference."""
    from services.adjudicator.engine import EngineUnavailable, UnknownEngine, make_runner
    from services.archive.replay import profiles_as, replay_archive
    from services.games.profiles import read_profiles
    from services.ledger.cli import open_for_reading
    from services.ledger.gc_policy import tune_for_batches

    try:
        make_runner(read_profiles(), engine)  # the engine exists and is built
    except (EngineUnavailable, UnknownEngine) as exc:
        raise typer.BadParameter(str(exc), param_hint="--engine") from None
    first_day, last_day = day_span(first, last)
    assert first_day is not None and last_day is not None
    profiles = read_profiles()
    if profile is not None:
        profiles = profiles_as(_profile(profile, profiles))
    database = open_for_reading(db)
    if profile is None:
        _refuse_unknown_profiles(database, profiles, first_day, last_day, table)
    tune_for_batches()  # as pitwatch adjudicate: the run's objects live for its length
    with progress_bar(errors) as progress:
        task = progress.add_task("replaying", total=None, unit="tables", note="")
        report = replay_archive(database, first_day, last_day, profiles, table,
                                on_table=lambda _t, _n: progress.advance(task),
                                runner_engine=engine)
    left_out = [said for said in (_unarchived_said(report.unarchived),
                                  _detached_said(report.detached)) if said is not None]
    if report.hands == 0 and left_out:
        raise Refused("; ".join(left_out))
    if report.hands == 0:
        message, option = _nothing_replayed(database, first_day, last_day, table)
        raise typer.BadParameter(message, param_hint=option)
    for said in left_out:
        errors.print(f"note: {said}", markup=False)
    listing = Listing("Hands whose record differs", [
        Column("hand"), Column("table"), Column("day"), Column("difference")],
        [(d.hand_id, d.table_id, None if d.day is None else d.day.isoformat(),
          "; ".join(d.changes)) for d in report.differences])
    if report.differences or fmt is not Format.table:
        emit_listing(listing, fmt, {"hands": report.hands, "same": report.same,
                             "differences": [{"hand": d.hand_id, "table": d.table_id,
                                              "day": None if d.day is None
                                              else d.day.isoformat(), "changes": d.changes}
                                             for d in report.differences]})
    under = f"profile {profile}" if profile else "the profiles the tables posted"
    errors.print(f"replayed {report.hands:,} hand(s) of {report.tables:,} table(s) "
                 f"({report.events:,} archived events) under {under}: "
                 f"{len(report.differences):,} differ", markup=False)
    raise typer.Exit(INPUT_PROBLEMS if report.differences and profile is None else OK)


def _refuse_unknown_profiles(database: Engine, profiles: Profiles, first_day: dt.date,
                             last_day: dt.date, table: str | None) -> None:
    """Stop (one line, exit 2) when the span's hands were judged under a profile this
    run does not know: replayed without it, every such hand "differs" (QA: 300 of 300,
    exit 1, in a shell without ``PITWATCH_PROFILES``)."""
    from services.games.profile import UnknownProfileError
    from services.games.unknown_profiles import not_known_here
    from services.ledger.queries import judged_under_unknown

    known = profiles.names()
    judged = judged_under_unknown(database, known, first_day, last_day, table)
    if judged:
        raise UnknownProfileError(f"the span's hands were {not_known_here(judged, known)} "
                                  "(or give --profile for a what-if)")


def _unarchived_said(unarchived: dict[str, int]) -> str | None:
    """What a replay says of the span's booked hands at tables the archive never held."""
    if not unarchived:
        return None
    tables = sorted(unarchived)
    shown = ", ".join(tables[:5]) + (f" and {len(tables) - 5:,} more" if len(tables) > 5
                                     else "")
    return (f"{sum(unarchived.values()):,} booked hand(s) of the span are at tables the "
            f"archive never held ({shown}): booked without their events (--no-archive, or "
            "pitwatch ledger post), they cannot be replayed; archive a run with `pitwatch "
            "adjudicate LOG --ledger URL`")


def _detached_said(detached: dict[str, tuple[int, dt.date]]) -> str | None:
    """What a replay says of the span's booked hands it cannot reach at tables whose first
    days are detached: not compared, why, and what to do."""
    if not detached:
        return None
    tables = sorted(detached)
    shown = ", ".join(f"{t} (through {detached[t][1].isoformat()})" for t in tables[:5]) + (
        f" and {len(tables) - 5:,} more" if len(tables) > 5 else "")
    return (f"{sum(hands for hands, _ in detached.values()):,} booked hand(s) of the span "
            f"are not replayed: they are at tables whose first days are detached past "
            f"retention ({shown}) and were booked on those days, or no checkpoint at the "
            "cut holds the table as it stood there (days detached by a pitwatch that made "
            "none; the reference engine); to replay them, restore those days' tables, "
            "attach them again and run `pitwatch archive detach` again, which checkpoints "
            "every table at the cut before it detaches (docs/archive.md, Retention)")


def _nothing_replayed(engine: Engine, first_day: dt.date, last_day: dt.date,
                      table: str | None) -> tuple[str, str]:
    """Why a replay found no hand, and the option to fix: ``--table`` when the ledger holds
    no hand at that table at all (naming the tables it does hold), else ``--from``."""
    from sqlalchemy import select

    from services.ledger.models import Hand

    span = f"from {first_day} to {last_day}"
    if table is not None:
        with engine.connect() as conn:
            tables = sorted(conn.execute(select(Hand.table_id).distinct()).scalars())
        if table not in tables:
            held = ", ".join(tables) if tables else "none"
            return (f"the ledger holds no hand at table {table} (its tables: {held}): "
                    "check --table"), "--table"
        return (f"no booked hand of table {table} ended {span}: check --from and --to",
                "--from")
    return f"no booked hand ended {span}: check --from and --to", "--from"


def _profile(name: str, known: Profiles) -> RuleProfile:
    """A built-in profile by name, or a profile folder (its TOML files)."""
    from services.games.profile import UnknownProfileError
    from services.games.profiles import read_profile_folder

    if not name.strip():  # Path("") is "." (QA: "rule profile '': no *.toml files in .")
        raise typer.BadParameter("give a built-in profile's name or a profile folder",
                                 param_hint="--profile")

    folder = Path(name)
    if folder.is_dir():
        try:
            return read_profile_folder(folder)
        except (UnknownProfileError, ValueError, OSError) as exc:
            raise typer.BadParameter(f"{folder}: {exc}", param_hint="--profile") from None
    try:
        return known.get(name)
    except UnknownProfileError as exc:
        raise typer.BadParameter(f"{exc}, or give a profile folder",
                                 param_hint="--profile") from None


# ---------------------------------------------------------------- days and retention


@archive_app.command("days")
def days_command(db: DbOption = DEFAULT_URL, fmt: FormatOption = Format.table) -> None:
    """Every day the live archive holds: segments, events, tables."""
    from services.archive.partitions import archive_days
    from services.ledger.cli import open_for_reading

    days = archive_days(open_for_reading(db))
    listing = Listing("Archive days", [Column("day"), Column("segments", count=True),
                                       Column("events", count=True),
                                       Column("tables", count=True)],
                      [(d.day.isoformat() if isinstance(d.day, dt.date)
                        else f"{d.day!r}: no date (pitwatch verify)", d.segments, d.events,
                        d.tables) for d in days])
    emit_listing(listing, fmt, listing.records())


@archive_app.command("detach")
def detach_command(
    db: DbOption = DEFAULT_URL,
    retention_years: Annotated[str | None, typer.Option(
        "--retention-years", envvar="PITWATCH_ARCHIVE_RETENTION_YEARS",
        help="years the archive keeps on line (default 7)")] = None,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="list, detach nothing")] = False,
) -> None:
    """PostgreSQL: detach every day partition older than the retention period.

    Detached, a day is kept cold: its rows stay, in a table of their own, still append-only.
    Each table is checkpointed at the cut first, so its later hands stay re-derivable."""
    from services.archive.cut import make_cut_checkpoints, plan_cut
    from services.archive.partitions import (
        RetentionRefused,
        detach_days,
        detachable_days,
        partition_name,
        record_detached_days,
    )
    from services.archive.partitions import (
        retention_years as years_of,
    )
    from services.games.profiles import read_profiles
    from services.ledger.cli import open_for_reading
    from services.ledger.gc_policy import tune_for_batches

    try:  # the option first: a bad --retention-years was reported as --db's
        years = years_of(retention_years)
    except RetentionRefused as exc:
        raise typer.BadParameter(str(exc), param_hint="--retention-years") from None
    engine = open_for_reading(db)
    try:
        days = detachable_days(engine, dt.datetime.now(dt.UTC).date(), years)
    except RetentionRefused as exc:
        raise typer.BadParameter(str(exc), param_hint="--db") from None
    plans = plan_cut(engine, read_profiles(), days) if days else []
    if dry_run:
        for day in days:
            errors.print(f"would detach {partition_name(day)}", markup=False)
        _cut_said(plans, "would make")
    else:
        at = dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        tune_for_batches()
        cut = make_cut_checkpoints(engine, plans, read_profiles(), at)
        if cut.failed:
            errors.print(f"error: nothing detached: no checkpoint at the cut could be made "
                         f"for {'; '.join(cut.failed)}; detached without one, the later "
                         "hands of those tables could no longer be re-derived (fix what "
                         "is named, `pitwatch verify` lists damaged segments, then run "
                         "the detach again)", markup=False)
            raise typer.Exit(INPUT_PROBLEMS)
        for line in cut.noted:
            errors.print(f"note: no checkpoint at the cut for {line}", markup=False)
        if cut.made:
            errors.print(f"made {cut.made:,} checkpoint(s) at the cut, replaying "
                         f"{cut.lines:,} archived line(s) being detached since each "
                         "table's last checkpoint: the tables' later hands stay "
                         "re-derivable", markup=False)
        recorded = record_detached_days(engine, at)
        if recorded:
            errors.print(f"recorded where {recorded:,} chain(s) stood in days detached "
                         "before (archive_detached)", markup=False)
        for name in detach_days(engine, days, at):
            errors.print(f"detached {name} (keep it cold: pg_dump -t {name})", markup=False)
    errors.print(f"{len(days):,} day(s) older than {years} year(s)"
                 + (" (dry run)" if dry_run else ""), markup=False)


def _cut_said(plans: list[CutPlan], verb: str) -> None:
    """The dry run's line on the checkpoints the detach makes at the cut, and its cost."""
    todo = [p for p in plans if not p.already and p.why_not is None]
    for plan in plans:
        if plan.why_not is not None:
            errors.print(f"note: no checkpoint at the cut for table {plan.table_id}: "
                         f"{plan.why_not}", markup=False)
    if todo:
        errors.print(f"{verb} {len(todo):,} checkpoint(s) at the cut (one per table, after "
                     "its last event in those days), replaying "
                     f"{sum(p.lines for p in todo):,} archived line(s) since each table's "
                     "last checkpoint", markup=False)


@archive_app.command("checkpoint")
def checkpoint_command(
    db: DbOption = DEFAULT_URL,
    table: Annotated[str | None, typer.Option("--table", help="one table only")] = None,
    every: Annotated[int, typer.Option(
        "--every", min=1_000, help="archived lines between two checkpoints of a table")]
    = 100_000,
) -> None:
    """Store each table's state every so many archived lines, from its latest checkpoint.

    A report of a hand late in a table's life then replays from the last one before the
    hand, not from the table's first event (run it nightly; ``pitwatch verify`` derives
    every checkpoint again)."""
    from services.archive.checkpoints import make_checkpoints
    from services.games.profiles import read_profiles
    from services.ledger.cli import open_for_reading
    from services.ledger.gc_policy import tune_for_batches

    engine = open_for_reading(db)
    tune_for_batches()
    at = dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    made = make_checkpoints(engine, read_profiles(), at, table, every)
    if table is not None and made.tables == 0:
        raise typer.BadParameter(f"the archive holds no table {table!r} (`pitwatch archive "
                                 "days` lists its days and their tables)",
                                 param_hint="--table")
    for line in made.skipped:
        errors.print(f"not checkpointed: {line}", markup=False)
    errors.print(f"{made.checkpoints:,} checkpoint(s) made over {made.tables:,} table(s)",
                 markup=False)
