"""The ``pitwatch`` command (Typer + Rich).

Results go to stdout (one JSON object per line, pipeable); summaries, progress bars and
errors go to stderr, so ``pitwatch adjudicate log.jsonl > out.jsonl`` keeps a clean file.
Exit codes follow one convention for every command (``services.exits``): 0 success, 1 the
input had problems, 2 a usage or environment error, said in one line.
"""

from __future__ import annotations

# ruff: noqa: E402 (the collector is held off before the command tree's imports, below)
import gc

# No collection while the command tree is imported, and what it made then moved out of
# the collector's sight (``gc.freeze``, as ``services.ledger.gc_policy`` does after a
# run's start-up): the modules, classes and tables live as long as the process, and the
# collector walked them 48 times with CPython's default thresholds (or once, as long,
# when they were all young): ~7 ms of the 0.125 s start-up of `pitwatch adjudicate`. The
# few hundred cycles the imports leave as garbage are not freed.
_COLLECTING = gc.isenabled()
gc.disable()

import sys
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager, nullcontext
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, ClassVar, get_args

import orjson
import typer
from rich.markup import escape
from rich.text import Text

from services.events.contract import Alert, GameName
from services.exits import INPUT_PROBLEMS, OK, USAGE, PitwatchGroup, print_error
from services.games.profile import UnknownProfileError
from services.games.profiles import BUILTIN_PROFILE, read_profiles
from services.lazy_commands import LazyCommand
from services.log_run import run_file
from services.outputs import (
    STDOUT,
    NamedOutput,
    named_output,
    naming,
    not_the_input,
    output_file,
    stdout_path,
    write_jsonl,
)
from services.simulate_options import (
    every_game_dealt,
    not_nan,
    resolve_faults,
    simulation_options,
    within_one_run,
)
from services.surveil_summary import (
    SURVEIL_KEEPS_NO_STATE,
    alert_line,
    alerts_file,
    say_not_surveilled,
)
from services.terminal import (
    err,
    findings_table,
    log_progress,
    progress_bar,
    say_left_open,
    summary_table,
    surveillance_table,
)

gc.freeze()
if _COLLECTING:
    gc.enable()

if TYPE_CHECKING:
    from services.games.profile import Profiles
    from services.log_checks import LogHead
    from services.recording import Kept, RunKeeper


class PitwatchCommands(PitwatchGroup):
    """The root command. Its sub-commands that reach a database, Kafka, the web console,
    reports or surveillance statistics are imported when named (``services.lazy_commands``:
    their libraries were 2.5 s of start-up), in this order in the help."""

    lazy: ClassVar[Mapping[str, LazyCommand]] = {
        "ledger": LazyCommand("services.ledger.cli", "ledger_app",
                              help="Read the double-entry ledger back."),
        "report": LazyCommand("services.reports.cli", "report_app",
                              help="Dispute and daily compliance reports."),
        "import": LazyCommand("services.importers.cli", "import_app",
                              help="Convert hand histories (PHH) to v1 events."),
        "serve": LazyCommand(
            "services.pipeline.cli", "serve_app",
            listing="Run a pipeline service (until SIGTERM / Ctrl-C).",
            extra=(("surveillance", "services.pipeline.surveillance_service",
                    "serve_surveillance"),  # SURV-2..8 on the pipeline
                   ("console", "services.console.cli", "serve_console"))),  # the web console
        "topics": LazyCommand("services.pipeline.cli", "topics_app",
                              listing="The pipeline's Kafka topics."),
        "produce": LazyCommand(
            "services.pipeline.cli", "produce",
            listing="Publish an event log to table-events (key = table_id, file order per "
                    "table)."),
        "verify": LazyCommand(
            "services.integrity", "verify",
            listing="Re-verify the archive's hash chains, the booked hands and the cases; "
                    "list each break."),
        "replay": LazyCommand(
            "services.archive.cli", "replay",
            listing="Re-adjudicate a span of days' archived hands; list each record that "
                    "differs."),
        "archive": LazyCommand(
            "services.archive.cli", "archive_app",
            listing="The event archive's days; detaching the days past retention "
                    "(PostgreSQL)."),
        "users": LazyCommand("services.console.cli", "users_app",
                             help="Users of the compliance console."),
        "cases": LazyCommand("services.cases.cli", "cases_app",
                             help="Cases: the queue of findings and alerts, worked to a "
                                  "decision with an audit trail."),
    }


