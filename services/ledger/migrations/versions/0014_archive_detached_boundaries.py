"""Where each table's chain stood when its old days were detached.

Revision ID: 0014_archive_detached_boundaries
Revises: 0013_case_changes_with_audit
Create Date: 2026-12-05

Why: ``pitwatch verify`` held a table's chain to seq 1 only when seq 1 was archived; a
chain whose first segments were cut away (behind a dropped guard) showed no break,
because the days detached past retention leave a chain that starts later, legitimately.
Now ``pitwatch archive detach`` writes, in the transaction that detaches a day, the last
seq and hash of every table that day held (``archive_detached``, append-only on both
databases; the days detached before this revision are recorded by it, from their tables);
verify links the live archive's first event of a table to the latest of those, or to
genesis when there is none. The rows stay when the detached table is moved to cold
storage and dropped, so a cut is told apart from a retention detach even then.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014_archive_detached_boundaries"
down_revision: str | Sequence[str] | None = "0013_case_changes_with_audit"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TABLE = "archive_detached"

# Days detached before this revision (their tables still in the schema, no longer
# partitions): where each table's chain stood in them, so that verify does not take their
# chains' later start for a cut (``services.archive.partitions.record_detached_days``
# does the same for a day restored from cold storage).
BACKFILL = f"""
    DO $$
    DECLARE day_table record;
    BEGIN
        FOR day_table IN
            SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = current_schema() AND c.relkind = 'r' AND NOT c.relispartition
              AND c.relname ~ '^archive_segments_[0-9]{{8}}$'
        LOOP
            EXECUTE format(
                'INSERT INTO {TABLE} (day, table_id, last_seq, last_hash, detached_at) '
                'SELECT DISTINCT ON (table_id) to_date(%L, ''YYYYMMDD''), table_id, '
                'last_seq, last_hash, %L FROM %I WHERE last_seq IS NOT NULL '
                'ORDER BY table_id, last_seq DESC',
                right(day_table.relname, 8),
                to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
                day_table.relname);
        END LOOP;
    END $$
"""


def upgrade() -> None:
    postgresql = op.get_bind().dialect.name == "postgresql"
    text_type = (lambda n: sa.String(n, collation="C")) if postgresql else sa.String
    op.create_table(
        TABLE,
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("table_id", text_type(200), nullable=False),
        sa.Column("last_seq", sa.BigInteger(), nullable=False),
        sa.Column("last_hash", text_type(64), nullable=False),
        sa.Column("detached_at", text_type(40), nullable=False),
        sa.PrimaryKeyConstraint("day", "table_id", name=op.f(f"pk_{TABLE}")),
    )
    op.create_index(f"ix_{TABLE}_table_seq", TABLE, ["table_id", "last_seq"])
    if postgresql:
        op.execute(f"""
            CREATE TRIGGER {TABLE}_append_only BEFORE UPDATE OR DELETE OR TRUNCATE
            ON {TABLE} FOR EACH STATEMENT EXECUTE FUNCTION pitwatch_refuse_change()
        """)
        op.execute(BACKFILL)
        return
    for verb in ("UPDATE", "DELETE"):
        op.execute(f"""
            CREATE TRIGGER {TABLE}_no_{verb.lower()} BEFORE {verb} ON {TABLE}
            BEGIN SELECT RAISE(ABORT, 'pitwatch: {TABLE} is append-only'); END
        """)


def downgrade() -> None:
    op.drop_table(TABLE)
