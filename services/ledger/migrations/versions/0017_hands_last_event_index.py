"""Hands by their last event: a record copied under another hand id is refused.

Revision ID: 0017_hands_last_event_index
Revises: 0016_table_carries
Create Date: 2026-12-06

Why: a hand's identity in the ledger was its ``hand_id`` alone, so a record copied with
only its ``hand_id`` changed was booked as a new hand and every chip of it counted again
(QA: four copies, four times a player's balance). An event belongs to one hand, so two
booked hands never end at one event but by a copy. ``services.ledger.posting`` looks up,
for each new hand, a booked hand ending at the same event (its table and ``last_hash``)
and refuses the newcomer (GEN-8, saying which hand it copies); this UNIQUE index, over
the booked (``posted``) hands only, makes that look-up one probe a hand and holds the
rule when two writers book at once (QA: two ``ledger post`` runs on PostgreSQL, each
looking before the other had committed, booked 500 copies): the second waits for the
first's commit, its batch is refused by the index and booked again a hand at a time,
which then finds the copy.

A ledger booked before this revision may already hold copies (its append-only book
keeps them): each such later copy is named in the index's predicate, so the index can
be built and holds every hand booked from now on; those copies stay for ``pitwatch
verify`` to report, and a plain index then serves the look-up (the predicate naming
them is one the look-up's query does not imply).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0017_hands_last_event_index"
down_revision: str | Sequence[str] | None = "0016_table_carries"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

UNIQUE = "ux_hands_posted_last_event"
LOOKUP = "ix_hands_table_last_hash"  # only on a ledger that held copies before
BOOKED = "ledger_status = 'posted' AND last_hash IS NOT NULL"
COPIES_BOOKED = f"""
    SELECT h.hand_id FROM hands h WHERE h.{BOOKED.replace(" AND ", " AND h.")}
    AND EXISTS (SELECT 1 FROM hands o WHERE o.table_id = h.table_id
                AND o.last_hash = h.last_hash AND o.ledger_status = 'posted'
                AND o.hand_id < h.hand_id)
    ORDER BY h.hand_id
"""


def upgrade() -> None:
    bind = op.get_bind()
    copies = [str(hand_id) for hand_id in bind.execute(sa.text(COPIES_BOOKED)).scalars()]
    where = BOOKED
    if copies:
        named = ", ".join("'" + hand_id.replace("'", "''") + "'" for hand_id in copies)
        where += f" AND hand_id NOT IN ({named})"
        op.create_index(LOOKUP, "hands", ["table_id", "last_hash"])
    op.create_index(UNIQUE, "hands", ["table_id", "last_hash"], unique=True,
                    postgresql_where=sa.text(where), sqlite_where=sa.text(where))


def downgrade() -> None:
    op.drop_index(UNIQUE, table_name="hands")
    op.execute(f"DROP INDEX IF EXISTS {LOOKUP}")
