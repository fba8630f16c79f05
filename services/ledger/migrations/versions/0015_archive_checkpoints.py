"""Table checkpoints: a report of a hand late in a table's life replays from the last one.

Revision ID: 0015_archive_checkpoints
Revises: 0014_archive_detached_boundaries
Create Date: 2026-12-05

Why: a dispute report re-derives its hand from the table's state when the hand began,
which only the table's earlier events establish; a table archives years of them, and
replaying them all made a report of a hand a year into a table's life take minutes.
``pitwatch archive checkpoint`` now stores the core's table state every so many archived
lines (``archive_checkpoints``, append-only on both databases), and the reports start at
the latest one before the hand when the archive still holds exactly what it was made
from. ``archive_detached`` gains each detached day's segment and event counts per table,
so a checkpoint made before a detach still counts what it was made from; days detached
before this revision have none (their checkpoints are not used).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0015_archive_checkpoints"
down_revision: str | Sequence[str] | None = "0014_archive_detached_boundaries"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TABLE = "archive_checkpoints"


def upgrade() -> None:
    postgresql = op.get_bind().dialect.name == "postgresql"
    text_type = (lambda n: sa.String(n, collation="C")) if postgresql else sa.String
    op.add_column("archive_detached", sa.Column("segments", sa.BigInteger(), nullable=True))
    op.add_column("archive_detached", sa.Column("events", sa.BigInteger(), nullable=True))
    op.create_table(
        TABLE,
        sa.Column("table_id", text_type(200), nullable=False),
        sa.Column("head_seq", sa.BigInteger(), nullable=False),
        sa.Column("ordinal", sa.BigInteger(), nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("segments", sa.BigInteger(), nullable=False),
        sa.Column("lines", sa.BigInteger(), nullable=False),
        sa.Column("rejected", sa.BigInteger(), nullable=False),
        sa.Column("rejected_first", sa.Text(collation="C") if postgresql else sa.Text(),
                  nullable=False),
        sa.Column("strays", sa.Text(collation="C") if postgresql else sa.Text(),
                  nullable=False),
        sa.Column("state", sa.LargeBinary(), nullable=False),
        sa.Column("state_sha256", text_type(64), nullable=False),
        sa.Column("made_at", text_type(40), nullable=False),
        sa.PrimaryKeyConstraint("table_id", "head_seq", "ordinal", name=op.f(f"pk_{TABLE}")),
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
    with op.batch_alter_table("archive_detached") as batch:
        batch.drop_column("events")
        batch.drop_column("segments")
