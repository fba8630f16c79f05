"""Archive segment bodies stored as they are, without PostgreSQL's own compression.

Revision ID: 0006_archive_body_storage
Revises: 0005_postings_account_check
Create Date: 2026-12-02

Why: a segment's body is already a zstd frame (``services.archive.segment``), about 3 kB
a hand. Past about 2 kB PostgreSQL's default storage for ``bytea`` (EXTENDED) first tries
to compress the value again (pglz), which on zstd output only costs CPU, and then moves
it out of line. EXTERNAL keeps the out-of-line storage and skips the second compression.
The stored bytes are the same either way: ``verify`` and the body's SHA-256 see no
difference. ``ALTER TABLE`` on the partitioned table sets every attached day partition,
and a partition created later takes its columns' storage from the parent.

SQLite has no such setting: nothing to do there.
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0006_archive_body_storage"
down_revision: str | Sequence[str] | None = "0005_postings_account_check"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _set_storage(storage: str) -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(f"ALTER TABLE archive_segments ALTER COLUMN body SET STORAGE {storage}")


def upgrade() -> None:
    _set_storage("EXTERNAL")


def downgrade() -> None:
    _set_storage("EXTENDED")
