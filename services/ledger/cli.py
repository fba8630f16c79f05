"""``pitwatch ledger ...``: book adjudication records and read the ledger back.

The lead mounts ``ledger_app`` on the main ``pitwatch`` command. Every command takes
``--db URL`` (default: ``PITWATCH_DB``, else ``sqlite:///var/pitwatch.sqlite``) and
migrates the database to the latest schema on open, like every other ledger user.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated

import msgspec
import typer
from rich.console import Console
from rich.progress import Progress
from rich.table import Table
from rich.text import Text

from services.events.contract import AdjudicationRecord, decode_record
from services.ledger.db import DB_ENV_VAR, DEFAULT_URL, open_ledger
from services.ledger.posting import DEFAULT_BATCH_SIZE, iter_post
from services.ledger.queries import (
    balances,
    player_balances,
    rake_totals,
    stored_hand,
    table_day_totals,
)

ledger_app = typer.Typer(
    name="ledger", help="Book adjudication records and read the ledger.", no_args_is_help=True
)
console = Console()
errors = Console(stderr=True, soft_wrap=True)

DbOption = Annotated[
    str, typer.Option("--db", envvar=DB_ENV_VAR, help="SQLAlchemy URL of the ledger database.")
]


@ledger_app.command("balances")
def balances_command(
    db: DbOption = DEFAULT_URL,
    players_only: Annotated[bool, typer.Option("--players", help="Only player balances.")] = False,
) -> None:
    """Balances per player and per ledger account."""
    engine = open_ledger(db)
    players = Table(title="Players", show_lines=False)
    players.add_column("player")
    players.add_column("balance", justify="right")
    for player in player_balances(engine):
        players.add_row(_text(player.player_id), _chips(player.balance))
    console.print(players)
    if players_only:
        return
    accounts = Table(title="Accounts")
    for column in ("account", "kind"):
        accounts.add_column(column)
    for column in ("postings", "balance"):
        accounts.add_column(column, justify="right")
    total = 0
    for account in balances(engine):
        total += account.balance
        accounts.add_row(
            _text(account.name), account.kind, str(account.postings), _chips(account.balance)
        )
    accounts.add_section()
    accounts.add_row("total", "", "", _chips(total))
    console.print(accounts)


@ledger_app.command("rake")
def rake_command(db: DbOption = DEFAULT_URL) -> None:
    """Rake per table, per posted rake mode, per UTC day."""
    table = Table(title="Rake")
    for column in ("table", "day", "mode"):
        table.add_column(column)
    for column in ("hands", "rake"):
        table.add_column(column, justify="right")
    for row in rake_totals(open_ledger(db)):
        table.add_row(
            _text(row.table_id), _text(row.day), _text(row.mode), str(row.hands), _chips(row.amount)
        )
    console.print(table)


@ledger_app.command("totals")
def totals_command(db: DbOption = DEFAULT_URL) -> None:
    """Per table and UTC day: hands, drop, payouts, rake, house win."""
    table = Table(title="Table totals")
    table.add_column("table")
    table.add_column("day")
    for column in ("hands", "drop", "payouts", "rake", "house win"):
        table.add_column(column, justify="right")
    for row in table_day_totals(open_ledger(db)):
        table.add_row(
            _text(row.table_id),
            _text(row.day),
            str(row.hands),
            _chips(row.drop),
            _chips(row.payouts),
            _chips(row.rake),
            _chips(row.house_win),
        )
    console.print(table)


@ledger_app.command("hand")
def hand_command(
    hand_id: Annotated[str, typer.Argument(help="The hand's id.")], db: DbOption = DEFAULT_URL
) -> None:
    """One booked hand: its postings, findings and any refused re-posts."""
    hand = stored_hand(open_ledger(db), hand_id)
    if hand is None:
        errors.print(f"hand {hand_id!r} is not in the ledger")
        raise typer.Exit(code=1)
    record = hand.record
    console.print(
        Text.assemble(
            (record.hand_id, "bold"),
            f"  table {record.table_id}  game {_text(record.game)}  status {record.status}  "
            f"ledger {hand.ledger_status}  rake mode {_text(record.rake_mode)}  "
            f"ended {_text(record.ended_at)}",
        )
    )
    postings = Table(title="Postings")
    for column in ("seq", "event", "leg", "kind", "account"):
        postings.add_column(column, overflow="fold")
    postings.add_column("amount", justify="right")
    for line in hand.postings:
        postings.add_row(
            str(line.seq),
            line.event_id,
            str(line.leg),
            line.kind,
            _text(line.account),
            _chips(line.amount),
        )
    console.print(postings)
    findings = Table(title="Findings")
    for column in ("rule", "code", "severity", "seat", "amount", "message"):
        findings.add_column(column)
    for finding in hand.findings:
        findings.add_row(
            _text(finding.rule),
            _text(finding.code),
            finding.severity,
            _text(finding.seat),
            _text(finding.amount),
            _text(finding.message),
        )
    console.print(findings)
    for conflict in hand.conflicts:
        console.print(f"refused re-post {conflict}", markup=False, highlight=False)


@ledger_app.command("post")
def post_command(
    records_file: Annotated[
        Path, typer.Argument(help="Adjudication records, one JSON object per line.")
    ],
    db: DbOption = DEFAULT_URL,
    batch_size: Annotated[int, typer.Option(min=1, help="Hands per transaction.")] = (
        DEFAULT_BATCH_SIZE
    ),
) -> None:
    """Book a file of adjudication records (what ``pitwatch adjudicate`` prints)."""
    engine = open_ledger(db)
    statuses: Counter[str] = Counter()
    started = time.perf_counter()
    with Progress(console=errors, transient=True) as progress:
        task = progress.add_task("posting", total=None)
        for result in iter_post(engine, _read_records(records_file), batch_size):
            statuses[result.status] += 1
            progress.advance(task)
            for finding in result.findings:
                errors.print(f"{finding.rule} {finding.code}: {finding.message}", markup=False)
    elapsed = time.perf_counter() - started
    hands = sum(statuses.values())
    summary = ", ".join(f"{status} {count}" for status, count in sorted(statuses.items()))
    rate = f"{hands / elapsed:,.0f} hands/s" if elapsed > 0 else "n/a"
    errors.print(f"{hands} records: {summary or 'none'} in {elapsed:.2f}s ({rate})")


def _read_records(path: Path) -> Iterator[AdjudicationRecord]:
    """Records of a JSONL file; a line that is not a valid record is reported and skipped."""
    with path.open("rb") as lines:
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                yield decode_record(line)
            except (msgspec.ValidationError, msgspec.DecodeError) as exc:
                errors.print(f"{path}:{number}: not an adjudication record: {exc}", markup=False)


def _chips(amount: int) -> str:
    return f"{amount:,}"


def _text(value: object) -> Text:
    """Data as plain text: an id that looks like Rich markup must print as it is."""
    return Text("-" if value is None else str(value))
