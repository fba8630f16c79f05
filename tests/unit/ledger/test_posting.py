"""Booking hands: double entry, one transaction per hand, idempotency, conflicts,
refusals, and the database's own guards, every test on SQLite and on PostgreSQL (the
``engine`` fixture, tests/conftest.py)."""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import msgspec
import psycopg
import pytest
from sqlalchemy import Connection, Engine, Table, text
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session

from services.events.contract import AdjudicationRecord, Finding
from services.ledger import entries, posting
from services.ledger.bulk import bulk_insert
from services.ledger.db import open_ledger
from services.ledger.posting import post_hand, post_many
from services.ledger.queries import stored_record
from tests.databases import fresh_schema
from tests.unit.ledger.builders import (
    DAY_ONE,
    event_id,
    hcf_dp_collects,
    hcf_seat1_wins,
    holdem_pot_hand,
    move,
    record,
    russian_house_hand,
)
from tests.unit.ledger.dbread import account_balances, count, rows, snapshot


def test_hcf_hand_posts_balanced_double_entry(engine: Engine) -> None:
    """``hcf_seat1_wins`` by hand: alice +9, bob -10, layout 0, house:rake +1;
    10 postings (two per movement), summing to 0; one rake row (seat 1, 1, players)."""
    result = post_hand(engine, hcf_seat1_wins())
    assert (result.status, result.postings, result.findings) == ("posted", 10, ())
    assert account_balances(engine) == {
        "player:alice": 9,
        "player:bob": -10,
        "layout:T1:1": 0,
        "house:rake": 1,
    }
    assert rows(engine, "SELECT SUM(amount), COUNT(*) FROM postings") == [(0, 10)]
    assert rows(engine, "SELECT table_id, seat, player_id, amount, mode, day FROM rake") == [
        ("T1", 1, "alice", 1, "players", "2024-05-01"),
    ]
    assert rows(engine, "SELECT ledger_status, status, day, dealer_id FROM hands") == [
        ("posted", "ok", "2024-05-01", "D7"),
    ]


def test_reposting_the_same_record_changes_nothing(engine: Engine) -> None:
    post_hand(engine, hcf_seat1_wins())
    before = snapshot(engine)
    again = post_hand(engine, hcf_seat1_wins())
    assert (again.status, again.postings, again.findings) == ("duplicate", 0, ())
    assert snapshot(engine) == before


def test_same_hand_id_with_other_content_is_a_conflict_not_a_change(engine: Engine) -> None:
    """The table re-sent hand T1-000001 with the payout altered 10 -> 12 (and the layout
    return unchanged): refused, stored in conflicts, reported as LEDGER_CONFLICT (SURV-9);
    the booked postings stay alice +9, bob -10."""
    post_hand(engine, hcf_seat1_wins())
    booked = snapshot(engine)
    altered = hcf_seat1_wins()
    altered.movements[2] = move(3, "stack:3", "stack:1", 12, "payout")  # type: ignore[index]
    result = post_hand(engine, altered)
    assert result.status == "conflict"
    (finding,) = result.findings
    assert (finding.code, finding.rule, finding.severity) == (
        "LEDGER_CONFLICT",
        "SURV-9",
        "critical",
    )
    assert "fields differ: movements" in finding.message
    assert account_balances(engine) == {
        "player:alice": 9,
        "player:bob": -10,
        "layout:T1:1": 0,
        "house:rake": 1,
    }
    conflicts = rows(engine, "SELECT hand_id, stored_sha256, detail FROM conflicts")
    stored_sha = booked["hands"][0][-2]
    assert conflicts == [("T1-000001", stored_sha, "fields differ: movements")]
    # Replaying the same conflicting record is itself idempotent: still one conflict row.
    assert post_hand(engine, altered).status == "conflict"
    assert count(engine, "conflicts") == 1


def test_a_conflict_in_a_batch_does_not_stop_the_other_hands(engine: Engine) -> None:
    post_hand(engine, hcf_seat1_wins())
    altered = msgspec.structs.replace(hcf_seat1_wins(), dealer_id="D8")
    results = post_many(engine, [hcf_dp_collects(), altered, russian_house_hand()])
    assert [r.status for r in results] == ["posted", "conflict", "posted"]
    assert count(engine, "hands") == 3
    assert "fields differ: dealer_id" in results[1].findings[0].message


