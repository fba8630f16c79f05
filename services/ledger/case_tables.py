"""The tables of case management: cases, their evidence and hands, what they are about,
and the audit trail of every action.

Why a mutable ``cases`` row beside an append-only trail: the queue needs each case's
current state in one row (list and filter without replaying history), and the regulator
needs every change ever made. So every action changes the row and appends its audit entry
in one transaction, and the row carries a ``version`` (the number of its last audit
entry) that each action checks and raises: an action decided on an old view of the case
is refused instead of silently overwriting what another reviewer did (no lost update).
``case_audit``, ``case_evidence``, ``case_hands`` and ``case_tags`` are append-only
(triggers refuse UPDATE and DELETE); a case row can change but never be deleted.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import CheckConstraint, Date, ForeignKey, Index, Integer, String, Text, text
from sqlalchemy.orm import Mapped, mapped_column

from services.ledger.base import WITHOUT_ROWID, Base

CASE_STATES = ("open", "in_review", "escalated", "closed")
CASE_OUTCOMES = ("confirmed", "no_issue", "procedural", "referred")


# ``Integer`` is 32 bits on PostgreSQL: a larger number names no case, and asking the
# database for one fails in its driver (SQLite: beyond 64 bits) instead of finding none.
MAX_CASE_ID = 2**31 - 1


def is_case_id(number: int) -> bool:
    """Whether ``number`` can name a case (a typed or linked number may be anything)."""
    return 1 <= number <= MAX_CASE_ID


def _case_fk() -> ForeignKey:
    return ForeignKey("cases.case_id")


class Case(Base):
    """One case: what it is about (``subject``), where it stands and who has it."""

    __tablename__ = "cases"

    case_id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    subject: Mapped[str] = mapped_column(String(500))
    subject_kind: Mapped[str] = mapped_column(String(16))
    title: Mapped[str] = mapped_column(Text)
    state: Mapped[str] = mapped_column(String(16))
    severity: Mapped[str] = mapped_column(String(16))
    assignee: Mapped[str | None] = mapped_column(Text)
    outcome: Mapped[str | None] = mapped_column(String(16))
    reason: Mapped[str | None] = mapped_column(Text)
    opened_at: Mapped[str] = mapped_column(String(40))
    updated_at: Mapped[str] = mapped_column(String(40))
    version: Mapped[int] = mapped_column(Integer)

    __table_args__ = (
        CheckConstraint("state IN ('open', 'in_review', 'escalated', 'closed')", name="state"),
        CheckConstraint("outcome IS NULL OR outcome IN ('confirmed', 'no_issue', "
                        "'procedural', 'referred')", name="outcome"),
        CheckConstraint("(state = 'closed') = (outcome IS NOT NULL)", name="closed_outcome"),
        # At most one case per subject that is not closed: new evidence joins it, and two
        # writers opening the same subject's case at once cannot both succeed.
        Index("ix_cases_open_subject", "subject", unique=True,
              sqlite_where=text("state <> 'closed'"),
              postgresql_where=text("state <> 'closed'")),
        Index("ix_cases_state", "state"),
    )


class CaseAudit(Base):
    """One action on a case: who, when, what, and the case's state before and after.
    ``version`` numbers a case's entries 1, 2, 3 ... (the case row's version is its last)."""

    __tablename__ = "case_audit"

    case_id: Mapped[int] = mapped_column(Integer, _case_fk(), primary_key=True)
    version: Mapped[int] = mapped_column(Integer, primary_key=True)
    at: Mapped[str] = mapped_column(String(40))
    actor: Mapped[str] = mapped_column(Text)
    action: Mapped[str] = mapped_column(String(16))
    state_before: Mapped[str | None] = mapped_column(String(16))
    state_after: Mapped[str] = mapped_column(String(16))
    detail: Mapped[str] = mapped_column(Text)  # JSON: what changed, the note, the evidence

    __table_args__ = (WITHOUT_ROWID,)


class CaseEvidence(Base):
    """A finding or alert that opened or joined a case. ``source_id`` names it
    (``finding:<hand>``, ``alert:<alert id>``): each source joins one case, once."""

    __tablename__ = "case_evidence"

    source_id: Mapped[str] = mapped_column(String(600), primary_key=True)
    case_id: Mapped[int] = mapped_column(Integer, _case_fk())
    kind: Mapped[str] = mapped_column(String(16))
    table_id: Mapped[str] = mapped_column(String(200))
    hand_id: Mapped[str | None] = mapped_column(String(200))
    rule: Mapped[str] = mapped_column(String(200))
    code: Mapped[str] = mapped_column(String(200))
    severity: Mapped[str] = mapped_column(String(16))
    summary: Mapped[str] = mapped_column(Text)
    day: Mapped[dt.date | None] = mapped_column(Date)

    __table_args__ = (
        CheckConstraint("kind IN ('finding', 'alert')", name="kind"),
        Index("ix_case_evidence_case", "case_id"),
    )


class CaseHand(Base):
    """A hand a case's evidence names (the hand of a finding, an alert's evidence hands)."""

    __tablename__ = "case_hands"

    case_id: Mapped[int] = mapped_column(Integer, _case_fk(), primary_key=True)
    hand_id: Mapped[str] = mapped_column(String(200), primary_key=True)
    table_id: Mapped[str] = mapped_column(String(200))

    __table_args__ = (WITHOUT_ROWID,)


class CaseTag(Base):
    """What a case concerns, for the queue's filters: ``kind`` is ``table``, ``dealer``,
    ``player``, ``game`` or ``day`` (YYYY-MM-DD of an evidence hand or alert)."""

    __tablename__ = "case_tags"

    case_id: Mapped[int] = mapped_column(Integer, _case_fk(), primary_key=True)
    kind: Mapped[str] = mapped_column(String(16), primary_key=True)
    value: Mapped[str] = mapped_column(String(200), primary_key=True)

    __table_args__ = (Index("ix_case_tags_kind_value", "kind", "value"), WITHOUT_ROWID)
