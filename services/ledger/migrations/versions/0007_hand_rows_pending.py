"""A hand's rows tied to its ``hands`` row once per hand, not once per row.

Revision ID: 0007_hand_rows_pending
Revises: 0006_archive_body_storage
Create Date: 2026-12-02

Why: postings, rake and findings each had a foreign key to ``hands``, deferred to COMMIT
because a hand's rows go in before its ``hands`` row (0001). PostgreSQL checks such a key
row by row at COMMIT (a lookup that also locks the hand row), and a hand has about 60 of
these rows: booking 1,600 HCF hands, PostgreSQL spent 0.89 ms of CPU a hand with the keys
and 0.53 without them, measured in turns on one machine.

The same guarantee, once per hand: table ``hands_pending`` has the deferred key to
``hands`` instead. An insert into postings, rake or findings notes its hands there (on
PostgreSQL a statement-level trigger over the inserted rows, one row a hand; on SQLite a
row trigger, ``INSERT OR IGNORE``); inserting the ``hands`` row deletes the note. At
COMMIT the key is checked only for the notes left, which are exactly the hands whose
rows arrived and whose ``hands`` row did not: the transaction fails with SQLSTATE 23503,
as it did with the per-row keys (PostgreSQL skips the deferred check of a row deleted
before COMMIT; SQLite counts deferred violations and a deleted row takes its count with
it). The other guards are unchanged: rows cannot join a booked hand, a ``hands`` row
checks its postings balance, the book is append-only. ``hands_pending`` itself is not
part of the book (its rows never outlive a transaction); on PostgreSQL it is UNLOGGED,
so its notes write no WAL.

SQLite cannot drop a constraint in place, so the three tables are rebuilt from their own
stored DDL without the key (rows copied); the triggers and indexes that name them are
dropped first and re-created after, as 0005 does for postings.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007_hand_rows_pending"
down_revision: str | Sequence[str] | None = "0006_archive_body_storage"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

HAND_CHILDREN = ("postings", "rake", "findings")
PENDING = "hands_pending"


def _fk_name(table: str) -> str:
    return f"fk_{table}_hand_id_hands"


def _fk_sql(table: str) -> str:
    return (f"CONSTRAINT {_fk_name(table)} FOREIGN KEY(hand_id) REFERENCES hands (hand_id) "
            "DEFERRABLE INITIALLY DEFERRED")


def _create_pending_table(unlogged: bool) -> None:
    op.create_table(
        PENDING,
        sa.Column("hand_id", sa.String(200), nullable=False),
        sa.ForeignKeyConstraint(["hand_id"], ["hands.hand_id"], name=op.f(_fk_name(PENDING)),
                                deferrable=True, initially="DEFERRED"),
        sa.PrimaryKeyConstraint("hand_id", name=op.f("pk_hands_pending")),
        prefixes=["UNLOGGED"] if unlogged else [],
    )


# ---------------------------------------------------------------- PostgreSQL


def _upgrade_postgresql() -> None:
    _create_pending_table(unlogged=True)
    op.execute(
        f"""
        CREATE FUNCTION ledger_note_pending_hands() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            INSERT INTO {PENDING} (hand_id) SELECT DISTINCT hand_id FROM new_rows
                ON CONFLICT DO NOTHING;
            RETURN NULL;
        END $$
        """
    )
    op.execute(
        f"""
        CREATE FUNCTION ledger_clear_pending_hands() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            DELETE FROM {PENDING} p USING new_rows n WHERE p.hand_id = n.hand_id;
            RETURN NULL;
        END $$
        """
    )
    for table in HAND_CHILDREN:
        op.execute(f"ALTER TABLE {table} DROP CONSTRAINT {_fk_name(table)}")
        op.execute(
            f"""
            CREATE TRIGGER {table}_pending_hand AFTER INSERT ON {table}
            REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT
            EXECUTE FUNCTION ledger_note_pending_hands()
            """
        )
    op.execute(
        """
        CREATE TRIGGER hands_clear_pending AFTER INSERT ON hands
        REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT
        EXECUTE FUNCTION ledger_clear_pending_hands()
        """
    )


def _downgrade_postgresql() -> None:
    op.execute("DROP TRIGGER hands_clear_pending ON hands")
    for table in HAND_CHILDREN:
        op.execute(f"DROP TRIGGER {table}_pending_hand ON {table}")
        op.execute(f"ALTER TABLE {table} ADD {_fk_sql(table)}")
    op.execute("DROP FUNCTION ledger_clear_pending_hands()")
    op.execute("DROP FUNCTION ledger_note_pending_hands()")
    op.drop_table(PENDING)


# ---------------------------------------------------------------- SQLite


def _sqlite_triggers() -> dict[str, str]:
    triggers = {
        f"{table}_pending_hand": f"""
            CREATE TRIGGER {table}_pending_hand AFTER INSERT ON {table}
            BEGIN
                INSERT OR IGNORE INTO {PENDING} (hand_id) VALUES (NEW.hand_id);
            END
        """
        for table in HAND_CHILDREN
    }
    triggers["hands_clear_pending"] = f"""
        CREATE TRIGGER hands_clear_pending AFTER INSERT ON hands
        BEGIN
            DELETE FROM {PENDING} WHERE hand_id = NEW.hand_id;
        END
    """
    return triggers


def _without_key(table: str, ddl: str) -> str:
    pattern = (rf",\s*CONSTRAINT {_fk_name(table)} FOREIGN KEY\s*\(hand_id\) REFERENCES "
               r"hands \(hand_id\)\s*DEFERRABLE INITIALLY DEFERRED")
    edited, found = re.subn(pattern, "", ddl)
    if found != 1:
        raise RuntimeError(f"0007: the key {_fk_name(table)} is not in {table}'s DDL as "
                           "0001/0005 made it; refusing to rebuild the table")
    return edited


def _with_key(table: str, ddl: str) -> str:
    close = ddl.rindex(")")
    return ddl[:close].rstrip() + f",\n\t{_fk_sql(table)}\n" + ddl[close:]


def _rebuild_sqlite_children(edit: dict[str, str]) -> None:
    """Rebuild each child table from its stored DDL as ``edit`` changes it; the triggers
    and indexes naming any of them are dropped first and re-created from their stored SQL
    (a rebuilt table loses its own, and SQLite re-checks every trigger on a rename)."""
    conn = op.get_bind()
    names = "|".join(HAND_CHILDREN)
    dependents = [
        (kind, name, sql) for kind, name, table, sql in conn.exec_driver_sql(
            "SELECT type, name, tbl_name, sql FROM sqlite_master "
            "WHERE type IN ('trigger', 'index') AND sql IS NOT NULL ORDER BY rowid").all()
        if table in HAND_CHILDREN or re.search(rf"\b({names})\b", sql)
    ]
    for kind, name, _sql in dependents:
        if kind == "trigger":
            op.execute(f"DROP TRIGGER {name}")
    for table, ddl in edit.items():
        rebuilt = re.sub(rf'^CREATE TABLE "?{table}"?', f"CREATE TABLE {table}_rebuilt", ddl)
        op.execute(rebuilt)
        op.execute(f"INSERT INTO {table}_rebuilt SELECT * FROM {table}")
        op.execute(f"DROP TABLE {table}")
        op.execute(f"ALTER TABLE {table}_rebuilt RENAME TO {table}")
    for _kind, _name, sql in dependents:
        op.execute(sql)


def _stored_ddl(table: str) -> str:
    ddl = op.get_bind().exec_driver_sql(
        "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)).scalar()
    if not isinstance(ddl, str):
        raise RuntimeError(f"0007: no table {table} in this ledger")
    return ddl


def _upgrade_sqlite() -> None:
    _create_pending_table(unlogged=False)
    _rebuild_sqlite_children({t: _without_key(t, _stored_ddl(t)) for t in HAND_CHILDREN})
    for ddl in _sqlite_triggers().values():
        op.execute(ddl)


def _downgrade_sqlite() -> None:
    for trigger in _sqlite_triggers():
        op.execute(f"DROP TRIGGER {trigger}")
    _rebuild_sqlite_children({t: _with_key(t, _stored_ddl(t)) for t in HAND_CHILDREN})
    op.drop_table(PENDING)


def upgrade() -> None:
    dialect = op.get_bind().dialect.name
    if dialect == "postgresql":
        _upgrade_postgresql()
    elif dialect == "sqlite":
        _upgrade_sqlite()
    else:
        raise NotImplementedError(f"the ledger supports SQLite and PostgreSQL, not {dialect}")


def downgrade() -> None:
    dialect = op.get_bind().dialect.name
    if dialect == "postgresql":
        _downgrade_postgresql()
    elif dialect == "sqlite":
        _downgrade_sqlite()
    else:
        raise NotImplementedError(f"the ledger supports SQLite and PostgreSQL, not {dialect}")
