"""Reading cases: the queue (filtered) and one case with its evidence, hands and trail.

Plain functions over an engine returning plain dataclasses, for the ``pitwatch cases``
commands and the web console alike (issue #26 builds on these; nothing here prints).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

import orjson
from sqlalchemy import Engine, Select, exists, func, or_, select

from services.archive.alerts import alert_key
from services.archive.event_days import archived_of_days
from services.cases.lifecycle import SEVERITY_RANK, same_name
from services.ledger.archive_tables import ArchiveSegment
from services.ledger.case_tables import (
    Case,
    CaseAudit,
    CaseEvidence,
    CaseHand,
    CaseTag,
    is_case_id,
)
from services.ledger.models import Hand

# ``CaseFilter.state``: every state but closed, the cases still to work. The console's
# queue and ``pitwatch cases list`` both show these unless asked for a state (or "any"),
# and it is applied in the query, so a ``limit`` counts only such cases.
WORK = "work"


@dataclass(frozen=True)
class CaseFilter:
    """Every field optional; ``severity`` is a minimum (``warning`` includes critical);
    ``state`` one state, ``WORK`` (every state but closed), or None (any state)."""

    state: str | None = None
    severity: str | None = None
    game: str | None = None
    table: str | None = None
    dealer: str | None = None
    player: str | None = None
    day: dt.date | None = None
    assignee: str | None = None
    limit: int | None = None


@dataclass(frozen=True)
class CaseSummary:
    case_id: int
    subject: str
    subject_kind: str
    title: str
    state: str
    severity: str
    assignee: str | None
    outcome: str | None
    opened_at: str
    updated_at: str
    version: int
    evidence: int
    hands: int


@dataclass(frozen=True)
class EvidenceLine:
    source_id: str
    kind: str
    table_id: str
    hand_id: str | None
    rule: str
    code: str
    severity: str
    summary: str
    day: dt.date | None


@dataclass(frozen=True)
class AuditEntry:
    version: int
    at: str
    actor: str
    action: str
    state_before: str | None
    state_after: str
    detail: dict[str, Any]


@dataclass(frozen=True)
class CaseDetail:
    summary: CaseSummary
    reason: str | None
    evidence: list[EvidenceLine] = field(default_factory=list)
    hands: list[tuple[str, str]] = field(default_factory=list)  # (table_id, hand_id)
    tags: dict[str, list[str]] = field(default_factory=dict)
    audit: list[AuditEntry] = field(default_factory=list)


def _counted() -> Select[*tuple[Any, ...]]:
    evidence = (select(func.count()).select_from(CaseEvidence)
                .where(CaseEvidence.case_id == Case.case_id).scalar_subquery())
    hands = (select(func.count()).select_from(CaseHand)
             .where(CaseHand.case_id == Case.case_id).scalar_subquery())
    return select(Case.case_id, Case.subject, Case.subject_kind, Case.title, Case.state,
                  Case.severity, Case.assignee, Case.outcome, Case.opened_at, Case.updated_at,
                  Case.version, evidence.label("evidence"), hands.label("hands"))


def _tagged(kind: str, value: str) -> Any:
    """The cases tagged ``kind``=``value``, or, for a hand's fact (day, game, dealer),
    naming a booked hand that has it. Why the hands too: on the pipeline a stream alert's
    case is opened with or before the events it reports, often before the ledger service
    booked their hand, and the intake tags a case with the facts of booked hands only: a
    critical chain-break case was missing from ``--game``, ``--dealer`` and ``--date``
    (QA). Read here, the hand's facts count as soon as it is booked."""
    tag = exists().where(CaseTag.case_id == Case.case_id, CaseTag.kind == kind,
                         CaseTag.value == value)
    fact = _HAND_FACTS.get(kind)
    if fact is None:
        return tag
    wanted: object = dt.date.fromisoformat(value) if kind == "day" else value
    booked = exists().where(CaseHand.case_id == Case.case_id, Hand.hand_id == CaseHand.hand_id,
                            fact == wanted)
    if kind != "day":
        return or_(tag, booked)
    placed = exists().where(CaseHand.case_id == Case.case_id, Hand.hand_id == CaseHand.hand_id,
                            Hand.day.is_(None), placed_day(CaseHand.hand_id) == wanted)
    return or_(tag, booked, placed)


def alerts_of_days(engine: Engine, first_day: dt.date | None, last_day: dt.date | None
                   ) -> list[str]:
    """The evidence source ids of the archived alerts raised on no hand whose event is of
    a day in the span (``services.archive.event_days``): such an alert names no hand to
    give its case a day, and its case was on no day's queue (QA)."""
    return sorted({f"alert:{alert_key(a)}"
                   for a in archived_of_days(engine, first_day, last_day)})


