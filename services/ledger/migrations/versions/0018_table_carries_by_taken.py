"""Kept table states keyed by the events they had taken, not by their chain head.

Revision ID: 0018_table_carries_by_taken
Revises: 0017_hand_ends
Create Date: 2026-12-07

Why: ``table_carries`` kept a table's state under its chain head (``last_seq``), and a run
took the state kept at the highest head below the table's first seq in its log. The head
is the highest seq a table has taken, not the last: after a forged event at seq 2**53 - 1
every genuine event arrives below it, and a late event may open the next day's file, so
no state was kept below the log's first seq and the table started new (QA, variant C: 11
hands rejected for want of their configuration, 3 orphan events); and a day whose events
all came below the head left it where it was, so its state was refused as kept already
and the next day went on from two days back. The key is now ``(table_id, events_taken,
engine)``: every record a run takes counts, so each run that meets a table keeps a state
of its own, in the order the runs took its events (``services.archive.carry`` says how a
run now picks one). ``last_seq`` stays, as a column.

A table's primary key cannot be changed in place on SQLite, so the table is built again
on both databases (rows copied, its append-only triggers made again). Two states of a
table and engine kept after as many events (two different pasts of the table, which an
honest ledger does not hold) cannot both stay under the new key: the one kept first stays,
as ``keep_carries`` keeps the first; the states are derived, and ``pitwatch verify``
derives each again from the archive. The downgrade does the same the other way.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0018_table_carries_by_taken"
down_revision: str | Sequence[str] | None = "0017_hand_ends"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TABLE = "table_carries"
BUILT = "table_carries_0018"  # the table built again, renamed once the old one is gone
COLUMNS = ("table_id, last_seq, engine, last_hash, events_taken, archive, state, "
           "state_sha256, kept_at")


def upgrade() -> None:
    _build_again(key="events_taken", other="last_seq")


def downgrade() -> None:
    _build_again(key="last_seq", other="events_taken")


def _build_again(key: str, other: str) -> None:
    """``table_carries`` keyed by ``(table_id, key, engine)``, each such key's row the one
    kept first (then the lowest ``other``, unique under the old key)."""
    postgresql = op.get_bind().dialect.name == "postgresql"
    text_type = (lambda n: sa.String(n, collation="C")) if postgresql else sa.String
    # PostgreSQL names the key's index in the schema, beside the old table's: renamed below.
    pk_name = f"pk_{BUILT}" if postgresql else f"pk_{TABLE}"
    op.create_table(
        BUILT,
        sa.Column("table_id", text_type(200), nullable=False),
        sa.Column("last_seq", sa.BigInteger(), nullable=False),
        sa.Column("engine", text_type(16), nullable=False),
        sa.Column("last_hash", text_type(64), nullable=False),
        sa.Column("events_taken", sa.BigInteger(), nullable=False),
        sa.Column("archive", sa.Boolean(), nullable=False),
        sa.Column("state", sa.LargeBinary(), nullable=False),
        sa.Column("state_sha256", text_type(64), nullable=False),
        sa.Column("kept_at", text_type(40), nullable=False),
        sa.PrimaryKeyConstraint("table_id", key, "engine", name=op.f(pk_name)),
    )
    op.execute(f"""
        INSERT INTO {BUILT} ({COLUMNS}) SELECT {COLUMNS} FROM {TABLE} t
        WHERE NOT EXISTS (
            SELECT 1 FROM {TABLE} o
            WHERE o.table_id = t.table_id AND o.engine = t.engine AND o.{key} = t.{key}
              AND (o.kept_at < t.kept_at OR (o.kept_at = t.kept_at AND o.{other} < t.{other})))
    """)
    op.drop_table(TABLE)
    op.rename_table(BUILT, TABLE)
    if postgresql:
        op.execute(f"ALTER TABLE {TABLE} RENAME CONSTRAINT pk_{BUILT} TO pk_{TABLE}")
        op.execute(f"""
            CREATE TRIGGER {TABLE}_append_only BEFORE UPDATE OR DELETE OR TRUNCATE
            ON {TABLE} FOR EACH STATEMENT EXECUTE FUNCTION pitwatch_refuse_change()
        """)
        return
    for verb in ("UPDATE", "DELETE"):
        op.execute(f"""
            CREATE TRIGGER {TABLE}_no_{verb.lower()} BEFORE {verb} ON {TABLE}
            BEGIN SELECT RAISE(ABORT, 'pitwatch: {TABLE} is append-only'); END
        """)
