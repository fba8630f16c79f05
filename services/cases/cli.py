"""``pitwatch cases list|show|assign|note|escalate|close``.

Every command takes ``--db URL`` (default ``PITWATCH_DB``, else the embedded SQLite file);
a URL with no pitwatch database is a usage error (exit 2). Listings print as a table,
JSON or CSV (``--format``). Every action names who takes it (``--actor``, default
``PITWATCH_USER``, else the login name) and may name the version of the case it was
decided on (``--version``, as ``cases show`` prints it): if the case changed since, the
action is refused (exit 1) instead of applied to a case its author has not seen.
A case that does not exist, or an action its state does not allow, is exit 2.
"""

from __future__ import annotations

import getpass
import os
import sys
from collections.abc import Callable
from typing import Annotated, get_args

import typer
from rich.console import Console
from rich.text import Text
from sqlalchemy import Engine

from services.cases.actions import (
    ActionResult,
    CaseChanged,
    CaseNotFound,
    CaseRefused,
    assign,
    close,
    escalate,
    note,
)
from services.cases.known import refusal, unknown_day, unknown_subject
from services.cases.queries import (
    WORK,
    CaseDetail,
    CaseFilter,
    CaseSummary,
    get_case,
    list_cases,
)
from services.events.contract import GameName, Severity
from services.events.days import parse_day
from services.exits import INPUT_PROBLEMS, USAGE, print_error
from services.ledger.case_tables import CASE_OUTCOMES, CASE_STATES
from services.ledger.db import DB_ENV_VAR, DEFAULT_URL
from services.ledger.listing import (
    Cell,
    Column,
    Format,
    Listing,
    fields_text,
    json_bytes,
    printable,
    terminal_width,
)
from services.terminal import StdoutConsole

cases_app = typer.Typer(help="Cases: the queue of findings and alerts worked to a decision.",
                        no_args_is_help=True)
console = StdoutConsole()
errors = Console(stderr=True, soft_wrap=True, highlight=False)
USER_ENV = "PITWATCH_USER"
SEVERITIES: tuple[str, ...] = get_args(Severity)
ANY_STATE = "any"
# What ``cases list --state`` takes, as the console's queue does: a state, ``work`` (every
# state but closed, the default: the cases to work) or ``any``. The default once was every
# state, so the command line showed closed cases the console's queue leaves out (QA).
LIST_STATES = (*CASE_STATES, WORK, ANY_STATE)
# What ``cases list --game`` takes: the names a table posts (``table_configured.game``),
# which a case's game tags hold. As written, as ``--severity`` and ``--state`` take theirs
# and as the console's queue matches a game: "HCF" or "poker" listed no case and exit 0,
# as if the queue were clear (QA).
GAMES: tuple[str, ...] = get_args(GameName)

DbOption = Annotated[str, typer.Option("--db", "--ledger", envvar=DB_ENV_VAR,
                                       help="SQLAlchemy URL of the pitwatch database.")]
FormatOption = Annotated[Format, typer.Option("--format",
                                              help="table (for people), json or csv.")]
CaseId = Annotated[int, typer.Argument(help="the case's number (pitwatch cases list)")]
ActorOption = Annotated[str | None, typer.Option(
    "--actor", help=f"who takes the action (default ${USER_ENV}, else the login name)")]
VersionOption = Annotated[int | None, typer.Option(
    "--version", min=1, help="the case's version the action was decided on (refused if "
                             "the case changed since)")]


def _one_of(choices: tuple[str, ...], option: str) -> Callable[[str | None], str | None]:
    """A ``--option`` callback: the value must be one of ``choices`` (one-line error)."""

    def check(value: str | None) -> str | None:
        if value is not None and value not in choices:
            raise typer.BadParameter(f"{value!r}: choose from {', '.join(choices)}",
                                     param_hint=option)
        return value
    return check


def _engine(db: str) -> Engine:
    from services.ledger.cli import open_for_reading

    return open_for_reading(db)


def _emit(listings: list[Listing], fmt: Format, value: object) -> None:
    if fmt is Format.table:
        for listing in listings:
            listing.print_to(console)
    elif fmt is Format.json:
        sys.stdout.buffer.write(json_bytes(value))
    else:
        sys.stdout.write(listings[0].csv())
    sys.stdout.flush()


