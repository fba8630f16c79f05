"""The balance check (GEN-8) reads the pending hands' running sums, not ``postings``.

Revision ID: 0008_pending_sums
Revises: 0007_hand_rows_pending
Create Date: 2026-12-03

Why: on PostgreSQL the statement trigger on ``hands`` checked that each new hand's
postings sum to zero (and each layout account's within the hand) by joining the new hands
with ``postings``, and the trigger on postings, rake and findings refused rows of a booked
hand by joining them with ``hands``. Both were planned as hash joins over a scan of the
whole table: every batch read every posting and every hand ever booked. Booking 6,400
HCF hands into an empty ledger, 800 a transaction, PostgreSQL's CPU per hand went from
0.49 ms for the first batch to 1.12 ms for the eighth (163,518 postings read for 800
hands by one check), and a ledger holding years of hands would have read all of them for
every batch.

Now (PostgreSQL):

* the statement trigger on ``postings`` adds the inserted rows' sums per hand to the
  hand's ``hands_pending`` note (``total``, an upsert: a hand's postings may come in
  several statements) and per layout account to ``hands_pending_layout``: work in
  proportion to the rows inserted, nothing else read but ``accounts`` (by name);
* the statement trigger on ``hands`` refuses the new hands whose notes hold a sum that is
  not zero, then (``hands_clear_pending``, which fires after it: PostgreSQL fires a
  table's triggers of one event in the order of their names) deletes the notes;
* the refusal of rows joining a booked hand looks each hand up in ``hands`` through its
  primary key (a lateral subquery with LIMIT 1, which the planner cannot turn into a
  join over the whole table).

The guarantees are unchanged: a hand whose postings do not sum to zero, overall or on a
layout account, cannot be booked; rows cannot join a booked hand; rows whose hand never
arrives fail at COMMIT (the ``hands_pending`` key). The notes never outlive their
transaction, and both tables are UNLOGGED.

SQLite: its checks are row triggers that read one hand's rows through the primary key's
index and do not grow with the book; the column and the table are added (the schema is
one for both databases) and stay unused there.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008_pending_sums"
down_revision: str | Sequence[str] | None = "0007_hand_rows_pending"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

PENDING = "hands_pending"
LAYOUT = "hands_pending_layout"

def _trigger_function(name: str, body: str) -> str:
    """``CREATE OR REPLACE`` of a statement trigger's plpgsql function running ``body``."""
    return f"""
    CREATE OR REPLACE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        {body}
        RETURN NULL;
    END $$
"""


def _guard(name: str, offending: str, message: str, naming_table: bool = False) -> str:
    """A trigger function that refuses the statement when ``offending`` finds a row
    (``naming_table``: the message's ``%`` is the trigger's table)."""
    table = ", TG_TABLE_NAME" if naming_table else ""
    return _trigger_function(name, f"""IF EXISTS ({offending}) THEN
            RAISE EXCEPTION '{message}'{table}
                USING ERRCODE = 'integrity_constraint_violation';
        END IF;""")


# Runs after each INSERT statement into postings: the inserted rows' sums, per hand and
# per layout account, added to the hand's notes.
NOTE_POSTINGS = _trigger_function("ledger_note_pending_postings", f"""
        INSERT INTO {PENDING} (hand_id, total)
            SELECT hand_id, SUM(amount) FROM new_rows GROUP BY hand_id
            ON CONFLICT (hand_id) DO UPDATE SET total = {PENDING}.total + EXCLUDED.total;
        INSERT INTO {LAYOUT} (hand_id, account, total)
            SELECT n.hand_id, n.account, n.total
            FROM (SELECT hand_id, account, SUM(amount) AS total FROM new_rows
                  GROUP BY hand_id, account) n
            JOIN accounts a ON a.name = n.account AND a.kind = 'layout'
            ON CONFLICT (hand_id, account)
                DO UPDATE SET total = {LAYOUT}.total + EXCLUDED.total;""")

UNBALANCE_MESSAGE = "ledger: hand postings do not balance (GEN-8)"
BOOKED_HAND_MESSAGE = "ledger: % rows cannot join a booked hand"

