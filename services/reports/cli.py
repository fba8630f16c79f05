"""``pitwatch report ...``: the dispute and daily reports as a Typer sub-app.

The lead mounts ``report_app`` on the main CLI; ``python -m services.reports.cli`` runs it
alone. Reports go to ``-o FILE`` (or stdout for HTML); messages to stderr. Reports only
read the ledger: a URL that holds no pitwatch ledger, or a day or table with no hands in
it, is an error (exit 2), never an empty report.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, ClassVar

import msgspec
import typer
from rich.console import Console
from rich.markup import escape

from services.events.contract import Alert
from services.events.days import parse_day
from services.exits import INPUT_PROBLEMS
from services.games.profiles import read_profiles
from services.ledger.db import DB_ENV_VAR
from services.outputs import STDOUT, naming, not_the_input, output_file, stdout_path
from services.reports.render import html_to_pdf
from services.terminal import progress_bar

if TYPE_CHECKING:
    from sqlalchemy import Engine

    from services.reports.dispute import DisputeReport
    from services.reports.log_match import LogMismatch
    from services.reports.replay import Events
    from services.reports.rulebook import RuleText

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
         "hand, with those the database archived (--ledger)")]


ARCHIVE_NAME = "the event archive"  # where a report says its events came from


def now_utc() -> str:
    return dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _timestamp(value: str | None) -> str | None:
    """``--generated-at`` as given, when it is a time (ISO 8601 with its zone: a report's
    generation time is evidence; any text was printed as one)."""
    if value:
        try:
            stamped = dt.datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            stamped = None
        if stamped is None or stamped.tzinfo is None or "T" not in value:
            raise typer.BadParameter(f"{value[:40]!r} is not a time: write it as "
                                     "2026-12-05T08:00:00Z (ISO 8601, with its zone)")
    return value


SAFE_ID = re.compile(r"[A-Za-z0-9._-]+")
DIGEST_MARK = "~"  # in no kept id: a name with a digest is no other id's own


def safe_stem(text: str) -> str:
    """``text`` (a hand or table id: free text from the table) as a file name's stem, one
    id one stem: a file name and a link to it want letters, digits, ``.``, ``_``, ``-``.

    Each other character once became ``_`` alone, so the hands of tables ``A<1>`` and
    ``A_1_`` shared a dispute-report file: one copy overwrote the other, and both rows of
    the daily report linked to the survivor (QA). An id of those characters only is its
    own stem, as before; any other keeps that readable form and adds ``~`` and the first
    16 hex digits of its UTF-8 SHA-256. ``~`` is in no kept stem, so a stem with a digest
    is never an id's own; two ids with the same readable form differ in their digests (64
    bits: no accidental collision). An id has at most 200 characters (the event
    contract): a name stays within any file system's 255."""
    if SAFE_ID.fullmatch(text):
        return text
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    return re.sub(r"[^A-Za-z0-9._-]", "_", text) + DIGEST_MARK + digest


def safe_name(hand_id: str) -> str:
    """The file name of a hand's dispute report (``safe_stem``: one hand, one file): the
    daily report links to it, and ``report daily -o`` writes each copy under it."""
    return f"hand-{safe_stem(hand_id)}.html"


def _write(html: str, fmt: str, out: Path | None) -> None:
    """The report to ``-o`` (or standard output); an error writing it names which, and
    the file (``services.outputs.naming``)."""
    if fmt == "pdf":
        if out is None:
            raise typer.BadParameter("a PDF needs -o FILE", param_hint="-o")
        pdf = html_to_pdf(html)
        with naming("-o", out):
            out.write_bytes(pdf)
    elif out is None:
        with naming(STDOUT, stdout_path()):
            sys.stdout.write(html)
            sys.stdout.flush()
        return
    else:
        with naming("-o", out):
            out.write_text(html, encoding="utf-8")
    err.print(f"wrote {escape(str(out))}")


