"""Booking adjudication records: one hand all-or-nothing, repeats idempotent.

Why it is built this way (architecture.md, "Faust's exactly_once ... is not reliable"):
delivery is at-least-once, so the same record can arrive twice, and a worker can die
between any two statements. So:

* a hand is written in ONE transaction: its postings, rake and findings first, its
  ``hands`` row last (the triggers of the initial migration check the hand balances when
  that row goes in); a crash before COMMIT leaves nothing of the hand;
* the ``hands`` row is the idempotency key: the same ``hand_id`` with the same record
  bytes (SHA-256 of ``encode_record``) is a no-op (``duplicate``); with different bytes
  it is refused, written to ``conflicts`` and reported as a critical ``LEDGER_CONFLICT``
  finding (SURV-9: the stream changed a hand after it was booked);
* a record the ledger cannot book (unknown account, unbalanced layout ...) is stored as a
  ``refused`` hand with a critical ``LEDGER_REFUSED`` finding (GEN-8) and no chips, so
  the refusal is on file; a repeat of it writes nothing and is refused again, with the
  reason kept (a day run again must not pass a hand it never booked); a record that
  breaks the record contract is stored as its ``entries.stand_in`` (its identity,
  no chips), as no reader could decode its own bytes;

Zero-sum enforcement, in three layers: ``entries.check_balanced`` refuses a hand whose
postings do not sum to zero or whose layouts are not empty again (GEN-8) before anything
is written; then, on SQLite and PostgreSQL alike, the database refuses the transaction
itself (triggers of the initial migration: the ``hands`` row checks its postings, child
rows cannot join a booked hand, the book is append-only; a hand's rows note it in
``hands_pending``, whose key to ``hands`` is deferred to COMMIT, so a hand's postings
cannot be left without it: migration 0007; on PostgreSQL the note also keeps the running
sums the ``hands`` row's check reads, so that no check reads the whole book: migration
0008). A CHECK constraint cannot do it:
it sees one row, and the invariant spans a hand's rows. If the database refuses a hand
the code accepted, the hand is stored as refused with the database's reason.

Nothing here raises for one bad hand: every record gets a ``PostResult``. Only an
infrastructure failure (database unreachable, disk full) raises, and then the open
transaction is rolled back, so the caller can retry the same records.

``post_many`` books many hands per transaction (one COMMIT per batch is what makes
SQLite fast). Every hand is still all-or-nothing: the batch commits whole or not at all,
and if any hand of a batch trips a database constraint the batch is rolled back and its
hands are booked one per transaction.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal, cast

import msgspec
from sqlalchemy import Connection, Engine, Insert, Table, text
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import DataError, IntegrityError, OperationalError
from sqlalchemy.orm import Session

from services.events.contract import AdjudicationRecord, Finding, decode_record
from services.ledger.accounts import LedgerAccount
from services.ledger.booked import hands_ending_at, refusal_reasons, stored_hashes, stored_json
from services.ledger.bulk import bulk_insert, dict_rows
from services.ledger.db import WRITE_OPTION, write_transaction
from services.ledger.entries import (
    HandEntry,
    RakeLine,
    book,
    identify,
    refusal_finding,
    stand_in,
)
from services.ledger.models import (
    Account,
    Base,
    Conflict,
    FindingRow,
    Hand,
    HandEnd,
    Posting,
    Rake,
)

CONFLICT_CODE = "LEDGER_CONFLICT"
CONFLICT_RULE = "SURV-9"
DEFAULT_BATCH_SIZE = 500

PostStatus = Literal["posted", "duplicate", "conflict", "refused"]
Target = Engine | Session
Transaction = Callable[[], AbstractContextManager[Connection]]


@dataclass(frozen=True)
class PostResult:
    """What became of one record. ``findings``: the ledger's own (conflict, refusal)."""

    hand_id: str
    status: PostStatus
    postings: int = 0
    findings: tuple[Finding, ...] = ()


