"""An index on the archive's segments by table and last seq, for the overlap lookup.

Revision ID: 0009_archive_last_seq_index
Revises: 0008_pending_sums
Create Date: 2026-12-03

Why: a segment offered that overlaps what its table has archived (two runs over
overlapping logs, a late event filling a gap) is compared with the archived segments
whose seq ranges it meets (``services.archive.writer._archived_hashes``: ``first_seq <=
last`` and ``last_seq >= first``). Through the only index there was, on (table, first
seq), that read every segment of the table from its first: on a table with years
archived, each such segment read its whole history. The overlapping ones are near the
table's head, so the lookup now goes through (table, last seq) from ``first`` on: a few
rows, plus one empty probe per older day partition on PostgreSQL (the index is created on
the partitioned table, so on every day partition, present and future).
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0009_archive_last_seq_index"
down_revision: str | Sequence[str] | None = "0008_pending_sums"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

INDEX = "ix_archive_segments_table_last_seq"


def upgrade() -> None:
    op.create_index(INDEX, "archive_segments", ["table_id", "last_seq"])


def downgrade() -> None:
    op.drop_index(INDEX, table_name="archive_segments")