def _check_format(fmt: str, out: Path | None) -> None:
    """The format, and an output file named for the other one refused: ``-o X.pdf``
    without ``--format pdf`` wrote HTML into X.pdf, exit 0, a file no PDF reader opens
    (QA)."""
    if fmt not in ("html", "pdf"):
        raise typer.BadParameter("html or pdf", param_hint="--format")
    named = out.suffix.lower().lstrip(".") if out is not None else ""
    other = {"html": "pdf", "pdf": "html"}[fmt]
    if named in (other, "htm" if other == "html" else other):
        raise typer.BadParameter(f"{out} is named as a .{named} file, and the report is "
                                 f"written as {fmt}: add --format {other}, or name a "
                                 f".{fmt} file", param_hint="--format")


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
    ledger: Annotated[str | None, typer.Option("--ledger", "--db", envvar=DB_ENV_VAR,
                                              help="ledger (SQLAlchemy URL) that booked "
                                                    "the hand (default: $PITWATCH_DB, "
                                                    "when set)")] = None,
    alerts: AlertsOption = None,
    out: OutputOption = None,
    generated_at: Annotated[str | None, typer.Option(
        help="timestamp printed as the generation time (default: now)",
        callback=_timestamp)] = None,
) -> None:
    """Dispute-resolution report of one hand, from the event log and/or the ledger.

    --ledger defaults to $PITWATCH_DB, as every database command's (with --events, it
    adds the booking). With --ledger and no --events, the hand's events come from the
    database's event archive.
    With --ledger, the alerts about the hand that the database archived (surveil --db),
    with those of --alerts FILE if given (each once).

    Exits 2 when the hand is in neither, or a source cannot be read; 1 (the report written)
    when the ledger booked the hand at a table the archive holds, but the archive holds
    none of the hand's events, or when the booked record differs from the one the
    hand's events re-derive.
    """
    from services.ledger.cli import open_for_reading
    from services.reports.archived_alerts import ARCHIVED_ALERTS, concerning, union
    from services.reports.dispute import (
        NOT_SUPPLIED,
        HandNotWholeInLog,
        HandUnavailable,
        dispute_from_ledger,
        dispute_from_log,
        ledger_only_note,
    )
    from services.reports.log_tables import LogFile
    from services.reports.render import render_html
    from services.reports.replay import HandNotFound

    _check_format(fmt, out)
    not_the_input({"--output": out}, events, alerts, stdout=out is None)
    if events is None and ledger is None:
        raise typer.BadParameter(f"give --events FILE, --ledger URL (or set {DB_ENV_VAR}), "
                                 "or both")
    if events is not None:
        _refuse_what_is_no_event_log(events)
    lines: Events | None = LogFile(events) if events is not None else None
    log_name = events.name if events else None
    lacking: str | None = None  # why the archive lacks the events it should hold
    try:
        if ledger is not None:
            engine = open_for_reading(ledger, "--ledger")
            if lines is None:
                from services.reports.archived import hand_archive_lacks, through_hand

                lines = through_hand(engine, hand_id)
                log_name = ARCHIVE_NAME if lines is not None else None
                lacking = hand_archive_lacks(engine, hand_id) if lines is None else None
            report = dispute_from_ledger(
                engine, ledger, hand_id, read_profiles(), lines, log_name=log_name,
                missing=NOT_SUPPLIED if lacking is None else ledger_only_note(lacking))
        else:
            assert lines is not None and events is not None
            report = dispute_from_log(lines, hand_id, read_profiles(), log_name=events.name)
    except HandNotWholeInLog as exc:
        advice = (exc.mismatch.advice if events is not None else
                  "pitwatch verify lists what the archive lost")
        err.print(f"[red]error:[/red] hand {escape(hand_id)}: {escape(str(exc))}; {advice}",
                  soft_wrap=True)
        raise typer.Exit(2) from None
    except (HandNotFound, HandUnavailable) as exc:
        err.print(f"[red]error:[/red] {escape(str(exc))}", soft_wrap=True)
        raise typer.Exit(2) from None
    found: list[list[Alert]] = []
    names: list[str] = []
    if ledger is not None:  # what surveil --db archived, as the daily report takes it
        found.append(concerning(engine, {(report.table_id, report.hand_id)}))
        names.append(ARCHIVED_ALERTS)
    if alerts is not None:
        found.append(_read_alerts(alerts))
        names.append(alerts.name)
    if names:
        report.attach_alerts(union(*found), " and ".join(names))
    html = render_html("dispute.html", r=report, generated_at=generated_at or now_utc())
    _write(html, fmt, out)
    if lacking is not None:
        _warn(f"hand {hand_id}: {lacking}; the report shows the booking only")
        raise typer.Exit(INPUT_PROBLEMS)
    if report.ledger is not None and report.ledger.matches_log is False:
        # A booking that is not the record its events re-derive is what a dispute
        # analyst's script must not pass over: exit 1, as for an archive that lost a
        # hand (the report, written, shows both records in section 8).
        broken = report.chain.broken if report.chain is not None else []
        _warn(f"hand {hand_id}: the record booked in the ledger differs from the one "
              f"{log_name or 'the events'} re-derives (section 8 shows both); "
              + (f"its events do not chain (broken at seq {broken[0].seq:,}): pitwatch "
                 "verify lists the break" if broken else "pitwatch verify checks the "
                 "booking"))
        raise typer.Exit(INPUT_PROBLEMS)