@dataclass
class PostTally:
    """What booking a run did, counted as it goes: results by status, and the reasons of
    the first refused or conflicting hands (a run of years keeps counts, not a result
    per hand)."""

    SHOWN: ClassVar[int] = 5  # reasons a summary lists; the rest are counted

    counts: Counter[str] = field(default_factory=Counter)
    refusals: int = 0
    first_refusals: list[str] = field(default_factory=list)

    def add(self, results: Iterable[PostResult]) -> None:
        for result in results:
            self.counts[result.status] += 1
            if result.status in ("refused", "conflict"):
                for f in result.findings:
                    self.refusals += 1
                    if len(self.first_refusals) < self.SHOWN:
                        self.first_refusals.append(f"{f.message} ({f.rule} {f.code})")

    @property
    def not_booked(self) -> int:
        """Hands the ledger did not book: refused (GEN-8) or a changed re-post (SURV-9)."""
        return self.counts["refused"] + self.counts["conflict"]

    @classmethod
    def of(cls, results: Iterable[PostResult]) -> PostTally:
        tally = cls()
        tally.add(results)
        return tally


@dataclass
class _Plan:
    """The writes of one batch, decided before any of them is made."""

    results: list[PostResult]
    new: list[HandEntry]
    conflicts: list[dict[str, Any]]


def prepare_entries(records: Iterable[AdjudicationRecord], decoded: bool = False
                    ) -> list[HandEntry]:
    """The records' entries with their postings and rake rows already built (or their
    refusals), before any database work: ``post_prepared`` then only reads and writes.

    Why: a consumer can build the next batch's entries while the database works on the
    previous one (``services.pipeline.ledger_service``). Unlike ``post_many``, a record
    that turns out to be booked already has been booked in memory for nothing: that is
    paid only for records delivered again. ``decoded``: every record came from
    ``decode_record`` (see ``identify``)."""
    return [book(identify(record, decoded)) for record in records]


def post_prepared(target: Target, entries: list[HandEntry]) -> list[PostResult]:
    """Book ``prepare_entries``' entries in one transaction, as ``post_many`` books one
    batch (a hand that trips a database constraint sends them to one transaction each)."""
    return _post_entries(_transaction_of(target), entries)


def post_hand(target: Target, record: AdjudicationRecord) -> PostResult:
    """Book one hand in its own transaction (a Session must not be inside one already)."""
    return _post_entries(_transaction_of(target), [identify(record)])[0]


def post_many(
    target: Target, records: Iterable[AdjudicationRecord], batch_size: int = DEFAULT_BATCH_SIZE
) -> list[PostResult]:
    """Book many hands, ``batch_size`` per transaction; one result per record, in order."""
    return list(iter_post(target, records, batch_size))


def iter_post(
    target: Target, records: Iterable[AdjudicationRecord], batch_size: int = DEFAULT_BATCH_SIZE
) -> Iterator[PostResult]:
    """Like ``post_many`` but yields each batch's results once it is committed."""
    if batch_size < 1:
        raise ValueError("batch_size must be at least 1")
    transaction = _transaction_of(target)
    for chunk in _chunks(records, batch_size):
        yield from _post_entries(transaction, [identify(record) for record in chunk])


# ---------------------------------------------------------------- transactions


def _transaction_of(target: Target) -> Transaction:
    if isinstance(target, Session):
        session = target

        @contextmanager
        def session_transaction() -> Iterator[Connection]:
            with session.begin():
                yield session.connection(execution_options={WRITE_OPTION: True})

        return session_transaction
    engine = target
    return lambda: write_transaction(engine)


def _chunks(records: Iterable[AdjudicationRecord], size: int) -> Iterator[list[AdjudicationRecord]]:
    chunk: list[AdjudicationRecord] = []
    for record in records:
        chunk.append(record)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


# What the database says when one hand's data, not the database, is the problem.
HandDataError = (IntegrityError, DataError)


# PostgreSQL's "roll back and run the transaction again" errors: a deadlock (40P01) or a
# serialization failure (40001). Two ledgers of one group, or one ledger's transactions in
# flight together (services.pipeline.ledger_service), write disjoint hands in one lock
# order, so neither is expected; should one still happen, nothing of the batch stayed.
RETRY_SQLSTATES = frozenset({"40P01", "40001"})
BATCH_ATTEMPTS = 3


