"""``pitwatch demo``: the whole embedded job on a few tables, explained on one screen.

simulate (with every fault kind injected and labelled) -> adjudicate and surveil ->
ledger (SQLite), then: hands by status, findings by rule and severity, rake by mode from
the ledger, the detection table against the injected truth, the cross-hand surveillance
alerts (SURV-2..8) and whether they caught the injected table-level scenario (an HCF
sweetheart dealer) and nothing else. Returns False when an injected fault or scenario
went undetected or an alert is unexplained, so the demo doubles as a smoke test.

Adjudication runs once: ``surveil_steps`` drives the same embedded runner as
``pitwatch adjudicate`` (the log read in whole buffers) and hands its records to
surveillance as each hand closes.
"""

from __future__ import annotations

import shutil
import sys
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec
import orjson
import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from services.events.contract import Alert, encode_record
from services.games.profile import Profiles
from services.games.profiles import BUILTIN_PROFILE, read_profiles
from services.outputs import write_jsonl
from services.recording import ArchiveCollector
from services.simulator.scoring import AlertDetection, Detection, score, score_alerts
from services.simulator.truth import encode_label
from services.terminal import (
    findings_table,
    log_progress,
    summary_table,
    surveillance_table,
)

if TYPE_CHECKING:
    from services.surveillance import SurveillanceRun
    from services.surveillance.engine import SurveillanceEngine

REPORTS_FOLDER = "reports"  # under the workdir: the daily report and its hand reports
# The files the demo writes (and replaces on each run) in its folder, and the mark it
# leaves there: a folder holding such files without the mark is someone's data (QA:
# ``--workdir`` naming a folder with a ledger.sqlite replaced that ledger, exit 0).
DEMO_FILES = ("events.jsonl", "truth.jsonl", "adjudications.jsonl", "ledger.sqlite",
              "alerts.jsonl")
DEMO_MARK = ".pitwatch-demo"


def make_workdir(workdir: Path, default: bool, console: Console) -> None:
    """Create the demo's folder: its default (``var/demo``) with parents, a folder the
    user named only if its parent exists (a mistyped path is an error, not a new tree).
    A folder the user named that holds files the demo would replace, which no demo wrote
    (``foreign_files``), is refused: they are someone's data."""
    if workdir.is_dir():
        found = [] if default else foreign_files(workdir)
        if found:
            raise typer.BadParameter(
                f"folder {workdir} holds {', '.join(found)}, which the demo would replace "
                "and no demo wrote: choose an empty or new folder", param_hint="--workdir")
        return
    if not default and not workdir.parent.is_dir():
        raise typer.BadParameter(f"folder {workdir.parent} does not exist: create it first "
                                 f"(mkdir -p {workdir.parent}) or choose another folder",
                                 param_hint="--workdir")
    workdir.mkdir(parents=True)
    console.print(f"created folder {workdir}", markup=False, highlight=False)


def foreign_files(workdir: Path) -> list[str]:
    """The files of ``workdir`` the demo would replace that no demo wrote (none in a folder
    the demo marked as its own)."""
    if (workdir / DEMO_MARK).exists():
        return []
    return [name for name in DEMO_FILES if (workdir / name).exists()]


