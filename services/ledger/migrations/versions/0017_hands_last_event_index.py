"""Hands by their last event: a record copied under another hand id is refused.

Revision ID: 0017_hands_last_event_index
Revises: 0016_table_carries
Create Date: 2026-12-06

Why: a hand's identity in the ledger was its ``hand_id`` alone, so a record copied with
only its ``hand_id`` changed was booked as a new hand and every chip of it counted again
(QA: four copies, four times a player's balance). A hand's events are booked once:
``services.ledger.posting`` now looks up, for each new hand, a booked hand ending at
the same event (its table and ``last_hash``) and refuses the newcomer (GEN-8).
This index makes that look-up one probe a hand, not a scan of the book.

It is not UNIQUE: a ledger written before this revision may already hold such a copy,
and the book is append-only, so a unique index could not be built on it; nor would it
fit (a refused hand, no chips booked, keeps the ``last_hash`` it came with). The check
is the code's, in the writing transaction (a table's hands reach one ledger consumer in
order: its records are keyed by table).
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0017_hands_last_event_index"
down_revision: str | Sequence[str] | None = "0016_table_carries"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

INDEX = "ix_hands_table_last_hash"


def upgrade() -> None:
    op.create_index(INDEX, "hands", ["table_id", "last_hash"])


def downgrade() -> None:
    op.drop_index(INDEX, table_name="hands")
