"""Alembic is the only way the schema is made: the migrated schema must equal the models."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import msgspec
import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import (
    Column,
    Connection,
    Engine,
    Integer,
    MetaData,
    Row,
    Table,
    create_engine,
    inspect,
    text,
)
from sqlalchemy.exc import IntegrityError

from services.archive.writer import ensure_days
from services.events.contract import AdjudicationRecord, Finding
from services.ledger.db import (
    HEAD_REVISION,
    REVISIONS,
    LedgerUnavailable,
    alembic_config,
    current_revision,
    head_revision,
    open_existing_ledger,
    open_ledger,
    stamped_revision,
)
from services.ledger.posting import post_hand
from services.ledger.schema import metadata
from tests.unit.ledger.builders import hcf_seat1_wins
from tests.unit.ledger.dbread import book_as_before_0017


def schema_drift(engine: Engine) -> list[object]:
    """What ``alembic revision --autogenerate`` would write: empty when models == DB."""
    with engine.connect() as conn:
        context = MigrationContext.configure(conn, opts={"compare_type": True})
        return list(compare_metadata(context, metadata))


def test_migrated_database_matches_the_models(engine: Engine) -> None:
    assert schema_drift(engine) == []


def test_drift_is_detected(engine: Engine) -> None:
    """The comparison above can fail: a model column the migrations lack is reported."""
    drifted = MetaData()
    for table in metadata.sorted_tables:
        table.to_metadata(drifted)
    Table("hands", drifted, Column("extra", Integer), extend_existing=True)
    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), drifted)
    assert [entry[0] for entry in diff] == ["add_column"]


def test_a_reader_refuses_a_database_without_a_ledger_and_creates_nothing(db_url: str) -> None:
    """A reading command on an empty database (no SQLite file yet; an empty PostgreSQL
    schema): refused, and nothing is created; once a writer has created the ledger, the
    reader opens it at the latest revision."""
    with pytest.raises(LedgerUnavailable, match=r"not a pitwatch ledger|does not exist"):
        open_existing_ledger(db_url)
    if db_url.startswith("sqlite"):
        assert not Path(db_url.removeprefix("sqlite:///")).exists()
    else:
        probe = create_engine(db_url)
        with probe.connect() as conn:
            assert inspect(conn).get_table_names() == []
        probe.dispose()
    open_ledger(db_url).dispose()
    reader = open_existing_ledger(db_url)
    assert current_revision(reader) == head_revision()
    reader.dispose()


def test_open_ledger_creates_the_directory_and_migrates_to_head(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/deep/er/ledger.sqlite"
    engine = open_ledger(url)
    assert (tmp_path / "deep" / "er" / "ledger.sqlite").exists()
    assert current_revision(engine) == head_revision() == "0020_case_tags_of_named_hands"
    assert set(inspect(engine).get_table_names()) == {
        "alembic_version",
        "hands",
        "hands_pending",
        "hands_pending_layout",
        "accounts",
        "postings",
        "rake",
        "findings",
        "conflicts",
        "archive_segments",
        "archive_tables",
        "archive_alerts",
        "archive_conflicts",
        "archive_detached",
        "archive_checkpoints",
        "table_carries",
        "hand_ends",
        "cases",
        "case_audit",
        "case_evidence",
        "case_hands",
        "case_tags",
        "surveillance_state",
        "surveillance_hands",
        "surveillance_players",
        "surveillance_pairs",
        "surveillance_dealer_players",
        "surveillance_dealers",
        "console_users",
        "console_sessions",
        "console_logins",
    }
    engine.dispose()


def test_the_written_out_revisions_are_the_scripts_chain() -> None:
    """``REVISIONS`` (what opening a ledger compares with, without loading Alembic) is
    the migration scripts' chain as Alembic reads it, oldest first, ending at the head:
    a new migration that is not added there fails here."""
    scripts = ScriptDirectory.from_config(alembic_config())
    chain = [script.revision for script in scripts.walk_revisions()][::-1]
    assert list(REVISIONS) == chain
    assert HEAD_REVISION == head_revision() == chain[-1]


def test_the_stamped_revision_is_read_as_alembic_reads_it(db_url: str) -> None:
    """Read without Alembic: the same revision, and an older one makes the next open
    migrate to the head again (so a stale stamp is never taken for the head)."""
    engine = open_ledger(db_url)
    assert stamped_revision(engine) == current_revision(engine) == HEAD_REVISION
    config = alembic_config()
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.downgrade(config, "0012_archive_catalog_guard")
    assert stamped_revision(engine) == current_revision(engine) == "0012_archive_catalog_guard"
    engine.dispose()
    reopened = open_ledger(db_url)
    assert stamped_revision(reopened) == current_revision(reopened) == HEAD_REVISION
    reopened.dispose()


def test_reopening_keeps_the_data(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/ledger.sqlite"
    first = open_ledger(url)
    post_hand(first, hcf_seat1_wins())
    first.dispose()
    again = open_ledger(url)
    assert post_hand(again, hcf_seat1_wins()).status == "duplicate"
    again.dispose()


def test_downgrade_to_base_and_back(engine: Engine) -> None:
    config = alembic_config()
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.downgrade(config, "base")
    assert set(inspect(engine).get_table_names()) == {"alembic_version"}
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.upgrade(config, "head")
    assert schema_drift(engine) == []
    assert post_hand(engine, hcf_seat1_wins()).status == "posted"


def test_the_account_check_migration_keeps_the_book_and_its_guards(engine: Engine) -> None:
    """0005 down and up again on a ledger holding hands (SQLite rebuilds postings both
    ways): the postings are all there, no drift, and every guard still refuses: an
    unbalanced hand, a posting into a booked hand, an unknown account."""
    post_hand(engine, hcf_seat1_wins())
    with engine.connect() as conn:
        before = conn.execute(text("SELECT * FROM postings ORDER BY hand_id, event_id, "
                                   "leg")).all()
    config = alembic_config()
    for target in ("0004_console_users", "head"):
        with engine.begin() as conn:
            config.attributes["connection"] = conn
            (command.downgrade if target != "head" else command.upgrade)(config, target)
    assert schema_drift(engine) == []
    with engine.connect() as conn:
        after = conn.execute(text("SELECT * FROM postings ORDER BY hand_id, event_id, "
                                  "leg")).all()
    assert after == before and len(after) > 0
    refused = [
        ("INSERT INTO postings (hand_id, event_id, leg, seq, account, amount, kind) "
         "SELECT hand_id, event_id, leg + 100, seq, account, amount, kind FROM postings",
         "booked hand"),
        ("INSERT INTO postings (hand_id, event_id, leg, seq, account, amount, kind) "
         f"VALUES ('X-9', '{before[0].event_id}', 0, 1, 'nowhere', 5, 'rake')",
         "account that does not exist"),
        ("UPDATE postings SET amount = amount * 2", "append-only"),
    ]
    for statement, why in refused:
        with pytest.raises(IntegrityError, match=why), engine.begin() as conn:
            conn.execute(text(statement))
    with pytest.raises(IntegrityError, match="do not balance"), engine.begin() as conn:
        conn.execute(text("INSERT INTO postings (hand_id, event_id, leg, seq, account, amount,"
                          f" kind) VALUES ('X-8', '{before[0].event_id}', 0, 1, "
                          f"'{before[0].account}', 5, 'wager')"))
        conn.execute(text("INSERT INTO hands (hand_id, table_id, status, ledger_status, "
                          "record_sha256, record_json) VALUES ('X-8', 'X', 'ok', 'posted', "
                          "'x', '{}')"))


def test_the_pending_hands_migration_keeps_the_book_and_its_guards(engine: Engine) -> None:
    """0007 down and up again on a ledger holding hands (SQLite rebuilds postings, rake
    and findings both ways, from their stored DDL): every row is still there, no drift,
    and rows whose hand never arrives still fail at COMMIT, in each child table."""
    post_hand(engine, hcf_seat1_wins())
    tables = ("postings", "rake", "findings")

    def book() -> dict[str, list[Row[Any]]]:
        with engine.connect() as conn:
            return {t: list(conn.execute(text(f"SELECT * FROM {t} ORDER BY 1, 2, 3")).all())
                    for t in tables}

    before = book()
    assert all(before[t] for t in ("postings", "rake"))
    config = alembic_config()
    for target in ("0006_archive_body_storage", "head"):
        with engine.begin() as conn:
            config.attributes["connection"] = conn
            (command.downgrade if target != "head" else command.upgrade)(config, target)
        assert book() == before
    assert schema_drift(engine) == []
    orphan_rows = {
        "postings": "INSERT INTO postings (hand_id, event_id, leg, seq, account, amount, kind) "
                    f"VALUES ('X-7', 'e', 0, 1, '{before['postings'][0].account}', 5, 'rake')",
        "rake": "INSERT INTO rake (hand_id, event_id, leg, table_id, amount) "
                "VALUES ('X-7', 'e', 0, 'X', 5)",
        "findings": "INSERT INTO findings (hand_id, ordinal, origin, code, rule, severity, "
                    "message) VALUES ('X-7', 0, 'record', 'C', 'GEN-1', 'info', 'm')",
    }
    for table, statement in orphan_rows.items():  # refused by the key, at COMMIT
        with pytest.raises(IntegrityError, match=r"(?i)foreign key"), engine.begin() as conn:
            conn.execute(text(statement))
        assert book() == before, table
    with engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM hands_pending")).scalar() == 0


def test_in_memory_database_works() -> None:
    engine = open_ledger("sqlite://")
    assert schema_drift(engine) == []
    assert post_hand(engine, hcf_seat1_wins()).status == "posted"
    engine.dispose()


def _body_storage(conn: Connection, table: str) -> str:
    return str(conn.execute(text(
        "SELECT attstorage FROM pg_attribute WHERE attrelid = CAST(:t AS regclass) "
        "AND attname = 'body'"), {"t": table}).scalar_one())


def test_archive_bodies_are_not_compressed_twice_on_postgresql(pg_engine: Engine) -> None:
    """0006: the zstd bodies are stored EXTERNAL ('e': out of line, no pglz) in the
    partitioned table and in a day partition created after it; down again, EXTENDED."""
    with pg_engine.begin() as conn:
        ensure_days(conn, {"2026-01-05"})
        assert _body_storage(conn, "archive_segments") == "e"
        assert _body_storage(conn, "archive_segments_20260105") == "e"
    config = alembic_config()
    with pg_engine.begin() as conn:
        config.attributes["connection"] = conn
        command.downgrade(config, "0005_postings_account_check")
        assert _body_storage(conn, "archive_segments_20260105") == "x"
        command.upgrade(config, "head")
        assert _body_storage(conn, "archive_segments_20260105") == "e"


def _record_compression(conn: Connection) -> tuple[str, list[str | None]]:
    """The column's setting ('' for the server's default) and each booked record's form."""
    setting = conn.execute(text(
        "SELECT attcompression FROM pg_attribute WHERE attrelid = CAST('hands' AS regclass) "
        "AND attname = 'record_json'")).scalar_one()
    forms = conn.execute(text(
        "SELECT pg_column_compression(record_json) FROM hands ORDER BY hand_id")).scalars()
    return str(setting), list(forms)