def _warn(message: str) -> None:
    """One line on stderr: what is wrong with the input, and what to do."""
    err.print(f"[yellow]warning:[/yellow] {escape(message)}", soft_wrap=True, highlight=False)


@report_app.command("daily")
def daily(
    date: Annotated[str, typer.Option("--date", help="UTC day, YYYY-MM-DD")],
    table: Annotated[str | None, typer.Option(help="one table only")] = None,
    ledger: Annotated[str | None, typer.Option("--ledger", "--db",
                                              help="ledger (SQLAlchemy URL); default "
                                                    "$PITWATCH_DB or the embedded SQLite "
                                                    "file")] = None,
    events: Annotated[Path | None, typer.Option(exists=True, dir_okay=False,
                                                help="event log: also write the dispute "
                                                     "report of every hand needing review "
                                                     "next to OUT (default: the hands' "
                                                     "events from the database's archive, "
                                                     "when it holds them)")] = None,
    alerts: Annotated[Path | None, typer.Option(
        exists=True, dir_okay=False,
        help="surveillance alerts JSONL (pitwatch surveil --out) to add to those the "
             "database archived (surveil --db)")] = None,
    fmt: Annotated[str, typer.Option("--format", help="html or pdf")] = "html",
    out: OutputOption = None,
    generated_at: Annotated[str | None, typer.Option(
        help="timestamp printed as the generation time (default: now)",
        callback=_timestamp)] = None,
) -> None:
    """Daily table report from the ledger: per table and game, per dealer, reconciled.

    Section 5 lists the surveillance alerts about the day's hands that the database
    archived (surveil --db), with those of ``--alerts FILE`` if given (each once).

    Exits 2 when the ledger holds no hands of that day (and table), nor a hand to review
    without a day whose archived events are of it; 1 (every report written) when a hand
    to review is not in --events FILE, or holds other events there, or is not in the
    archive that holds its table. A hand the file holds but cannot re-derive alone (a
    file a day: the file starts its table part way through the chain) is read from the
    archive without a warning when the archive holds it.
    """
    from services.ledger.cli import open_for_reading
    from services.ledger.db import default_url, shown_url
    from services.reports.daily import daily_from_ledger
    from services.reports.daily_outcome import no_hands, unreconciled
    from services.reports.render import render_html

    _check_format(fmt, out)
    if table is not None and not table.strip():  # once "no hands ended on DAY": --date
        raise typer.BadParameter("an empty value matches no table: give one, or leave out "
                                 "--table for every table", param_hint="--table")
    not_the_input({"--output": out}, events, alerts, stdout=out is None)
    try:
        day = parse_day(date)
    except ValueError:
        raise typer.BadParameter(f"{date!r} is not a day: write YYYY-MM-DD",
                                 param_hint="--date") from None
    if events is not None:
        _refuse_what_is_no_event_log(events)
    url = default_url() if ledger is None else ledger  # '' refused, as by every command
    stamp = generated_at or now_utc()
    engine = open_for_reading(url, "--ledger")
    alert_list = _read_alerts(alerts) if alerts is not None else None
    report = daily_from_ledger(engine, day, table, source=shown_url(url))
    if report.empty:
        message, option = no_hands(engine, day, table, url)
        raise typer.BadParameter(message, param_hint=option)
    if alert_list is not None and alerts is not None:
        report.place_alerts(engine, alert_list)
        report.attach_alerts(alert_list, alerts.name)
    html = render_html("daily.html", d=report, generated_at=stamp, link=safe_name)
    if out is not None and report.review_hand_ids and _beside_a_file(out):
        _refuse_unknown_profiles(engine, report.review_hand_ids)
    _write(html, fmt, out)
    if out is not None and report.review_hand_ids and not _beside_a_file(out):
        err.print(f"{out} is not a file: the {len(report.review_hand_ids)} hand reports the "
                  "daily report links to are not written (give -o a file in a folder of "
                  "its own)", markup=False, highlight=False, soft_wrap=True)
    elif out is not None and report.review_hand_ids:
        copies = HandCopies(engine, url, stamp, report.alert_records, report.alerts_source)
        if not copies.write(report.review_hand_ids, events, out.parent):
            unreconciled(report, _warn)
            raise typer.Exit(INPUT_PROBLEMS)
    if unreconciled(report, _warn):
        raise typer.Exit(INPUT_PROBLEMS)


