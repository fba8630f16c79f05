"""``pitwatch report ...``: the dispute and daily reports as a Typer sub-app.

The lead mounts ``report_app`` on the main CLI; ``python -m services.reports.cli`` runs it
alone. Reports go to ``-o FILE`` (or stdout for HTML); messages to stderr.
"""

from __future__ import annotations

import datetime as dt
import re
import sys
from pathlib import Path
from typing import Annotated

import msgspec
import typer
from rich.console import Console

from services.games.profiles import read_profiles
from services.reports.render import html_to_pdf

report_app = typer.Typer(
    help="Dispute-resolution report of one hand; daily table compliance report.",
    no_args_is_help=True,
    add_completion=False,
)
err = Console(stderr=True)


def now_utc() -> str:
    return dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def safe_name(hand_id: str) -> str:
    """A file name for a hand's report (hand ids are free text from the table)."""
    return "hand-" + re.sub(r"[^A-Za-z0-9._-]", "_", hand_id) + ".html"


def _write(html: str, fmt: str, out: Path | None) -> None:
    if fmt == "pdf":
        if out is None:
            raise typer.BadParameter("a PDF needs -o FILE", param_hint="-o")
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(html_to_pdf(html))
    elif out is None:
        sys.stdout.write(html)
        return
    else:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(html, encoding="utf-8")
    err.print(f"wrote {out}")


@report_app.command("hand")
def hand(
    hand_id: Annotated[str, typer.Argument(help="the hand's id (hand_id of its events)")],
    fmt: Annotated[str, typer.Option("--format", help="html or pdf")] = "html",
    events: Annotated[Path | None, typer.Option(exists=True, dir_okay=False,
                                                help="JSONL event log holding the hand")] = None,
    ledger: Annotated[str | None, typer.Option(help="ledger (SQLAlchemy URL) that booked "
                                                    "the hand")] = None,
    out: Annotated[Path | None, typer.Option("-o", "--output", help="file to write "
                                             "(default: HTML to stdout)")] = None,
    generated_at: Annotated[str | None, typer.Option(help="timestamp printed as the "
                                                     "generation time (default: now)")] = None,
) -> None:
    """Dispute-resolution report of one hand, from the event log and/or the ledger."""
    from services.reports.dispute import HandUnavailable, dispute_from_ledger, dispute_from_log
    from services.reports.render import render_html
    from services.reports.replay import HandNotFound, read_log

    if fmt not in ("html", "pdf"):
        raise typer.BadParameter("html or pdf", param_hint="--format")
    if events is None and ledger is None:
        raise typer.BadParameter("give --events FILE, --ledger URL, or both")
    lines = read_log(events) if events is not None else None
    try:
        if ledger is not None:
            from services.ledger.db import open_ledger

            report = dispute_from_ledger(open_ledger(ledger), ledger, hand_id, read_profiles(),
                                         lines, log_name=events.name if events else None)
        else:
            assert lines is not None and events is not None
            report = dispute_from_log(lines, hand_id, read_profiles(), log_name=events.name)
    except (HandNotFound, HandUnavailable) as exc:
        err.print(f"[red]{exc}[/red]")
        raise typer.Exit(2) from None
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
                                                     "next to OUT")] = None,
    alerts: Annotated[Path | None, typer.Option(exists=True, dir_okay=False,
                                                help="surveillance alerts JSONL (pitwatch "
                                                     "surveil --out): list those about the "
                                                     "day's hands")] = None,
    fmt: Annotated[str, typer.Option("--format", help="html or pdf")] = "html",
    out: Annotated[Path | None, typer.Option("-o", "--output", help="file to write "
                                             "(default: HTML to stdout)")] = None,
    generated_at: Annotated[str | None, typer.Option(help="timestamp printed as the "
                                                     "generation time (default: now)")] = None,
) -> None:
    """Daily table report from the ledger: per table and game, per dealer, reconciled;
    with ``--alerts``, the surveillance alerts about the day's hands."""
    from services.ledger.db import default_url, open_ledger
    from services.reports.alerts import read_alerts
    from services.reports.daily import daily_from_ledger
    from services.reports.render import render_html

    try:
        day = dt.date.fromisoformat(date)
    except ValueError:
        raise typer.BadParameter("YYYY-MM-DD", param_hint="--date") from None
    url = ledger or default_url()
    stamp = generated_at or now_utc()
    report = daily_from_ledger(open_ledger(url), day, table, source=url)
    if alerts is not None:
        try:
            report.attach_alerts(read_alerts(alerts), alerts.name)
        except msgspec.DecodeError as exc:
            raise typer.BadParameter(f"{alerts}: {exc}", param_hint="--alerts") from None
    html = render_html("daily.html", d=report, generated_at=stamp, link=safe_name)
    _write(html, fmt, out)
    if events is not None and out is not None:
        _write_hand_reports(report.review_hand_ids, events, out.parent, stamp)


def _write_hand_reports(hand_ids: list[str], events: Path, folder: Path, stamp: str) -> None:
    from services.reports.dispute import disputes_from_log
    from services.reports.render import render_html
    from services.reports.replay import read_log

    reports = disputes_from_log(read_log(events), hand_ids, read_profiles(),
                                log_name=events.name)
    for hand_id in hand_ids:
        report = reports.get(hand_id)
        if report is None:
            err.print(f"[yellow]hand {hand_id} is not in {events}[/yellow]")
            continue
        html = render_html("dispute.html", r=report, generated_at=stamp)
        (folder / safe_name(hand_id)).write_text(html, encoding="utf-8")
    err.print(f"wrote {len(reports)} dispute report(s) to {folder}")


if __name__ == "__main__":  # pragma: no cover
    report_app()
