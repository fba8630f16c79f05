"""Postings' accounts checked once per statement, not once per row; accounts append-only.

Revision ID: 0005_postings_account_check
Revises: 0004_console_users
Create Date: 2026-12-02

Why: the foreign key ``postings.account -> accounts.name`` is checked by PostgreSQL one
row at a time (a lookup that also locks the account row), and a hand has about 55
postings: 800 HCF hands booked in one transaction took 0.90-1.06 ms a hand with the key
and 0.76-0.78 ms with the check below (measured in turns on one machine).
The same guarantee, set-based: a statement-level trigger over the inserted rows (a
transition table) refuses the INSERT if any of them names an account that does not
exist, raising SQLSTATE 23503 (foreign_key_violation, an integrity error to drivers, so
the ledger's per-hand fallback works as before). What the key also did, keeping a named
account from being deleted or renamed, the accounts table now gets as the other ledger
tables have it: it is append-only (UPDATE, DELETE and TRUNCATE refused).

SQLite checks foreign keys cheaply in process, but the models are one for both
databases, so the key goes there too: SQLite cannot drop a constraint in place, so
``postings`` is rebuilt (same columns, constraints and WITHOUT ROWID, rows copied), and
the triggers that name it are re-created (0001's note: a rebuilt table loses its
triggers; ``hands_balanced`` reads postings and must be dropped while the table is
swapped, since SQLite re-checks every trigger when a table is renamed). Row-level
triggers there: an INSERT naming an unknown account, and UPDATE or DELETE of an account,
are refused.
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0005_postings_account_check"
down_revision: str | Sequence[str] | None = "0004_console_users"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

FK_NAME = "fk_postings_account_accounts"
UNKNOWN_ACCOUNT = "ledger: postings name an account that does not exist"

# The postings table as 0001 made it, with or without the account key (SQLite rebuild).
POSTINGS_DDL = """
CREATE TABLE {name} (
    hand_id VARCHAR(200) NOT NULL,
    event_id VARCHAR(36) NOT NULL,
    leg INTEGER NOT NULL,
    seq BIGINT NOT NULL,
    account TEXT NOT NULL,
    amount BIGINT NOT NULL,
    kind VARCHAR(24) NOT NULL,
    CONSTRAINT pk_postings PRIMARY KEY (hand_id, event_id, leg),
    CONSTRAINT ck_postings_nonzero_amount CHECK (amount <> 0),{account_fk}
    CONSTRAINT fk_postings_hand_id_hands FOREIGN KEY(hand_id) REFERENCES hands (hand_id)
        DEFERRABLE INITIALLY DEFERRED
) WITHOUT ROWID
"""
ACCOUNT_FK = (f"\n    CONSTRAINT {FK_NAME} FOREIGN KEY(account) REFERENCES accounts (name),")

# 0001's SQLite triggers on postings and the one on hands that reads it.
UNBALANCED_HANDS_SQL = """
    SELECT p.hand_id FROM postings p JOIN (SELECT NEW.hand_id AS hand_id) h
        ON h.hand_id = p.hand_id
    GROUP BY p.hand_id HAVING SUM(p.amount) <> 0
    UNION ALL
    SELECT p.hand_id FROM postings p JOIN (SELECT NEW.hand_id AS hand_id) h
        ON h.hand_id = p.hand_id
    JOIN accounts a ON a.name = p.account AND a.kind = 'layout'
    GROUP BY p.hand_id, p.account HAVING SUM(p.amount) <> 0
"""


def _refuse(table: str, verb: str) -> str:
    """0001's SQLite append-only trigger of ``table`` for ``verb`` (UPDATE or DELETE)."""
    return f"""
        CREATE TRIGGER {table}_no_{verb.lower()} BEFORE {verb} ON {table}
        BEGIN
            SELECT RAISE(ABORT, 'ledger: {table} is append-only');
        END
    """


