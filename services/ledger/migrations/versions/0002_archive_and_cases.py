"""The event archive (segments, alerts, conflicts, catalog) and case management (cases,
audit trail, evidence, hands, tags), with their append-only guards.

Revision ID: 0002_archive_and_cases
Revises: 0001
Create Date: 2026-01-20

Append-only is enforced by the database, not hoped for: triggers refuse UPDATE and
DELETE on ``archive_segments``, ``archive_alerts``, ``archive_conflicts``,
``case_audit``, ``case_evidence``, ``case_hands`` and ``case_tags`` (and TRUNCATE on
PostgreSQL), on SQLite and PostgreSQL alike; a ``cases`` row may change (its state), never
be deleted, and every change is an audit entry.

On PostgreSQL ``archive_segments`` is partitioned by range of ``day``, one partition per
UTC day, created by ``archive_day_partition(day)`` as days arrive (the writer calls it
before it writes a day for the first time): old days can then be detached (``ALTER TABLE
archive_segments DETACH PARTITION ...``) and kept cold. The row-level guard declared on the
partitioned table is cloned onto every partition; TRUNCATE triggers are statement-level,
which PostgreSQL does not clone, so the function adds one to each partition it creates.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002_archive_and_cases"
down_revision: str | Sequence[str] | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

APPEND_ONLY = ("archive_alerts", "archive_conflicts", "case_audit", "case_evidence",
               "case_hands", "case_tags")
PARTITIONED = "archive_segments"
NOT_DELETED = "cases"


def _case_fk(table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(["case_id"], ["cases.case_id"],
                                   name=op.f(f"fk_{table}_case_id_cases"))


def _create_archive() -> None:
    op.create_table(
        "archive_segments",
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("table_id", sa.String(200), nullable=False),
        sa.Column("head_seq", sa.BigInteger(), nullable=False),
        sa.Column("ordinal", sa.BigInteger(), nullable=False),
        sa.Column("hand_id", sa.String(200), nullable=True),
        sa.Column("first_seq", sa.BigInteger(), nullable=True),
        sa.Column("last_seq", sa.BigInteger(), nullable=True),
        sa.Column("events", sa.Integer(), nullable=False),
        sa.Column("refused", sa.Text(), nullable=False),
        sa.Column("first_prev_hash", sa.String(64), nullable=True),
        sa.Column("last_hash", sa.String(64), nullable=True),
        sa.Column("first_ts", sa.String(40), nullable=False),
        sa.Column("last_ts", sa.String(40), nullable=False),
        sa.Column("codec", sa.String(16), nullable=False),
        sa.Column("body_sha256", sa.String(64), nullable=False),
        sa.Column("body", sa.LargeBinary(), nullable=False),
        sa.PrimaryKeyConstraint("day", "table_id", "head_seq", "ordinal",
                                name=op.f("pk_archive_segments")),
        postgresql_partition_by="RANGE (day)",
    )
    op.create_index("ix_archive_segments_table_seq", "archive_segments",
                    ["table_id", "first_seq"])
    op.create_index("ix_archive_segments_hand", "archive_segments", ["hand_id"])
    op.create_table(
        "archive_tables",
        sa.Column("table_id", sa.String(200), nullable=False),
        sa.Column("last_seq", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("table_id", name=op.f("pk_archive_tables")),
    )
    op.create_table(
        "archive_alerts",
        sa.Column("alert_id", sa.String(500), nullable=False),
        sa.Column("table_id", sa.String(200), nullable=False),
        sa.Column("hand_id", sa.String(200), nullable=True),
        sa.Column("rule", sa.String(200), nullable=False),
        sa.Column("code", sa.String(200), nullable=False),
        sa.Column("severity", sa.String(16), nullable=False),
        sa.Column("seq", sa.BigInteger(), nullable=True),
        sa.Column("event_id", sa.String(200), nullable=True),
        sa.Column("alert_json", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("alert_id", name=op.f("pk_archive_alerts")),
    )
    op.create_index("ix_archive_alerts_table_seq", "archive_alerts", ["table_id", "seq"])
    op.create_index("ix_archive_alerts_hand", "archive_alerts", ["hand_id"])
    op.create_table(
        "archive_conflicts",
        sa.Column("table_id", sa.String(200), nullable=False),
        sa.Column("seq", sa.BigInteger(), nullable=False),
        sa.Column("offered_sha256", sa.String(64), nullable=False),
        sa.Column("stored_sha256", sa.String(64), nullable=False),
        sa.Column("offered", sa.LargeBinary(), nullable=False),
        sa.PrimaryKeyConstraint("table_id", "seq", "offered_sha256",
                                name=op.f("pk_archive_conflicts")),
    )


def _create_cases() -> None:
    op.create_table(
        "cases",
        sa.Column("case_id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("subject", sa.String(500), nullable=False),
        sa.Column("subject_kind", sa.String(16), nullable=False),
        sa.Column("title", sa.Text(), nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("severity", sa.String(16), nullable=False),
        sa.Column("assignee", sa.Text(), nullable=True),
        sa.Column("outcome", sa.String(16), nullable=True),
        sa.Column("reason", sa.Text(), nullable=True),
        sa.Column("opened_at", sa.String(40), nullable=False),
        sa.Column("updated_at", sa.String(40), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.CheckConstraint("state IN ('open', 'in_review', 'escalated', 'closed')",
                           name=op.f("ck_cases_state")),
        sa.CheckConstraint("outcome IS NULL OR outcome IN ('confirmed', 'no_issue', "
                           "'procedural', 'referred')", name=op.f("ck_cases_outcome")),
        sa.CheckConstraint("(state = 'closed') = (outcome IS NOT NULL)",
                           name=op.f("ck_cases_closed_outcome")),
        sa.PrimaryKeyConstraint("case_id", name=op.f("pk_cases")),
    )
    op.create_index("ix_cases_open_subject", "cases", ["subject"], unique=True,
                    sqlite_where=sa.text("state <> 'closed'"),
                    postgresql_where=sa.text("state <> 'closed'"))
    op.create_index("ix_cases_state", "cases", ["state"])
    op.create_table(
        "case_audit",
        sa.Column("case_id", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("at", sa.String(40), nullable=False),
        sa.Column("actor", sa.Text(), nullable=False),
        sa.Column("action", sa.String(16), nullable=False),
        sa.Column("state_before", sa.String(16), nullable=True),
        sa.Column("state_after", sa.String(16), nullable=False),
        sa.Column("detail", sa.Text(), nullable=False),
        _case_fk("case_audit"),
        sa.PrimaryKeyConstraint("case_id", "version", name=op.f("pk_case_audit")),
        sqlite_with_rowid=False,
    )
    op.create_table(
        "case_evidence",
        sa.Column("source_id", sa.String(600), nullable=False),
        sa.Column("case_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("table_id", sa.String(200), nullable=False),
        sa.Column("hand_id", sa.String(200), nullable=True),
        sa.Column("rule", sa.String(200), nullable=False),
        sa.Column("code", sa.String(200), nullable=False),
        sa.Column("severity", sa.String(16), nullable=False),
        sa.Column("summary", sa.Text(), nullable=False),
        sa.Column("day", sa.Date(), nullable=True),
        sa.CheckConstraint("kind IN ('finding', 'alert')", name=op.f("ck_case_evidence_kind")),
        _case_fk("case_evidence"),
        sa.PrimaryKeyConstraint("source_id", name=op.f("pk_case_evidence")),
    )
    op.create_index("ix_case_evidence_case", "case_evidence", ["case_id"])
    op.create_table(
        "case_hands",
        sa.Column("case_id", sa.Integer(), nullable=False),
        sa.Column("hand_id", sa.String(200), nullable=False),
        sa.Column("table_id", sa.String(200), nullable=False),
        _case_fk("case_hands"),
        sa.PrimaryKeyConstraint("case_id", "hand_id", name=op.f("pk_case_hands")),
        sqlite_with_rowid=False,
    )
    op.create_table(
        "case_tags",
        sa.Column("case_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("value", sa.String(200), nullable=False),
        _case_fk("case_tags"),
        sa.PrimaryKeyConstraint("case_id", "kind", "value", name=op.f("pk_case_tags")),
        sqlite_with_rowid=False,
    )
    op.create_index("ix_case_tags_kind_value", "case_tags", ["kind", "value"])


def _sqlite_guards() -> None:
    for table in (*APPEND_ONLY, PARTITIONED):
        for verb in ("UPDATE", "DELETE"):
            op.execute(f"""
                CREATE TRIGGER {table}_no_{verb.lower()} BEFORE {verb} ON {table}
                BEGIN SELECT RAISE(ABORT, 'pitwatch: {table} is append-only'); END
            """)
    op.execute(f"""
        CREATE TRIGGER {NOT_DELETED}_no_delete BEFORE DELETE ON {NOT_DELETED}
        BEGIN SELECT RAISE(ABORT, 'pitwatch: a case is never deleted'); END
    """)


def _postgresql_guards() -> None:
    op.execute("""
        CREATE FUNCTION pitwatch_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            RAISE EXCEPTION 'pitwatch: % is append-only (% refused)', TG_TABLE_NAME, TG_OP
                USING ERRCODE = 'integrity_constraint_violation';
        END $$
    """)
    op.execute("""
        CREATE FUNCTION pitwatch_refuse_delete() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            RAISE EXCEPTION 'pitwatch: a case is never deleted (% on %)', TG_OP, TG_TABLE_NAME
                USING ERRCODE = 'integrity_constraint_violation';
        END $$
    """)
    for table in APPEND_ONLY:
        op.execute(f"""
            CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE OR TRUNCATE
            ON {table} FOR EACH STATEMENT EXECUTE FUNCTION pitwatch_refuse_change()
        """)
    op.execute(f"""
        CREATE TRIGGER {NOT_DELETED}_never_deleted BEFORE DELETE OR TRUNCATE
        ON {NOT_DELETED} FOR EACH STATEMENT EXECUTE FUNCTION pitwatch_refuse_delete()
    """)
    # Partitioned: the row-level guard is cloned onto every partition; the statement-level
    # one guards statements on the partitioned table itself (TRUNCATE included).
    op.execute(f"""
        CREATE TRIGGER {PARTITIONED}_append_only_rows BEFORE UPDATE OR DELETE
        ON {PARTITIONED} FOR EACH ROW EXECUTE FUNCTION pitwatch_refuse_change()
    """)
    op.execute(f"""
        CREATE TRIGGER {PARTITIONED}_append_only BEFORE UPDATE OR DELETE OR TRUNCATE
        ON {PARTITIONED} FOR EACH STATEMENT EXECUTE FUNCTION pitwatch_refuse_change()
    """)
    op.execute(f"""
        CREATE FUNCTION archive_day_partition(day date) RETURNS text LANGUAGE plpgsql AS $$
        DECLARE
            name text := '{PARTITIONED}_' || to_char(day, 'YYYYMMDD');
        BEGIN
            PERFORM pg_advisory_xact_lock(hashtext(name));
            IF to_regclass(name) IS NULL THEN
                EXECUTE format('CREATE TABLE %I PARTITION OF {PARTITIONED} '
                               'FOR VALUES FROM (%L) TO (%L)', name, day, day + 1);
                EXECUTE format('CREATE TRIGGER %I BEFORE TRUNCATE ON %I FOR EACH STATEMENT '
                               'EXECUTE FUNCTION pitwatch_refuse_change()',
                               name || '_no_truncate', name);
            END IF;
            RETURN name;
        END $$
    """)


def upgrade() -> None:
    _create_archive()
    _create_cases()
    dialect = op.get_bind().dialect.name
    if dialect == "sqlite":
        _sqlite_guards()
    elif dialect == "postgresql":
        _postgresql_guards()
    else:
        raise NotImplementedError(f"pitwatch supports SQLite and PostgreSQL, not {dialect}")


def downgrade() -> None:
    for table in ("case_tags", "case_hands", "case_evidence", "case_audit", "cases",
                  "archive_conflicts", "archive_alerts", "archive_tables", "archive_segments"):
        op.drop_table(table)
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP FUNCTION archive_day_partition(date)")
        op.execute("DROP FUNCTION pitwatch_refuse_delete()")
        op.execute("DROP FUNCTION pitwatch_refuse_change()")
