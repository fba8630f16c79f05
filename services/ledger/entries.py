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
import re
from collections import defaultdict
from dataclasses import dataclass, field
from typing import NamedTuple

import msgspec

from services.events.contract import (
    AdjudicationRecord,
    Finding,
    Movement,
    decode_record,
    encode_record,
)
from services.events.timestamps import timestamp_problem
from services.ledger.accounts import (
    RAKE_KINDS,
    LedgerAccount,
    MovementRejected,
    Place,
    checked_places,
    ledger_account,
)

REFUSED_CODE = "LEDGER_REFUSED"
REFUSED_RULE = "GEN-8"


class PostingLine(NamedTuple):
    event_id: str
    leg: int
    seq: int
    account: str
    amount: int
    kind: str


# A PostingLine made from its values in one C call: the NamedTuple's own constructor (a
# Python function) was about an eighth of the ledger service's CPU at ~50 legs a hand.
_posting = tuple.__new__


class RakeLine(NamedTuple):
    event_id: str
    leg: int
    seat: int | None
    player_id: str | None
    amount: int


@dataclass
class HandEntry:
    """Everything one record writes, or why it is refused (``refusal`` is then set and
    ``postings``/``rake`` are empty: a refused hand is stored with no chips booked).
    ``invalid``: why the record breaks the contract; such a record is refused and stored
    as its ``stand_in`` (its own fields may not fit the columns)."""

    record: AdjudicationRecord
    record_json: str
    sha256: str
    day: dt.date | None
    accounts: dict[str, LedgerAccount] = field(default_factory=dict)
    postings: list[PostingLine] = field(default_factory=list)
    rake: list[RakeLine] = field(default_factory=list)
    refusal: Finding | None = None
    booked: bool = False
    invalid: str | None = None

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


def identify(record: AdjudicationRecord, decoded: bool = False) -> HandEntry:
    """The record's identity (bytes, hash, day) and whether it meets the contract: enough
    to tell a repeat from a new hand, so replays never pay for booking a booked hand.

    Records built in code skip msgspec's decode-time checks (lengths, patterns, ranges),
    so the bytes are decoded once more here: a record that would not have passed the
    wire contract is refused rather than half-fitting the database's columns. A record
    ``decoded`` from bytes by ``decode_record`` passed those checks then, and its bytes
    are not decoded again (the ledger service's records: a tenth of its CPU a hand).
    """
    raw, sha = record_bytes_and_hash(record)
    entry = HandEntry(record=record, record_json=raw.decode("utf-8"), sha256=sha, day=None)
    try:
        if not decoded:
            decode_record(raw)
    except msgspec.ValidationError as exc:
        entry.invalid = f"record breaks the adjudication record contract: {exc}"
        return entry
    # The pattern admits 2026-02-30 (events.md: a timestamp is a real instant); such a
    # record can have no booking day, so it is refused, never a crash of the whole batch.
    problem = None if record.ended_at is None else timestamp_problem(record.ended_at)
    if problem is not None:
        entry.invalid = f"record breaks the adjudication record contract: ended_at {problem}"
        return entry
    entry.day = utc_day(record.ended_at)
    return entry


def book(entry: HandEntry) -> HandEntry:
    """Fill in the entry's postings and rake rows, or a refusal saying why (once)."""
    if entry.booked:
        return entry
    entry.booked = True
    if entry.invalid is not None:
        entry.refusal = refusal_finding(f"hand {entry.hand_id} not booked: {entry.invalid}")
        return entry
    try:
        _book_movements(entry, entry.record.movements or [])
        check_balanced(entry)
    except MovementRejected as exc:
        entry.accounts.clear()
        entry.postings.clear()
        entry.rake.clear()
        entry.refusal = refusal_finding(f"hand {entry.hand_id} not booked: {exc}")
    return entry


# The record's fields a stand-in keeps when they meet the contract: what the hands row,
# the daily report and ``pitwatch verify`` read of a hand (its day, its events' span).
_KEPT_FIELDS = ("game", "rule_profile", "players", "dealer_id", "rake_mode", "ended_at",
                "first_seq", "last_seq", "last_hash")
_AT_FIELD = re.compile(r"at `\$\.([a-z_]+)")


