"""Booked hands held to their own records: the postings and rake rows of every booked
hand derived again from its stored record and compared with the rows the ledger holds.

Why: the ledger's rows are append-only behind triggers and constraints, but a guard only
stops what it was written for, on the connections it binds. Someone with the owner's
rights can drop the triggers and delete a pair of postings (a payout and its other leg):
every hand still balances. A balanced pair inserted under a hand id that was never booked
moves chips between two players' balances; the pending-hand foreign key refuses it at
commit on pitwatch's own connections, but SQLite enforces foreign keys only on a
connection that asks for it (its shell does not), and on PostgreSQL the owner can drop the
constraint. The stored record (``hands.record_json``, whose
SHA-256 is ``hands.record_sha256`` and which ``pitwatch replay`` holds to the archived
events) gives every row again (``entries.identify`` and ``book``, what booked them),
so each difference is found, with the hand, the event and the leg.

Read in chunks of hands (their rows looked up by the primary keys), so memory stays flat
over years of hands. Pure reading: nothing is written.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec
from sqlalchemy import Connection, Engine, Select, func, or_, select

from services.events.contract import decode_record
from services.ledger.archive_tables import ArchiveSegment
from services.ledger.chunks import keyset_chunks
from services.ledger.entries import HandEntry, book, identify
from services.ledger.models import FindingRow, Hand, HandPending, Posting, Rake
from services.ledger.spans import days_between, within_days

HANDS_PER_CHUNK = 500
MAX_LISTED = 3  # differences listed for one hand; the rest are counted


@dataclass(frozen=True)
class LedgerBreak:
    """A booked hand whose rows are not the ones its record gives (or rows of no booked
    hand: ``hand_id`` names the id they were filed under)."""

    table_id: str | None
    hand_id: str
    event_id: str | None
    message: str


@dataclass
class RecheckReport:
    hands: int = 0
    postings: int = 0
    breaks: list[LedgerBreak] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # said, not counted as breaks


def recheck_ledger(engine: Engine, first_day: dt.date | None = None,
                   last_day: dt.date | None = None, table_id: str | None = None
                   ) -> RecheckReport:
    """Every booked hand of the span (by its booking day; every day when none is given),
    or of one table, against its record; rows filed under a hand id that has no ``hands``
    row (they have no day or table to be filtered by: every row of the ledger is looked at
    when no span or table is given, else only the hands left pending, which is cheap; see
    ``_hands_left_pending``); and the hands of the span in the event archive that the
    ledger has no record of although it booked a later hand of the same table
    (``_archived_hands_not_booked``)."""
    report = RecheckReport()
    breaks = report.breaks
    with engine.connect() as conn:
        for chunk in keyset_chunks(conn, _hands_query(first_day, last_day, table_id),
                                   Hand.hand_id, HANDS_PER_CHUNK):
            ids = [row.hand_id for row in chunk]
            postings = _rows_by_hand(conn, _POSTING_COLUMNS, Posting, ids)
            rake = _rows_by_hand(conn, _RAKE_COLUMNS, Rake, ids)
            findings = _rows_by_hand(conn, _FINDING_COLUMNS, FindingRow, ids)
            for row in chunk:
                report.hands += 1
                report.postings += len(postings.get(row.hand_id, ()))
                breaks += hand_breaks(row.table_id, row.hand_id, row.ledger_status,
                                      row.record_sha256, row.record_json,
                                      postings.get(row.hand_id, []), rake.get(row.hand_id, []),
                                      findings.get(row.hand_id, []),
                                      {name: getattr(row, name) for name in HAND_COLUMNS})
        whole = first_day is None and last_day is None and table_id is None
        breaks += _rows_of_no_hand(conn) if whole else _hands_left_pending(conn)
        breaks += _archived_hands_not_booked(conn, first_day, last_day, table_id,
                                             report.notes)
    return report


# ---------------------------------------------------------------- one hand

# The stored rows as tuples, in the order ``entries`` builds them.
_POSTING_COLUMNS = ("event_id", "leg", "seq", "account", "amount", "kind")
_RAKE_COLUMNS = ("event_id", "leg", "table_id", "seat", "player_id", "amount", "mode", "day")
# The ``hands`` columns beside the record, each the record's own field (``day``: the UTC
# day it ended), which the queues, reports and verify's anchors read.
HAND_COLUMNS = ("game", "status", "rule_profile", "rake_mode", "dealer_id", "ended_at", "day",
                "first_seq", "last_seq", "last_hash")
_FINDING_COLUMNS = ("ordinal", "origin", "code", "rule", "severity", "seat", "amount",
                    "message")


def hand_breaks(table_id: str, hand_id: str, status: str, sha256: str, record_json: str,
                postings: Sequence[tuple[Any, ...]], rake: Sequence[tuple[Any, ...]],
                findings: Sequence[tuple[Any, ...]] = (),
                columns: dict[str, Any] | None = None) -> list[LedgerBreak]:
    """One booked hand against its record: the record's own hash, the ``hands`` row's
    ``columns`` (``HAND_COLUMNS``; and its table), then its rows (the postings, the rake,
    the findings ``pitwatch ledger hand`` lists)."""
    def broken(message: str, event_id: str | None = None) -> LedgerBreak:
        return LedgerBreak(table_id, hand_id, event_id, message)

    if hashlib.sha256(record_json.encode("utf-8")).hexdigest() != sha256:
        return [broken(f"hand {hand_id}: the stored record is not the record booked (its "
                       "SHA-256 differs from hands.record_sha256)")]
    try:
        # Decoded here, so the contract's checks ran: ``identify`` need not decode it
        # again (what ``build_entry`` does for a record built in code).
        entry = book(identify(decode_record(record_json), decoded=True))
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        return [broken(f"hand {hand_id}: the stored record cannot be read ({exc})")]
    wrong = _column_differences(table_id, hand_id, entry, columns)
    column_breaks = [broken(f"hand {hand_id}: the hands row holds " + ", ".join(wrong))
                     ] if wrong else []
    expected_postings: list[tuple[Any, ...]] = []
    expected_rake: list[tuple[Any, ...]] = []
    if status == "posted":
        if entry.refusal is not None:
            return [*column_breaks, broken(f"hand {hand_id} is booked as posted, but its "
                                           f"record is refused: {entry.refusal.message}")]
        expected_postings = [tuple(line) for line in entry.postings]
        expected_rake = _expected_rake(entry)
    return (column_breaks
            + [broken(m, e) for m, e in _differences(hand_id, "posting", expected_postings,
                                                      postings)]
            + [broken(m, e) for m, e in _differences(hand_id, "rake row", expected_rake,
                                                      rake)]
            + [broken(m) for m in _finding_differences(hand_id, status, entry, findings)])


def _finding_differences(hand_id: str, status: str, entry: HandEntry,
                         stored: Sequence[tuple[Any, ...]]) -> list[str]:
    """The record's findings, in order, must be the hand's ``record`` rows; a refused hand
    has one ``ledger`` row after them (why it was refused: its words may come from the
    database, so only its place is checked), a posted hand none."""
    record = entry.record
    want = [(i, "record", f.code, f.rule, f.severity, f.seat, f.amount, f.message)
            for i, f in enumerate(record.findings)]
    have = sorted(row for row in stored if row[1] == "record")
    found = []
    if have != want:
        missing = [w for w in want if w not in have]
        extra = [h for h in have if h not in want]
        found.append(f"hand {hand_id}: its findings rows are not its record's ("
                     + "; ".join([*(f"missing {_finding(w)}" for w in missing[:MAX_LISTED]),
                                  *(f"not in the record {_finding(h)}"
                                    for h in extra[:MAX_LISTED])]) + ")")
    refusals = [row for row in stored if row[1] != "record"]
    expected = 1 if status == "refused" else 0
    if len(refusals) != expected or any(row[0] != len(want) or row[1] != "ledger"
                                        for row in refusals):
        found.append(f"hand {hand_id} is booked as {status} with {len(refusals)} ledger "
                     f"finding row(s) after its record's {len(want)} (expected {expected})")
    return found


def _finding(row: tuple[Any, ...]) -> str:
    ordinal, _, code, rule, severity, seat, amount, _message = row
    where = "" if seat is None else f" seat {seat}"
    chips = "" if amount is None else f" amount {amount}"
    return f"#{ordinal} {rule} {code} ({severity}){where}{chips}"


def _column_differences(table_id: str, hand_id: str, entry: HandEntry,
                        columns: dict[str, Any] | None) -> list[str]:
    """Each ``hands`` column that is not its record's field (``posting._hand_row``)."""
    record = entry.record
    given = {"game": record.game, "status": record.status, "rule_profile": record.rule_profile,
             "rake_mode": record.rake_mode, "dealer_id": record.dealer_id,
             "ended_at": record.ended_at, "day": entry.day, "first_seq": record.first_seq,
             "last_seq": record.last_seq, "last_hash": record.last_hash}
    wrong = [f"{name} {_said(columns[name])} (its record: {_said(given[name])})"
             for name in HAND_COLUMNS if columns is not None and columns[name] != given[name]]
    if record.table_id != table_id or record.hand_id != hand_id:
        wrong.insert(0, f"table {table_id!r} and id {hand_id!r} (its record: "
                        f"{record.table_id!r}, {record.hand_id!r})")
    return wrong