def test_repeats_inside_one_batch_are_duplicates_or_conflicts(engine: Engine) -> None:
    first = hcf_seat1_wins()
    altered = msgspec.structs.replace(first, status="discrepancy")
    results = post_many(engine, [first, first, altered], batch_size=10)
    assert [r.status for r in results] == ["posted", "duplicate", "conflict"]
    assert rows(engine, "SELECT detail FROM conflicts") == [("fields differ: status",)]
    assert count(engine, "postings") == 10


def test_unbookable_record_is_stored_refused_with_its_reason(engine: Engine) -> None:
    """Seat 1 wagers 5 and nothing takes it off the layout: layout:T1:1 nets +5 at hand
    end, so the hand is refused (GEN-8), stored with no postings. A repeat writes nothing
    and is refused again with the reason kept (it was a "duplicate": a day run again
    exited 0 with the hand never booked, QA); in one batch too."""
    broken = record("T1-5", [move(1, "stack:1", "layout:1", 5, "wager")])
    result = post_hand(engine, broken)
    assert result.status == "refused"
    assert [(f.code, f.rule) for f in result.findings] == [("LEDGER_REFUSED", "GEN-8")]
    reason = result.findings[0].message
    assert "layout:T1:1 nets 5" in reason, reason
    assert rows(engine, "SELECT ledger_status FROM hands") == [("refused",)]
    assert count(engine, "postings") == 0
    assert rows(engine, "SELECT origin, code FROM findings") == [("ledger", "LEDGER_REFUSED")]
    before = snapshot(engine)
    again = post_hand(engine, broken)
    assert again.status == "refused" and again.postings == 0
    assert [(f.code, f.rule, f.message) for f in again.findings] == [
        ("LEDGER_REFUSED", "GEN-8", "refused again, as when first offered (the same record; "
         f"nothing booked): {reason}")]
    assert snapshot(engine) == before
    twice = post_many(engine, [record("T1-6", [move(1, "stack:1", "layout:1", 5, "wager")])] * 2)
    assert [r.status for r in twice] == ["refused", "refused"]
    assert twice[1].findings[0].message == ("refused again, as when first offered (the same "
                                            f"record; nothing booked): {twice[0].findings[0].message}")
    assert post_hand(engine, hcf_seat1_wins("T1-7")).status == "posted"
    assert post_hand(engine, hcf_seat1_wins("T1-7")).status == "duplicate"


def test_rejected_record_is_stored_with_its_findings_and_no_postings(engine: Engine) -> None:
    reason = Finding(
        code="SEQ_GAP",
        rule="SURV-9",
        severity="critical",
        seat=None,
        amount=None,
        message="seq 12 missing",
    )
    rejected = record("T1-6", None, status="rejected", findings=[reason], rake_mode=None)
    result = post_hand(engine, rejected)
    assert (result.status, result.postings) == ("posted", 0)
    assert rows(engine, "SELECT status, ledger_status FROM hands") == [("rejected", "posted")]
    assert rows(engine, "SELECT ordinal, origin, code, rule, severity, message FROM findings") == [
        (0, "record", "SEQ_GAP", "SURV-9", "critical", "seq 12 missing"),
    ]
    assert count(engine, "postings") == 0