app = typer.Typer(
    cls=PitwatchCommands,
    help="pitwatch: re-derive every hand from the table's own events and prove, to the "
    "chip, what should have happened. Exit codes: 0 success, 1 the input had problems, "
    "2 a usage or environment error.",
    no_args_is_help=True,
    add_completion=False,
)
schemas_app = typer.Typer(help="The published v1 JSON Schemas (schemas/).", no_args_is_help=True)
app.add_typer(schemas_app, name="schemas")

# The simulated games: the contract's game names (a test holds them equal to the
# simulator registry's), taken from the contract, not the registry, so that every command
# does not import the five simulators (~50 ms of the start-up of `pitwatch adjudicate`,
# which never simulates).
GAMES: tuple[str, ...] = get_args(GameName)


def _known_games(games: list[str]) -> list[str]:
    """``--game`` callback: only the simulated games' names, as written in ``GAMES``."""
    for game in games:
        if game not in GAMES:
            raise typer.BadParameter(f"unknown game {game!r}: choose from "
                                     f"{', '.join(GAMES)} (lower case)")
    return games


GameOption = Annotated[list[str], typer.Option(
    "--game", callback=_known_games, metavar="[" + "|".join(GAMES) + "]",
    help=f"game to simulate, one of {', '.join(GAMES)}; repeat the option for several "
         "(tables take them in turn)")]


# ---------------------------------------------------------------- adjudicate


def _keeper(url: str, archive: bool) -> RunKeeper:
    """The ledger at ``url`` opened (created if new) before the run, which keeps its hands
    there as it goes."""
    from services.ledger.cli import open_for_writing
    from services.recording import RunKeeper

    return RunKeeper(open_for_writing(url, "--ledger", default=None), archive)


def _checked_keeper(file: Path, url: str, archive: bool, profiles: Profiles
                    ) -> tuple[RunKeeper, LogHead | None]:
    """The run's keeper, and its log read beforehand when it can be read twice
    (``services.log_checks``): a table configured under a rule profile this run cannot
    load refuses the run (exit 2, one line) before a ledger is created or a hand booked;
    each table the archive holds has its first seq read, for ``run_file``."""
    from services.log_checks import head_before_writing
    from services.recording import RunKeeper

    return head_before_writing(file, url, partial(_keeper, url, archive),
                               RunKeeper.archived_tables, profiles)


def _same_engine_as_kept(refuse: Callable[[str], None], engine: str | None,
                         option: str = "--engine") -> None:
    """A usage error before anything is read when the ledger keeps a table's state that
    only the other engine reads (``services.archive.carry.refuse_other_engines``)."""
    from services.adjudicator.engine import engine_name
    from services.archive.carry import KeptByAnotherEngine

    try:
        refuse(engine_name(engine))
    except KeptByAnotherEngine as exc:
        raise typer.BadParameter(str(exc), param_hint=option) from None


def _say_kept(url: str, kept: Kept) -> None:
    """What the run booked, archived and opened as cases."""
    from services.ledger.cli import posting_summary
    from services.recording import archive_summary, carry_summary

    for line in [*posting_summary(url, kept.posted), *archive_summary(url, kept),
                 *carry_summary(kept.carried)]:
        err.print(line, markup=False, highlight=False, soft_wrap=True)