def _said(value: Any) -> str:
    """A column's value as a message quotes it: a day as ``'2026-01-06'`` (its repr,
    ``datetime.date(2026, 1, 6)``, is Python's, not the reader's: QA)."""
    return repr(value.isoformat() if isinstance(value, dt.date) else value)


def _expected_rake(entry: HandEntry) -> list[tuple[Any, ...]]:
    record = entry.record
    return [(line.event_id, line.leg, record.table_id, line.seat, line.player_id,
             line.amount, record.rake_mode, entry.day) for line in entry.rake]


def _differences(hand_id: str, what: str, expected: Sequence[tuple[Any, ...]],
                 stored: Sequence[tuple[Any, ...]]) -> list[tuple[str, str | None]]:
    """Each row the record gives that is not stored, and each stored row it does not
    give (by the row's key: event and leg), at most ``MAX_LISTED`` of them, then a count."""
    want = {row[:2]: row for row in expected}
    have = {row[:2]: row for row in stored}
    if want == have:  # every hand of a sound ledger: nothing to sort through
        return []
    found: list[tuple[str, str | None]] = []
    for key in sorted(set(want) | set(have), key=lambda k: (str(k[0]), int(k[1]))):
        given, kept = want.get(key), have.get(key)
        if given == kept:
            continue
        event_id, leg = key
        if kept is None:
            found.append((f"hand {hand_id}: {what} {_show(given)} of event {event_id} leg "
                          f"{leg} is missing from the ledger", str(event_id)))
        elif given is None:
            found.append((f"hand {hand_id}: {what} {_show(kept)} of event {event_id} leg "
                          f"{leg} is in the ledger but not in the hand's record",
                          str(event_id)))
        else:
            found.append((f"hand {hand_id}: {what} of event {event_id} leg {leg} holds "
                          f"{_show(kept)}, its record gives {_show(given)}", str(event_id)))
    if len(found) > MAX_LISTED:
        extra = len(found) - MAX_LISTED
        found = found[:MAX_LISTED] + [(f"hand {hand_id}: {extra} more {what} difference(s)",
                                       None)]
    return found


