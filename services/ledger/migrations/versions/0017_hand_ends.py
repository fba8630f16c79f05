"""Hand ends: the event each booked hand ends at, once; a copied record is refused.

Revision ID: 0017_hand_ends
Revises: 0016_table_carries
Create Date: 2026-12-06

Why: a hand's identity in the ledger was its ``hand_id`` alone, so a record copied with
only its ``hand_id`` changed was booked as a new hand and every chip of it counted again
(QA: four copies, four times a player's balance). An event belongs to one hand, and its
hash (``last_hash``, the SHA-256 of the canonical event, table id included) names it
across tables, so two booked hands never end at one event but by a copy.
``hand_ends`` keeps, for every booked (``posted``) hand that names its last event, that
event's hash as its key: ``services.ledger.posting`` looks a batch's ends up there and
refuses a hand whose end is taken (GEN-8, naming the hand it copies), and the key holds
the rule when two writers book at once (QA: two ``ledger post`` runs on PostgreSQL, each
looking before the other committed, booked 500 copies): the later batch is refused by it
and booked again a hand at a time, which finds the copy.

A table of its own, not a unique index on ``hands``: a ledger booked before this
revision may already hold copies (its book is append-only), and the index could not be
built on it (naming each copy in a partial index's predicate outgrew PostgreSQL's row
limit at about a thousand copies, QA); here the backfill keeps the first hand (by id) of
each end, in one pass over ``hands`` (GROUP BY), and leaves the copies for ``pitwatch
verify`` to report. Append-only, as the book.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0017_hand_ends"
down_revision: str | Sequence[str] | None = "0016_table_carries"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TABLE = "hand_ends"


def upgrade() -> None:
    postgresql = op.get_bind().dialect.name == "postgresql"
    text_type = (lambda n: sa.String(n, collation="C")) if postgresql else sa.String
    op.create_table(
        TABLE,
        sa.Column("last_hash", text_type(64), nullable=False),
        sa.Column("hand_id", text_type(200), nullable=False),
        sa.PrimaryKeyConstraint("last_hash", name=op.f(f"pk_{TABLE}")),
        sqlite_with_rowid=False,
    )
    op.execute(f"""
        INSERT INTO {TABLE} (last_hash, hand_id)
        SELECT last_hash, MIN(hand_id) FROM hands
        WHERE ledger_status = 'posted' AND last_hash IS NOT NULL GROUP BY last_hash
    """)
    if postgresql:
        op.execute(f"""
            CREATE TRIGGER {TABLE}_append_only BEFORE UPDATE OR DELETE OR TRUNCATE
            ON {TABLE} FOR EACH STATEMENT EXECUTE FUNCTION pitwatch_refuse_change()
        """)
        return
    for verb in ("UPDATE", "DELETE"):
        op.execute(f"""
            CREATE TRIGGER {TABLE}_no_{verb.lower()} BEFORE {verb} ON {TABLE}
            BEGIN SELECT RAISE(ABORT, 'pitwatch: {TABLE} is append-only'); END
        """)


def downgrade() -> None:
    op.drop_table(TABLE)
