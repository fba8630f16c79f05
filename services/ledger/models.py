"""The ledger schema as SQLAlchemy 2 typed models.

Why these shapes: the ledger is an append-only book keyed by where each write came from.
Every table's primary key (or unique key) is the *source* of the row: a hand by its
``hand_id``, a posting by ``(hand_id, event_id, leg)``, a rake row by ``(hand_id,
event_id, leg)``, a finding by ``(hand_id, ordinal)``, a refused re-post by ``(hand_id,
offered_sha256)``. A hand is written in one transaction, so at-least-once delivery can
re-offer it any number of times and the unique keys make the repeat a no-op.

These models describe the schema; they never create it. The Alembic migrations in
``services/ledger/migrations`` are the only way the schema is created or changed, and
``tests/unit/ledger/test_migrations.py`` fails when the two differ. The same database
holds the event archive (``archive_tables``) and the cases (``case_tables``);
``services.ledger.schema`` gathers every table.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Literal, get_args

from sqlalchemy import (
    BigInteger,
    CheckConstraint,
    Date,
    ForeignKey,
    Index,
    Integer,
    Numeric,
    String,
    Text,
    text,
)
from sqlalchemy.orm import Mapped, mapped_column

from services.ledger.base import WITHOUT_ROWID, Base

__all__ = ["ACCOUNT_KINDS", "Account", "AccountKind", "Base", "Conflict", "FindingRow", "Hand",
           "HandEnd", "HandPending", "HandPendingLayout", "LedgerStatus", "Posting", "Rake"]

AccountKind = Literal["player", "layout", "pot", "house_rake", "house_bank"]
ACCOUNT_KINDS: tuple[str, ...] = get_args(AccountKind)

LedgerStatus = Literal["posted", "refused"]


def _hand_fk() -> ForeignKey:
    """FK to ``hands`` checked at COMMIT, not per statement.

    Why deferred: a hand's rows are inserted *before* its ``hands`` row, and the trigger
    on ``hands`` then checks that its postings sum to zero (see the initial migration).
    Conflicts keep this key on each row (they are rare); postings, rake and findings,
    about 60 rows a hand, are tied to their hand through ``HandPending`` instead.
    """
    return ForeignKey("hands.hand_id", deferrable=True, initially="DEFERRED")


class HandPending(Base):
    """A hand whose postings, rake or findings rows are in and whose ``hands`` row is not
    yet: rows here live only inside the transaction that books the hand.

    Why (migration 0007): the deferred key from every posting, rake and finding row to
    ``hands`` made PostgreSQL check each of about 60 rows a hand at COMMIT, 0.36 of 0.89
    ms of its CPU per booked hand. Now an insert into those tables notes its hands here
    (one row a hand; triggers), the ``hands`` row's insert removes the note, and this
    table's own deferred key to ``hands`` is checked at COMMIT only for the notes left:
    rows whose hand never arrived fail the transaction as before (SQLSTATE 23503).

    On PostgreSQL the note also carries the running sum of the hand's postings so far
    (``total``; ``HandPendingLayout`` per layout account), added by a statement trigger on
    ``postings`` from the inserted rows alone, so that the ``hands`` row's balance check
    (GEN-8) reads these notes and never the ``postings`` table (migration 0008: a join of
    the new hands with ``postings`` was planned as a scan of the whole table, so a batch
    cost PostgreSQL more the more hands the ledger held). On SQLite the check is a row
    trigger that reads one hand's postings through the primary key's index, which does
    not grow with the book: ``total`` stays 0 there and ``HandPendingLayout`` empty.
    """

    __tablename__ = "hands_pending"

    hand_id: Mapped[str] = mapped_column(String(200), _hand_fk(), primary_key=True)
    total: Mapped[Decimal] = mapped_column(Numeric(38, 0), server_default=text("0"))


class HandPendingLayout(Base):
    """A pending hand's running sum of postings per layout account (PostgreSQL; see
    ``HandPending``): a wager's chips on the layout must all leave it within the hand
    (GEN-8), and a hand's postings may come in more than one statement. No key to
    ``hands`` of its own: the hand's ``HandPending`` row carries it, and these rows go
    with it."""

    __tablename__ = "hands_pending_layout"

    hand_id: Mapped[str] = mapped_column(String(200), primary_key=True)
    account: Mapped[str] = mapped_column(Text, primary_key=True)
    total: Mapped[Decimal] = mapped_column(Numeric(38, 0), server_default=text("0"))


class Hand(Base):
    """One adjudication record as booked: the record itself and how the ledger took it."""

    __tablename__ = "hands"

    hand_id: Mapped[str] = mapped_column(String(200), primary_key=True)
    table_id: Mapped[str] = mapped_column(String(200))
    game: Mapped[str | None] = mapped_column(String(16))
    status: Mapped[str] = mapped_column(String(16))
    rule_profile: Mapped[str | None] = mapped_column(String(200))
    rake_mode: Mapped[str | None] = mapped_column(String(16))
    dealer_id: Mapped[str | None] = mapped_column(Text)
    ended_at: Mapped[str | None] = mapped_column(String(40))
    day: Mapped[dt.date | None] = mapped_column(Date)
    first_seq: Mapped[int | None] = mapped_column(BigInteger)
    last_seq: Mapped[int | None] = mapped_column(BigInteger)
    last_hash: Mapped[str | None] = mapped_column(String(64))
    ledger_status: Mapped[str] = mapped_column(String(16))
    record_sha256: Mapped[str] = mapped_column(String(64))
    record_json: Mapped[str] = mapped_column(Text)

    __table_args__ = (
        CheckConstraint("ledger_status IN ('posted', 'refused')", name="ledger_status"),
        Index("ix_hands_table_day", "table_id", "day"),
    )


class HandEnd(Base):
    """The event a booked (``posted``) hand ends at, by its hash: one hand an event, so a
    record copied under another hand id (or table id) finds its end taken and is refused
    (GEN-8; ``services.ledger.posting``, migration 0017). Written with the hand, in its
    transaction; append-only."""

    __tablename__ = "hand_ends"

    last_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    hand_id: Mapped[str] = mapped_column(String(200))

    __table_args__ = (WITHOUT_ROWID,)


class Account(Base):
    """A ledger account. ``name`` is the key; the other columns describe it for queries.

    Names: ``player:<player_id>``, ``layout:<table_id>:<seat>``, ``pot:<table_id>``,
    ``house:rake``, ``house:bank`` (see ``services.ledger.accounts``).
    """

    __tablename__ = "accounts"

    name: Mapped[str] = mapped_column(Text, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    table_id: Mapped[str | None] = mapped_column(String(200))
    seat: Mapped[int | None] = mapped_column(Integer)
    player_id: Mapped[str | None] = mapped_column(Text)

    __table_args__ = (
        CheckConstraint(
            "kind IN ('player', 'layout', 'pot', 'house_rake', 'house_bank')", name="kind"
        ),
    )


class Posting(Base):
    """One leg of a double entry: ``amount`` > 0 is a debit (chips in), < 0 a credit.

    Source key: ``(hand_id, event_id, leg)``; a movement ``m`` (0-based among the
    movements of its event) gives leg ``2m`` (credit of ``from``) and ``2m+1`` (debit
    of ``to``).
    """

    __tablename__ = "postings"

    hand_id: Mapped[str] = mapped_column(String(200), primary_key=True)  # HandPending
    event_id: Mapped[str] = mapped_column(String(36), primary_key=True)
    leg: Mapped[int] = mapped_column(Integer, primary_key=True)
    seq: Mapped[int] = mapped_column(BigInteger)
    # Must name an account: checked per INSERT statement by a trigger, not by a foreign
    # key checked per row (migration 0005: the key was a fifth of the ledger's time).
    account: Mapped[str] = mapped_column(Text)
    amount: Mapped[int] = mapped_column(BigInteger)
    kind: Mapped[str] = mapped_column(String(24))

    __table_args__ = (
        CheckConstraint("amount <> 0", name="nonzero_amount"),
        WITHOUT_ROWID,
    )


class Rake(Base):
    """Rake taken (positive) or refunded (negative) in one hand, under the posted mode."""

    __tablename__ = "rake"

    hand_id: Mapped[str] = mapped_column(String(200), primary_key=True)  # HandPending
    event_id: Mapped[str] = mapped_column(String(36), primary_key=True)
    leg: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[str] = mapped_column(String(200))
    seat: Mapped[int | None] = mapped_column(Integer)
    player_id: Mapped[str | None] = mapped_column(Text)
    amount: Mapped[int] = mapped_column(BigInteger)
    mode: Mapped[str | None] = mapped_column(String(16))
    day: Mapped[dt.date | None] = mapped_column(Date)

    __table_args__ = (Index("ix_rake_table_day", "table_id", "day"), WITHOUT_ROWID)


class FindingRow(Base):
    """A finding of a booked hand: the record's own, or the ledger's refusal reason."""

    __tablename__ = "findings"

    hand_id: Mapped[str] = mapped_column(String(200), primary_key=True)  # HandPending
    ordinal: Mapped[int] = mapped_column(Integer, primary_key=True)
    origin: Mapped[str] = mapped_column(String(16))
    code: Mapped[str] = mapped_column(String(200))
    rule: Mapped[str] = mapped_column(String(200))
    severity: Mapped[str] = mapped_column(String(16))
    seat: Mapped[int | None] = mapped_column(Integer)
    amount: Mapped[int | None] = mapped_column(BigInteger)
    message: Mapped[str] = mapped_column(Text)

    __table_args__ = (
        CheckConstraint("origin IN ('record', 'ledger')", name="origin"),
        Index("ix_findings_rule", "rule"),
        WITHOUT_ROWID,
    )


class Conflict(Base):
    """A re-post of a booked hand with different content, refused (SURV-9).

    Keyed by the offered body's hash, so replaying the same conflicting record does not
    add a second row: the ledger stays byte-identical under replay.
    """

    __tablename__ = "conflicts"

    hand_id: Mapped[str] = mapped_column(String(200), _hand_fk(), primary_key=True)
    offered_sha256: Mapped[str] = mapped_column(String(64), primary_key=True)
    stored_sha256: Mapped[str] = mapped_column(String(64))
    detail: Mapped[str] = mapped_column(Text)
    offered_json: Mapped[str] = mapped_column(Text)


# The surveillance tables share this metadata (and the migrations): imported last, once
# ``Base`` exists, so every user of ``Base.metadata`` sees them.
from services.ledger import profile_models as _profile_models  # noqa: E402, F401
