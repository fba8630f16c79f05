"""A case row changes only together with its audit entry.

Revision ID: 0013_case_changes_with_audit
Revises: 0012_archive_catalog_guard
Create Date: 2026-12-05

Why: the trail (``case_audit``) is append-only, and every action of pitwatch appends its
entry and moves the case's row to it in one transaction. But the row itself had to stay
open to UPDATE (its state is what the queue lists), so one statement could close a
critical case as "no issue", or take it off a reviewer, with no entry in the trail and
nothing to show it. Now the database lets a case row change only to the next version,
with the state and time of an audit entry of that version already written
(``services.cases.audit.change_case`` writes the entry first), and never its id, subject
or title or when it was opened. ``pitwatch verify`` reads every trail again against its
row, for a change made with this guard dropped.
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0013_case_changes_with_audit"
down_revision: str | Sequence[str] | None = "0012_archive_catalog_guard"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

REFUSED = ("pitwatch: a case changes only with its audit entry (the next version, written "
           "first): act on it with pitwatch cases or the console")

# The change is refused unless all of this holds (the same words on both databases).
_UNCHANGED = ("NEW.case_id = OLD.case_id AND NEW.subject = OLD.subject "
              "AND NEW.subject_kind = OLD.subject_kind AND NEW.title = OLD.title "
              "AND NEW.opened_at = OLD.opened_at")
_AUDITED = ("NEW.version = OLD.version + 1 AND EXISTS (SELECT 1 FROM case_audit a "
            "WHERE a.case_id = NEW.case_id AND a.version = NEW.version "
            "AND a.state_after = NEW.state AND a.at = NEW.updated_at)")


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(f"""
            CREATE FUNCTION pitwatch_case_changes_with_audit() RETURNS trigger
            LANGUAGE plpgsql AS $$
            BEGIN
                IF NOT ({_UNCHANGED} AND {_AUDITED}) THEN
                    RAISE EXCEPTION '{REFUSED} (case %, version % to %)', OLD.case_id,
                        OLD.version, NEW.version
                        USING ERRCODE = 'integrity_constraint_violation';
                END IF;
                RETURN NEW;
            END $$
        """)
        op.execute("""
            CREATE TRIGGER cases_change_with_audit BEFORE UPDATE ON cases
            FOR EACH ROW EXECUTE FUNCTION pitwatch_case_changes_with_audit()
        """)
        return
    op.execute(f"""
        CREATE TRIGGER cases_change_with_audit BEFORE UPDATE ON cases
        WHEN NOT ({_UNCHANGED} AND {_AUDITED})
        BEGIN SELECT RAISE(ABORT, '{REFUSED}'); END
    """)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER cases_change_with_audit ON cases")
        op.execute("DROP FUNCTION pitwatch_case_changes_with_audit()")
    else:
        op.execute("DROP TRIGGER cases_change_with_audit")