def _long_record(hand_id: str) -> AdjudicationRecord:
    """A record past PostgreSQL's 2 kB compression threshold (as a real HCF hand's, about
    3.9 kB): the seat-1 hand with thirty informational findings."""
    record = hcf_seat1_wins(hand_id=hand_id)
    notes = [Finding(code="NOTE", rule="GEN-1", severity="info", seat=None, amount=None,
                     message=f"note {n}: " + "the dealer squared the stack " * 3)
             for n in range(30)]
    return msgspec.structs.replace(record, findings=[*record.findings, *notes])


def test_booked_records_are_compressed_with_lz4_on_postgresql(
        pg_engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    """0010: a record booked at head is stored lz4-compressed (its text read back as
    booked); one booked after a downgrade to 0009 takes the server's default (pglz), and
    both read back the same after the upgrade."""
    assert post_hand(pg_engine, _long_record("T1-000001")).status == "posted"
    with pg_engine.connect() as conn:
        assert _record_compression(conn) == ("l", ["lz4"])
    config = alembic_config()
    with pg_engine.begin() as conn:
        config.attributes["connection"] = conn
        command.downgrade(config, "0009_archive_last_seq_index")
    book_as_before_0017(monkeypatch)
    assert post_hand(pg_engine, _long_record("T1-000002")).status == "posted"
    with pg_engine.begin() as conn:
        assert _record_compression(conn) == ("", ["lz4", "pglz"])
        config.attributes["connection"] = conn
        command.upgrade(config, "head")
        assert _record_compression(conn)[0] == "l"
        booked = conn.execute(text("SELECT record_sha256, record_json FROM hands")).all()
    assert len(booked) == 2
    assert all(hashlib.sha256(body.encode()).hexdigest() == sha for sha, body in booked)


NOT_BYTEWISE = """
    SELECT c.relname || '.' || a.attname
    FROM pg_attribute a
    JOIN pg_class c ON c.oid = a.attrelid
    JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND a.attnum > 0
      AND NOT a.attisdropped AND a.atttypid IN ('text'::regtype, 'varchar'::regtype)
      AND a.attcollation <> 'pg_catalog."C"'::regcollation AND c.relname <> 'alembic_version'
    ORDER BY 1
"""


def test_every_text_column_compares_bytes_on_postgresql(pg_engine: Engine) -> None:
    """0011: every text column of every table (a day partition made later included) is
    ``COLLATE "C"``, so index keys compare without the locale and no join mixes
    collations; a table a later revision adds must follow. Down to 0010 they take the
    database's default again, and they come back on the upgrade with the book intact."""
    post_hand(pg_engine, hcf_seat1_wins())
    with pg_engine.begin() as conn:
        ensure_days(conn, {"2026-01-05"})
        assert conn.execute(text(NOT_BYTEWISE)).scalars().all() == []
    config = alembic_config()
    with pg_engine.begin() as conn:
        config.attributes["connection"] = conn
        command.downgrade(config, "0010_hand_record_lz4")
        reverted = conn.execute(text(NOT_BYTEWISE)).scalars().all()
        assert {"hands.hand_id", "postings.account", "accounts.name",
                "archive_segments_20260105.table_id"} <= set(reverted)
        command.upgrade(config, "head")
        assert conn.execute(text(NOT_BYTEWISE)).scalars().all() == []
        assert conn.execute(text(
            "SELECT count(*) FROM postings p JOIN accounts a ON a.name = p.account "
            "JOIN hands h ON h.hand_id = p.hand_id")).scalar_one() == 10


def _insert_hand_row(conn: Connection, hand_id: str) -> None:
    conn.execute(text("INSERT INTO hands (hand_id, table_id, status, ledger_status, "
                      "record_sha256, record_json) VALUES (:h, 'X', 'ok', 'posted', 'x', '{}')"),
                 {"h": hand_id})


def _insert_postings(conn: Connection, hand_id: str, legs: list[tuple[str, int]],
                     first_leg: int = 0) -> None:
    conn.execute(text("INSERT INTO postings (hand_id, event_id, leg, seq, account, amount, kind) "
                      "VALUES (:h, 'e', :leg, 1, :account, :amount, 'wager')"),
                 [{"h": hand_id, "leg": first_leg + n, "account": account, "amount": amount}
                  for n, (account, amount) in enumerate(legs)])


def _hand_ids(engine: Engine) -> set[str]:
    with engine.connect() as conn:
        return set(conn.execute(text("SELECT hand_id FROM hands")).scalars())


def test_the_balance_check_adds_up_a_hand_over_several_statements(engine: Engine) -> None:
    """GEN-8 as 0008 checks it on PostgreSQL (running sums kept per pending hand) and the
    row triggers on SQLite: a hand whose postings come in two statements is booked when
    they sum to zero, refused when they do not, and refused when they sum to zero overall
    but chips are left on a layout account; no note outlives its transaction."""
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO accounts (name, kind, table_id, seat, player_id) VALUES "
                          "('layout:X:1', 'layout', 'X', 1, NULL), "
                          "('player:p', 'player', NULL, NULL, 'p'), "
                          "('pot:X', 'pot', 'X', NULL, NULL)"))
    with engine.begin() as conn:  # sums that only balance across the statements
        _insert_postings(conn, "H-1", [("player:p", -5), ("layout:X:1", 5)])
        _insert_postings(conn, "H-1", [("layout:X:1", -5), ("pot:X", 5)], first_leg=2)
        _insert_hand_row(conn, "H-1")
        _insert_postings(conn, "H-6", [("player:p", -5)])
        _insert_postings(conn, "H-6", [("pot:X", 5)], first_leg=1)
        _insert_hand_row(conn, "H-6")
    assert _hand_ids(engine) == {"H-1", "H-6"}
    with pytest.raises(IntegrityError, match="do not balance"), engine.begin() as conn:
        _insert_postings(conn, "H-2", [("player:p", -5), ("layout:X:1", 5)])
        _insert_postings(conn, "H-2", [("layout:X:1", -4), ("pot:X", 5)], first_leg=2)
        _insert_hand_row(conn, "H-2")
    with pytest.raises(IntegrityError, match="do not balance"), engine.begin() as conn:
        # Zero overall, but 5 chips stay on the layout.
        _insert_postings(conn, "H-3", [("player:p", -5), ("layout:X:1", 5)])
        _insert_postings(conn, "H-3", [("pot:X", -5), ("player:p", 5)], first_leg=2)
        _insert_hand_row(conn, "H-3")
    with engine.begin() as conn:  # several hands in one statement, as the ledger books them
        for hand_id in ("H-4", "H-5"):
            _insert_postings(conn, hand_id, [("player:p", -7), ("layout:X:1", 7),
                                             ("layout:X:1", -7), ("pot:X", 7)])
        conn.execute(text("INSERT INTO hands (hand_id, table_id, status, ledger_status, "
                          "record_sha256, record_json) VALUES "
                          "('H-4', 'X', 'ok', 'posted', 'x', '{}'), "
                          "('H-5', 'X', 'ok', 'posted', 'x', '{}')"))
    assert _hand_ids(engine) == {"H-1", "H-4", "H-5", "H-6"}
    with engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM hands_pending")).scalar() == 0
        assert conn.execute(text("SELECT count(*) FROM hands_pending_layout")).scalar() == 0


