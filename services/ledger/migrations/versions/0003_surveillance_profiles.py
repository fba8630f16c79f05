"""Surveillance profiles: the engine's state between runs and the standing profiles.

Revision ID: 0003_surveillance_profiles
Revises: 0002_archive_and_cases
Create Date: 2026-01-12

Tables (``services.ledger.profile_models``): ``surveillance_state`` (one JSON row per
component of the engine's counters), ``surveillance_hands`` (hands already counted),
``surveillance_players``, ``surveillance_pairs``, ``surveillance_dealer_players`` and
``surveillance_dealers`` (the profiles docs/surveillance.md describes). Unlike the
ledger's tables they are not append-only: a profile is a running total, rewritten when a
run ends. Self-contained: it touches no ledger table, so it can sit on any head.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003_surveillance_profiles"
down_revision: str | Sequence[str] | None = "0002_archive_and_cases"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ID = 200


def _counts(*names: str) -> list[sa.Column[int]]:
    return [sa.Column(name, sa.BigInteger(), nullable=False) for name in names]


def upgrade() -> None:
    op.create_table(
        "surveillance_state",
        sa.Column("component", sa.String(64), nullable=False),
        sa.Column("state", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("component", name=op.f("pk_surveillance_state")),
    )
    op.create_table(
        "surveillance_hands",
        sa.Column("table_id", sa.String(ID), nullable=False),
        sa.Column("hand_id", sa.String(ID), nullable=False),
        sa.PrimaryKeyConstraint("table_id", "hand_id", name=op.f("pk_surveillance_hands")),
        sqlite_with_rowid=False,
    )
    op.create_table(
        "surveillance_players",
        sa.Column("player_id", sa.String(ID), nullable=False),
        *_counts("hands", "wagered", "net"),
        sa.PrimaryKeyConstraint("player_id", name=op.f("pk_surveillance_players")),
    )
    op.create_table(
        "surveillance_pairs",
        sa.Column("player_a", sa.String(ID), nullable=False),
        sa.Column("player_b", sa.String(ID), nullable=False),
        *_counts("hands", "a_won", "b_won", "a_to_b", "b_to_a"),
        sa.PrimaryKeyConstraint("player_a", "player_b", name=op.f("pk_surveillance_pairs")),
    )
    op.create_table(
        "surveillance_dealer_players",
        sa.Column("dealer_id", sa.String(ID), nullable=False),
        sa.Column("player_id", sa.String(ID), nullable=False),
        sa.Column("game", sa.String(16), nullable=False),
        *_counts("seat_hands", "wagered", "net", "favourable_mispays", "mispay_chips",
                 "exposures"),
        sa.PrimaryKeyConstraint("dealer_id", "player_id", "game",
                                name=op.f("pk_surveillance_dealer_players")),
    )
    op.create_table(
        "surveillance_dealers",
        sa.Column("dealer_id", sa.String(ID), nullable=False),
        sa.Column("game", sa.String(16), nullable=False),
        *_counts("hands", "misdeals", "exposed_hands", "mispay_hands", "mispay_chips",
                 "wagered", "house_net"),
        sa.PrimaryKeyConstraint("dealer_id", "game", name=op.f("pk_surveillance_dealers")),
    )


def downgrade() -> None:
    for table in ("surveillance_dealers", "surveillance_dealer_players", "surveillance_pairs",
                  "surveillance_players", "surveillance_hands", "surveillance_state"):
        op.drop_table(table)