def _refuse_unknown_profiles(engine: Engine, hand_ids: list[str]) -> None:
    """Stop before anything is written (one line, exit 2) when a hand whose report goes
    beside the daily report was judged under a rule profile this run does not know: the
    daily report was written, then the command failed with exit 2 and wrote no hand's
    report (QA, a shell without ``PITWATCH_PROFILES``)."""
    from services.games.profile import UnknownProfileError
    from services.games.unknown_profiles import not_known_here
    from services.ledger.queries import judged_under_unknown

    known = read_profiles().names()
    judged = judged_under_unknown(engine, known, None, None, hand_ids=hand_ids)
    if judged:
        raise UnknownProfileError(f"the day's hands to review were "
                                  f"{not_known_here(judged, known)}")


def _refuse_what_is_no_event_log(events: Path) -> None:
    """Stop (one line, exit 2) when ``--events`` names a file that is no event log: a
    file of adjudication records was read as a log holding none of the day's hands (exit
    0, each copy saying its log made no record of it), an empty one warned once a hand."""
    from services.reports.log_tables import LogFile

    problem = LogFile(events).first_line_problem()
    if problem is not None:
        err.print(f"[red]error:[/red] {escape(problem)}", soft_wrap=True)
        raise typer.Exit(2)


def _beside_a_file(out: Path) -> bool:
    """Whether the hand reports can go next to ``out``: it is (or will be) a plain file.
    ``-o /dev/null`` once wrote them into ``/dev``."""
    return not out.exists() or out.is_file()