def _post_entries(transaction: Transaction, entries: list[HandEntry]) -> list[PostResult]:
    try:
        return _write_batch(transaction, entries)
    except HandDataError:
        return [_post_alone(transaction, entry) for entry in entries]


def _post_alone(transaction: Transaction, entry: HandEntry) -> PostResult:
    """One hand, one transaction, after its batch hit a constraint.

    A second attempt re-reads what is stored, which settles a race with another writer
    (the hand is then a duplicate or a conflict). If the database still refuses it, its
    guards caught something ``build_entry`` did not: the hand is stored as refused, or,
    if even that is refused, only reported.
    """
    for _ in range(2):
        try:
            return _write_batch(transaction, [entry])[0]
        except HandDataError as exc:
            error = exc
    if entry.invalid is not None:  # not even its stand-in fits: reported, nothing stored
        return _booked_result(book(entry))
    refusal = refusal_finding(f"database refused hand {entry.hand_id}: {error.orig}")
    try:
        return _write_batch(transaction, [build_refused(entry, refusal)])[0]
    except HandDataError:
        # Not even the refusal fits (e.g. an over-long id): report it, store nothing.
        return PostResult(entry.hand_id, "refused", findings=(refusal,))


def build_refused(entry: HandEntry, refusal: Finding) -> HandEntry:
    """The same hand with no chips booked and a refusal finding saying why."""
    return HandEntry(
        record=entry.record,
        record_json=entry.record_json,
        sha256=entry.sha256,
        day=entry.day,
        refusal=refusal,
        booked=True,
    )


# ---------------------------------------------------------------- one batch


def _write_batch(transaction: Transaction, entries: list[HandEntry]) -> list[PostResult]:
    """One transaction, run again if PostgreSQL rolled it back to break a deadlock or a
    serialization conflict (``RETRY_SQLSTATES``): every write of the ledger goes through
    here, a batch, a hand alone after its batch hit a constraint, a refusal."""
    attempt = 1
    while True:
        try:
            return _write_batch_once(transaction, entries)
        except OperationalError as exc:
            if getattr(exc.orig, "sqlstate", None) not in RETRY_SQLSTATES \
                    or attempt == BATCH_ATTEMPTS:
                raise
            attempt += 1


def _write_batch_once(transaction: Transaction, entries: list[HandEntry]
                      ) -> list[PostResult]:
    with transaction() as conn:
        plan = _plan(conn, entries)
        _insert_new_hands(conn, plan.new)
        if plan.conflicts:
            _insert_ignoring_duplicates(conn, Conflict, plan.conflicts)
    return plan.results


def _plan(conn: Connection, entries: Sequence[HandEntry]) -> _Plan:
    """Sort the batch into new hands, duplicates and conflicts, against what is stored
    and against earlier records of the same batch."""
    stored = stored_hashes(conn, {entry.hand_id for entry in entries})
    first_in_batch: dict[str, HandEntry] = {}
    plan = _Plan(results=[], new=[], conflicts=[])
    new_at: list[int] = []  # where each of ``plan.new`` has its result
    refused_again: list[int] = []  # results of refused hands offered again
    for entry in entries:
        if entry.invalid is not None:
            plan.results.append(_booked_result(book(entry)))
            if entry.hand_id not in stored and entry.hand_id not in first_in_batch:
                _store_stand_in(entry, first_in_batch, plan, new_at)
            continue
        earlier = first_in_batch.get(entry.hand_id)
        kept = stored.get(entry.hand_id)
        stored_sha = kept.sha256 if kept else (earlier.sha256 if earlier else None)
        if stored_sha is None:
            first_in_batch[entry.hand_id] = book(entry)
            plan.new.append(entry)
            plan.results.append(_booked_result(entry))
            new_at.append(len(plan.results) - 1)
        elif stored_sha == entry.sha256 and kept is not None and kept.refused:
            refused_again.append(len(plan.results))
            plan.results.append(PostResult(entry.hand_id, "refused"))
        elif stored_sha == entry.sha256 and earlier is not None and earlier.refusal is not None:
            plan.results.append(_refused_again(entry.hand_id, earlier.refusal.message))
        elif stored_sha == entry.sha256:
            plan.results.append(PostResult(entry.hand_id, "duplicate"))
        else:
            kept_json = earlier.record_json if earlier else stored_json(conn, entry.hand_id)
            conflict = _conflict_row(entry, stored_sha, kept_json)
            plan.conflicts.append(conflict)
            plan.results.append(
                PostResult(entry.hand_id, "conflict", findings=(_conflict_finding(conflict),))
            )
    _say_why_refused_again(conn, plan, refused_again)
    _refuse_copied_hands(conn, plan, new_at)
    return plan


