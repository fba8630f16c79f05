"""Initial ledger: hands, accounts, postings, rake, findings, conflicts, guard triggers.

Revision ID: 0001
Revises:
Create Date: 2024-06-01

The guard triggers make the database itself refuse an unbalanced or rewritten book, on
SQLite and PostgreSQL alike (the Python write path checks the same first and reports a
refusal as a finding; the triggers are the last line, for any other writer):

* postings, rake and findings rows can only be inserted for a hand whose ``hands`` row
  does not exist yet; their FK to ``hands`` is DEFERRABLE INITIALLY DEFERRED, so a
  hand's rows go in first and its ``hands`` row last, in one transaction;
* inserting the ``hands`` row checks that the hand's postings sum to zero and that every
  layout account nets to zero within the hand (GEN-8), else the transaction fails;
* hands, postings, rake, findings and conflicts are append-only (no UPDATE / DELETE).

On PostgreSQL the checks are statement-level triggers over transition tables (one check
per INSERT statement, however many rows), raising SQLSTATE 23000 so drivers report an
integrity error. SQLite has no statement-level triggers, so they are row-level there.

Note for later migrations: SQLite batch mode rebuilds a table and drops its triggers;
a batch migration of one of these tables must re-create them.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | Sequence[str] | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

HAND_CHILDREN = ("postings", "rake", "findings")
APPEND_ONLY = ("hands", "postings", "rake", "findings", "conflicts")

UNBALANCED_HANDS_SQL = """
    SELECT p.hand_id FROM postings p JOIN {hands} h ON h.hand_id = p.hand_id
    GROUP BY p.hand_id HAVING SUM(p.amount) <> 0
    UNION ALL
    SELECT p.hand_id FROM postings p JOIN {hands} h ON h.hand_id = p.hand_id
    JOIN accounts a ON a.name = p.account AND a.kind = 'layout'
    GROUP BY p.hand_id, p.account HAVING SUM(p.amount) <> 0