def run_demo(
    console: Console, workdir: Path, games: list[str], tables: int, hands: int, seed: int
) -> bool:
    """The whole demo in ``workdir`` (which must exist); True when everything injected
    was detected and nothing else was."""
    from services.simulator.registry import scenarios_for
    from services.simulator.run import available_faults, simulate

    events_path = workdir / "events.jsonl"
    truth_path = workdir / "truth.jsonl"
    records_path = workdir / "adjudications.jsonl"
    db_path = workdir / "ledger.sqlite"
    alerts_path = workdir / "alerts.jsonl"
    reports = workdir / REPORTS_FOLDER
    (workdir / DEMO_MARK).write_text("pitwatch demo's folder: its files here are replaced "
                                     "on each run\n", "utf-8")
    reports.mkdir(exist_ok=True)
    faults = frozenset().union(*(available_faults(g) for g in games))
    console.print(f"[bold]1. simulate[/bold] {tables} table(s) x {hands} hands of "
                  f"{', '.join(games)}, faults injected: {', '.join(sorted(faults))}")
    profiles = read_profiles()  # once for the whole demo: simulate, adjudicate, surveil
    log = simulate(games, tables, hands, seed, faults, fault_rate=0.02,
                   profile=profiles.get(BUILTIN_PROFILE))
    write_jsonl(events_path, (orjson.dumps(e) for e in log.events))
    write_jsonl(truth_path, (encode_label(t) for t in log.truth))
    console.print(f"[bold]2. adjudicate and surveil[/bold] {len(log.events):,} events")
    from services.surveillance import surveillance_config
    from services.surveillance.store import new_engine

    archive = ArchiveCollector()
    watcher = new_engine(surveillance_config(profiles.get(BUILTIN_PROFILE)))
    surveyed = _adjudicate_and_surveil(events_path, profiles, archive, watcher)
    write_jsonl(records_path, (encode_record(r) for r in surveyed.records))
    write_jsonl(alerts_path, (msgspec.json.encode(a) for a in surveyed.alerts))
    console.print(summary_table(surveyed.records, len(surveyed.stream_alerts),
                                len(surveyed.dead_letters)))
    console.print(findings_table(surveyed.records))
    console.print("[bold]3. ledger, event archive and cases[/bold]")
    if db_path.exists():
        db_path.unlink()
    _ledger_summary(console, f"sqlite:///{db_path}", surveyed, archive, watcher)
    detection = score(log.truth, surveyed.records)
    console.print(_detection_table(detection))
    console.print("[bold]4. surveillance[/bold] (SURV-2..8, across hands)")
    console.print(surveillance_table(surveyed.alerts, surveyed.hands_surveilled))
    scenarios = faults & frozenset().union(*(scenarios_for(g) for g in games))
    surveillance = score_alerts(log.truth, surveyed.alerts, scenarios)
    console.print(_scenario_table(surveillance))
    days = sorted({r.ended_at[:10] for r in surveyed.records if r.ended_at}) or ["YYYY-MM-DD"]
    console.print(_next_steps(workdir, days), soft_wrap=True, markup=False, highlight=False)
    missed = _missed(detection.all_detected, surveillance.all_detected)
    if missed:
        console.print(f"demo: exit 1: {missed} (see the tables above)", markup=False,
                      highlight=False)
    return not missed


def _missed(faults_detected: bool, scenarios_flagged: bool) -> str:
    """Why the demo exits 1, in words: a run with too few hands can leave a planted
    surveillance scenario unflagged, and an exit 1 said nothing of which (QA)."""
    return "; ".join(
        [*([] if faults_detected else ["an injected fault went undetected"]),
         *([] if scenarios_flagged else ["a planted surveillance scenario was not flagged "
                                         "(too few hands for its test, or missed)"])])


def command_name(argv0: str | None = None) -> str:
    """How to call pitwatch in the hints: ``pitwatch`` when that is on PATH, else the path
    this run was started with (``make demo`` runs ``.venv/bin/pitwatch``, which a shell
    without the venv activated does not find as ``pitwatch``)."""
    started = Path(argv0 if argv0 is not None else sys.argv[0])
    if started.name != "pitwatch":
        return "pitwatch"
    on_path = shutil.which("pitwatch")
    if on_path is not None and Path(on_path).resolve() == started.resolve():
        return "pitwatch"
    return str(started)


def _next_steps(workdir: Path, days: list[str]) -> str:
    """Where the files are and the commands to read them, one unbroken line each (so they
    can be copied); a daily report for each UTC day the demo's hands ended on (its
    evening shift runs past midnight: the first day's report alone left most hands out,
    QA), each to the demo's ``reports/`` folder, as in the README."""
    ledger = f"sqlite:///{workdir / 'ledger.sqlite'}"
    pitwatch = command_name()
    return (
        "\nwhere to look next\n"
        f"  events:         {workdir / 'events.jsonl'}\n"
        f"  adjudications:  {workdir / 'adjudications.jsonl'}   (one JSON record per hand)\n"
        f"  alerts:         {workdir / 'alerts.jsonl'}   (SURV-2..8, with their evidence)\n"
        f"  injected truth: {workdir / 'truth.jsonl'}\n"
        f"  ledger:         {pitwatch} ledger balances --db {ledger}\n"
        f"                  {pitwatch} ledger rake --db {ledger}\n"
        f"  archive:        {pitwatch} verify --db {ledger}   (every hash chain, from the "
        "stored bytes)\n"
        f"  cases:          {pitwatch} cases list --db {ledger}\n"
        f"  console:        {_console_hint(workdir, pitwatch, ledger)}\n"
        + "".join(
            f"  daily report:   {pitwatch} report daily --date {day} --ledger {ledger} "
            f"--alerts {workdir / 'alerts.jsonl'} --events {workdir / 'events.jsonl'} "
            f"-o {workdir / REPORTS_FOLDER / f'daily-{day}.html'}\n" for day in days)
        +
        "  docs:           docs/compliance-guide.md (the daily routine), docs/rules.md "
        "(rule IDs), docs/events.md (the contract), docs/surveillance.md"
    )