def _store_stand_in(entry: HandEntry, first_in_batch: dict[str, HandEntry], plan: _Plan,
                    new_at: list[int]) -> None:
    """A new hand's record that breaks the contract is stored refused as its ``stand_in``
    (identity and span, no chips): the refusal reported is on file, the daily report
    lists it, ``verify`` finds the hand. A stored hand is not changed by such a re-post."""
    kept = stand_in(entry)
    if kept is not None:
        first_in_batch[entry.hand_id] = kept
        plan.new.append(kept)
        new_at.append(len(plan.results) - 1)  # its result: the refusal just appended


def _say_why_refused_again(conn: Connection, plan: _Plan, at: list[int]) -> None:
    """A record the ledger refused before, offered again with the same bytes, is refused
    again (still not booked), with the reason kept when it was first refused. It was
    counted a ``duplicate``, so a day run again exited 0 with the hand never booked (QA): a
    scheduled re-run must see it as the first run did. Only these hands' reasons are read
    (a refusal is rare; a repeat of a booked hand costs no query more)."""
    if not at:
        return
    reasons = refusal_reasons(conn, {plan.results[i].hand_id for i in at})
    for i in at:
        hand_id = plan.results[i].hand_id
        plan.results[i] = _refused_again(hand_id, reasons.get(hand_id, "reason not on file"))


def _refused_again(hand_id: str, reason: str) -> PostResult:
    return PostResult(hand_id, "refused", findings=(refusal_finding(
        f"refused again, as when first offered (the same record; nothing booked): {reason}"),))


def _refuse_copied_hands(conn: Connection, plan: _Plan, new_at: list[int]) -> None:
    """A new hand that ends at the event a booked hand ends at (``last_hash``, the hash of
    the canonical event, table id included), in the book (``hand_ends``) or earlier in
    this batch, is refused (GEN-8: an event's chips move once): else a record copied with
    only its ``hand_id`` (or ``table_id``) changed books every chip of it again. An event
    belongs to one hand, so two hands never end at one event but by a copy; one with no
    chips is refused too (it would claim a hand that never was), and so is a hand that
    moves chips without naming its last event. Its hands row is still stored, with no
    chips, so the refusal is on file and a repeat writes nothing (refused again).

    Keyed by the hand's last event, not by each movement's event id: one key and one
    probe a hand, where looking every movement's event id up cost the ledger about half
    again its CPU a hand on PostgreSQL (0.49 -> 0.72 ms, HCF). A copy whose ``last_hash``
    was changed too is booked here and is a break for ``pitwatch verify``, which holds
    every booked hand's ``last_hash`` to the archived event at its ``last_seq``. Two
    writers booking a hand and its copy at once each look before the other commits: the
    key of ``hand_ends`` then refuses the later batch, which is booked again a hand at a
    time and finds the copy."""
    owners = hands_ending_at(conn, {e.record.last_hash for e in plan.new
                                     if e.refusal is None and e.record.last_hash is not None})
    for index, entry in enumerate(plan.new):
        last_hash = entry.record.last_hash
        if entry.refusal is not None:
            continue
        if last_hash is None:
            if entry.postings:  # every hand the adjudicator closes names its last event
                _refuse(plan, index, new_at[index], (
                    f"hand {entry.hand_id} not booked: it moves chips but names no last "
                    "event (last_hash), so nothing holds it to the events it books"))
            continue
        other = owners.get(last_hash)
        if other is None or other == entry.hand_id:
            owners[last_hash] = entry.hand_id
            continue
        at = "" if entry.record.last_seq is None else f"seq {entry.record.last_seq}, "
        _refuse(plan, index, new_at[index], (
            f"hand {entry.hand_id} not booked: hand {other}, booked already, ends at the "
            f"same event (table {entry.record.table_id}, {at}hash {last_hash[:12]}); a "
            "hand's events and their chips are booked once"))