SQLITE_POSTINGS_TRIGGERS = {
    "postings_only_into_open_hand": """
        CREATE TRIGGER postings_only_into_open_hand BEFORE INSERT ON postings
        WHEN EXISTS (SELECT 1 FROM hands WHERE hand_id = NEW.hand_id)
        BEGIN
            SELECT RAISE(ABORT, 'ledger: postings rows cannot join a booked hand');
        END
    """,
    "postings_no_update": _refuse("postings", "UPDATE"),
    "postings_no_delete": _refuse("postings", "DELETE"),
    "hands_balanced": f"""
        CREATE TRIGGER hands_balanced AFTER INSERT ON hands
        WHEN EXISTS ({UNBALANCED_HANDS_SQL})
        BEGIN
            SELECT RAISE(ABORT, 'ledger: hand postings do not balance (GEN-8)');
        END
    """,
}
SQLITE_ACCOUNT_TRIGGERS = {
    "postings_known_account": f"""
        CREATE TRIGGER postings_known_account BEFORE INSERT ON postings
        WHEN NOT EXISTS (SELECT 1 FROM accounts WHERE name = NEW.account)
        BEGIN
            SELECT RAISE(ABORT, '{UNKNOWN_ACCOUNT}');
        END
    """,
    "accounts_no_update": _refuse("accounts", "UPDATE"),
    "accounts_no_delete": _refuse("accounts", "DELETE"),
}


def _rebuild_sqlite_postings(with_account_fk: bool) -> None:
    """Swap ``postings`` for a copy with or without the account key, its triggers
    dropped first and re-created after."""
    for trigger in SQLITE_POSTINGS_TRIGGERS:
        op.execute(f"DROP TRIGGER IF EXISTS {trigger}")
    op.execute(POSTINGS_DDL.format(name="postings_rebuilt",
                                   account_fk=ACCOUNT_FK if with_account_fk else ""))
    op.execute("INSERT INTO postings_rebuilt SELECT hand_id, event_id, leg, seq, account, "
               "amount, kind FROM postings")
    op.execute("DROP TABLE postings")
    op.execute("ALTER TABLE postings_rebuilt RENAME TO postings")
    for ddl in SQLITE_POSTINGS_TRIGGERS.values():
        op.execute(ddl)


def _upgrade_postgresql() -> None:
    op.execute(f"ALTER TABLE postings DROP CONSTRAINT {FK_NAME}")
    op.execute(
        f"""
        CREATE FUNCTION ledger_postings_known_accounts() RETURNS trigger
        LANGUAGE plpgsql AS $$
        BEGIN
            IF EXISTS (SELECT 1 FROM new_rows n
                       WHERE NOT EXISTS (SELECT 1 FROM accounts a WHERE a.name = n.account))
            THEN
                RAISE EXCEPTION '{UNKNOWN_ACCOUNT}' USING ERRCODE = 'foreign_key_violation';
            END IF;
            RETURN NULL;
        END $$
        """
    )
    op.execute(
        """
        CREATE TRIGGER postings_known_accounts AFTER INSERT ON postings
        REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT
        EXECUTE FUNCTION ledger_postings_known_accounts()
        """
    )
    op.execute(
        """
        CREATE TRIGGER accounts_append_only BEFORE UPDATE OR DELETE OR TRUNCATE
        ON accounts FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_change()
        """
    )


def _downgrade_postgresql() -> None:
    op.execute("DROP TRIGGER accounts_append_only ON accounts")
    op.execute("DROP TRIGGER postings_known_accounts ON postings")
    op.execute("DROP FUNCTION ledger_postings_known_accounts()")
    op.execute(f"ALTER TABLE postings ADD CONSTRAINT {FK_NAME} "
               "FOREIGN KEY (account) REFERENCES accounts (name)")


def upgrade() -> None:
    dialect = op.get_bind().dialect.name
    if dialect == "postgresql":
        _upgrade_postgresql()
    elif dialect == "sqlite":
        _rebuild_sqlite_postings(with_account_fk=False)
        for ddl in SQLITE_ACCOUNT_TRIGGERS.values():
            op.execute(ddl)
    else:
        raise NotImplementedError(f"the ledger supports SQLite and PostgreSQL, not {dialect}")


def downgrade() -> None:
    dialect = op.get_bind().dialect.name
    if dialect == "postgresql":
        _downgrade_postgresql()
    elif dialect == "sqlite":
        for trigger in SQLITE_ACCOUNT_TRIGGERS:
            op.execute(f"DROP TRIGGER IF EXISTS {trigger}")
        _rebuild_sqlite_postings(with_account_fk=True)
    else:
        raise NotImplementedError(f"the ledger supports SQLite and PostgreSQL, not {dialect}")