@app.command()
def adjudicate(
    file: Annotated[Path, typer.Argument(exists=True, dir_okay=False, allow_dash=True,
                                         help="JSONL event log (- reads standard input)")],
    ledger: Annotated[str | None, typer.Option("--ledger", "--db",
                                              help="book the hands into this ledger "
                                                    "(SQLAlchemy URL; created if new), "
                                                    "archive the events and alerts there and "
                                                    "open cases")] = None,
    archive: Annotated[bool, typer.Option(
        "--archive/--no-archive", help="with --ledger: keep every event and alert in the "
                                       "database's archive and open cases")] = True,
    dlq: Annotated[Path | None, typer.Option(callback=output_file, dir_okay=False,
                                             help="write rejected records here")] = None,
    alerts: Annotated[Path | None, typer.Option(callback=output_file, dir_okay=False,
                                                help="write the table alerts here (JSONL)")]
    = None,
    fail_on_findings: Annotated[bool, typer.Option(
        "--fail-on-findings", help="exit 1 also when a hand has a finding")] = False,
    engine: Annotated[str | None, typer.Option(
        help="per-event path: native (the Rust core, default) or python (the reference); "
             "default $PITWATCH_ENGINE")] = None,
    leave_open: Annotated[bool, typer.Option(
        "--leave-open", help="the log goes on in a later one (a day's file): hands still "
                             "open at its end are left, not closed as incomplete; with "
                             "--ledger each table's state is kept there, and the next "
                             "log's run goes on from it")] = False,
) -> None:
    """Print one adjudication record per hand (JSON lines, hand order); summary on stderr.

    Exits 1 when any input was rejected (a record to the DLQ or a rejected hand), when
    --ledger refused to book a hand, or, with --fail-on-findings, when any hand has a
    finding; 2 on a usage error.
    """
    # The collector's thresholds for a long run (with --ledger its records and segments
    # live until they are booked; without, every hand's objects are short-lived, and the
    # default thresholds still made the collector walk the start-up's objects over and
    # over: services/ledger/gc_policy.py).
    from services.ledger.gc_policy import tune_for_batches
    from services.log_checks import records_given_as_log

    not_the_input({"--dlq": dlq, "--alerts": alerts}, file, stdout=True)
    if said := records_given_as_log(file):
        raise typer.BadParameter(said, param_hint="FILE")
    tune_for_batches()
    sys.stdout.flush()
    profiles = every_section_checked(read_profiles())
    keeper, head = (None, None) if ledger is None else _checked_keeper(file, ledger, archive,
                                                                        profiles)
    if keeper is not None:
        _same_engine_as_kept(keeper.refuse_other_engines, engine)
    try:  # the outputs' last writes (closing them) too: a full disk is met there as well
        with _record_sink() as out, _dead_letter_file(dlq) as dlq_out:
            run = run_file(file, profiles, out, engine, keeper, dlq_out, leave_open, head)
    except OSError:
        _book_what_was_read(ledger, keeper)
        raise
    err.print(summary_table(run.tally, len(run.alerts), run.dead_letters.count,
                            run.chain_breaks_outside_hands))
    if run.tally.any_findings:
        err.print(findings_table(run.tally))
    say_left_open(run.left_open)
    for d in run.dead_letters.first:
        # The reason echoes the input (``"type": "[/]"``): text, never Rich markup.
        err.print(Text.assemble(("rejected", "red"), f" {d.where}: {d.reason}"))
    if run.dead_letters.count > len(run.dead_letters.first):
        err.print(f"... and {run.dead_letters.count - len(run.dead_letters.first)} more "
                  "(use --dlq FILE)")
    refused = False  # a hand the ledger would not book (as `pitwatch ledger post` exits 1)
    if ledger is not None and keeper is not None:
        kept = keeper.finish()
        _say_kept(ledger, kept)
        refused = kept.posted.not_booked > 0
    if alerts is not None:  # after the ledger: an alerts file not written loses no booking
        with naming("--alerts", alerts):
            alerts.write_bytes(b"".join(map(alert_line, run.alerts)))
    failed = (run.input_rejected or refused
              or (fail_on_findings and run.tally.any_findings))
    raise typer.Exit(INPUT_PROBLEMS if failed else OK)


def _book_what_was_read(ledger: str | None, keeper: RunKeeper | None) -> None:
    """A log that stops being readable part way (a compressed file cut short): its hands
    read whole before the damage are booked, archived and their cases opened, as the
    records already written to stdout say (QA: none were booked), before the one-line
    error. Hands still open there are left, not closed as incomplete, and no table state
    is kept: the whole log, run again, books the rest and repeats nothing. An output
    that could not be written (``--dlq`` or standard output on a full disk) stops the run
    likewise: what was read is booked, and the run again repeats nothing."""
    if ledger is not None and keeper is not None:
        _say_kept(ledger, keeper.finish())


RECORD_SINK_BUFFER = 1 << 20


def _dead_letter_file(path: Path | None) -> AbstractContextManager[NamedOutput | None]:
    """The ``--dlq`` file, written as the run rejects records (none named: nothing); an
    error writing it names ``--dlq`` and the file."""
    return nullcontext() if path is None else named_output("--dlq", path)