def _show(row: tuple[Any, ...] | None) -> str:
    return "(" + ", ".join("-" if v is None else str(v) for v in (row or ())[2:]) + ")"


# ---------------------------------------------------------------- reading


def _hands_query(first_day: dt.date | None, last_day: dt.date | None,
                 table_id: str | None) -> Select[*tuple[Any, ...]]:
    query: Select[*tuple[Any, ...]] = select(Hand.hand_id, Hand.table_id, Hand.ledger_status,
                                Hand.record_sha256, Hand.record_json,
                                *(getattr(Hand, name) for name in HAND_COLUMNS))
    if first_day is not None or last_day is not None:
        # And the hands the archive holds in the span, whatever day their row says: a
        # hand whose ``day`` was moved out of the span passed a verify of the span (QA).
        archived = within_days(select(ArchiveSegment.hand_id), ArchiveSegment.day,
                               first_day, last_day)
        query = query.where(or_(days_between(Hand.day, first_day, last_day),
                                Hand.hand_id.in_(archived)))
    if table_id is not None:
        query = query.where(Hand.table_id == table_id)
    return query


def _rows_by_hand(conn: Connection, columns: Sequence[str],
                  model: type[Posting] | type[Rake] | type[FindingRow], hand_ids: list[str]
                  ) -> dict[str, list[tuple[Any, ...]]]:
    table = model.__table__
    rows = conn.execute(select(table.c.hand_id, *(table.c[c] for c in columns))
                        .where(table.c.hand_id.in_(hand_ids)))
    out: dict[str, list[tuple[Any, ...]]] = {}
    for row in rows:
        out.setdefault(row[0], []).append(tuple(row[1:]))
    return out