def _summary_row(c: CaseSummary) -> tuple[str | int | None, ...]:
    return (c.case_id, c.state, c.severity, c.subject, c.title, c.assignee, c.evidence,
            c.hands, c.opened_at, c.updated_at, c.version, c.outcome)


SUMMARY_COLUMNS = [Column("case", count=True), Column("state"), Column("severity"),
                   Column("subject"), Column("title"), Column("assignee"),
                   Column("evidence", count=True), Column("hands", count=True),
                   Column("opened"), Column("updated"), Column("version", count=True),
                   Column("outcome")]


QUEUE_COLUMNS = [Column("case", count=True), Column("state"), Column("severity"),
                 Column("title"), Column("assignee"), Column("hands", count=True),
                 Column("updated")]


@cases_app.command("list")
def list_command(
    state: Annotated[str, typer.Option(
        callback=_one_of(LIST_STATES, "--state"),
        help=f"one of {', '.join(CASE_STATES)}; {WORK}: every state but closed (the "
             f"default, as the console's queue); {ANY_STATE}: every state")] = WORK,
    severity: Annotated[str | None, typer.Option(callback=_one_of(SEVERITIES, "--severity"),
                                                 help="at least this severity")] = None,
    game: Annotated[str | None, typer.Option(
        help=f"cases with evidence of this game, one of {', '.join(GAMES)}")] = None,
    table: Annotated[str | None, typer.Option(help="cases with evidence at this table")]
    = None,
    dealer: Annotated[str | None, typer.Option(help="cases naming this dealer")] = None,
    player: Annotated[str | None, typer.Option(help="cases naming this player")] = None,
    date: Annotated[str | None, typer.Option("--date", help="cases with evidence of this "
                                                            "UTC day, YYYY-MM-DD")] = None,
    assignee: Annotated[str | None, typer.Option(help="cases assigned to this reviewer")]
    = None,
    limit: Annotated[int | None, typer.Option(min=1, help="at most this many")] = None,
    db: DbOption = DEFAULT_URL,
    fmt: FormatOption = Format.table,
) -> None:
    """The queue: most serious first, then oldest first.

    The cases not closed unless ``--state`` says otherwise (the console's queue shows the
    same by default)."""
    for option, value in (("--game", game), ("--table", table), ("--dealer", dealer),
                          ("--player", player), ("--assignee", assignee)):
        if value is not None and not value.strip():  # matched nothing, silently (QA)
            raise typer.BadParameter("an empty value matches no case: give one, or leave "
                                     "the option out", param_hint=option)
    _one_of(GAMES, "--game")(game)  # after the empty check, which says more about ""
    try:
        day = parse_day(date) if date is not None else None
    except ValueError:
        raise typer.BadParameter(f"{date!r} is not a day: write YYYY-MM-DD",
                                 param_hint="--date") from None
    engine = _engine(db)
    for kind, value in (("table", table), ("dealer", dealer), ("player", player)):
        known = None if value is None else unknown_subject(engine, kind, value)
        if value is not None and known is not None:
            raise typer.BadParameter(refusal(kind, value, known), param_hint=f"--{kind}")
    days = None if day is None else unknown_day(engine, day)
    if day is not None and days is not None:
        raise typer.BadParameter(refusal("day", day.isoformat(), days, "--date"),
                                 param_hint="--date")
    cases = list_cases(engine, CaseFilter(None if state == ANY_STATE else state,
                                               severity, game, table, dealer, player, day,
                                               assignee, limit))
    listing = Listing(f"Cases ({len(cases)})", SUMMARY_COLUMNS,
                      [_summary_row(c) for c in cases])
    if fmt is Format.table:  # the columns a queue is read by; json and csv have them all
        Listing(f"Cases ({len(cases)})", QUEUE_COLUMNS,
                [(c.case_id, c.state, c.severity, c.title, c.assignee, c.hands,
                  c.updated_at[:16]) for c in cases]).print_to(console)
        return
    _emit([listing], fmt, listing.records())