@dataclass(frozen=True)
class HandCopies:
    """The dispute report of every hand to review, written next to the daily report, each
    as ``report hand`` writes it, with the ledger section, the ledger's refusal and the
    alerts citing the hand (``--alerts``).

    Which events each copy reads: with ``--events FILE``, the file's (the copy is what
    ``report hand ID --events FILE --ledger URL`` writes); a hand the file does not hold,
    or holds other events of, is read from the event archive (the copy is what ``report
    hand ID --ledger URL`` writes) and stderr says so; a hand in neither gets the booking
    only, with a note naming both. Without ``--events``, the archive's, and a hand it
    lacks gets the booking only, as ``report hand ID --ledger URL`` gives it. Why fall
    back rather than write the booking only: whoever reads the copy needs the hand's
    evidence, and the archive holds exactly the events pitwatch judged; the copy names
    its source, and the command exits 1 so that a file that did not match the day is not
    missed.

    A hand the file holds, its booked events, but cannot re-derive alone (the file
    starts the table part way through its hash chain, or holds the hand in part: a table
    run a file a day with ``--leave-open``, as the guide's routine runs it) is read from
    the archive with no warning and no exit 1: the file is the right one, the archive
    holds the same events and the table's days before them, and every later day's report
    warned of every hand to review that the hand was "not (whole)" in a file holding all
    of its events (QA). One line counts them; a hand the archive lacks too is warned of
    with what the file lacks and what to give."""

    engine: Engine
    url: str
    stamp: str
    alerts: list[Alert] | None
    alerts_name: str | None
    WARNINGS_SHOWN: ClassVar[int] = 20  # one line each; the rest counted

    def write(self, hand_ids: list[str], events: Path | None, folder: Path) -> bool:
        """Every copy into ``folder``; whether each read its events where it should (False:
        a hand was not in the file, or not in the archive that holds its table, and a
        line on stderr says so for each)."""
        from services.reports.render import render_html
        from services.reports.rulebook import load_rulebook

        said: dict[str, str] = {}  # hand: the warning about its copy
        unarchived: list[str] = []  # hands of tables the archive never held
        alone: dict[str, str] = {}  # hand (the file cannot re-derive it alone): its table
        with progress_bar(err) as progress:
            task = progress.add_task("dispute reports", total=len(hand_ids), unit="hands",
                                     note=f"replaying {events.name if events else ARCHIVE_NAME}")
            book = load_rulebook()
            reports = (self._from_log(hand_ids, events, book, said, alone,
                                      lambda _h: progress.advance(task))
                       if events is not None else
                       self._from_archive(hand_ids, book, said, unarchived,
                                          lambda _h: progress.advance(task)))
            progress.update(task, completed=0, note="writing")
            warned = 0
            for hand_id in hand_ids:
                report = reports.get(hand_id)
                progress.advance(task)
                if hand_id in said and warned < self.WARNINGS_SHOWN:
                    _warn(said[hand_id])
                    warned += 1
                if report is None:
                    continue
                if self.alerts is not None and self.alerts_name is not None:
                    report.attach_alerts(self.alerts, self.alerts_name)
                html = render_html("dispute.html", r=report, generated_at=self.stamp)
                copy = folder / safe_name(hand_id)
                with naming("the dispute report", copy):
                    copy.write_text(html, encoding="utf-8")
        if len(said) > warned:  # a file of another day lacks every hand: not 56 lines
            _warn(f"... and {len(said) - warned} more hand(s) like these (each copy names "
                  "where its events came from)")
        err.print(f"wrote {len(reports)} dispute report(s) to {escape(str(folder))}")
        if alone and events is not None:
            tables = sorted(set(alone.values()))
            err.print(f"{len(alone)} of them are from {ARCHIVE_NAME}, which holds table(s) "
                      f"{', '.join(tables)} from the first event on: {events.name} holds "
                      "those hands' events but cannot re-derive them alone (it starts the "
                      "tables part way through their hash chains, the earlier days' events "
                      "being in the files before it, or holds a hand only in part)",
                      markup=False, highlight=False, soft_wrap=True)
        if unarchived:
            err.print(f"{len(unarchived)} of them show the booking only: the database holds "
                      "no archive of their tables (give the event log with --events FILE)",
                      markup=False, highlight=False, soft_wrap=True)
        return not said

    def _from_log(self, hand_ids: list[str], events: Path, book: dict[str, RuleText],
                  said: dict[str, str], alone: dict[str, str],
                  on_hand: Callable[[str], None]) -> dict[str, DisputeReport]:
        """The file's hands, then the archive's for those it does not hold or cannot
        re-derive; ``alone`` gets each hand the file holds but cannot re-derive alone
        that the archive gave (no warning: the class docstring says why)."""
        from services.reports.archived import hand_archive_lacks, tables_of
        from services.reports.dispute import disputes_from_ledger, ledger_only_note
        from services.reports.log_tables import LogFile

        log = LogFile(events)
        lines: Events = log if log.holds_lines() else []
        mismatched: dict[str, LogMismatch] = {}
        reports = disputes_from_ledger(self.engine, self.url, hand_ids, lines, read_profiles(),
                                       book, log_name=events.name, on_hand=on_hand,
                                       missing=lambda _h, _t: None, mismatched=mismatched)
        absent = [h for h in hand_ids if h not in reports]
        if not absent:
            return reports
        in_archive: dict[str, LogMismatch] = {}  # the archive holds other events of it

        def in_neither(hand_id: str, table_id: str) -> str:
            other, lost = mismatched.get(hand_id), in_archive.get(hand_id)
            if lost is not None:
                said[hand_id] = (f"hand {hand_id}: {lost.clause}; its report shows the "
                                 "booking only (pitwatch verify)")
                return ledger_only_note(lost.clause)
            if other is not None and not other.other_hand:
                return self._not_alone(hand_id, table_id, other, said)
            neither = (f"neither the event log {events.name} nor the event archive holds "
                       "an event of this hand")
            said[hand_id] = (f"hand {hand_id} is in neither {events.name} nor the event "
                             "archive: its report shows the booking only")
            return ledger_only_note(hand_archive_lacks(self.engine, hand_id, neither) or (
                f"{neither} (the archive holds nothing of table {table_id})"))

        archived = disputes_from_ledger(self.engine, self.url, absent,
                                        tables_of(self.engine, absent), read_profiles(), book,
                                        log_name=ARCHIVE_NAME, missing=in_neither,
                                        mismatched=in_archive)
        for hand_id, report in archived.items():
            other = mismatched.get(hand_id)
            if hand_id in said:
                continue
            if other is not None and not other.other_hand:
                alone[hand_id] = report.table_id
                continue
            said[hand_id] = ((f"hand {hand_id}: {other.clause};" if other is not None else
                              f"hand {hand_id} is not (whole) in {events.name}:") +
                             f" its report is from {ARCHIVE_NAME}, as `pitwatch report hand "
                             f"{hand_id} --ledger URL` writes it")
        return reports | archived

    def _not_alone(self, hand_id: str, table_id: str, why: LogMismatch,
                   said: dict[str, str]) -> str:
        """The note and the warning of a hand the file cannot re-derive alone (``why``)
        and the archive does not give: what the file lacks, why the archive does not
        stand in, and what to give."""
        from services.reports.archived import hand_archive_lacks
        from services.reports.dispute import ledger_only_note

        lacks = hand_archive_lacks(self.engine, hand_id)
        if lacks is None:
            said[hand_id] = (f"hand {hand_id}: {why.clause}, and the database holds no "
                             f"archive of table {table_id}: its report shows the booking "
                             "only (give the table's days' files joined in one, in order, "
                             "with --events)")
            return ledger_only_note(f"{why.clause}, and the database holds no archive of "
                                    f"table {table_id}")
        said[hand_id] = (f"hand {hand_id}: {why.clause}; and {lacks}: its report shows the "
                         "booking only")
        return ledger_only_note(f"{why.clause}; and {lacks}")

    def _from_archive(self, hand_ids: list[str], book: dict[str, RuleText],
                      said: dict[str, str], unarchived: list[str],
                      on_hand: Callable[[str], None]) -> dict[str, DisputeReport]:
        """The archive's hands; one it lacks gets what ``report hand ID --ledger URL``
        gives: the booking only, with why."""
        from services.reports.archived import hand_archive_lacks, tables_of
        from services.reports.dispute import (
            NOT_SUPPLIED,
            disputes_from_ledger,
            ledger_only_note,
        )

        mismatched: dict[str, LogMismatch] = {}

        def lacking(hand_id: str, table_id: str) -> str:
            if hand_id in mismatched:  # the archive holds events other than the booked
                said[hand_id] = (f"hand {hand_id}: {mismatched[hand_id].clause}; its report "
                                 "shows the booking only (pitwatch verify)")
                return ledger_only_note(mismatched[hand_id].clause)
            why = hand_archive_lacks(self.engine, hand_id)
            if why is None:
                unarchived.append(hand_id)
                return NOT_SUPPLIED
            said[hand_id] = f"hand {hand_id}: {why}; its report shows the booking only"
            return ledger_only_note(why)

        return disputes_from_ledger(self.engine, self.url, hand_ids,
                                    tables_of(self.engine, hand_ids), read_profiles(), book,
                                    log_name=ARCHIVE_NAME, on_hand=on_hand, missing=lacking,
                                    mismatched=mismatched)


if __name__ == "__main__":  # pragma: no cover
    report_app()