def _refuse(plan: _Plan, index: int, result_at: int, why: str) -> None:
    """``plan.new[index]`` stored refused instead, with no chips and ``why``."""
    refused = build_refused(plan.new[index], refusal_finding(why))
    plan.new[index] = refused
    plan.results[result_at] = _booked_result(refused)


# New accounts as arrays, one statement text for every batch (``services.ledger.booked``
# says why).
_NEW_ACCOUNTS_PG = text(
    "INSERT INTO accounts (name, kind, table_id, seat, player_id) "
    "SELECT * FROM unnest(CAST(:names AS text[]), CAST(:kinds AS text[]), "
    "CAST(:tables AS text[]), CAST(:seats AS integer[]), CAST(:players AS text[])) "
    "ON CONFLICT (name) DO NOTHING")


def _booked_result(entry: HandEntry) -> PostResult:
    if entry.refusal is not None:
        return PostResult(entry.hand_id, "refused", findings=(entry.refusal,))
    return PostResult(entry.hand_id, "posted", postings=len(entry.postings))


def _insert_new_hands(conn: Connection, entries: list[HandEntry]) -> None:
    """Children first, ``hands`` rows last: the balance trigger fires on the hands row."""
    if not entries:
        return
    accounts = {name: account for entry in entries for name, account in entry.accounts.items()}
    if accounts:
        # In name order: concurrent ledgers (one consumer group, several members, or one
        # ledger's transactions in flight) take the new accounts' locks in one order,
        # never a deadlock.
        _insert_accounts(conn, [a for _, a in sorted(accounts.items())])
    # Binary COPY on PostgreSQL: measured in turns on 6,400 HCF hands, the booking's own
    # Python CPU 0.16 -> 0.12 ms a hand (psycopg formats a binary row in C with less work
    # than a text one) and PostgreSQL's about 4% less (no integers parsed back from text).
    postings = [row for entry in entries for row in _posting_rows(entry)]
    bulk_insert(conn, _table(Posting), POSTING_COLUMNS, postings, binary=True)
    for model, rows in (
        (Rake, [_rake_row(entry, line) for entry in entries for line in entry.rake]),
        (FindingRow, [row for entry in entries for row in _finding_rows(entry)]),
        (Hand, [_hand_row(entry) for entry in entries]),
    ):
        bulk_insert(conn, _table(model), *dict_rows(_table(model), rows), binary=True)
    _insert_hand_ends(conn, entries)


def _insert_hand_ends(conn: Connection, entries: list[HandEntry]) -> None:
    """The booked hands' last events (``hand_ends``: its key refuses a copy's)."""
    rows = [(entry.record.last_hash, entry.hand_id) for entry in entries
            if entry.refusal is None and entry.record.last_hash is not None]
    bulk_insert(conn, _table(HandEnd), ("last_hash", "hand_id"), rows, binary=True)


POSTING_COLUMNS = ("hand_id", "event_id", "leg", "seq", "account", "amount", "kind")


def _table(model: type[Base]) -> Table:
    return cast(Table, model.__table__)


def _insert_accounts(conn: Connection, accounts: list[LedgerAccount]) -> None:
    """The accounts, those already there left as they are, inserted in the given order."""
    if conn.dialect.name == "postgresql":
        conn.execute(_NEW_ACCOUNTS_PG, {
            "names": [a.name for a in accounts], "kinds": [a.kind for a in accounts],
            "tables": [a.table_id for a in accounts], "seats": [a.seat for a in accounts],
            "players": [a.player_id for a in accounts]})
        return
    _insert_ignoring_duplicates(conn, Account, [
        {"name": a.name, "kind": a.kind, "table_id": a.table_id, "seat": a.seat,
         "player_id": a.player_id} for a in accounts])