@cases_app.command("show")
def show_command(case_id: CaseId, db: DbOption = DEFAULT_URL,
                 fmt: FormatOption = Format.table) -> None:
    """One case: its state, evidence, hands and audit trail (CSV: one row per field)."""
    case = get_case(_engine(db), case_id)
    if case is None:
        raise typer.BadParameter(f"no case {case_id} (pitwatch cases list)",
                                 param_hint="CASE_ID")
    evidence, hands, audit = _detail_listings(case)
    if fmt is Format.table:
        console.print(_heading(case, terminal_width(console)))
    summary = Listing("", SUMMARY_COLUMNS, [_summary_row(case.summary)]).records()[0]
    if fmt is Format.csv:
        _emit([_case_rows(summary, case, evidence, hands, audit)], fmt, None)
        return
    _emit([evidence, hands, audit], fmt, {
        **summary, "reason": case.reason, "tags": case.tags,
        "evidence": evidence.records(), "hands": hands.records(),
        "audit": [{**r, "detail": e.detail} for r, e in zip(audit.records(), case.audit,
                                                             strict=True)]})


def _case_rows(summary: dict[str, Cell], case: CaseDetail, evidence: Listing,
               hands: Listing, audit: Listing) -> Listing:
    """The whole case as one CSV table of four columns, ``part,item,field,value``: the
    case's own fields (part ``case``; its reason; a row per tag), then each evidence
    item, evidence hand and audit entry, one row per field, numbered in ``item`` (an audit
    entry by its version). Why one table: CSV once carried the trail only (no state,
    severity, evidence, hands or tags, which the table and JSON have), and blocks of
    different columns one under the other do not open as one sheet; four fixed columns
    filter and sort in any spreadsheet. Texts keep the CSV formula escaping."""
    rows: list[tuple[Cell, ...]] = [("case", None, name, value)
                                    for name, value in summary.items()]
    rows.append(("case", None, "reason", case.reason))
    rows += [("case", None, f"tag {kind}", value)
             for kind, values in sorted(case.tags.items()) for value in values]
    for part, listing in (("evidence", evidence), ("hand", hands)):
        rows += [(part, n, name, value)
                 for n, record in enumerate(listing.records(), 1)
                 for name, value in record.items()]
    rows += [("audit", record["version"], name, value) for record in audit.records()
             for name, value in record.items() if name != "version"]
    return Listing("Case", [Column("part"), Column("item", count=True), Column("field"),
                            Column("value")], rows)


def _heading(case: CaseDetail, width: int) -> Text:
    """The case's title, then its fields broken between fields at ``width`` (a
    terminal's), the outcome's reason last, at its words."""
    c = case.summary
    fields = fields_text([("state", c.state), ("severity", c.severity),
                          ("assignee", _one_line(c.assignee or "-")),
                          ("version", str(c.version)), ("opened", c.opened_at)], width)
    decided = (f"  outcome {c.outcome}: {_one_line(case.reason or '')}" if c.outcome
               else "")
    return Text.assemble((f"case {c.case_id}", "bold"), f"  {_one_line(c.title)}\n",
                         fields, decided)


def _one_line(text: str) -> str:
    """A heading's field on its line: a reason typed over several lines (or a name kept
    from before names were one line) drew lines that looked like the heading's own."""
    return printable(text).replace("\n", "\\n")


def _detail_listings(case: CaseDetail) -> tuple[Listing, Listing, Listing]:
    evidence = Listing("Evidence", [Column("source"), Column("rule"), Column("code"),
                                    Column("severity"), Column("table"), Column("hand"),
                                    Column("day"), Column("summary", prose=True)],
                       [(e.source_id, e.rule, e.code, e.severity, e.table_id, e.hand_id,
                         None if e.day is None else e.day.isoformat(), e.summary)
                        for e in case.evidence], blocks_when_narrow=True)
    hands = Listing("Evidence hands", [Column("table"), Column("hand")], list(case.hands))
    audit = Listing("Audit trail", [Column("version", count=True), Column("at"),
                                    Column("actor"), Column("action"), Column("before"),
                                    Column("after"), Column("what", prose=True)],
                    [(a.version, a.at, a.actor, a.action, a.state_before, a.state_after,
                      _what(a.detail)) for a in case.audit], blocks_when_narrow=True)
    return evidence, hands, audit


