"""Table carries: a day's log continues each table from the state the day before left.

Revision ID: 0016_table_carries
Revises: 0015_archive_checkpoints
Create Date: 2026-12-05

Why: a day's log starts part way through each table's hash chain, so run alone its hands
had no configuration (GEN-5) and a hand dealt across midnight was split between two runs.
``pitwatch adjudicate --leave-open --ledger`` now keeps each table's state at the end of
its log (``table_carries``: the engine's state bytes, the chain head it follows, how many
events of the table it has taken, whether the run archived them, which engine;
append-only on both databases), and a later run takes the state a table's first event
follows (``services.archive.carry``); ``pitwatch verify`` derives each again from the
archived events.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0016_table_carries"
down_revision: str | Sequence[str] | None = "0015_archive_checkpoints"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TABLE = "table_carries"


def upgrade() -> None:
    postgresql = op.get_bind().dialect.name == "postgresql"
    text_type = (lambda n: sa.String(n, collation="C")) if postgresql else sa.String
    op.create_table(
        TABLE,
        sa.Column("table_id", text_type(200), nullable=False),
        sa.Column("last_seq", sa.BigInteger(), nullable=False),
        sa.Column("engine", text_type(16), nullable=False),
        sa.Column("last_hash", text_type(64), nullable=False),
        sa.Column("events_taken", sa.BigInteger(), nullable=False),
        sa.Column("archive", sa.Boolean(), nullable=False),
        sa.Column("state", sa.LargeBinary(), nullable=False),
        sa.Column("state_sha256", text_type(64), nullable=False),
        sa.Column("kept_at", text_type(40), nullable=False),
        sa.PrimaryKeyConstraint("table_id", "last_seq", "engine", name=op.f(f"pk_{TABLE}")),
    )
    if postgresql:
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


def downgrade() -> None:
    op.drop_table(TABLE)