def _insert_ignoring_duplicates(
    conn: Connection, table: type[Base], rows: list[dict[str, Any]]
) -> None:
    statement: Insert
    if conn.dialect.name == "postgresql":
        statement = postgresql.insert(table).on_conflict_do_nothing()
    elif conn.dialect.name == "sqlite":
        statement = sqlite.insert(table).on_conflict_do_nothing()
    else:
        raise NotImplementedError(f"unsupported dialect {conn.dialect.name}")
    conn.execute(statement, rows)


# ---------------------------------------------------------------- rows


def _hand_row(entry: HandEntry) -> dict[str, Any]:
    record = entry.record
    return {
        "hand_id": record.hand_id,
        "table_id": record.table_id,
        "game": record.game,
        "status": record.status,
        "rule_profile": record.rule_profile,
        "rake_mode": record.rake_mode,
        "dealer_id": record.dealer_id,
        "ended_at": record.ended_at,
        "day": entry.day,
        "first_seq": record.first_seq,
        "last_seq": record.last_seq,
        "last_hash": record.last_hash,
        "ledger_status": "refused" if entry.refusal is not None else "posted",
        "record_sha256": entry.sha256,
        "record_json": entry.record_json,
    }


def _posting_rows(entry: HandEntry) -> list[tuple[str, str, int, int, str, int, str]]:
    hand_id = (entry.record.hand_id,)
    return [hand_id + line for line in entry.postings]


def _rake_row(entry: HandEntry, line: RakeLine) -> dict[str, Any]:
    return {
        "hand_id": entry.hand_id,
        "event_id": line.event_id,
        "leg": line.leg,
        "table_id": entry.record.table_id,
        "seat": line.seat,
        "player_id": line.player_id,
        "amount": line.amount,
        "mode": entry.record.rake_mode,
        "day": entry.day,
    }


def _finding_rows(entry: HandEntry) -> list[dict[str, Any]]:
    tagged = [("record", finding) for finding in entry.record.findings]
    if entry.refusal is not None:
        tagged.append(("ledger", entry.refusal))
    return [
        {
            "hand_id": entry.hand_id,
            "ordinal": ordinal,
            "origin": origin,
            "code": finding.code,
            "rule": finding.rule,
            "severity": finding.severity,
            "seat": finding.seat,
            "amount": finding.amount,
            "message": finding.message,
        }
        for ordinal, (origin, finding) in enumerate(tagged)
    ]


# ---------------------------------------------------------------- conflicts


def _conflict_row(entry: HandEntry, stored_sha256: str, stored_json: str) -> dict[str, Any]:
    return {
        "hand_id": entry.hand_id,
        "offered_sha256": entry.sha256,
        "stored_sha256": stored_sha256,
        "detail": _differing_fields(stored_json, entry.record),
        "offered_json": entry.record_json,
    }


def _differing_fields(stored_json: str, offered: AdjudicationRecord) -> str:
    """Which top-level record fields differ, so the reader knows where to look."""
    stored = msgspec.to_builtins(decode_record(stored_json))
    fresh = msgspec.to_builtins(offered)
    names = sorted(
        name for name in stored.keys() | fresh.keys() if stored.get(name) != fresh.get(name)
    )
    return "fields differ: " + ", ".join(names)


def _conflict_finding(conflict: dict[str, Any]) -> Finding:
    return conflict_finding(conflict["hand_id"], conflict["stored_sha256"],
                            conflict["offered_sha256"], conflict["detail"])


def conflict_finding(hand_id: str, stored_sha256: str, offered_sha256: str,
                     detail: str) -> Finding:
    """The critical SURV-9 finding of a refused re-post, worded once: the ledger reports
    it, the daily report and the console list it, and a case takes it as its evidence."""
    return Finding(
        code=CONFLICT_CODE,
        rule=CONFLICT_RULE,
        severity="critical",
        seat=None,
        amount=None,
        message=(
            f"hand {hand_id} re-posted with different content (stored "
            f"{stored_sha256[:12]}, offered {offered_sha256[:12]}; "
            f"{detail}); refused, the booked hand is unchanged"
        ),
    )
