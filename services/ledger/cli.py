"""``pitwatch ledger ...``: book adjudication records and read the ledger back.

The lead mounts ``ledger_app`` on the main ``pitwatch`` command. Every command takes
``--db URL`` (default: ``PITWATCH_DB``, else ``sqlite:///var/pitwatch.sqlite``). Only
``post`` writes, and only it creates a ledger that is not there yet; the reading commands
refuse a URL that holds no pitwatch ledger (exit 2) rather than show an empty one. Every
listing prints as a table, JSON or CSV (``--format``), players in natural order.
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated

import msgspec
import typer
from rich.console import Console
from rich.text import Text
from sqlalchemy import Engine

from services.events.contract import AdjudicationRecord, decode_record
from services.events.file_kind import first_value, kind_of
from services.events.logfile import open_log
from services.ledger.db import (
    DB_ENV_VAR,
    DEFAULT_URL,
    LedgerUnavailable,
    ledger_exists,
    ledger_url,
    open_existing_ledger,
    open_ledger_created,
    shown_url,
)
from services.ledger.listing import (
    Column,
    Format,
    Listing,
    fields_text,
    json_bytes,
    natural_key,
    printable,
    shown_utc,
    terminal_width,
)
from services.ledger.posting import DEFAULT_BATCH_SIZE, PostTally, iter_post
from services.ledger.queries import (
    StoredHand,
    balances,
    rake_totals,
    stored_hand,
    table_day_totals,
)
from services.outputs import STDOUT, naming, stdout_path
from services.terminal import StdoutConsole, lines_beforehand, progress_bar

ledger_app = typer.Typer(
    name="ledger", help="Book adjudication records and read the ledger.", no_args_is_help=True
)
console = StdoutConsole()
errors = Console(stderr=True, soft_wrap=True)

DbOption = Annotated[
    str, typer.Option("--db", "--ledger", envvar=DB_ENV_VAR,
                      help="SQLAlchemy URL of the ledger database.")
]
FormatOption = Annotated[
    Format, typer.Option("--format", help="table (for people), json or csv (for programs).")
]


# ---------------------------------------------------------------- opening, for every CLI


def open_for_reading(url: str, option: str = "--db") -> Engine:
    """The existing ledger at ``url``; a usage error (exit 2) naming ``option`` if none."""
    try:
        return open_existing_ledger(url)
    except LedgerUnavailable as exc:
        raise typer.BadParameter(str(exc), param_hint=option) from None


def open_for_writing(url: str, option: str = "--db", default: str | None = DEFAULT_URL,
                     say: Console = errors) -> Engine:
    """The ledger at ``url``, created if new (and said so on ``say``).

    A SQLite file goes only in a folder that exists, except the command's own default
    (``var/``), which is created: a folder the user named and mistyped is an error.
    """
    try:
        parsed = ledger_url(url)
        if not ledger_exists(url) and url != default:
            _check_folder(parsed.database, option)
        engine, new = open_ledger_created(url)
    except LedgerUnavailable as exc:
        raise typer.BadParameter(str(exc), param_hint=option) from None
    if new:
        say.print(f"created a new ledger at {parsed.render_as_string(hide_password=True)}",
                  markup=False, highlight=False)
    return engine


def _check_folder(database: str | None, option: str) -> None:
    if database in (None, "", ":memory:"):
        return
    folder = Path(database).expanduser().parent
    if not folder.is_dir():
        raise typer.BadParameter(f"folder {folder} does not exist: create it first "
                                 f"(mkdir -p {folder}) or give another URL",
                                 param_hint=option)


def _emit(listings: list[Listing], fmt: Format, json_value: object | None = None) -> None:
    """Print listings as tables, the JSON value given (or the listings' rows), or CSV of
    the first listing (a CSV file holds one table). An error writing them names standard
    output (``> /dev/full``: a full disk said without saying where)."""
    with naming(STDOUT, stdout_path()):
        if fmt is Format.table:
            for listing in listings:
                listing.print_to(console)
        elif fmt is Format.json:
            value = json_value if json_value is not None else listings[0].records()
            sys.stdout.buffer.write(json_bytes(value))
        else:
            sys.stdout.write(listings[0].csv())
        sys.stdout.flush()


# Refused hands named one by one, up to this many; the rest are counted.
def posting_summary(url: str, tally: PostTally) -> list[str]:
    """What booking did, in words: counts by outcome, then why each refused hand was
    refused (the ledger books no chips for it; it is on file with its reason)."""
    counts = tally.counts
    lines = [f"ledger {shown_url(url)}: " + (", ".join(f"{n:,} {status}"
                                            for status, n in sorted(counts.items()))
                                  or "nothing to book")]
    if tally.refusals:
        lines.append(f"  {tally.not_booked:,} hand(s) not booked: the "
                     "ledger refuses chips that do not balance or a copy of a booked hand "
                     "(GEN-8), and a changed re-post (SURV-9); each is on file with its "
                     "reason and listed for review:")
        # A reason quotes ids from the records (free text): shown, never obeyed.
        lines += [f"    {printable(reason)}" for reason in tally.first_refusals]
        if tally.refusals > len(tally.first_refusals):
            lines.append(f"    ... and {tally.refusals - len(tally.first_refusals):,} more "
                         "(pitwatch report daily lists them all)")
    return lines


# ---------------------------------------------------------------- listings


@ledger_app.command("balances")
def balances_command(
    db: DbOption = DEFAULT_URL,
    players_only: Annotated[bool, typer.Option("--players", help="Only player balances.")] = False,
    fmt: FormatOption = Format.table,
) -> None:
    """Balances per player (natural order: P2 before P10) and per other account.

    Each player is listed once: under Players; the Accounts table sums them in one row
    (CSV: every account, players included, one line each).
    """
    engine = open_for_reading(db)
    every = sorted(balances(engine), key=lambda a: natural_key(a.name))
    player_accounts = [a for a in every if a.kind == "player" and a.player_id is not None]
    players = Listing("Players", [Column("player"), Column("balance", chips=True)],
                      [(a.player_id, a.balance)
                       for a in sorted(player_accounts,
                                       key=lambda a: natural_key(a.player_id or ""))])
    if players_only:
        _emit([players], fmt, {"players": players.records()})
        return
    others = [a for a in every if a not in player_accounts]
    columns = [Column("account"), Column("kind"), Column("postings", count=True),
               Column("balance", chips=True)]
    total = sum(a.balance for a in every)
    accounts = Listing("Accounts", columns,
                       [(a.name, a.kind, a.postings, a.balance) for a in others])
    if player_accounts:
        accounts.rows.append((f"players ({len(player_accounts)}, listed above)", "player",
                              sum(a.postings for a in player_accounts),
                              sum(a.balance for a in player_accounts)))
    accounts.footer = ("total", "", None, total)
    if fmt is Format.csv:
        every_account = Listing("Accounts", [Column("account"), Column("kind"),
                                             Column("player"), *columns[2:]],
                                [(a.name, a.kind, a.player_id, a.postings, a.balance)
                                 for a in every])
        _emit([every_account], fmt)
        return
    _emit([players, accounts], fmt, {
        "players": players.records(),
        "accounts": [dict(account=a.name, kind=a.kind, postings=a.postings,
                          balance=a.balance) for a in others],
        "total": total,
    })


@ledger_app.command("rake")
def rake_command(db: DbOption = DEFAULT_URL, fmt: FormatOption = Format.table) -> None:
    """Rake per table, per posted rake mode, per UTC day.

    "hands" counts the hands that paid rake in that mode: a dead hand (every wager went
    back) or one with no rake due is not among them, so it can be fewer than the hands
    ``ledger totals`` and the daily report count for the same table and day."""
    rows = sorted(rake_totals(open_for_reading(db)),
                  key=lambda r: (natural_key(r.table_id), str(r.day), r.mode or ""))
    listing = Listing("Rake", [Column("table"), Column("day"), Column("mode"),
                               Column("hands", count=True), Column("rake", chips=True)],
                      [(r.table_id, None if r.day is None else r.day.isoformat(), r.mode,
                        r.hands, r.amount) for r in rows])
    _emit([listing], fmt)


@ledger_app.command("totals")
def totals_command(db: DbOption = DEFAULT_URL, fmt: FormatOption = Format.table) -> None:
    """Per table and UTC day: hands, drop, payouts, rake, house bank, house win.

    The drop leaves out dead hands (every wager went back), as the daily report and the
    console count it: one definition (``services.ledger.queries.drop_posting``).

    "house win" is what the house kept, rake plus house bank, as the daily report's win
    (and its hold %, win / drop); the column once so named held the house bank alone, so
    a hold worked out from it was 0 at a table whose win was the rake (QA)."""
    rows = sorted(table_day_totals(open_for_reading(db)),
                  key=lambda r: (natural_key(r.table_id), str(r.day)))
    listing = Listing("Table totals", [
        Column("table"), Column("day"), Column("hands", count=True),
        Column("drop", chips=True), Column("payouts", chips=True), Column("rake", chips=True),
        Column("house bank", chips=True), Column("house win", chips=True)],
        [(r.table_id, None if r.day is None else r.day.isoformat(), r.hands, r.drop,
          r.payouts, r.rake, r.house_win, r.rake + r.house_win) for r in rows])
    _emit([listing], fmt)


@ledger_app.command("hand")
def hand_command(
    hand_id: Annotated[str, typer.Argument(help="The hand's id.")],
    db: DbOption = DEFAULT_URL,
    fmt: FormatOption = Format.table,
) -> None:
    """One booked hand: its postings, findings and any refused re-posts (CSV: postings)."""
    hand = stored_hand(open_for_reading(db), hand_id)
    if hand is None:  # as `cases show` and `report hand` say it: a usage error, exit 2
        raise typer.BadParameter(f"hand {hand_id!r} is not in the ledger at "
                                 f"{shown_url(db)}: check the hand id and the database",
                                 param_hint="HAND_ID")
    postings, findings = _hand_listings(hand)
    if fmt is Format.table:
        console.print(_hand_heading(hand, terminal_width(console)))
    record = hand.record
    _emit([postings, findings], fmt, {
        "hand_id": record.hand_id, "table_id": record.table_id, "game": record.game,
        "status": record.status, "ledger_status": hand.ledger_status,
        "rake_mode": record.rake_mode, "ended_at": record.ended_at,
        "postings": postings.records(), "findings": findings.records(),
        "refused_reposts": hand.conflicts,
    })
    if fmt is Format.table:
        for conflict in hand.conflicts:
            console.print(f"refused re-post {conflict}", markup=False, highlight=False)


def _hand_heading(hand: StoredHand, width: int) -> Text:
    """The hand's id and its fields, broken between fields at ``width`` (a terminal's)."""
    record = hand.record
    hand_id = Text(printable(record.hand_id), "bold")  # the table's free text: never obeyed
    fields = fields_text([
        ("table", printable(record.table_id)), ("game", _dash(record.game)),
        ("status", record.status), ("ledger", hand.ledger_status),
        ("rake mode", _dash(record.rake_mode)),
        ("ended", _dash(None if record.ended_at is None else shown_utc(record.ended_at)))],
        width, start=hand_id.cell_len + 2)
    return Text.assemble(hand_id, fields)  # (``fields`` starts with its gap, or a new line)


def _hand_listings(hand: StoredHand) -> tuple[Listing, Listing]:
    postings = Listing("Postings", [
        Column("seq", count=True), Column("event"), Column("leg", count=True), Column("kind"),
        Column("account"), Column("amount", chips=True)],
        [(p.seq, p.event_id, p.leg, p.kind, p.account, p.amount) for p in hand.postings])
    findings = Listing("Findings", [
        Column("rule"), Column("code"), Column("severity"), Column("seat", count=True),
        Column("amount", chips=True), Column("message")],
        [(f.rule, f.code, f.severity, f.seat, f.amount, f.message) for f in hand.findings])
    return postings, findings


def _dash(value: object) -> str:
    return "-" if value is None else str(value)


# ---------------------------------------------------------------- booking


@ledger_app.command("post")
def post_command(
    records_file: Annotated[
        Path, typer.Argument(exists=True, dir_okay=False, allow_dash=True,
                             help="Adjudication records, one JSON object per line "
                                  "(- reads standard input).")
    ],
    db: DbOption = DEFAULT_URL,
    batch_size: Annotated[int, typer.Option(min=1, help="Hands per transaction.")] = (
        DEFAULT_BATCH_SIZE
    ),
) -> None:
    """Book a file of adjudication records (what ``pitwatch adjudicate`` prints).

    Exits 1 when a line was not a record or the ledger refused a hand or a re-post.
    """
    _refuse_an_event_log(records_file)
    engine = open_for_writing(db)
    statuses: Counter[str] = Counter()
    bad_lines = [0]
    started = time.perf_counter()
    total = lines_beforehand(records_file, errors)
    damage: list[OSError] = []
    with progress_bar(errors) as progress:
        task = progress.add_task("posting", total=total, unit="hands", note="")
        for result in iter_post(engine, _read_records(records_file, bad_lines, damage),
                                batch_size):
            statuses[result.status] += 1
            progress.advance(task)
            for finding in result.findings:
                errors.print(f"{finding.rule} {finding.code}: {printable(finding.message)}",
                             markup=False)
    elapsed = time.perf_counter() - started
    hands = sum(statuses.values())
    summary = ", ".join(f"{status} {count}" for status, count in sorted(statuses.items()))
    rate = f"{hands / elapsed:,.0f} hands/s" if elapsed > 0 else "n/a"
    errors.print(f"{hands} records: {summary or 'none'} in {elapsed:.2f}s ({rate})")
    if damage:  # said in one line (exit 2) once what was read whole is booked
        raise damage[0]
    if bad_lines[0] or statuses["refused"] or statuses["conflict"]:
        raise typer.Exit(code=1)


def _refuse_an_event_log(path: Path) -> None:
    """Stop (one line, exit 2, no database made) when the file is a table's event log,
    not records: each of its lines was reported as "not an adjudication record" (16,665
    lines for a small log, QA) and an empty ledger was made."""
    value = first_value(path)
    if kind_of(value) == "events":
        raise typer.BadParameter(
            f"{path} holds a table's events (its first line is a {value['type']!s:.40} "
            "event), not adjudication records: `pitwatch adjudicate FILE --ledger URL` "
            "adjudicates and books them", param_hint="RECORDS_FILE")


def _read_records(path: Path, bad_lines: list[int], damage: list[OSError]
                  ) -> Iterator[AdjudicationRecord]:
    """Records of a JSONL file; a line that is not a valid record is reported, counted in
    ``bad_lines[0]`` and skipped. A file that stops being readable part way (a compressed
    file cut short) ends the records there, its error kept in ``damage``: the records
    read whole before it are booked (the batch they were in was lost with the error: QA),
    and the caller then says it."""
    try:
        with open_log(path) as lines:
            for number, line in enumerate(lines, start=1):
                if not line.strip():
                    continue
                try:
                    yield decode_record(line)
                except (msgspec.ValidationError, msgspec.DecodeError) as exc:
                    bad_lines[0] += 1
                    errors.print(f"{path}:{number}: not an adjudication record: {exc}",
                                 markup=False)
    except OSError as exc:
        damage.append(exc)