def test_database_refuses_an_unbalanced_hand_that_slipped_past_the_code(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the Python balance check switched off, a hand whose layout keeps 5 chips
    reaches the database; the hands trigger refuses it (GEN-8), the batch falls back to
    one hand per transaction, the other hands are posted and the bad one is stored as
    refused with the database's reason and no postings."""
    monkeypatch.setattr(entries, "check_balanced", lambda entry: None)
    leaky = record("T1-7", [move(1, "stack:1", "layout:1", 5, "wager")])
    results = post_many(engine, [hcf_seat1_wins(), leaky, hcf_dp_collects()], batch_size=10)
    assert [r.status for r in results] == ["posted", "refused", "posted"]
    assert "do not balance" in results[1].findings[0].message
    assert rows(engine, "SELECT hand_id FROM postings GROUP BY hand_id ORDER BY hand_id") == [
        ("T1-000001",),
        ("T1-000002",),
    ]
    assert rows(engine, "SELECT ledger_status FROM hands WHERE hand_id = 'T1-7'") == [("refused",)]


def test_raw_unbalanced_postings_cannot_be_committed(engine: Engine) -> None:
    """Any writer, not just post_hand: a single +5 leg for a new hand fails at the hands
    row (GEN-8) and leaves nothing behind."""
    with pytest.raises(IntegrityError, match="do not balance"), engine.begin() as conn:
        conn.execute(text("INSERT INTO accounts (name, kind) VALUES ('house:rake', 'house_rake')"))
        conn.execute(
            text(
                "INSERT INTO postings (hand_id, event_id, leg, seq, account, amount, kind) "
                "VALUES ('X-1', :e, 0, 1, 'house:rake', 5, 'rake')"
            ),
            {"e": event_id(1)},
        )
        conn.execute(
            text(
                "INSERT INTO hands (hand_id, table_id, status, ledger_status, "
                "record_sha256, record_json) VALUES ('X-1', 'X', 'ok', 'posted', 'x', '{}')"
            )
        )
    assert count(engine, "postings") == 0 and count(engine, "accounts") == 0


def test_postings_without_their_hand_row_cannot_be_committed(engine: Engine) -> None:
    """The deferred foreign key: postings whose hand row never arrives fail at COMMIT."""
    with pytest.raises(IntegrityError), engine.begin() as conn:
        conn.execute(text("INSERT INTO accounts (name, kind) VALUES ('house:rake', 'house_rake')"))
        conn.execute(
            text(
                "INSERT INTO postings (hand_id, event_id, leg, seq, account, amount, kind) "
                "VALUES ('X-2', :e, 0, 1, 'house:rake', 5, 'rake')"
            ),
            {"e": event_id(1)},
        )
    assert count(engine, "postings") == 0


def test_postings_naming_an_unknown_account_are_refused(engine: Engine) -> None:
    """Migration 0005: a statement trigger, not a per-row foreign key, checks accounts.
    One statement of two legs, one naming a known account and one not: the whole
    statement is refused as an integrity error, and nothing is left."""
    with pytest.raises(IntegrityError, match="account that does not exist"), \
            engine.begin() as conn:
        conn.execute(text("INSERT INTO accounts (name, kind) VALUES ('house:rake', 'house_rake')"))
        conn.execute(
            text(
                "INSERT INTO postings (hand_id, event_id, leg, seq, account, amount, kind) "
                "VALUES ('X-3', :e, 0, 1, 'house:rake', -5, 'rake'), "
                "('X-3', :e, 1, 1, 'bank:nowhere', 5, 'rake')"
            ),
            {"e": event_id(1)},
        )
    assert count(engine, "postings") == 0 and count(engine, "accounts") == 0


@pytest.mark.parametrize("statement", ["UPDATE accounts SET name = 'renamed'",
                                       "DELETE FROM accounts"])
def test_an_account_postings_name_cannot_be_renamed_or_removed(engine: Engine,
                                                               statement: str) -> None:
    """What the foreign key also guaranteed: the accounts table is append-only."""
    post_hand(engine, hcf_seat1_wins())
    before = snapshot(engine)
    with pytest.raises(IntegrityError, match="append-only"), engine.begin() as conn:
        conn.execute(text(statement))
    assert snapshot(engine) == before


@pytest.mark.parametrize(
    "statement",
    [
        "INSERT INTO postings (hand_id, event_id, leg, seq, account, amount, kind) "
        "VALUES ('T1-000001', 'e', 0, 1, 'house:rake', 5, 'rake')",
        "UPDATE postings SET amount = amount * 2",
        "DELETE FROM postings",
        "UPDATE hands SET status = 'ok'",
        "DELETE FROM rake",
        "DELETE FROM findings",
    ],
)
def test_a_booked_hand_cannot_be_changed(engine: Engine, statement: str) -> None:
    note = Finding(
        code="NOTE", rule="HCF-12", severity="info", seat=1, amount=1, message="rake taken"
    )
    post_hand(engine, msgspec.structs.replace(hcf_seat1_wins(), findings=[note]))
    before = snapshot(engine)
    with pytest.raises(IntegrityError), engine.begin() as conn:
        conn.execute(text(statement))
    assert snapshot(engine) == before


def test_a_failed_batch_leaves_no_half_hand(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A crash after the postings of a batch are written but before COMMIT (simulated by
    an error when the hands rows are inserted) leaves no posting of any hand behind."""

    def crash_on_hands(conn: Connection, table: Table, *rest: Any, **options: Any) -> None:
        if table.name == "hands":
            raise RuntimeError("worker killed")
        bulk_insert(conn, table, *rest, **options)

    monkeypatch.setattr(posting, "bulk_insert", crash_on_hands)
    with pytest.raises(RuntimeError, match="worker killed"):
        post_many(engine, [hcf_seat1_wins(), hcf_dp_collects()])
    assert count(engine, "postings") == 0 and count(engine, "hands") == 0
    monkeypatch.setattr(posting, "bulk_insert", bulk_insert)
    assert [r.status for r in post_many(engine, [hcf_seat1_wins(), hcf_dp_collects()])] == [
        "posted",
        "posted",
    ]


def test_batches_and_single_posts_build_the_same_ledger(tmp_path: Path, engine: Engine) -> None:
    hands = [
        hcf_seat1_wins(),
        hcf_dp_collects(),
        russian_house_hand(),
        holdem_pot_hand(),
        hcf_seat1_wins("T1-000003", ended_at="2024-05-02T01:00:00Z"),
    ]
    other = open_ledger(f"sqlite:///{tmp_path}/other.sqlite")
    for hand in hands:
        post_hand(other, hand)
    results = post_many(engine, hands, batch_size=2)
    assert [r.status for r in results] == ["posted"] * 5
    assert snapshot(engine) == snapshot(other)
    other.dispose()


def test_post_hand_accepts_a_session(engine: Engine) -> None:
    with Session(engine) as session:
        assert post_hand(session, hcf_seat1_wins()).status == "posted"
        assert post_hand(session, hcf_seat1_wins()).status == "duplicate"
    assert count(engine, "hands") == 1


def test_batch_size_must_be_positive(engine: Engine) -> None:
    with pytest.raises(ValueError, match="batch_size"):
        post_many(engine, [hcf_seat1_wins()], batch_size=0)


def test_hand_end_day_is_stored_for_daily_totals(engine: Engine) -> None:
    post_hand(engine, hcf_seat1_wins(ended_at=DAY_ONE))
    post_hand(engine, hcf_dp_collects(ended_at="2024-05-02T00:00:00Z"))
    assert rows(engine, "SELECT hand_id, day FROM hands ORDER BY hand_id") == [
        ("T1-000001", "2024-05-01"),
        ("T1-000002", "2024-05-02"),
    ]


def test_two_writers_delivering_the_same_hands_book_each_once(db_url: str) -> None:
    """At-least-once delivery to two writers at the same time (two engines on one SQLite
    file or one PostgreSQL schema), both delivering the same 60 hands in opposite orders
    and different batch sizes: writers queue instead of failing, each hand is posted
    once and is a duplicate for the other writer."""
    engines = [open_ledger(db_url), open_ledger(db_url)]
    hands = [hcf_seat1_wins(f"T1-{n:06d}") for n in range(60)]
    outcomes: list[list[posting.PostResult]] = [[], []]
    failures: list[BaseException] = []
    start = threading.Barrier(2)

    def work(index: int, batch: list[AdjudicationRecord], batch_size: int) -> None:
        try:
            start.wait()
            outcomes[index] = post_many(engines[index], batch, batch_size=batch_size)
        except BaseException as exc:  # a thread cannot raise into pytest: reported below
            failures.append(exc)

    threads = [
        threading.Thread(target=work, args=(0, hands, 4)),
        threading.Thread(target=work, args=(1, hands[::-1], 9)),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    statuses = Counter((r.hand_id, r.status) for results in outcomes for r in results)
    assert statuses == Counter(
        {(h.hand_id, status): 1 for h in hands for status in ("posted", "duplicate")}
    )
    # 60 x hcf_seat1_wins: alice +9, bob -10, house:rake +1 each.
    assert account_balances(engines[0]) == {
        "player:alice": 540,
        "player:bob": -600,
        "layout:T1:1": 0,
        "house:rake": 60,
    }
    for engine in engines:
        engine.dispose()


def test_record_breaking_the_contract_is_refused_and_kept_as_far_as_it_fits(
        engine: Engine) -> None:
    """Built in code, a record skips decode-time checks: a 201-character hand id and a
    movement whose event id is not a UUID are both caught and reported; the hand between
    them is posted. The second is kept on file as refused (``entries.stand_in``: its
    identity, no chips); of the first nothing can be stored (its very id breaks the
    contract)."""
    long_id = msgspec.structs.replace(hcf_seat1_wins(), hand_id="T" * 201)
    bad_event = hcf_seat1_wins("T1-8")
    bad_event.movements[0] = msgspec.structs.replace(  # type: ignore[index]
        bad_event.movements[0],  # type: ignore[index]
        event_id="not-a-uuid",
    )
    results = post_many(engine, [long_id, hcf_dp_collects(), bad_event])
    assert [r.status for r in results] == ["refused", "posted", "refused"]
    assert "length <= 200" in results[0].findings[0].message
    assert "$.movements[0].event_id" in results[2].findings[0].message
    assert rows(engine, "SELECT hand_id, ledger_status FROM hands ORDER BY hand_id") == [
        ("T1-000002", "posted"), ("T1-8", "refused")]
    assert rows(engine, "SELECT count(*) FROM postings WHERE hand_id = 'T1-8'") == [(0,)]


def test_an_impossible_hand_end_date_is_refused_and_the_others_are_booked(
        engine: Engine) -> None:
    """Issue #19 item 3: one record ending on 2026-02-30 made ``--ledger`` book 0 hands.
    It is kept on file as refused, without its impossible ``ended_at`` (no day)."""
    impossible = hcf_seat1_wins("T1-30", ended_at="2026-02-30T18:00:00.000Z")
    results = post_many(engine, [hcf_seat1_wins(), impossible, hcf_dp_collects()])
    assert [r.status for r in results] == ["posted", "refused", "posted"]
    assert "February 2026 has 28 days" in results[1].findings[0].message
    assert rows(engine, "SELECT hand_id, ledger_status FROM hands ORDER BY hand_id") == [
        ("T1-000001", "posted"), ("T1-000002", "posted"), ("T1-30", "refused")]
    assert rows(engine, "SELECT ended_at, day FROM hands WHERE hand_id = 'T1-30'") == [
        (None, None)]


def test_text_with_control_characters_round_trips(engine: Engine) -> None:
    """Tabs, newlines, backslashes and non-ASCII survive byte for byte (on PostgreSQL
    the rows go in by COPY, whose text format escapes them)."""
    odd = Finding(code="NOTE", rule="GEN-5", severity="info", seat=None, amount=None,
                  message="tab\there\nnew line \\N back\\slash ä € 🂡")
    hand = msgspec.structs.replace(
        hcf_seat1_wins(), findings=[odd], players={"1": "al\tice\\N", "3": "b\nob"})
    assert post_hand(engine, hand).status == "posted"
    assert stored_record(engine, "T1-000001") == hand
    assert post_hand(engine, hand).status == "duplicate"
    assert rows(engine, "SELECT message FROM findings") == [(odd.message,)]
    assert ("player:al\tice\\N",) in rows(engine, "SELECT name FROM accounts")


def test_data_the_database_rejects_is_refused_without_stopping_the_batch(
        engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    """With the contract check bypassed, a 201-character hand id reaches the database.
    PostgreSQL rejects it (VARCHAR(200)): the batch falls back to one hand per
    transaction, the bad hand is reported refused (nothing of it can be stored), the
    others post. SQLite does not enforce lengths: there it is booked."""

    def unchecked(record: AdjudicationRecord) -> entries.HandEntry:
        entry = entries.identify(record)
        entry.invalid = None
        return entry

    monkeypatch.setattr(posting, "identify", unchecked)
    too_long = msgspec.structs.replace(hcf_dp_collects(), hand_id="T" * 201)
    results = post_many(engine, [hcf_seat1_wins(), too_long, russian_house_hand()])
    stored = [("R1-000001",), ("T1-000001",)]
    if engine.dialect.name == "postgresql":
        assert [r.status for r in results] == ["posted", "refused", "posted"]
        assert "database refused hand" in results[1].findings[0].message
    else:
        assert [r.status for r in results] == ["posted", "posted", "posted"]
        stored.append(("T" * 201,))
    assert rows(engine, "SELECT hand_id FROM hands ORDER BY hand_id") == stored


@pytest.mark.integration
@pytest.mark.parametrize("table", ["postings", "hands", "rake", "findings", "conflicts"])
def test_postgresql_refuses_truncate(pg_url: str, table: str) -> None:
    """TRUNCATE (PostgreSQL has it, SQLite does not) is refused like DELETE."""
    from tests.databases import fresh_schema

    with fresh_schema(pg_url) as url:
        engine = open_ledger(url)
        post_hand(engine, hcf_seat1_wins())
        before = snapshot(engine)
        with pytest.raises(IntegrityError, match="append-only"), engine.begin() as conn:
            conn.execute(text(f"TRUNCATE {table} CASCADE"))
        assert snapshot(engine) == before
        engine.dispose()


def _deadlock() -> OperationalError:
    """What SQLAlchemy raises when PostgreSQL rolls a transaction back to break a deadlock."""
    return OperationalError("COPY postings ...", {}, psycopg.errors.DeadlockDetected())


def test_a_batch_rolled_back_by_a_deadlock_is_written_again(
        engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two transactions in flight (the ledger service's default) lock in one order, yet a
    deadlock or serialization failure only rolls the batch back: it is written again, and
    each hand is booked once. Any other operational error (the server gone) is raised."""
    real_write = posting._write_batch_once
    calls: list[int] = []

    def write_after_deadlocks(deadlocks: int) -> Any:
        def write(transaction: Any, batch: list[entries.HandEntry]) -> Any:
            calls.append(len(batch))
            if len(calls) <= deadlocks:
                raise _deadlock()
            return real_write(transaction, batch)
        return write

    monkeypatch.setattr(posting, "_write_batch_once", write_after_deadlocks(2))
    hands = [hcf_seat1_wins(), hcf_dp_collects()]
    results = posting.post_prepared(engine, posting.prepare_entries(hands))
    assert [r.status for r in results] == ["posted", "posted"]
    assert calls == [2, 2, 2]
    assert count(engine, "hands") == 2

    calls.clear()
    monkeypatch.setattr(posting, "_write_batch_once",
                        write_after_deadlocks(posting.BATCH_ATTEMPTS))
    with pytest.raises(OperationalError):
        posting.post_prepared(engine, posting.prepare_entries([russian_house_hand()]))
    assert calls == [1] * posting.BATCH_ATTEMPTS

    calls.clear()
    gone = OperationalError("COPY postings ...", {}, psycopg.errors.AdminShutdown())

    def server_gone(transaction: Any, batch: list[entries.HandEntry]) -> Any:
        calls.append(len(batch))
        raise gone

    monkeypatch.setattr(posting, "_write_batch_once", server_gone)
    with pytest.raises(OperationalError):
        posting.post_prepared(engine, posting.prepare_entries([russian_house_hand()]))
    assert calls == [1]
    assert count(engine, "hands") == 2


@pytest.mark.integration
def test_two_batches_at_once_book_each_hand_once_on_postgresql(pg_url: str) -> None:
    """The ledger service's two transactions in flight, on real PostgreSQL: two batches
    booked at once on two connections, holding the same hands in opposite orders (records
    delivered twice, the worst order for locks). Whatever the interleaving (one waits on
    the other's keys and finds them booked, or PostgreSQL breaks a deadlock and the batch
    is written again), each hand is booked once and once found a duplicate, no error
    escapes, and the ledger is the one booking the two batches one after the other
    makes. 400 hands a batch, so that the two COPYs overlap: measured here, PostgreSQL
    broke a deadlock between them in about one run of three, and with the retry taken
    out (``RETRY_SQLSTATES`` empty) such a run fails with ``DeadlockDetected``; the
    retry itself is pinned deterministically by the test above."""
    records = [hcf_seat1_wins(hand_id=f"T1-{n:06d}") for n in range(1, 401)]
    batches = {"forward": records, "backward": list(reversed(records))}
    with fresh_schema(pg_url) as serial_url, fresh_schema(pg_url) as concurrent_url:
        serial, concurrent = open_ledger(serial_url), open_ledger(concurrent_url)
        try:
            for ledger in (serial, concurrent):  # the accounts exist (the steady state):
                post_hand(ledger, hcf_seat1_wins(hand_id="T1-000000"))  # no wait on them
            for batch in batches.values():
                posting.post_prepared(serial, posting.prepare_entries(batch))
            barrier = threading.Barrier(len(batches))
            results: dict[str, list[posting.PostResult]] = {}
            errors: list[BaseException] = []

            def book(name: str, batch: list[AdjudicationRecord]) -> None:
                prepared = posting.prepare_entries(batch)
                barrier.wait()
                try:
                    results[name] = posting.post_prepared(concurrent, prepared)
                except BaseException as exc:  # reported below, not lost in the thread
                    errors.append(exc)

            threads = [threading.Thread(target=book, args=item) for item in batches.items()]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            assert errors == []
            statuses: dict[str, Counter[str]] = {}
            for outcome in results.values():
                for result in outcome:
                    statuses.setdefault(result.hand_id, Counter())[result.status] += 1
            assert statuses == {r.hand_id: Counter(posted=1, duplicate=1) for r in records}
            assert snapshot(concurrent) == snapshot(serial)
        finally:
            serial.dispose()
            concurrent.dispose()


def test_a_record_copied_under_another_hand_id_books_no_chip_again(engine: Engine) -> None:
    """QA: ``hcf_seat1_wins`` copied with only its hand id changed was booked as a new hand
    and counted every chip again. Each copy is refused (GEN-8) naming the hand booked with
    the same last event, stored with no chips, and a repeat of it writes nothing (refused
    again): the balances
    stay those of one hand (alice +9, bob -10, house:rake +1)."""
    original = hcf_seat1_wins()
    assert post_hand(engine, original).status == "posted"
    copy = msgspec.structs.replace(original, hand_id="T1-COPY")
    result = post_hand(engine, copy)
    assert result.status == "refused"
    (finding,) = result.findings
    assert (finding.code, finding.rule, finding.severity) == (
        "LEDGER_REFUSED", "GEN-8", "critical")
    assert finding.message == (
        "hand T1-COPY not booked: hand T1-000001, booked already, ends at the same event "
        f"(table T1, seq 99, hash {str(original.last_hash)[:12]}); a hand's events and "
        "their chips are booked once")
    assert account_balances(engine) == {
        "player:alice": 9, "player:bob": -10, "layout:T1:1": 0, "house:rake": 1}
    assert rows(engine, "SELECT hand_id, ledger_status FROM hands ORDER BY hand_id") == [
        ("T1-000001", "posted"), ("T1-COPY", "refused")]
    before = snapshot(engine)
    again = post_hand(engine, copy)
    assert again.status == "refused"
    assert again.findings[0].message.endswith(finding.message)
    assert snapshot(engine) == before


def test_copies_inside_one_batch_and_a_partial_copy_are_refused(engine: Engine) -> None:
    """The original and two copies in one batch: the first is booked, the copies are
    refused; a later hand holding only the original's rake movement (balanced on its
    own) is refused too, and so is a copy with no chips (a hand that never was) and one
    filed under another table (the event's hash names the table too: QA); a hand of its
    own in the batch is booked."""
    original = hcf_seat1_wins()
    copies = [msgspec.structs.replace(original, hand_id=f"T1-COPY{n}") for n in (1, 2)]
    results = post_many(engine, [original, *copies, hcf_dp_collects()], batch_size=10)
    assert [r.status for r in results] == ["posted", "refused", "refused", "posted"]
    rake_only = msgspec.structs.replace(
        original, hand_id="T1-RAKE", movements=[original.movements[3]])  # type: ignore[index]
    refused = post_hand(engine, rake_only)
    assert refused.status == "refused"
    assert "hand T1-000001, booked already" in refused.findings[0].message
    other_table = msgspec.structs.replace(original, hand_id="T2-1", table_id="T2")
    no_chips = msgspec.structs.replace(original, hand_id="T1-VOID", movements=[])
    assert [r.status for r in post_many(engine, [other_table, no_chips])] == [
        "refused", "refused"]
    assert rows(engine, "SELECT DISTINCT hand_id FROM postings ORDER BY hand_id") == [
        ("T1-000001",), ("T1-000002",)]
    assert rows(engine, "SELECT DISTINCT hand_id FROM rake ORDER BY hand_id") == [
        ("T1-000001",), ("T1-000002",)]


@pytest.mark.integration
def test_a_copy_booked_while_its_original_is_being_booked_is_refused(pg_url: str) -> None:
    """QA: two ``ledger post`` runs on PostgreSQL, one of records and one of their copies,
    each looked before the other had committed and booked both (500 hands' chips counted
    twice). The index on booked hands' last events holds the rule: the copy's transaction
    waits for the original's commit, is refused by the index, and its hands are booked
    again one at a time, which finds the original."""
    original = hcf_seat1_wins()
    copy = msgspec.structs.replace(original, hand_id="T1-COPY")
    with fresh_schema(pg_url) as url:
        engine = open_ledger(url)
        try:
            inserted, release = threading.Event(), threading.Event()
            written: list[posting.PostResult] = []
            copied: list[posting.PostResult] = []

            @contextmanager
            def held_transaction() -> Iterator[Connection]:
                with engine.begin() as conn:  # commits on leaving, once released
                    yield conn
                    inserted.set()  # every row of the original is in, not committed
                    assert release.wait(60)

            first = threading.Thread(target=lambda: written.extend(
                posting._write_batch_once(held_transaction, posting.prepare_entries([original]))))
            first.start()
            assert inserted.wait(60)
            second = threading.Thread(target=lambda: copied.append(post_hand(engine, copy)))
            second.start()
            _wait_until(lambda: _waiting_on_locks(engine) >= 1)  # on the index, for the first
            release.set()
            first.join(60)
            second.join(60)
            assert [r.status for r in written] == ["posted"]
            assert [r.status for r in copied] == ["refused"]
            assert "hand T1-000001, booked already" in copied[0].findings[0].message
            assert account_balances(engine) == {
                "player:alice": 9, "player:bob": -10, "layout:T1:1": 0, "house:rake": 1}
        finally:
            engine.dispose()


def _wait_until(condition: Callable[[], bool]) -> None:
    deadline = time.monotonic() + 60
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def _waiting_on_locks(engine: Engine) -> int:
    return int(rows(engine, "SELECT COUNT(*) FROM pg_stat_activity WHERE datname = "
                            "current_database() AND wait_event_type = 'Lock'")[0][0])


def test_a_hand_moving_chips_without_its_last_event_is_refused(engine: Engine) -> None:
    """QA: copies with ``last_hash`` null escaped the look-up (keyed by the last event)
    and were booked, their chips counted three times. A hand moving chips names its last
    event (the adjudicator's always do); a rejected hand with none and no chips is booked."""
    original = hcf_seat1_wins()
    assert post_hand(engine, original).status == "posted"
    nameless = msgspec.structs.replace(original, hand_id="T1-NULL", last_hash=None)
    result = post_hand(engine, nameless)
    assert result.status == "refused"
    assert result.findings[0].message == (
        "hand T1-NULL not booked: it moves chips but names no last event (last_hash), so "
        "nothing holds it to the events it books")
    rejected = msgspec.structs.replace(original, hand_id="T1-REJ", last_hash=None,
                                       last_seq=None, movements=None, status="rejected")
    assert post_hand(engine, rejected).status == "posted"
    assert account_balances(engine) == {
        "player:alice": 9, "player:bob": -10, "layout:T1:1": 0, "house:rake": 1}