def test_the_pending_sums_migration_keeps_the_book_and_its_guards(engine: Engine) -> None:
    """0008 down and up again on a ledger holding hands: the book is unchanged, no drift,
    and a hand that does not balance or rows joining a booked hand are still refused."""
    post_hand(engine, hcf_seat1_wins())
    with engine.connect() as conn:
        before = conn.execute(text("SELECT * FROM postings ORDER BY 1, 2, 3")).all()
    config = alembic_config()
    for target in ("0007_hand_rows_pending", "head"):
        with engine.begin() as conn:
            config.attributes["connection"] = conn
            (command.downgrade if target != "head" else command.upgrade)(config, target)
        with pytest.raises(IntegrityError, match="booked hand"), engine.begin() as conn:
            conn.execute(text("INSERT INTO postings (hand_id, event_id, leg, seq, account, "
                              "amount, kind) SELECT hand_id, event_id, leg + 100, seq, account,"
                              " amount, kind FROM postings"))
        with pytest.raises(IntegrityError, match="do not balance"), engine.begin() as conn:
            _insert_postings(conn, "X-8", [(before[0].account, 5)])
            _insert_hand_row(conn, "X-8")
    assert schema_drift(engine) == []
    with engine.connect() as conn:
        assert conn.execute(text("SELECT * FROM postings ORDER BY 1, 2, 3")).all() == before