def _rows_of_no_hand(conn: Connection) -> list[LedgerBreak]:
    """Postings and rake rows filed under a hand id that has no ``hands`` row. Booking
    writes a hand's rows and its ``hands`` row in one transaction (and a foreign key holds
    it to that), so none is ever left behind; such rows were put there by hand, and they
    count in the balances."""
    found: list[LedgerBreak] = []
    for model, what in ((Posting, "posting"), (Rake, "rake row")):
        table = model.__table__
        booked = select(Hand.hand_id).where(Hand.hand_id == table.c.hand_id).exists()
        query = (select(table.c.hand_id, table.c.event_id, table.c.leg).where(~booked)
                 .order_by(table.c.hand_id, table.c.event_id, table.c.leg))
        for hand_id, event_id, leg in conn.execute(query):
            found.append(LedgerBreak(None, hand_id, event_id,
                                     f"{what} of event {event_id} leg {leg} filed under hand "
                                     f"{hand_id}, which was never booked (no hands row)"))
    return found


def _hands_left_pending(conn: Connection) -> list[LedgerBreak]:
    """Hands noted pending (``hands_pending``: a posting, rake or finding row went in) whose
    ``hands`` row never came. A note lives only inside the transaction that books its hand,
    so one left over is a row put in by hand with the foreign key off. Rows that bypass
    the note too (its trigger dropped) are found only by the whole-ledger look of
    ``_rows_of_no_hand``, which reads every posting: too much for a verify of one day of a
    ledger that holds years."""
    query = (select(HandPending.hand_id)
             .where(~select(Hand.hand_id).where(Hand.hand_id == HandPending.hand_id).exists())
             .order_by(HandPending.hand_id))
    return [LedgerBreak(None, hand_id, None,
                        f"rows filed under hand {hand_id}, which was never booked (no hands "
                        "row; the hand is left pending)")
            for hand_id in conn.execute(query).scalars()]


def _archived_hands_not_booked(conn: Connection, first_day: dt.date | None,
                               last_day: dt.date | None, table_id: str | None,
                               notes: list[str]) -> list[LedgerBreak]:
    """Hands in the event archive with no ``hands`` row, where the ledger booked a later
    hand of the same table: the hand, its postings, rake and findings were removed from the
    ledger (behind its dropped guards), or never booked. A table's records are booked in
    its order (one Kafka partition, one ledger service, batches committed in order; one
    transaction with the archive in the embedded runner), so a hand after it booked means
    this one is not still on its way. The table's last hands, past everything booked, are
    not judged: in the pipeline the archive may run ahead of the ledger; ``notes`` gets a
    line for each table that has such hands (a ledger service stopped, or a table's last
    hands removed: only the reader can tell which)."""
    s, h, later = ArchiveSegment, Hand, Hand.__table__.alias("later")
    booked = select(h.hand_id).where(h.hand_id == s.hand_id).exists()
    query = (select(s.table_id, s.hand_id, func.min(s.first_seq), func.max(s.last_seq))
             .where(s.hand_id.is_not(None), ~booked)
             .group_by(s.table_id, s.hand_id).order_by(s.table_id, func.min(s.first_seq)))
    query = within_days(query, s.day, first_day, last_day)
    if table_id is not None:
        query = query.where(s.table_id == table_id)
    found: list[LedgerBreak] = []
    unbooked: dict[str, list[str]] = {}
    for table, hand_id, first_seq, last_seq in conn.execute(query):
        if last_seq is None or hand_id is None:
            continue  # only refused events archived under the hand id
        after = conn.execute(select(later.c.hand_id).where(
            later.c.table_id == table, later.c.last_seq > last_seq)
            .order_by(later.c.last_seq).limit(1)).scalar()
        # Booked in order: once a later hand shows, this one, if the ledger booked it at
        # all, shows too (a hand booked between the two reads is not a break).
        if after is not None and conn.execute(
                select(h.hand_id).where(h.hand_id == hand_id)).first() is None:
            found.append(LedgerBreak(table, hand_id, None,
                                     f"hand {hand_id} is in the event archive (seq "
                                     f"{first_seq}..{last_seq}) but not in the ledger, which "
                                     f"booked hand {after} after it: removed from the ledger"))
        elif after is None:
            unbooked.setdefault(table, []).append(hand_id)
    for table, hands in sorted(unbooked.items()):
        notes.append(f"table {table}: its last {len(hands)} archived hand(s) ("
                     + ", ".join(hands[:3]) + (", ..." if len(hands) > 3 else "")
                     + ") are not in the ledger: a pipeline's ledger may not have booked "
                     "them yet; if it has stopped, or the run was embedded, they were "
                     "removed from the ledger")
    return found