# GEN-8: the new hands whose notes hold a sum that is not zero.
BALANCED = _guard("ledger_hands_balanced", f"""
    SELECT 1 FROM new_rows n JOIN {PENDING} p ON p.hand_id = n.hand_id WHERE p.total <> 0
    UNION ALL
    SELECT 1 FROM new_rows n JOIN {LAYOUT} l ON l.hand_id = n.hand_id WHERE l.total <> 0
""", UNBALANCE_MESSAGE)
CLEAR = _trigger_function("ledger_clear_pending_hands", f"""
        DELETE FROM {LAYOUT} l USING new_rows n WHERE l.hand_id = n.hand_id;
        DELETE FROM {PENDING} p USING new_rows n WHERE p.hand_id = n.hand_id;""")
CHILD_OF_OPEN_HAND = _guard("ledger_child_of_open_hand", """
    SELECT 1 FROM (SELECT DISTINCT hand_id FROM new_rows) n
    CROSS JOIN LATERAL (SELECT 1 FROM hands h WHERE h.hand_id = n.hand_id LIMIT 1) booked
""", BOOKED_HAND_MESSAGE, naming_table=True)

# As 0001 and 0007 made them (downgrade). Written out here, not imported: a migration's
# SQL is frozen with it, whatever later revisions do to their own modules.
UNBALANCED_HANDS_SQL = """
    SELECT p.hand_id FROM postings p JOIN new_rows h ON h.hand_id = p.hand_id
    GROUP BY p.hand_id HAVING SUM(p.amount) <> 0
    UNION ALL
    SELECT p.hand_id FROM postings p JOIN new_rows h ON h.hand_id = p.hand_id
    JOIN accounts a ON a.name = p.account AND a.kind = 'layout'
    GROUP BY p.hand_id, p.account HAVING SUM(p.amount) <> 0
"""
OLD_BALANCED = _guard("ledger_hands_balanced", UNBALANCED_HANDS_SQL, UNBALANCE_MESSAGE)
OLD_CLEAR = _trigger_function("ledger_clear_pending_hands", f"""
        DELETE FROM {PENDING} p USING new_rows n WHERE p.hand_id = n.hand_id;""")
OLD_CHILD_OF_OPEN_HAND = _guard(
    "ledger_child_of_open_hand",
    "SELECT 1 FROM new_rows n JOIN hands h ON h.hand_id = n.hand_id", BOOKED_HAND_MESSAGE,
    naming_table=True)


def _postings_pending_trigger(function: str) -> str:
    return f"""
        CREATE TRIGGER postings_pending_hand AFTER INSERT ON postings
        REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT
        EXECUTE FUNCTION {function}()
    """


def _add_sums() -> None:
    op.add_column(PENDING, sa.Column("total", sa.Numeric(38, 0), server_default=sa.text("0"),
                                     nullable=False))
    op.create_table(
        LAYOUT,
        sa.Column("hand_id", sa.String(200), nullable=False),
        sa.Column("account", sa.Text(), nullable=False),
        sa.Column("total", sa.Numeric(38, 0), server_default=sa.text("0"), nullable=False),
        sa.PrimaryKeyConstraint("hand_id", "account", name=op.f(f"pk_{LAYOUT}")),
        prefixes=["UNLOGGED"] if op.get_bind().dialect.name == "postgresql" else [],
    )


def _drop_sums() -> None:
    op.drop_table(LAYOUT)
    # In place on both (SQLite 3.35+): a rebuild of the table would have SQLite re-check
    # the triggers that name it while it is renamed.
    op.execute(f"ALTER TABLE {PENDING} DROP COLUMN total")


def upgrade() -> None:
    _add_sums()
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute("DROP TRIGGER postings_pending_hand ON postings")
    op.execute(NOTE_POSTINGS)
    op.execute(_postings_pending_trigger("ledger_note_pending_postings"))
    for ddl in (BALANCED, CLEAR, CHILD_OF_OPEN_HAND):
        op.execute(ddl)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        for ddl in (OLD_BALANCED, OLD_CLEAR, OLD_CHILD_OF_OPEN_HAND):
            op.execute(ddl)
        op.execute("DROP TRIGGER postings_pending_hand ON postings")
        op.execute("DROP FUNCTION ledger_note_pending_postings()")
        op.execute(_postings_pending_trigger("ledger_note_pending_hands"))
    _drop_sums()