def test_a_ledger_holding_a_copy_is_migrated_and_holds_no_new_one(
        engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    """0017 on a ledger whose book already holds a record copied under another hand id
    (booked before the rule): ``hand_ends`` keeps the first hand of the end (by id), the
    copy stays booked for ``pitwatch verify`` to report; every copy booked after it is
    refused, by the booking's look-up and, with the look-up taken out, by the database."""
    from services.ledger import posting

    config = _at_0016_booking_as_then(engine, monkeypatch)
    original = hcf_seat1_wins()
    for hand_id in ("T1-000001", "T1-O'COPY"):  # a quote in the id named by the index
        assert post_hand(engine, msgspec.structs.replace(
            original, hand_id=hand_id)).status == "posted"
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.upgrade(config, "head")
    with engine.connect() as conn:  # the first hand of the end, by id, keeps it
        assert conn.execute(text("SELECT last_hash, hand_id FROM hand_ends")).all() == [
            (original.last_hash, "T1-000001")]
    monkeypatch.undo()
    monkeypatch.setattr(posting, "_refuse_copied_hands", lambda *args: None)
    refused = post_hand(engine, msgspec.structs.replace(original, hand_id="T1-LATER"))
    assert refused.status == "refused"
    assert "database refused hand T1-LATER" in refused.findings[0].message
    monkeypatch.undo()
    again = post_hand(engine, msgspec.structs.replace(original, hand_id="T1-AGAIN"))
    assert again.status == "refused"
    assert "hand T1-000001, booked already" in again.findings[0].message
    with engine.connect() as conn:
        booked = conn.execute(text("SELECT hand_id FROM hands WHERE ledger_status = 'posted' "
                                   "ORDER BY hand_id")).scalars().all()
    assert booked == ["T1-000001", "T1-O'COPY"]


def test_a_ledger_holding_many_copies_is_migrated(engine: Engine,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """QA: 0017 first named each old copy in a partial index's predicate, which outgrew
    PostgreSQL's 8 kB row limit at about a thousand copies and left every command unable
    to open the ledger; and its search for copies was quadratic on SQLite. 1,500 copies:
    migrated, one end kept, a new copy refused."""
    from services.ledger.posting import post_many

    config = _at_0016_booking_as_then(engine, monkeypatch)
    original = hcf_seat1_wins()
    copies = [msgspec.structs.replace(original, hand_id=f"T1-C{n:05d}") for n in range(1500)]
    assert {r.status for r in post_many(engine, [original, *copies])} == {"posted"}
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.upgrade(config, "head")
        assert conn.execute(text("SELECT COUNT(*) FROM hand_ends")).scalar_one() == 1
    monkeypatch.undo()
    late = post_hand(engine, msgspec.structs.replace(original, hand_id="T1-LATE"))
    assert late.status == "refused" and "hand T1-000001, booked already" in (
        late.findings[0].message)


def _at_0016_booking_as_then(engine: Engine, monkeypatch: pytest.MonkeyPatch) -> Config:
    """The ledger downgraded to 0016 and booking as the code did then; the Alembic
    config to upgrade it with."""
    config = alembic_config()
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.downgrade(config, "0016_table_carries")
    book_as_before_0017(monkeypatch)
    return config


def test_the_kept_states_migration_keys_them_by_the_events_taken(engine: Engine) -> None:
    """0018 on a ledger holding kept table states under 0017's key, the chain head: every
    state is there under the new key (table, events taken, engine), of two states of a
    table and engine kept after as many events (two pasts of the table, which an honest
    ledger does not hold) the one kept first; the table is still append-only, and a state
    at a head already kept is kept when it has taken more events (a day whose events all
    came below the head). Down again, the head is the key, and the states are there."""
    from services.adjudicator.carry import TableCarry
    from services.archive.carry import keep_carries

    config = alembic_config()
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.downgrade(config, "0017_hand_ends")
    kept = [("T1", 10, "native", 40, "2026-12-06T00:00:01+00:00"),
            ("T1", 20, "native", 80, "2026-12-06T00:00:02+00:00"),
            ("T1", 25, "native", 80, "2026-12-06T00:00:00+00:00"),  # kept before the one at 20
            ("T1", 20, "python", 80, "2026-12-06T00:00:03+00:00"),
            ("T2", 20, "native", 80, "2026-12-06T00:00:04+00:00")]
    with engine.begin() as conn:
        for table_id, seq, engine_name, taken, at in kept:
            state = f"{table_id}/{seq}/{engine_name}".encode()
            conn.execute(text(
                "INSERT INTO table_carries (table_id, last_seq, engine, last_hash, "
                "events_taken, archive, state, state_sha256, kept_at) VALUES (:t, :s, :e, "
                ":h, :n, :a, :state, :sha, :at)"),
                {"t": table_id, "s": seq, "e": engine_name, "h": "a" * 64, "n": taken,
                 "a": True, "state": state, "sha": hashlib.sha256(state).hexdigest(),
                 "at": at})
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.upgrade(config, "head")
    assert schema_drift(engine) == []
    assert inspect(engine).get_pk_constraint("table_carries")["constrained_columns"] == [
        "table_id", "events_taken", "engine"]

    def states() -> list[tuple[object, ...]]:
        with engine.connect() as conn:
            return [tuple(row) for row in conn.execute(text(
                "SELECT table_id, last_seq, engine, events_taken, state FROM table_carries "
                "ORDER BY table_id, events_taken, engine, last_seq"))]

    assert states() == [("T1", 10, "native", 40, b"T1/10/native"),
                        ("T1", 25, "native", 80, b"T1/25/native"),
                        ("T1", 20, "python", 80, b"T1/20/python"),
                        ("T2", 20, "native", 80, b"T2/20/native")]
    for statement in ("UPDATE table_carries SET last_seq = last_seq + 1",
                      "DELETE FROM table_carries"):
        with pytest.raises(Exception, match="append-only"), engine.begin() as conn:
            conn.execute(text(statement))
    assert keep_carries(engine, "native", [TableCarry("T2", 20, "b" * 64, 95, True, b"later")],
                        "2026-12-07T00:00:00+00:00") == (1, 0)
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.downgrade(config, "0017_hand_ends")
    assert inspect(engine).get_pk_constraint("table_carries")["constrained_columns"] == [
        "table_id", "last_seq", "engine"]
    assert states() == [("T1", 10, "native", 40, b"T1/10/native"),
                        ("T1", 25, "native", 80, b"T1/25/native"),
                        ("T1", 20, "python", 80, b"T1/20/python"),
                        ("T2", 20, "native", 80, b"T2/20/native")]  # kept before "later"
    with pytest.raises(Exception, match="append-only"), engine.begin() as conn:
        conn.execute(text("DELETE FROM table_carries"))
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.upgrade(config, "head")