"""


def _hand_fk(table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        ["hand_id"],
        ["hands.hand_id"],
        name=op.f(f"fk_{table}_hand_id_hands"),
        deferrable=True,
        initially="DEFERRED",
    )


def _create_tables() -> None:
    op.create_table(
        "hands",
        sa.Column("hand_id", sa.String(200), nullable=False),
        sa.Column("table_id", sa.String(200), nullable=False),
        sa.Column("game", sa.String(16), nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("rule_profile", sa.String(200), nullable=True),
        sa.Column("rake_mode", sa.String(16), nullable=True),
        sa.Column("dealer_id", sa.Text(), nullable=True),
        sa.Column("ended_at", sa.String(40), nullable=True),
        sa.Column("day", sa.Date(), nullable=True),
        sa.Column("first_seq", sa.BigInteger(), nullable=True),
        sa.Column("last_seq", sa.BigInteger(), nullable=True),
        sa.Column("last_hash", sa.String(64), nullable=True),
        sa.Column("ledger_status", sa.String(16), nullable=False),
        sa.Column("record_sha256", sa.String(64), nullable=False),
        sa.Column("record_json", sa.Text(), nullable=False),
        sa.CheckConstraint(
            "ledger_status IN ('posted', 'refused')", name=op.f("ck_hands_ledger_status")
        ),
        sa.PrimaryKeyConstraint("hand_id", name=op.f("pk_hands")),
    )
    op.create_index(op.f("ix_hands_table_day"), "hands", ["table_id", "day"])
    op.create_table(
        "accounts",
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("table_id", sa.String(200), nullable=True),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("player_id", sa.Text(), nullable=True),
        sa.CheckConstraint(
            "kind IN ('player', 'layout', 'pot', 'house_rake', 'house_bank')",
            name=op.f("ck_accounts_kind"),
        ),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_accounts")),
    )
    op.create_table(
        "postings",
        sa.Column("hand_id", sa.String(200), nullable=False),
        sa.Column("event_id", sa.String(36), nullable=False),
        sa.Column("leg", sa.Integer(), nullable=False),
        sa.Column("seq", sa.BigInteger(), nullable=False),
        sa.Column("account", sa.Text(), nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.Column("kind", sa.String(24), nullable=False),
        sa.CheckConstraint("amount <> 0", name=op.f("ck_postings_nonzero_amount")),
        sa.ForeignKeyConstraint(
            ["account"], ["accounts.name"], name=op.f("fk_postings_account_accounts")
        ),
        _hand_fk("postings"),
        sa.PrimaryKeyConstraint("hand_id", "event_id", "leg", name=op.f("pk_postings")),
        sqlite_with_rowid=False,
    )
    op.create_table(
        "rake",
        sa.Column("hand_id", sa.String(200), nullable=False),
        sa.Column("event_id", sa.String(36), nullable=False),
        sa.Column("leg", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.String(200), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("player_id", sa.Text(), nullable=True),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.Column("mode", sa.String(16), nullable=True),
        sa.Column("day", sa.Date(), nullable=True),
        _hand_fk("rake"),
        sa.PrimaryKeyConstraint("hand_id", "event_id", "leg", name=op.f("pk_rake")),
        sqlite_with_rowid=False,
    )
    op.create_index(op.f("ix_rake_table_day"), "rake", ["table_id", "day"])
    op.create_table(
        "findings",
        sa.Column("hand_id", sa.String(200), nullable=False),
        sa.Column("ordinal", sa.Integer(), nullable=False),
        sa.Column("origin", sa.String(16), nullable=False),
        sa.Column("code", sa.String(200), nullable=False),
        sa.Column("rule", sa.String(200), nullable=False),
        sa.Column("severity", sa.String(16), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("amount", sa.BigInteger(), nullable=True),
        sa.Column("message", sa.Text(), nullable=False),
        sa.CheckConstraint("origin IN ('record', 'ledger')", name=op.f("ck_findings_origin")),
        _hand_fk("findings"),
        sa.PrimaryKeyConstraint("hand_id", "ordinal", name=op.f("pk_findings")),
        sqlite_with_rowid=False,
    )
    op.create_index(op.f("ix_findings_rule"), "findings", ["rule"])
    op.create_table(
        "conflicts",
        sa.Column("hand_id", sa.String(200), nullable=False),
        sa.Column("offered_sha256", sa.String(64), nullable=False),
        sa.Column("stored_sha256", sa.String(64), nullable=False),
        sa.Column("detail", sa.Text(), nullable=False),
        sa.Column("offered_json", sa.Text(), nullable=False),
        _hand_fk("conflicts"),
        sa.PrimaryKeyConstraint("hand_id", "offered_sha256", name=op.f("pk_conflicts")),
    )


def _create_sqlite_guards() -> None:
    for table in HAND_CHILDREN:
        op.execute(
            f"""
            CREATE TRIGGER {table}_only_into_open_hand BEFORE INSERT ON {table}
            WHEN EXISTS (SELECT 1 FROM hands WHERE hand_id = NEW.hand_id)
            BEGIN
                SELECT RAISE(ABORT, 'ledger: {table} rows cannot join a booked hand');
            END
            """
        )
    for table in APPEND_ONLY:
        for verb in ("UPDATE", "DELETE"):
            op.execute(
                f"""
                CREATE TRIGGER {table}_no_{verb.lower()} BEFORE {verb} ON {table}
                BEGIN
                    SELECT RAISE(ABORT, 'ledger: {table} is append-only');
                END
                """
            )
    unbalanced = UNBALANCED_HANDS_SQL.format(hands="(SELECT NEW.hand_id AS hand_id)")
    op.execute(
        f"""
        CREATE TRIGGER hands_balanced AFTER INSERT ON hands
        WHEN EXISTS ({unbalanced})
        BEGIN
            SELECT RAISE(ABORT, 'ledger: hand postings do not balance (GEN-8)');
        END
        """
    )


def _create_postgresql_guards() -> None:
    op.execute(
        """
        CREATE FUNCTION ledger_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            RAISE EXCEPTION 'ledger: % is append-only', TG_TABLE_NAME
                USING ERRCODE = 'integrity_constraint_violation';
        END $$
        """
    )
    op.execute(
        """
        CREATE FUNCTION ledger_child_of_open_hand() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF EXISTS (SELECT 1 FROM new_rows n JOIN hands h ON h.hand_id = n.hand_id) THEN
                RAISE EXCEPTION 'ledger: % rows cannot join a booked hand', TG_TABLE_NAME
                    USING ERRCODE = 'integrity_constraint_violation';
            END IF;
            RETURN NULL;
        END $$
        """
    )
    unbalanced = UNBALANCED_HANDS_SQL.format(hands="new_rows")
    op.execute(
        f"""
        CREATE FUNCTION ledger_hands_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF EXISTS ({unbalanced}) THEN
                RAISE EXCEPTION 'ledger: hand postings do not balance (GEN-8)'
                    USING ERRCODE = 'integrity_constraint_violation';
            END IF;
            RETURN NULL;
        END $$
        """
    )
    for table in HAND_CHILDREN:
        op.execute(
            f"""
            CREATE TRIGGER {table}_only_into_open_hand AFTER INSERT ON {table}
            REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT
            EXECUTE FUNCTION ledger_child_of_open_hand()
            """
        )
    for table in APPEND_ONLY:
        op.execute(
            f"""
            CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE OR TRUNCATE
            ON {table} FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_change()
            """
        )
    op.execute(
        """
        CREATE TRIGGER hands_balanced AFTER INSERT ON hands
        REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT
        EXECUTE FUNCTION ledger_hands_balanced()
        """
    )


def upgrade() -> None:
    _create_tables()
    dialect = op.get_bind().dialect.name
    if dialect == "sqlite":
        _create_sqlite_guards()
    elif dialect == "postgresql":
        _create_postgresql_guards()
    else:
        raise NotImplementedError(f"the ledger supports SQLite and PostgreSQL, not {dialect}")


def downgrade() -> None:
    for table in ("conflicts", "findings", "rake", "postings", "accounts", "hands"):
        op.drop_table(table)
    if op.get_bind().dialect.name == "postgresql":
        for function in (
            "ledger_hands_balanced",
            "ledger_child_of_open_hand",
            "ledger_refuse_change",
        ):
            op.execute(f"DROP FUNCTION {function}()")
