"""``pitwatch report ...``: the dispute and daily reports as a Typer sub-app.

The lead mounts ``report_app`` on the main CLI; ``python -m services.reports.cli`` runs it
alone. Reports go to ``-o FILE`` (or stdout for HTML); messages to stderr. Reports only
read the ledger: a URL that holds no pitwatch ledger, or a day or table with no hands in
it, is an error (exit 2), never an empty report.
"""

from __future__ import annotations

import datetime as dt
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import msgspec
import typer
from rich.console import Console
from rich.markup import escape

from services.events.contract import Alert
from services.games.profiles import read_profiles
from services.outputs import not_the_input, output_file
from services.reports.render import html_to_pdf
from services.terminal import progress_bar

if TYPE_CHECKING:
    from sqlalchemy import Engine

    from services.reports.replay import Events

report_app = typer.Typer(
    help="Dispute-resolution report of one hand; daily table compliance report.",
    no_args_is_help=True,
    add_completion=False,
)
err = Console(stderr=True)

OutputOption = Annotated[Path | None, typer.Option(
    "-o", "--output", callback=output_file, dir_okay=False,
    help="file to write (default: HTML to stdout); its folder must exist")]
AlertsOption = Annotated[Path | None, typer.Option(
    exists=True, dir_okay=False,
    help="surveillance alerts JSONL (pitwatch surveil --out): name the alerts about the "
         "hands reported")]


ARCHIVE_NAME = "the event archive"  # where a report says its events came from


def now_utc() -> str:
    return dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def safe_name(hand_id: str) -> str:
    """A file name for a hand's report (hand ids are free text from the table)."""
    return "hand-" + re.sub(r"[^A-Za-z0-9._-]", "_", hand_id) + ".html"


def _write(html: str, fmt: str, out: Path | None) -> None:
    if fmt == "pdf":
        if out is None:
            raise typer.BadParameter("a PDF needs -o FILE", param_hint="-o")
        out.write_bytes(html_to_pdf(html))
    elif out is None:
        sys.stdout.write(html)
        return
    else:
        out.write_text(html, encoding="utf-8")
    err.print(f"wrote {escape(str(out))}")


def _check_format(fmt: str) -> None:
    if fmt not in ("html", "pdf"):
        raise typer.BadParameter("html or pdf", param_hint="--format")


def _read_alerts(path: Path) -> list[Alert]:
    from services.reports.alerts import read_alerts

    try:
        return read_alerts(path)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise typer.BadParameter(f"{path}: not an alerts file ({exc})",
                                 param_hint="--alerts") from None


@report_app.command("hand")
def hand(
    hand_id: Annotated[str, typer.Argument(help="the hand's id (hand_id of its events)")],
    fmt: Annotated[str, typer.Option("--format", help="html or pdf")] = "html",
    events: Annotated[Path | None, typer.Option(exists=True, dir_okay=False,
                                                help="JSONL event log holding the hand")] = None,
    ledger: Annotated[str | None, typer.Option(help="ledger (SQLAlchemy URL) that booked "
                                                    "the hand")] = None,
    alerts: AlertsOption = None,
    out: OutputOption = None,
    generated_at: Annotated[str | None, typer.Option(help="timestamp printed as the "
                                                     "generation time (default: now)")] = None,
) -> None:
    """Dispute-resolution report of one hand, from the event log and/or the ledger.

    With --ledger and no --events, the hand's events come from the database's event archive.

    Exits 2 when the hand is in neither, or a source cannot be read.
    """
    from services.ledger.cli import open_for_reading
    from services.reports.dispute import HandUnavailable, dispute_from_ledger, dispute_from_log
    from services.reports.log_tables import LogFile
    from services.reports.render import render_html
    from services.reports.replay import HandNotFound

    _check_format(fmt)
    not_the_input({"--output": out}, events, alerts, stdout=out is None)
    if events is None and ledger is None:
        raise typer.BadParameter("give --events FILE, --ledger URL, or both")
    lines: Events | None = LogFile(events) if events is not None else None
    log_name = events.name if events else None
    try:
        if ledger is not None:
            engine = open_for_reading(ledger, "--ledger")
            if lines is None:
                from services.reports.archived import through_hand

                lines = through_hand(engine, hand_id)
                log_name = ARCHIVE_NAME if lines is not None else None
            report = dispute_from_ledger(engine, ledger, hand_id, read_profiles(), lines,
                                         log_name=log_name)
        else:
            assert lines is not None and events is not None
            report = dispute_from_log(lines, hand_id, read_profiles(), log_name=events.name)
    except (HandNotFound, HandUnavailable) as exc:
        err.print(f"[red]error:[/red] {escape(str(exc))}")
        raise typer.Exit(2) from None
    if alerts is not None:
        report.attach_alerts(_read_alerts(alerts), alerts.name)
    html = render_html("dispute.html", r=report, generated_at=generated_at or now_utc())
    _write(html, fmt, out)