def _record_sink() -> AbstractContextManager[NamedOutput]:
    """Standard output for the records, in writes of 1 MiB: a hand's record is a few kB,
    and stdout's own 8 kB buffer made a write call of nearly every hand (about 5% of a
    run's CPU). Closing it flushes it and leaves the descriptor open. Where stdout has no
    descriptor (captured, as in tests) its own buffer is used. An error writing it names
    standard output (and its file, ``> /dev/full``)."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # io.UnsupportedOperation is both
        return nullcontext(NamedOutput(sys.stdout.buffer, STDOUT, None))
    return named_output(STDOUT, stdout_path(),
                        lambda: open(fd, "wb", buffering=RECORD_SINK_BUFFER, closefd=False))


# ---------------------------------------------------------------- surveil


@app.command()
def surveil(
    file: Annotated[Path, typer.Argument(exists=True, dir_okay=False, allow_dash=True,
                                         help="JSONL event log (- reads standard input)")],
    out: Annotated[Path | None, typer.Option(callback=output_file, dir_okay=False,
                                             help="write the SURV-2..8 alerts here (JSONL); "
                                                  "default: stdout")] = None,
    profile: Annotated[str, typer.Option(help="rule profile holding surveillance.toml")] = (
        "house-v1"),
    fail_on_alerts: Annotated[bool, typer.Option(
        "--fail-on-alerts", help="exit 1 also when an alert was raised")] = False,
    db: Annotated[str | None, typer.Option(
        "--db", "--ledger", help="go on from the surveillance state and profiles stored in this "
                     "database (the ledger's URL), and store them back (created if new); "
                     "a table part way through its chain goes on from the state "
                     "`adjudicate --leave-open --ledger` kept there")
    ] = None,
    leave_open: Annotated[bool, typer.Option(
        "--leave-open", help="the log goes on in a later one (a day's file): hands still "
                             "open at its end are left for the run given both, not closed "
                             "as incomplete")] = False,
) -> None:
    """Adjudicate a log and run the cross-hand surveillance patterns (SURV-2..SURV-8).

    Alerts as JSON lines (with their evidence), a table of them on stderr. With --db, the
    counters persist across runs (a week of logs is surveilled as one).

    Exits 1 when records were rejected (the same input ``pitwatch adjudicate`` exits 1
    on), or, with --fail-on-alerts, when an alert was raised; 2 on a usage error.
    """
    from services.archive.carry import CarryResult, archived_tables, refuse_other_engines
    from services.ledger.cli import open_for_writing
    from services.ledger.gc_policy import tune_for_batches
    from services.log_checks import NOTHING_STORED, head_before_writing, records_given_as_log
    from services.log_run import log_steps
    from services.recording import carry_summary, keep_alerts, refuse_surveil_met, surveil_carry
    from services.reports.archived_alerts import raised_before
    from services.surveillance import surveil_steps, surveillance_config
    from services.surveillance.state import StateError
    from services.surveillance.store import load_engine, save_engine

    not_the_input({"--out": out}, file, stdout=out is None)
    if said := records_given_as_log(file):
        raise typer.BadParameter(said, param_hint="FILE")
    tune_for_batches()  # as adjudicate: the collector walked the start-up's objects again
    profiles = read_profiles()
    try:  # the profile asked for first: its error is the option's
        config = surveillance_config(profiles.get(profile))
    except UnknownProfileError as exc:
        raise typer.BadParameter(str(exc), param_hint="--profile") from None
    every_section_checked(profiles)
    # As ``adjudicate --ledger``'s: a log that would be surveilled wrongly (a table under
    # a profile this run lacks; one going on from the archive with no state kept) is
    # refused before anything is stored (``services.log_checks``).
    database, head = (None, None) if db is None else head_before_writing(
        file, db, partial(open_for_writing, db, "--db", default=None), archived_tables,
        profiles, NOTHING_STORED)
    if database is not None:
        _same_engine_as_kept(partial(refuse_other_engines, database,
                                     choose="set PITWATCH_ENGINE={engine}"), None,
                             option="PITWATCH_ENGINE")
    try:
        engine = load_engine(database, config) if database is not None else None
    except StateError as exc:
        # A state an earlier pitwatch stored in another form (2026-12-06: SURV-2's
        # counters became payouts by game) is refused, never read as what it is not:
        # one line saying what to do, not a traceback.
        raise typer.BadParameter(
            f"its surveillance state was stored by another version of pitwatch ({exc}): "
            "surveil into a new database, or delete its surveillance_state rows and "
            "surveil the period again (docs/surveillance.md)", param_hint="--db") from None
    carried = CarryResult()
    again: list[Alert] = []  # raised by an earlier run on hands this one did not count
    with log_progress(file, "surveilling") as bar:
        run = surveil_steps(lambda runner: log_steps(runner, file, bar), config, profiles,
                            engine=engine, keep_records=False, leave_open=leave_open,
                            carry_from=None if database is None else surveil_carry(
                                database, None if head is None else head.first_seq, carried))
    if database is not None and engine is not None:
        refuse_surveil_met(carried, run.unknown_profile)  # a pipe's: nothing stored yet
        save_engine(database, engine)
        for line in keep_alerts(database, run.alerts):
            err.print(line, markup=False, highlight=False)
        if engine.repeats:
            again = raised_before(database, engine.repeated, run.alerts)
            err.print(f"{engine.repeats:,} hand(s) had been counted by an earlier run "
                      "(--db) and were not counted again; the "
                      f"{len(again):,} alert(s) it raised on them (held in the database) "
                      f"are written again to {out or STDOUT}", markup=False, highlight=False,
                      soft_wrap=True)
        for line in carry_summary(carried):
            err.print(line, markup=False, highlight=False, soft_wrap=True)
    lines = alerts_file([*again, *run.alerts])
    if out is None:
        with naming(STDOUT, stdout_path()):
            sys.stdout.buffer.write(lines)
            sys.stdout.flush()
    else:
        with naming("--out", out):
            out.write_bytes(lines)
    err.print(surveillance_table(run.alerts, run.hands_surveilled,
                                 engine.repeats if engine is not None else 0))
    say_left_open(run.left_open, SURVEIL_KEEPS_NO_STATE if db is not None else "")
    say_not_surveilled(run)
    rejected = run.rejected_lines > 0 or run.rejected_hands > 0
    raise typer.Exit(INPUT_PROBLEMS if rejected or (fail_on_alerts and run.alerts) else OK)


# ---------------------------------------------------------------- simulate


@app.command()
def simulate(
    output: Annotated[Path, typer.Option("-o", "--output", callback=output_file,
                                         dir_okay=False, help="events JSONL to write")],
    game: GameOption = ["hcf"],  # noqa: B006
    tables: Annotated[int, typer.Option(min=1)] = 4,
    hands: Annotated[int, typer.Option(min=1, help="hands per table")] = 500,
    seed: Annotated[int, typer.Option()] = 1,
    faults: Annotated[str, typer.Option(help="comma-separated fault kinds to inject, or "
                                             "'all'")] = "",
    fault_rate: Annotated[float | None, typer.Option(
        min=0.0, max=1.0, callback=not_nan,
        help="probability per hand of the --faults (default 0.02)")] = None,
    truth: Annotated[Path | None, typer.Option(callback=output_file, dir_okay=False,
                                               help="write the injected-fault labels "
                                                    "here")] = None,
    dealers: Annotated[int | None, typer.Option(
        min=1, help="a floor of this many dealers rotating between the tables (at least "
                    "as many as tables); default: each game's own dealers")] = None,
    styles: Annotated[str | None, typer.Option(
        help="player styles at the hold'em and Draw 7-A tables: mixed, or one of tight, "
             "loose, passive, aggressive, maniac for everyone")] = None,
    players: Annotated[int | None, typer.Option(
        min=2, max=7, help="players at each hold'em and Russian Poker table")] = None,
    pattern: Annotated[list[str] | None, typer.Option(
        "--pattern", metavar="NAME=STRENGTH",
        help="inject a cheating pattern at one table, labelled in --truth (repeat for "
             "several): soft_play, fold_dumping, showdown_dumping, sweetheart_overpay, "
             "information_sharing, stacked_deck, dealer_drift; strength 0..1 "
             "(docs/surveillance.md)")] = None,
) -> None:
    """Generate realistic, hash-chained v1 events with labelled injected faults."""
    from services.simulator.run import DEFAULT_FAULT_RATE
    from services.simulator.run import simulate as run_simulation
    from services.simulator.truth import encode_label

    not_the_input({"--output": output, "--truth": truth})
    within_one_run(tables, hands)
    every_game_dealt(game, tables)
    chosen = resolve_faults(game, faults)
    if fault_rate is not None and not chosen:  # it was ignored without a word
        raise typer.BadParameter("a fault rate is for the faults injected: give --faults "
                                 "too (a kind, several, or all)", param_hint="--fault-rate")
    options = simulation_options(game, tables, dealers, styles, players, pattern or [])
    with progress_bar() as progress:
        task = progress.add_task("simulating", total=tables * hands, unit="hands",
                                 note=f"{tables} table(s)")
        log = run_simulation(game, tables, hands, seed, chosen,
                             DEFAULT_FAULT_RATE if fault_rate is None else fault_rate,
                             on_table_done=lambda _i: progress.advance(task, hands),
                             profile=read_profiles().get(BUILTIN_PROFILE), options=options)
    write_jsonl(output, (orjson.dumps(e) for e in log.events), "--output")
    if truth is not None:
        write_jsonl(truth, (encode_label(label) for label in log.truth), "--truth")
    err.print(f"wrote {len(log.events):,} events for {tables} table(s) x {hands} hands to "
              f"{output}; {len(log.truth)} injected fault(s)"
              + (f" labelled in {truth}" if truth else ""), markup=False, highlight=False)


def every_section_checked(profiles: Profiles) -> Profiles:
    """``profiles`` with their surveillance sections checked too (``read_profiles``
    checks the game sections; this one is the layer above's): a command that judges or
    surveils starts only on profiles that are right whole (docs/rules.md)."""
    from services.surveillance.profile import check_surveillance_sections

    check_surveillance_sections(profiles)
    return profiles


# ---------------------------------------------------------------- demo

DEMO_WORKDIR = Path("var/demo")


@app.command()
def demo(
    tables: Annotated[int, typer.Option(min=1)] = 4,
    hands: Annotated[int, typer.Option(min=1, help="hands per table")] = 750,
    seed: Annotated[int, typer.Option()] = 7,
    workdir: Annotated[Path, typer.Option(file_okay=False,
                                          help="folder the demo writes its files in "
                                               "(created; its parent must exist; one "
                                               "holding files no demo wrote is refused)")]
    = DEMO_WORKDIR,
    game: GameOption = ["hcf"],  # noqa: B006
) -> None:
    """Simulate -> adjudicate -> ledger (SQLite), then show what was found.

    Exits 1 when an injected fault went undetected or an alert is unexplained.
    """
    from services.demo import make_workdir, run_demo

    within_one_run(tables, hands)
    every_game_dealt(game, tables)  # as simulate's (QA: demo skipped the game silently)
    make_workdir(workdir, workdir == DEMO_WORKDIR, err)
    ok = run_demo(err, workdir, game, tables, hands, seed)
    raise typer.Exit(OK if ok else INPUT_PROBLEMS)


# ---------------------------------------------------------------- schemas


@schemas_app.command("export")
def schemas_export(
    root: Annotated[Path, typer.Argument(file_okay=False, help="target folder")] = Path(
        "schemas"),
) -> None:
    """Regenerate the JSON Schema files from the contract structs."""
    from services.events.schemas import export

    for path in export(root):
        err.print(f"wrote {path}", markup=False, highlight=False)


@schemas_app.command("check")
def schemas_check(root: Annotated[Path, typer.Argument(
        help="the schemas folder (default: schemas/ of the current folder, i.e. run from "
             "the repository root)")] = Path("schemas")) -> None:
    """Fail (exit 1) if the schema files differ from the contract in code.

    Exit 2 when ROOT holds no schemas at all."""
    from services.events.schemas import drift

    if not root.is_dir() or not any(root.rglob("*.json")):
        print_error(f"no JSON schemas in {root}/: run from the repository root, or give "
                    "the schemas folder (pitwatch schemas check PATH)")
        raise typer.Exit(USAGE)
    problems = drift(root)
    for name in problems:
        err.print(f"[red]out of date[/red]: {escape(str(root / name))}", highlight=False)
    if problems:
        err.print("run `pitwatch schemas export` and review the diff")
        raise typer.Exit(INPUT_PROBLEMS)
    err.print(f"{root}: all schemas match the contract", highlight=False)


def main() -> None:  # pragma: no cover - console entry point
    app()


if __name__ == "__main__":  # pragma: no cover
    app()