def _what(detail: dict[str, object]) -> str:
    parts = [f"{k}: {v}" for k, v in detail.items() if k not in ("changed",) and v]
    changed = detail.get("changed")
    if isinstance(changed, dict) and changed:
        # A field the action cleared is "-", as the heading shows an empty one (not None).
        parts.append("set " + ", ".join(f"{k}={'-' if v is None else v}"
                                        for k, v in changed.items()))
    return "; ".join(parts)


# ---------------------------------------------------------------- actions


def _actor(actor: str | None) -> str:
    if actor is not None:  # given, even blank: the action refuses a blank one
        return actor
    named = os.environ.get(USER_ENV)
    if named:
        return named
    try:
        return getpass.getuser()
    except (OSError, KeyError):
        raise typer.BadParameter(f"say who takes the action: --actor NAME or ${USER_ENV}",
                                 param_hint="--actor") from None


def _done(run: Callable[[], ActionResult], case_id: int) -> None:
    """Run an action and say what it did; the refusals in one line."""
    try:
        result = run()
    except CaseNotFound:
        raise typer.BadParameter(f"no case {case_id} (pitwatch cases list)",
                                 param_hint="CASE_ID") from None
    except CaseRefused as exc:  # a rule of cases, not a mistyped option: no "--help"
        print_error(str(exc))
        raise typer.Exit(USAGE) from None
    except CaseChanged as exc:
        print_error(str(exc))
        raise typer.Exit(INPUT_PROBLEMS) from None
    b, a = result.before, result.after
    if not result.changed:
        errors.print(f"case {case_id}: already assigned to {printable(a.assignee or '')}: "
                     f"nothing changed (version {result.version})", markup=False)
        return
    change = f"{b.state} -> {a.state}" if b.state != a.state else a.state
    who = f", assignee {printable(a.assignee)}" if a.assignee else ""
    errors.print(f"case {case_id}: {change}{who} (version {result.version})", markup=False)


@cases_app.command("assign")
def assign_command(case_id: CaseId, assignee: Annotated[str, typer.Argument(
        help="the reviewer who takes the case")], actor: ActorOption = None,
        version: VersionOption = None, db: DbOption = DEFAULT_URL) -> None:
    """Give the case to a reviewer (an open case goes into review)."""
    engine, who = _engine(db), _actor(actor)
    _done(lambda: assign(engine, case_id, assignee, who, version), case_id)


@cases_app.command("note")
def note_command(case_id: CaseId, text: Annotated[str, typer.Argument(help="the note")],
                 actor: ActorOption = None, version: VersionOption = None,
                 db: DbOption = DEFAULT_URL) -> None:
    """Add a note to the case's trail (any state)."""
    engine, who = _engine(db), _actor(actor)
    _done(lambda: note(engine, case_id, text, who, version), case_id)


@cases_app.command("escalate")
def escalate_command(case_id: CaseId, reason: Annotated[str | None, typer.Option(
        help="why it goes up")] = None, actor: ActorOption = None,
        version: VersionOption = None, db: DbOption = DEFAULT_URL) -> None:
    """Escalate the case (to a senior reviewer or the regulator's liaison)."""
    engine, who = _engine(db), _actor(actor)
    _done(lambda: escalate(engine, case_id, who, reason, version), case_id)


@cases_app.command("close")
def close_command(case_id: CaseId,
                  outcome: Annotated[str, typer.Option(
                      callback=_one_of(CASE_OUTCOMES, "--outcome"),
                      help=f"one of {', '.join(CASE_OUTCOMES)}")],
                  reason: Annotated[str, typer.Option(help="why: what was found")],
                  actor: ActorOption = None, version: VersionOption = None,
                  db: DbOption = DEFAULT_URL) -> None:
    """Close the case with its outcome and reason (a closed case changes no more)."""
    engine, who = _engine(db), _actor(actor)
    _done(lambda: close(engine, case_id, outcome, reason, who, version), case_id)