def _console_hint(workdir: Path, pitwatch: str, ledger: str) -> str:
    """How to open the compliance console on the demo's database: ``make console`` for
    the default folder (it adds a first user and prints its password), else the two
    commands it runs."""
    commands = (f"{pitwatch} users add NAME --role compliance_officer --db {ledger} && "
                f"{pitwatch} serve console --db {ledger}")
    if workdir == Path("var/demo"):
        return (f"make console   (then open http://127.0.0.1:8080/; it prints a first "
                f"user's password), or: {commands}")
    return f"{commands}   (then open http://127.0.0.1:8080/)"


def _adjudicate_and_surveil(path: Path, profiles: Profiles, archive: ArchiveCollector,
                            watcher: SurveillanceEngine) -> SurveillanceRun:
    """One embedded adjudication pass over the log, each hand surveilled as it closes and
    every event packed for the archive; ``watcher`` keeps the surveillance counters and
    profiles, stored with the ledger afterwards (the console's players and dealers)."""
    from services.log_run import log_steps
    from services.surveillance import surveil_steps

    with log_progress(path, "adjudicating and surveilling") as bar:
        return surveil_steps(lambda runner: log_steps(runner, path, bar), watcher.config,
                             profiles, engine=watcher, on_segments=archive.add)


def _ledger_summary(console: Console, url: str, surveyed: SurveillanceRun,
                    archive: ArchiveCollector, watcher: SurveillanceEngine) -> None:
    """Book the hands, archive every event and alert, open the cases, store the
    surveillance profiles; say what was done."""
    from services.ledger.cli import posting_summary
    from services.ledger.db import open_ledger
    from services.ledger.queries import rake_totals
    from services.recording import archive_summary, keep_run
    from services.surveillance.store import save_engine

    engine = open_ledger(url)
    kept = keep_run(engine, surveyed.records, [*surveyed.stream_alerts, *surveyed.alerts],
                    archive.packed)
    save_engine(engine, watcher)
    for line in [*posting_summary(url, kept.posted), *archive_summary(url, kept)]:
        console.print(line, markup=False, highlight=False, soft_wrap=True)
    by_mode: Counter[str] = Counter()
    for row in rake_totals(engine):
        by_mode[row.mode or "unknown"] += row.amount
    table = Table(title="rake by posted mode (from the ledger)")
    table.add_column("mode")
    table.add_column("chips", justify="right")
    for mode, amount in sorted(by_mode.items()):
        table.add_row(mode, str(amount))
    console.print(table)


def _detection_table(detection: Detection) -> Table:
    table = Table(title="detection against injected truth")
    for col in ("fault", "injected", "detected", "missed hands"):
        table.add_column(col)
    for fault, s in detection.by_fault.items():
        colour = "green" if s.detected == s.injected else "red"
        table.add_row(fault, str(s.injected), f"[{colour}]{s.detected}[/{colour}]",
                      ", ".join(s.missed_hands[:5]))
    table.caption = (f"{len(detection.unexplained_hands)} hand(s) with findings not "
                     "explained by an injected fault")
    return table


def _scenario_table(detection: AlertDetection) -> Table:
    table = Table(title="surveillance against injected scenarios")
    for col in ("scenario", "tables", "labelled hands", "alerts citing them",
                "hands cited", "detected"):
        table.add_column(col)
    for fault, s in detection.scenarios.items():
        codes = Counter(a.code for a in s.alerts)
        colour = "green" if s.detected else "red"
        table.add_row(fault, ", ".join(s.tables), str(s.labelled_hands),
                      ", ".join(f"{code} x{n}" for code, n in sorted(codes.items())) or "none",
                      str(s.cited_hands),
                      f"[{colour}]{'yes' if s.detected else 'NO'}[/{colour}]")
    colour = "red" if detection.unexplained else "green"
    table.caption = (f"[{colour}]{len(detection.unexplained)} alert(s) not explained by an "
                     f"injected scenario[/{colour}]"
                     + "".join(f"\n  {_alert_line(a)}" for a in detection.unexplained))
    return table


def _alert_line(alert: Alert) -> str:
    return escape(f"{alert.rule} {alert.code} {alert.table_id} {alert.hand_id or ''}: "
                  f"{alert.message}")
