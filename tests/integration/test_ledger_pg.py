"""The ledger on a real PostgreSQL server (``pg_url`` from tests/integration/conftest.py).

Each test gets its own schema (``search_path`` set through the connection options), so
tests never see each other's hands and the append-only triggers never need bypassing:
the schema is dropped whole afterwards.
"""

from __future__ import annotations

import datetime as dt
import threading
import uuid
from collections import Counter
from collections.abc import Iterator
from typing import Any

import msgspec
import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from hypothesis import HealthCheck, given, settings
from sqlalchemy import Connection, Engine, Table, create_engine, inspect, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import IntegrityError

from services.events.contract import AdjudicationRecord, Finding
from services.ledger import entries, posting
from services.ledger.bulk import bulk_insert
from services.ledger.db import (
    LedgerUnavailable,
    alembic_config,
    current_revision,
    head_revision,
    open_existing_ledger,
    open_ledger,
)
from services.ledger.models import Base
from services.ledger.posting import post_hand, post_many
from services.ledger.queries import (
    RakeTotal,
    TableDayTotal,
    balances,
    player_balances,
    rake_totals,
    stored_record,
    table_day_totals,
)
from tests.unit.ledger.builders import (
    DAY_TWO,
    event_id,
    hcf_dp_collects,
    hcf_seat1_wins,
    holdem_pot_hand,
    move,
    record,
    russian_house_hand,
)
from tests.unit.ledger.dbread import account_balances, count, rows, snapshot
from tests.unit.ledger.strategies import balanced_hands, expected_change

pytestmark = pytest.mark.integration


@pytest.fixture
def schema_url(pg_url: str) -> Iterator[str]:
    """A URL whose connections work in a fresh, empty schema, dropped afterwards."""
    schema = f"ledger_{uuid.uuid4().hex[:12]}"
    admin = create_engine(pg_url)
    with admin.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    url = make_url(pg_url).update_query_dict({"options": f"-csearch_path={schema}"})
    try:
        yield url.render_as_string(hide_password=False)
    finally:
        with admin.begin() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


@pytest.fixture
def pg(schema_url: str) -> Iterator[Engine]:
    engine = open_ledger(schema_url)
    yield engine
    engine.dispose()


def test_reading_refuses_a_schema_without_a_ledger_and_creates_nothing(
    schema_url: str,
) -> None:
    """A reading command on an empty PostgreSQL schema: refused, and the schema stays
    empty; once a writer has created the ledger, the reader opens it."""
    with pytest.raises(LedgerUnavailable, match="is not a pitwatch ledger"):
        open_existing_ledger(schema_url)
    probe = create_engine(schema_url)
    with probe.connect() as conn:
        assert inspect(conn).get_table_names() == []
    probe.dispose()
    open_ledger(schema_url).dispose()
    reader = open_existing_ledger(schema_url)
    assert current_revision(reader) == head_revision()
    reader.dispose()


def test_migrations_create_exactly_the_models(pg: Engine) -> None:
    assert current_revision(pg) == head_revision()
    with pg.connect() as conn:
        context = MigrationContext.configure(conn, opts={"compare_type": True})
        assert list(compare_metadata(context, Base.metadata)) == []


def test_downgrade_and_upgrade_again(pg: Engine) -> None:
    config = alembic_config()
    with pg.begin() as conn:
        config.attributes["connection"] = conn
        command.downgrade(config, "base")
    assert set(inspect(pg).get_table_names()) == {"alembic_version"}
    with pg.begin() as conn:
        config.attributes["connection"] = conn
        command.upgrade(config, "head")
    assert post_hand(pg, hcf_seat1_wins()).status == "posted"


def test_hcf_hand_posts_balanced_double_entry(pg: Engine) -> None:
    """``hcf_seat1_wins``: alice +9, bob -10, layout 0, house:rake +1, 10 legs."""
    result = post_hand(pg, hcf_seat1_wins())
    assert (result.status, result.postings) == ("posted", 10)
    assert account_balances(pg) == {
        "player:alice": 9,
        "player:bob": -10,
        "layout:T1:1": 0,
        "house:rake": 1,
    }
    assert stored_record(pg, "T1-000001") == hcf_seat1_wins()


def test_text_with_control_characters_round_trips(pg: Engine) -> None:
    """COPY escaping: tabs, newlines, backslashes and non-ASCII survive byte for byte."""
    odd = Finding(
        code="NOTE",
        rule="GEN-5",
        severity="info",
        seat=None,
        amount=None,
        message="tab\there\nnew line \\N back\\slash ä € 🂡",
    )
    hand = msgspec.structs.replace(
        hcf_seat1_wins(), findings=[odd], players={"1": "al\tice\\N", "3": "b\nob"}
    )
    assert post_hand(pg, hand).status == "posted"
    assert stored_record(pg, "T1-000001") == hand
    assert post_hand(pg, hand).status == "duplicate"
    assert rows(pg, "SELECT message FROM findings") == [(odd.message,)]
    assert ("player:al\tice\\N",) in rows(pg, "SELECT name FROM accounts")


