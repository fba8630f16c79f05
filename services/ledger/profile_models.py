"""The surveillance tables: the engine's state between runs and the profiles a director
reads (``services.surveillance.store`` writes them; docs/surveillance.md, "Profiles that
persist").

Why in the ledger's database and schema: a week of surveillance must see the same hands
the ledger booked, on the same SQLite file or PostgreSQL database, migrated by the same
Alembic history (revision ``0003_surveillance_profiles``). Unlike the ledger these rows
are rewritten: a profile is a running total, replaced as a run ends.

Registered on the ledger's ``Base`` (``services.ledger.models`` imports this module), so
the test that the migrated schema equals the models covers these tables too.
"""

from __future__ import annotations

from sqlalchemy import BigInteger, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from services.ledger.base import WITHOUT_ROWID, Base

ID = 200  # the width of a table, hand, player or dealer id, as in ``hands``


class SurveillanceState(Base):
    """One component of the engine's counters, as the JSON of ``services.surveillance.state``."""

    __tablename__ = "surveillance_state"

    component: Mapped[str] = mapped_column(String(64), primary_key=True)
    state: Mapped[str] = mapped_column(Text)


class SurveilledHand(Base):
    """A hand the stored state has counted: offered again, it is not counted twice."""

    __tablename__ = "surveillance_hands"

    table_id: Mapped[str] = mapped_column(String(ID), primary_key=True)
    hand_id: Mapped[str] = mapped_column(String(ID), primary_key=True)

    __table_args__ = (WITHOUT_ROWID,)


class PlayerRow(Base):
    __tablename__ = "surveillance_players"

    player_id: Mapped[str] = mapped_column(String(ID), primary_key=True)
    hands: Mapped[int] = mapped_column(BigInteger)
    wagered: Mapped[int] = mapped_column(BigInteger)
    net: Mapped[int] = mapped_column(BigInteger)


class PairRow(Base):
    """Two players, ``player_a`` < ``player_b``: win counts and chip flow between them."""

    __tablename__ = "surveillance_pairs"

    player_a: Mapped[str] = mapped_column(String(ID), primary_key=True)
    player_b: Mapped[str] = mapped_column(String(ID), primary_key=True)
    hands: Mapped[int] = mapped_column(BigInteger)
    a_won: Mapped[int] = mapped_column(BigInteger)
    b_won: Mapped[int] = mapped_column(BigInteger)
    a_to_b: Mapped[int] = mapped_column(BigInteger)
    b_to_a: Mapped[int] = mapped_column(BigInteger)


class DealerPlayerRow(Base):
    __tablename__ = "surveillance_dealer_players"

    dealer_id: Mapped[str] = mapped_column(String(ID), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(ID), primary_key=True)
    game: Mapped[str] = mapped_column(String(16), primary_key=True)
    seat_hands: Mapped[int] = mapped_column(BigInteger)
    wagered: Mapped[int] = mapped_column(BigInteger)
    net: Mapped[int] = mapped_column(BigInteger)
    favourable_mispays: Mapped[int] = mapped_column(BigInteger)
    mispay_chips: Mapped[int] = mapped_column(BigInteger)
    exposures: Mapped[int] = mapped_column(BigInteger)


class DealerRow(Base):
    __tablename__ = "surveillance_dealers"

    dealer_id: Mapped[str] = mapped_column(String(ID), primary_key=True)
    game: Mapped[str] = mapped_column(String(16), primary_key=True)
    hands: Mapped[int] = mapped_column(BigInteger)
    misdeals: Mapped[int] = mapped_column(BigInteger)
    exposed_hands: Mapped[int] = mapped_column(BigInteger)
    mispay_hands: Mapped[int] = mapped_column(BigInteger)
    mispay_chips: Mapped[int] = mapped_column(BigInteger)
    wagered: Mapped[int] = mapped_column(BigInteger)
    house_net: Mapped[int] = mapped_column(BigInteger)
