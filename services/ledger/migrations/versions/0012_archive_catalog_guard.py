"""The archive's catalog guarded: a table's highest archived seq never goes down, and its
row is never deleted.

Revision ID: 0012_archive_catalog_guard
Revises: 0011_text_keys_collate_c
Create Date: 2026-12-05

Why: a hash chain shows every changed or removed event by the link after it, except at
its end, where nothing comes after. Remove a table's last segments (the guards on
``archive_segments`` dropped first, by someone with the owner's rights) and every link
left still holds. ``pitwatch verify`` therefore compares the end of each chain with the
catalog, ``archive_tables.last_seq``, the highest seq the writer ever archived for the
table (``services.archive.verify``). The writer only ever raises it (an upsert taking the
greater value), but until now the database let anyone lower it or delete the row, so a cut
could be hidden with one more statement and no guard to drop. Now the database refuses
both, on SQLite and PostgreSQL alike: hiding a cut means dropping the guards of two
tables, as changing an event means dropping those of one.
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0012_archive_catalog_guard"
down_revision: str | Sequence[str] | None = "0011_text_keys_collate_c"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

LOWERED = ("pitwatch: archive_tables.last_seq never goes down (only the archive writer "
           "raises it)")
DELETED = "pitwatch: an archive_tables row is never deleted"


def _sqlite_guards() -> None:
    op.execute(f"""
        CREATE TRIGGER archive_tables_never_lowered BEFORE UPDATE ON archive_tables
        WHEN NEW.last_seq < OLD.last_seq OR NEW.table_id IS NOT OLD.table_id
        BEGIN SELECT RAISE(ABORT, '{LOWERED}'); END
    """)
    op.execute(f"""
        CREATE TRIGGER archive_tables_no_delete BEFORE DELETE ON archive_tables
        BEGIN SELECT RAISE(ABORT, '{DELETED}'); END
    """)


def _postgresql_guards() -> None:
    op.execute(f"""
        CREATE FUNCTION pitwatch_catalog_guard() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF TG_OP = 'UPDATE' THEN
                IF NEW.last_seq < OLD.last_seq OR NEW.table_id <> OLD.table_id THEN
                    RAISE EXCEPTION '{LOWERED} (table %: % to %)', OLD.table_id,
                        OLD.last_seq, NEW.last_seq
                        USING ERRCODE = 'integrity_constraint_violation';
                END IF;
                RETURN NEW;
            END IF;
            RAISE EXCEPTION '{DELETED} (% refused)', TG_OP
                USING ERRCODE = 'integrity_constraint_violation';
        END $$
    """)
    op.execute("""
        CREATE TRIGGER archive_tables_never_lowered BEFORE UPDATE ON archive_tables
        FOR EACH ROW EXECUTE FUNCTION pitwatch_catalog_guard()
    """)
    op.execute("""
        CREATE TRIGGER archive_tables_never_deleted BEFORE DELETE OR TRUNCATE
        ON archive_tables FOR EACH STATEMENT EXECUTE FUNCTION pitwatch_catalog_guard()
    """)


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        _postgresql_guards()
    else:
        _sqlite_guards()


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER archive_tables_never_deleted ON archive_tables")
        op.execute("DROP TRIGGER archive_tables_never_lowered ON archive_tables")
        op.execute("DROP FUNCTION pitwatch_catalog_guard()")
    else:
        op.execute("DROP TRIGGER archive_tables_no_delete")
        op.execute("DROP TRIGGER archive_tables_never_lowered")
