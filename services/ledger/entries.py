"""What one adjudication record books: pure computation, no database.

Why separate from the writes: the double-entry arithmetic and every reason to refuse a
hand are decided here, from the record alone, so they are tested without a database and
the write path (``services.ledger.posting``) only has to store rows atomically.

Each movement becomes two postings: the ``to`` account is debited ``+amount``, the
``from`` account credited ``-amount`` (events.md, "How chips move"). A hand's postings
therefore sum to zero by construction; the sum and every layout's net are still checked
(GEN-8: settlement conserves chips; a layout is transient and must be empty again at
``hand_ended``), so a bug here is a refusal, never an unbalanced book.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections import defaultdict
from dataclasses import dataclass, field

from services.events.contract import AdjudicationRecord, Finding, Movement, encode_record
from services.ledger.accounts import (
    RAKE_KINDS,
    LedgerAccount,
    MovementRejected,
    Place,
    check_direction,
    ledger_account,
    parse_place,
)

REFUSED_CODE = "LEDGER_REFUSED"
REFUSED_RULE = "GEN-8"


@dataclass(frozen=True)
class PostingLine:
    event_id: str
    leg: int
    seq: int
    account: str
    amount: int
    kind: str


@dataclass(frozen=True)
class RakeLine:
    event_id: str
    leg: int
    seat: int | None
    player_id: str | None
    amount: int


@dataclass
class HandEntry:
    """Everything one record writes, or why it is refused (``refusal`` is then set and
    ``postings``/``rake`` are empty: a refused hand is stored with no chips booked)."""

    record: AdjudicationRecord
    record_json: str
    sha256: str
    day: dt.date | None
    accounts: dict[str, LedgerAccount] = field(default_factory=dict)
    postings: list[PostingLine] = field(default_factory=list)
    rake: list[RakeLine] = field(default_factory=list)
    refusal: Finding | None = None

    @property
    def hand_id(self) -> str:
        return self.record.hand_id


def record_bytes_and_hash(record: AdjudicationRecord) -> tuple[bytes, str]:
    """The record's deterministic bytes and their SHA-256: the identity of a hand's body."""
    raw = encode_record(record)
    return raw, hashlib.sha256(raw).hexdigest()


def utc_day(ended_at: str | None) -> dt.date | None:
    """The UTC calendar day of an RFC 3339 UTC timestamp (the contract allows only UTC)."""
    if ended_at is None:
        return None
    return dt.date.fromisoformat(ended_at[:10])


def refusal_finding(message: str) -> Finding:
    return Finding(
        code=REFUSED_CODE,
        rule=REFUSED_RULE,
        severity="critical",
        seat=None,
        amount=None,
        message=message,
    )


def build_entry(record: AdjudicationRecord) -> HandEntry:
    """Turn a record into its postings and rake rows, or a refusal saying why."""
    raw, sha = record_bytes_and_hash(record)
    entry = HandEntry(
        record=record,
        record_json=raw.decode("utf-8"),
        sha256=sha,
        day=utc_day(record.ended_at),
    )
    try:
        _book_movements(entry, record.movements or [])
        check_balanced(entry)
    except MovementRejected as exc:
        entry.accounts.clear()
        entry.postings.clear()
        entry.rake.clear()
        entry.refusal = refusal_finding(f"hand {record.hand_id} not booked: {exc}")
    return entry


def _book_movements(entry: HandEntry, movements: list[Movement]) -> None:
    record = entry.record
    players = record.players or {}
    movements_per_event: dict[str, int] = defaultdict(int)
    for movement in movements:
        _check_amount(movement)
        source, target = parse_place(movement.from_), parse_place(movement.to)
        check_direction(movement.kind, source, target)
        credit = ledger_account(source, movement.kind, record.table_id, players)
        debit = ledger_account(target, movement.kind, record.table_id, players)
        entry.accounts.setdefault(credit.name, credit)
        entry.accounts.setdefault(debit.name, debit)
        ordinal = movements_per_event[movement.event_id]
        movements_per_event[movement.event_id] += 1
        for leg, account, amount in (
            (2 * ordinal, credit, -movement.amount),
            (2 * ordinal + 1, debit, movement.amount),
        ):
            entry.postings.append(
                PostingLine(
                    movement.event_id, leg, movement.seq, account.name, amount, movement.kind
                )
            )
        if movement.kind in RAKE_KINDS:
            entry.rake.append(_rake_line(movement, 2 * ordinal, (source, credit), (target, debit)))


def _check_amount(movement: Movement) -> None:
    # Structs built in code skip msgspec's decode-time constraints; check them again.
    if type(movement.amount) is not int or movement.amount <= 0:
        raise MovementRejected(
            f"movement of event {movement.event_id} has amount {movement.amount!r}; "
            "amounts are positive integer chips"
        )


def _rake_line(
    movement: Movement,
    leg: int,
    credit: tuple[Place, LedgerAccount],
    debit: tuple[Place, LedgerAccount],
) -> RakeLine:
    """Rake paid is positive (from a stack or the pot); a refund is negative (HCF-12).

    The seat is the one whose stack paid (or got the refund); None when taken from the pot.
    """
    refund = movement.kind == "rake_refund"
    place, account = debit if refund else credit
    return RakeLine(
        event_id=movement.event_id,
        leg=leg,
        seat=place.seat,
        player_id=account.player_id,
        amount=-movement.amount if refund else movement.amount,
    )


def check_balanced(entry: HandEntry) -> None:
    """GEN-8: a hand's postings sum to zero; every layout is back to zero at hand end."""
    total = sum(line.amount for line in entry.postings)
    if total != 0:
        raise MovementRejected(f"postings sum to {total}, not zero")
    layouts: dict[str, int] = defaultdict(int)
    for line in entry.postings:
        if entry.accounts[line.account].kind == "layout":
            layouts[line.account] += line.amount
    unbalanced = {name: net for name, net in layouts.items() if net != 0}
    if unbalanced:
        detail = ", ".join(f"{name} nets {net}" for name, net in sorted(unbalanced.items()))
        raise MovementRejected(f"layouts not empty at hand end: {detail}")