@report_app.command("daily")
def daily(
    date: Annotated[str, typer.Option("--date", help="UTC day, YYYY-MM-DD")],
    table: Annotated[str | None, typer.Option(help="one table only")] = None,
    ledger: Annotated[str | None, typer.Option(help="ledger (SQLAlchemy URL); default "
                                                    "$PITWATCH_DB or the embedded SQLite "
                                                    "file")] = None,
    events: Annotated[Path | None, typer.Option(exists=True, dir_okay=False,
                                                help="event log: also write the dispute "
                                                     "report of every hand needing review "
                                                     "next to OUT (default: the hands' "
                                                     "events from the database's archive, "
                                                     "when it holds them)")] = None,
    alerts: AlertsOption = None,
    fmt: Annotated[str, typer.Option("--format", help="html or pdf")] = "html",
    out: OutputOption = None,
    generated_at: Annotated[str | None, typer.Option(help="timestamp printed as the "
                                                     "generation time (default: now)")] = None,
) -> None:
    """Daily table report from the ledger: per table and game, per dealer, reconciled.

    With ``--alerts``, the surveillance alerts about the day's hands.

    Exits 2 when the ledger holds no hands of that day (and table).
    """
    from services.ledger.cli import open_for_reading
    from services.ledger.db import default_url, shown_url
    from services.reports.daily import daily_from_ledger
    from services.reports.render import render_html

    _check_format(fmt)
    not_the_input({"--output": out}, events, alerts, stdout=out is None)
    try:
        day = dt.date.fromisoformat(date)
    except ValueError:
        raise typer.BadParameter("YYYY-MM-DD", param_hint="--date") from None
    url = ledger or default_url()
    stamp = generated_at or now_utc()
    engine = open_for_reading(url, "--ledger")
    alert_list = _read_alerts(alerts) if alerts is not None else None
    report = daily_from_ledger(engine, day, table, source=shown_url(url))
    if report.totals.hands == 0:
        message, option = _no_hands(engine, day, table, url)
        raise typer.BadParameter(message, param_hint=option)
    if alert_list is not None and alerts is not None:
        report.attach_alerts(alert_list, alerts.name)
    html = render_html("daily.html", d=report, generated_at=stamp, link=safe_name)
    _write(html, fmt, out)
    if out is not None and report.review_hand_ids and not _beside_a_file(out):
        err.print(f"{out} is not a file: the {len(report.review_hand_ids)} hand reports the "
                  "daily report links to are not written (give -o a file in a folder of "
                  "its own)", markup=False, highlight=False, soft_wrap=True)
    elif out is not None and report.review_hand_ids:
        from services.reports.log_tables import LogFile

        lines: Events | None
        if events is not None:
            log = LogFile(events)
            lines, name = (log if log.holds_lines() else None), events.name
        else:
            from services.reports.archived import tables_of

            lines, name = tables_of(engine, report.review_hand_ids), ARCHIVE_NAME
        if lines:
            _write_hand_reports(report.review_hand_ids, lines, name, out.parent, stamp,
                                engine, url, alert_list, alerts.name if alerts else None)


def _beside_a_file(out: Path) -> bool:
    """Whether the hand reports can go next to ``out``: it is (or will be) a plain file.
    ``-o /dev/null`` once wrote them into ``/dev``."""
    return not out.exists() or out.is_file()


def _no_hands(engine: Engine, day: dt.date, table: str | None, url: str) -> tuple[str, str]:
    """Why a daily report would be empty, with the days and tables the ledger does hold,
    and the option to fix."""
    from services.ledger.db import shown_url
    from services.ledger.queries import table_day_totals

    held = table_day_totals(engine)
    days = sorted({str(t.day) for t in held if t.day is not None})
    tables = sorted({t.table_id for t in held if table is None or t.day == day})
    where = f" at table {table}" if table else ""
    if not held:
        return f"the ledger {shown_url(url)} holds no hands at all", "--ledger"
    span = f"{days[0]} to {days[-1]}" if len(days) > 1 else (days[0] if days else "none")
    hint = (f"; tables with hands that day: {', '.join(tables)}"
            if table and any(t.day == day for t in held) else "")
    return (f"no hands ended on {day.isoformat()}{where} in {shown_url(url)} (it holds days "
            f"{span}{hint}): check --date and --table", "--table" if hint else "--date")


def _write_hand_reports(hand_ids: list[str], lines: Events, log_name: str, folder: Path,
                        stamp: str, engine: Engine, url: str, alerts: list[Alert] | None,
                        alerts_name: str | None) -> None:
    """Every review hand's dispute report next to the daily report, as ``report hand
    --events --ledger [--alerts]`` writes it: the ledger section and refusal included."""
    from services.reports.dispute import disputes_from_ledger
    from services.reports.render import render_html

    with progress_bar(err) as progress:
        task = progress.add_task("dispute reports", total=len(hand_ids), unit="hands",
                                 note=f"replaying {log_name}")
        reports = disputes_from_ledger(engine, url, hand_ids, lines, read_profiles(),
                                       log_name=log_name,
                                       on_hand=lambda _h: progress.advance(task))
        progress.update(task, completed=0, note="writing")
        for hand_id in hand_ids:
            report = reports.get(hand_id)
            progress.advance(task)
            if report is None:
                err.print(f"[yellow]hand {escape(hand_id)} is not in {escape(log_name)}"
                          "[/yellow]")
                continue
            if alerts is not None and alerts_name is not None:
                report.attach_alerts(alerts, alerts_name)
            html = render_html("dispute.html", r=report, generated_at=stamp)
            (folder / safe_name(hand_id)).write_text(html, encoding="utf-8")
    err.print(f"wrote {len(reports)} dispute report(s) to {escape(str(folder))}")


if __name__ == "__main__":  # pragma: no cover
    report_app()