def stand_in(entry: HandEntry) -> HandEntry | None:
    """What the ledger stores of a record that breaks the contract: a record that meets it,
    with the hand's identity and every field of ``_KEPT_FIELDS`` that is within the
    contract, and no chips, findings or sides; refused with ``entry``'s reason. None when
    even the hand's identity breaks the contract (the refusal is then only reported).

    Why (QA, helper 68): such a record was refused and reported "on file with its reason"
    but nothing was stored, so the daily report did not list it and ``pitwatch verify``
    called the hand removed from the ledger. The offered bytes cannot be the stored
    record (every reader decodes it under the contract), so the stand-in is stored, as
    any refused hand, with its own bytes and hash: a repeat of the offered record is
    refused again and a different record for the hand is a ``LEDGER_CONFLICT``, as for
    every refused hand. A field that breaks the contract (the decoder names it, or
    ``ended_at`` not a real instant) is left out, one at a time."""
    offered = entry.record
    fields = {name: getattr(offered, name) for name in _KEPT_FIELDS}
    status = offered.status
    for _ in range(len(_KEPT_FIELDS) + 2):
        record = AdjudicationRecord(
            v=1, table_id=offered.table_id, hand_id=offered.hand_id, status=status,
            expected=None, recorded=None, findings=[], **fields)
        try:
            kept = identify(record)
        except (TypeError, ValueError, msgspec.EncodeError):  # a field not even encodable
            return None
        if kept.invalid is None:
            kept.refusal, kept.booked = entry.refusal, True
            return kept
        at = _AT_FIELD.search(kept.invalid)
        culprit = at.group(1) if at else ("ended_at" if "ended_at" in kept.invalid else None)
        if culprit in fields and fields[culprit] is not None:
            fields[culprit] = None
        elif culprit == "status" and status != "rejected":
            status = "rejected"
        else:
            return None
    return None


def build_entry(record: AdjudicationRecord) -> HandEntry:
    """Turn a record into its postings and rake rows, or a refusal saying why."""
    return book(identify(record))


def _book_movements(entry: HandEntry, movements: list[Movement]) -> None:
    """Two legs per movement; accounts resolved once per hand and place."""
    table_id, players = entry.record.table_id, entry.record.players or {}
    resolved: dict[tuple[str, bool], LedgerAccount] = {}

    def account_of(place: Place, kind: str) -> LedgerAccount:
        key = (place.name, kind in RAKE_KINDS)
        account = resolved.get(key)
        if account is None:
            account = resolved[key] = ledger_account(place, kind, table_id, players)
            entry.accounts.setdefault(account.name, account)
        return account

    movements_per_event: dict[str, int] = {}
    for movement in movements:
        _check_amount(movement)
        kind, amount, event = movement.kind, movement.amount, movement.event_id
        source, target = checked_places(kind, movement.from_, movement.to)
        credit, debit = account_of(source, kind), account_of(target, kind)
        ordinal = movements_per_event.get(event, 0)
        movements_per_event[event] = ordinal + 1
        leg = 2 * ordinal
        entry.postings.append(_posting(PostingLine, (event, leg, movement.seq, credit.name,
                                                     -amount, kind)))
        entry.postings.append(_posting(PostingLine, (event, leg + 1, movement.seq, debit.name,
                                                     amount, kind)))
        if kind in RAKE_KINDS:
            entry.rake.append(_rake_line(movement, leg, (source, credit), (target, debit)))


# Chips stay exact for every JSON reader (IEEE doubles are exact up to 2**53), and far
# from BIGINT overflow however many of them a balance adds up.
MAX_CHIPS = 2**53 - 1


def _check_amount(movement: Movement) -> None:
    # The struct allows any int; chips here are positive and JSON-exact.
    if type(movement.amount) is not int or not 0 < movement.amount <= MAX_CHIPS:
        raise MovementRejected(
            f"movement of event {movement.event_id} has amount {movement.amount!r}; "
            f"amounts are integer chips from 1 to {MAX_CHIPS}"
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
    """GEN-8: a hand's postings sum to zero; every layout and every pot is back to zero at
    hand end (events.md: "every layout returns to its seat and the pot must be empty").

    Why the pot too (QA, 2026-12-06): only layouts were checked, so a hand paying a chip
    more out of the pot than went in (POT_OVERDRAWN) or leaving chips in it
    (POT_NOT_EMPTY) was booked, and its pot account carried the difference into the
    table's next hands: the day's payouts then differed from its drop by that chip while
    the daily report said it reconciled to the chip. Chips that came from nowhere, or
    whose whereabouts the events do not say, cannot be booked faithfully: the hand is
    refused (LEDGER_REFUSED), as one whose layout is not empty, until the source is
    corrected."""
    total = sum(line.amount for line in entry.postings)
    if total != 0:
        raise MovementRejected(f"postings sum to {total}, not zero")
    left: dict[str, dict[str, int]] = {"layout": defaultdict(int), "pot": defaultdict(int)}
    for line in entry.postings:
        places = left.get(entry.accounts[line.account].kind)
        if places is not None:
            places[line.account] += line.amount
    for kind, places in left.items():
        unbalanced = {name: net for name, net in places.items() if net != 0}
        if unbalanced:
            detail = ", ".join(f"{name} nets {net}" for name, net in sorted(unbalanced.items()))
            raise MovementRejected(f"{kind}s not empty at hand end: {detail}")
