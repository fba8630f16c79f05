"""Every text column compared byte by byte (``COLLATE "C"``) on PostgreSQL.

Revision ID: 0011_text_keys_collate_c
Revises: 0010_hand_record_lz4
Create Date: 2026-12-04

Why: the ledger's keys are text (hand ids, event ids, account names, table ids), and
every row booked inserts them into B-tree indexes. Under a database's linguistic
collation (``en_US.UTF-8``, ``C.UTF-8``) each comparison goes through the C library's
``strcoll`` and a locale lookup: a profile of the ledger's booking showed text
comparison at about an eighth of PostgreSQL's CPU, and a posting row cost 2.7 µs against
2.2 with the key columns in ``"C"``. pitwatch's keys are identifiers, not words: nothing
sorts them for a reader by language. Byte order is also SQLite's (``BINARY``), so the two
backends now order every text column alike whatever locale the cluster was made with.

All text columns of all tables, not only the keys: PostgreSQL refuses to compare two
columns of different collations (a join of ``postings.account`` with ``accounts.name``,
of ``hands.hand_id`` with the archive's), so they change together. A partition takes its
columns from its partitioned table. Changing a column's collation keeps its bytes and
rebuilds the indexes on it: on a large ledger this migration takes a while and holds each
table's lock meanwhile. ``tests/unit/ledger/test_migrations.py`` holds every table,
present and future, to it. SQLite compares bytes already: nothing to do there.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from alembic import op
from sqlalchemy import text

revision: str = "0011_text_keys_collate_c"
down_revision: str | Sequence[str] | None = "0010_hand_record_lz4"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# The text columns of this schema's tables (partitions excepted: they follow their
# table), with their declared types and compression ('' for the server's default). Read
# from the catalogue so that the migration covers exactly what the revisions before it
# made.
TEXT_COLUMNS = """
    SELECT c.relname, a.attname, format_type(a.atttypid, a.atttypmod), a.attcompression
    FROM pg_attribute a
    JOIN pg_class c ON c.oid = a.attrelid
    JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND NOT c.relispartition
      AND a.attnum > 0 AND NOT a.attisdropped
      AND a.atttypid IN ('text'::regtype, 'varchar'::regtype)
      AND c.relname <> 'alembic_version'
    ORDER BY c.relname, a.attnum
"""


def _collate_text_columns(collation: str) -> None:
    bind = op.get_bind()
    if bind.dialect.name != "postgresql":
        return
    columns: dict[str, list[str]] = defaultdict(list)
    compressed: list[str] = []
    for table, column, declared, compression in bind.execute(text(TEXT_COLUMNS)):
        columns[table].append(
            f'ALTER COLUMN "{column}" TYPE {declared} COLLATE "{collation}"')
        if compression:  # a new type takes the default: 0010's lz4 is set again
            method = {"p": "pglz", "l": "lz4"}[compression]
            compressed.append(f'ALTER TABLE "{table}" ALTER COLUMN "{column}" '
                              f"SET COMPRESSION {method}")
    for table, changes in columns.items():  # one pass over each table and its indexes
        op.execute(f'ALTER TABLE "{table}" ' + ", ".join(changes))
    for statement in compressed:
        op.execute(statement)


def upgrade() -> None:
    _collate_text_columns("C")


def downgrade() -> None:
    _collate_text_columns("default")