def test_repeat_is_a_no_op_and_other_content_a_conflict(pg: Engine) -> None:
    post_hand(pg, hcf_seat1_wins())
    booked = snapshot(pg)
    assert post_hand(pg, hcf_seat1_wins()).status == "duplicate"
    assert snapshot(pg) == booked
    altered = msgspec.structs.replace(hcf_seat1_wins(), status="discrepancy")
    results = post_many(pg, [hcf_dp_collects(), altered, altered, russian_house_hand()])
    assert [r.status for r in results] == ["posted", "conflict", "conflict", "posted"]
    finding = results[1].findings[0]
    assert (finding.code, finding.rule, finding.severity) == (
        "LEDGER_CONFLICT",
        "SURV-9",
        "critical",
    )
    assert rows(pg, "SELECT hand_id, detail FROM conflicts") == [
        ("T1-000001", "fields differ: status")
    ]
    assert rows(pg, "SELECT status FROM hands WHERE hand_id = 'T1-000001'") == [("ok",)]


def test_unbookable_record_is_stored_refused(pg: Engine) -> None:
    broken = record("T1-5", [move(1, "stack:1", "layout:1", 5, "wager")])
    result = post_hand(pg, broken)
    assert result.status == "refused"
    assert result.findings[0].code == "LEDGER_REFUSED"
    assert rows(pg, "SELECT ledger_status FROM hands") == [("refused",)]
    assert count(pg, "postings") == 0