def _alert_evidence_in(source_ids: list[str]) -> Any:
    """The cases holding one of ``source_ids`` as evidence."""
    return exists().where(CaseEvidence.case_id == Case.case_id,
                          CaseEvidence.source_id.in_(source_ids))


def placed_day(hand_id: Any) -> Any:
    """The day a hand booked without one (a rejected hand: its record has no end) is
    placed on: that of its last archived events, as the daily report and ``replay`` place
    it. A case of such a hand has no day of its own, and ``--date`` missed it though the
    day's report listed the hand (QA)."""
    return (select(func.max(ArchiveSegment.day)).where(ArchiveSegment.hand_id == hand_id)
            .scalar_subquery())


_HAND_FACTS: dict[str, Any] = {"day": Hand.day, "game": Hand.game, "dealer": Hand.dealer_id}


def list_cases(engine: Engine, wanted: CaseFilter | None = None) -> list[CaseSummary]:
    """The cases matching ``wanted``, most serious first, then oldest first."""
    f = wanted or CaseFilter()
    query = _counted()
    if f.state == WORK:
        query = query.where(Case.state != "closed")
    elif f.state is not None:
        query = query.where(Case.state == f.state)
    if f.severity is not None:
        rank = SEVERITY_RANK.get(f.severity, 0)
        query = query.where(Case.severity.in_([s for s, r in SEVERITY_RANK.items() if r >= rank]))
    if f.assignee is not None:  # in any capitals, as the console matches names (QA: a
        # case the command line gave to "Op" never showed in op's "My cases"), compared in
        # Python (``same_name``) so that SQLite and PostgreSQL find the same cases
        query = query.where(Case.assignee.is_not(None))
    for kind, value in (("game", f.game), ("table", f.table), ("dealer", f.dealer),
                        ("player", f.player)):
        if value is not None:
            query = query.where(_tagged(kind, value))
    if f.day is not None:
        query = query.where(or_(_tagged("day", f.day.isoformat()),
                                _alert_evidence_in(alerts_of_days(engine, f.day, f.day))))
    with engine.connect() as conn:
        rows = [CaseSummary(**row._asdict()) for row in conn.execute(query)]
    if f.assignee is not None:
        rows = [c for c in rows if same_name(c.assignee, f.assignee)]
    rows.sort(key=lambda c: (-SEVERITY_RANK.get(c.severity, -1), c.opened_at, c.case_id))
    return rows[:f.limit] if f.limit is not None else rows


def get_case(engine: Engine, case_id: int) -> CaseDetail | None:
    """One case with its evidence, hands, tags and audit trail (oldest entry first)."""
    if not is_case_id(case_id):
        return None
    with engine.connect() as conn:
        row = conn.execute(_counted().where(Case.case_id == case_id)).first()
        if row is None:
            return None
        reason = conn.execute(select(Case.reason).where(Case.case_id == case_id)).scalar()
        evidence = [EvidenceLine(*r) for r in conn.execute(
            select(CaseEvidence.source_id, CaseEvidence.kind, CaseEvidence.table_id,
                   CaseEvidence.hand_id, CaseEvidence.rule, CaseEvidence.code,
                   CaseEvidence.severity, CaseEvidence.summary, CaseEvidence.day)
            .where(CaseEvidence.case_id == case_id).order_by(CaseEvidence.source_id))]
        hands = [(t, h) for t, h in conn.execute(
            select(CaseHand.table_id, CaseHand.hand_id).where(CaseHand.case_id == case_id)
            .order_by(CaseHand.table_id, CaseHand.hand_id))]
        tags: dict[str, list[str]] = {}
        for kind, value in conn.execute(select(CaseTag.kind, CaseTag.value)
                                        .where(CaseTag.case_id == case_id)
                                        .order_by(CaseTag.kind, CaseTag.value)):
            tags.setdefault(kind, []).append(value)
        audit = [AuditEntry(r.version, r.at, r.actor, r.action, r.state_before, r.state_after,
                            orjson.loads(r.detail))
                 for r in conn.execute(select(CaseAudit).where(CaseAudit.case_id == case_id)
                                       .order_by(CaseAudit.version))]
    return CaseDetail(CaseSummary(**row._asdict()), reason, evidence, hands, tags,
                      audit)


def audit_trail(engine: Engine, case_id: int) -> list[AuditEntry]:
    case = get_case(engine, case_id)
    return [] if case is None else case.audit