def test_database_trigger_refuses_an_unbalanced_hand(
    pg: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Python check off: the statement-level hands trigger refuses the hand whose layout
    keeps 5 chips; the rest of the batch is posted, the bad hand stored as refused."""
    monkeypatch.setattr(entries, "check_balanced", lambda entry: None)
    leaky = record("T1-7", [move(1, "stack:1", "layout:1", 5, "wager")])
    results = post_many(pg, [hcf_seat1_wins(), leaky, hcf_dp_collects()], batch_size=10)
    assert [r.status for r in results] == ["posted", "refused", "posted"]
    assert "do not balance" in results[1].findings[0].message
    assert count(pg, "postings") == 10 + 6


def test_data_the_database_rejects_is_refused_without_stopping_the_batch(
    pg: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the contract check bypassed, a 201-character hand id reaches PostgreSQL,
    which rejects it (VARCHAR(200)): the batch falls back to one hand per transaction,
    the bad hand is reported refused (nothing of it can be stored), the others post."""

    def unchecked(record: AdjudicationRecord) -> entries.HandEntry:
        entry = entries.identify(record)
        entry.invalid = None
        return entry

    monkeypatch.setattr(posting, "identify", unchecked)
    too_long = msgspec.structs.replace(hcf_dp_collects(), hand_id="T" * 201)
    results = post_many(pg, [hcf_seat1_wins(), too_long, russian_house_hand()])
    assert [r.status for r in results] == ["posted", "refused", "posted"]
    assert "database refused hand" in results[1].findings[0].message
    assert rows(pg, "SELECT hand_id FROM hands ORDER BY hand_id") == [
        ("R1-000001",),
        ("T1-000001",),
    ]


def test_raw_unbalanced_postings_cannot_be_committed(pg: Engine) -> None:
    with pytest.raises(IntegrityError, match="do not balance"), pg.begin() as conn:
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
    assert count(pg, "postings") == 0


def test_postings_without_their_hand_fail_at_commit(pg: Engine) -> None:
    with pytest.raises(IntegrityError), pg.begin() as conn:
        conn.execute(text("INSERT INTO accounts (name, kind) VALUES ('house:rake', 'house_rake')"))
        conn.execute(
            text(
                "INSERT INTO postings (hand_id, event_id, leg, seq, account, amount, kind) "
                "VALUES ('X-2', :e, 0, 1, 'house:rake', 5, 'rake')"
            ),
            {"e": event_id(1)},
        )
    assert count(pg, "accounts") == 0


@pytest.mark.parametrize(
    "statement",
    [
        "INSERT INTO postings (hand_id, event_id, leg, seq, account, amount, kind) "
        "VALUES ('T1-000001', 'e', 0, 1, 'house:rake', 5, 'rake')",
        "UPDATE postings SET amount = amount * 2",
        "DELETE FROM postings",
        "TRUNCATE postings CASCADE",
        "UPDATE hands SET status = 'ok'",
        "DELETE FROM rake",
    ],
)
def test_a_booked_hand_cannot_be_changed(pg: Engine, statement: str) -> None:
    post_hand(pg, hcf_seat1_wins())
    before = snapshot(pg)
    with pytest.raises(IntegrityError), pg.begin() as conn:
        conn.execute(text(statement))
    assert snapshot(pg) == before


def test_a_failed_batch_leaves_no_half_hand(pg: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    def crash_on_hands(conn: Connection, table: Table, *rest: Any) -> None:
        if table.name == "hands":
            raise RuntimeError("worker killed")
        bulk_insert(conn, table, *rest)

    monkeypatch.setattr(posting, "bulk_insert", crash_on_hands)
    with pytest.raises(RuntimeError, match="worker killed"):
        post_many(pg, [hcf_seat1_wins(), hcf_dp_collects()])
    assert count(pg, "postings") == 0 and count(pg, "accounts") == 0


def test_queries_on_postgresql(pg: Engine) -> None:
    """The book of tests/unit/ledger/test_queries.py, same hand-computed figures."""
    post_many(
        pg,
        [
            hcf_seat1_wins("T1-000001"),
            hcf_dp_collects("T1-000002"),
            hcf_seat1_wins("T1-000003", ended_at=DAY_TWO),
            record("T1-000004", None, status="rejected"),
            russian_house_hand(),
            holdem_pot_hand(),
        ],
    )
    day1, day2 = dt.date(2024, 5, 1), dt.date(2024, 5, 2)
    assert [(p.player_id, p.balance) for p in player_balances(pg)] == [
        ("alice", -2),
        ("bob", -17),
        ("carol", 24),
    ]
    assert rake_totals(pg) == [
        RakeTotal("H1", "all", day1, 1, 1),
        RakeTotal("T1", "designated", day1, 2, 1),
        RakeTotal("T1", "players", day1, 1, 1),
        RakeTotal("T1", "players", day2, 1, 1),
    ]
    assert table_day_totals(pg) == [
        TableDayTotal("H1", day1, hands=1, drop=20, payouts=19, rake=1, house_win=0),
        TableDayTotal("R1", day1, hands=1, drop=20, payouts=20, rake=0, house_win=-10),
        TableDayTotal("T1", day1, hands=3, drop=15, payouts=10, rake=3, house_win=0),
        TableDayTotal("T1", day2, hands=1, drop=10, payouts=10, rake=1, house_win=0),
    ]
    # Chips come back as int (PostgreSQL sums BIGINT into NUMERIC; the queries cast back).
    figures = [b.balance for b in balances(pg)] + [r.amount for r in rake_totals(pg)]
    figures += [t.drop + t.payouts + t.rake + t.house_win for t in table_day_totals(pg)]
    assert {type(figure) for figure in figures} == {int}


def test_two_workers_delivering_the_same_hands_book_each_once(schema_url: str) -> None:
    """At-least-once delivery to two workers at the same time: 120 hands, both workers
    post all of them (different batch sizes, opposite orders). Each hand is posted by
    exactly one worker and a duplicate for the other; the book is the one-pass book."""
    hands = [hcf_seat1_wins(f"T1-{n:06d}") for n in range(120)]
    worker_engines = [open_ledger(schema_url), open_ledger(schema_url)]
    outcomes: list[list[posting.PostResult]] = [[], []]
    failures: list[BaseException] = []
    start = threading.Barrier(2)

    def work(index: int, batch: list[AdjudicationRecord], batch_size: int) -> None:
        try:
            start.wait()
            outcomes[index] = post_many(worker_engines[index], batch, batch_size=batch_size)
        except BaseException as exc:  # reported below; a thread cannot raise into pytest
            failures.append(exc)

    threads = [
        threading.Thread(target=work, args=(0, hands, 7)),
        threading.Thread(target=work, args=(1, hands[::-1], 20)),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for engine in worker_engines:
        engine.dispose()
    assert failures == []
    posted = Counter(r.hand_id for results in outcomes for r in results if r.status == "posted")
    duplicates = Counter(
        r.hand_id for results in outcomes for r in results if r.status == "duplicate"
    )
    assert posted == Counter(h.hand_id for h in hands)
    assert duplicates == Counter(h.hand_id for h in hands)
    check = open_ledger(schema_url)
    # 120 hands of hcf_seat1_wins: alice +9 each, bob -10 each, house:rake +1 each.
    assert account_balances(check) == {
        "player:alice": 9 * 120,
        "player:bob": -10 * 120,
        "layout:T1:1": 0,
        "house:rake": 120,
    }
    check.dispose()


@pytest.fixture(scope="module")
def module_pg(pg_url: str) -> Iterator[Engine]:
    schema = f"ledger_{uuid.uuid4().hex[:12]}"
    admin = create_engine(pg_url)
    with admin.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    url = make_url(pg_url).update_query_dict({"options": f"-csearch_path={schema}"})
    engine = open_ledger(url.render_as_string(hide_password=False))
    yield engine
    engine.dispose()
    with admin.begin() as conn:
        conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
    admin.dispose()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hand=balanced_hands())
def test_any_balanced_hand_posts_and_the_book_sums_to_zero(
    module_pg: Engine, hand: AdjudicationRecord
) -> None:
    before = account_balances(module_pg)
    assert post_hand(module_pg, hand).status == "posted"
    after = account_balances(module_pg)
    change = {n: after.get(n, 0) - before.get(n, 0) for n in after.keys() | before.keys()}
    expected = expected_change(hand)
    assert {n: v for n, v in change.items() if v} == {n: v for n, v in expected.items() if v}
    assert sum(after.values()) == 0
