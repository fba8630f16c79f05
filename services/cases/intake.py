"""Findings and alerts into cases: each opens a case, or joins the open case of its
subject, once.

What opens a case: a hand whose record holds a finding at warning or above (one
evidence item per hand: its findings from warning up), and an alert at warning or above
(``MIN_SEVERITY``). Info-level alerts (an event delivered twice with the same body) are
archived but open nothing: there is nothing to decide.

Idempotent by source: a hand's findings are ``finding:<hand_id>``, an alert is
``alert:<its archive key>``; a source already taken by a case is a repeat, so at-least-once
delivery (the Kafka archive service after a kill) opens nothing twice. Two writers opening
the same subject's case at once cannot both succeed either: at most one case per subject
is not closed (a unique index); the loser's transaction fails and is run again, and then
joins the winner's case.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import msgspec
from sqlalchemy import Connection, Engine, insert, literal, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError

from services.archive.alerts import alert_key
from services.cases.audit import change_case, now_utc, open_case
from services.cases.lifecycle import SEVERITY_RANK, SYSTEM_ACTOR, CaseStatus, apply, opened
from services.cases.subjects import Subject, alert_subject, hand_subject
from services.events.contract import AdjudicationRecord, Alert, Finding, decode_record
from services.ledger.booked import stored_hashes
from services.ledger.case_tables import Case, CaseEvidence, CaseHand, CaseTag
from services.ledger.db import write_transaction
from services.ledger.entries import record_bytes_and_hash, utc_day
from services.ledger.models import Conflict, Hand
from services.ledger.posting import conflict_finding

MIN_SEVERITY = "warning"
FINDINGS_IN_SUMMARY = 3
# A case's evidence by its source: a hand's findings, an alert, and a re-post of a booked
# hand with other bytes that the ledger refused (``conflict:<hand id>:<offered SHA-256>``).
FINDING, ALERT, CONFLICT = "finding:", "alert:", "conflict:"


@dataclass(frozen=True)
class Evidence:
    """One finding-bearing hand or one alert, as a case takes it."""

    source_id: str
    kind: str  # finding, alert
    subject: Subject
    table_id: str
    hand_id: str | None
    rule: str
    code: str
    severity: str
    summary: str
    hands: tuple[tuple[str, str], ...]  # (table_id, hand_id) named by the evidence
    tags: tuple[tuple[str, str], ...]  # (kind, value): table, dealer, player, game, day
    day: dt.date | None = None
    record_sha256: str | None = None  # a hand's findings: its record as the ledger keys it


@dataclass
class IntakeResult:
    opened: int = 0
    joined: int = 0
    repeats: int = 0

    def add(self, other: IntakeResult) -> None:
        """Count another intake's cases in (a run kept a batch at a time)."""
        self.opened += other.opened
        self.joined += other.joined
        self.repeats += other.repeats


def _serious(severity: str) -> bool:
    return SEVERITY_RANK.get(severity, -1) >= SEVERITY_RANK[MIN_SEVERITY]


def record_evidence(record: AdjudicationRecord) -> Evidence | None:
    """A hand's findings at warning or above, or None when it has none."""
    findings = sorted((f for f in record.findings if _serious(f.severity)),
                      key=lambda f: -SEVERITY_RANK[f.severity])
    if not findings:
        return None
    top = findings[0]
    return Evidence(
        source_id=f"{FINDING}{record.hand_id}", kind="finding", subject=hand_subject(record),
        table_id=record.table_id, hand_id=record.hand_id, rule=top.rule, code=top.code,
        severity=top.severity, summary=_findings_summary(findings),
        hands=((record.table_id, record.hand_id),), tags=_record_tags(record),
        day=utc_day(record.ended_at), record_sha256=record_bytes_and_hash(record)[1])


def _record_tags(record: AdjudicationRecord) -> tuple[tuple[str, str], ...]:
    """What the queue finds a hand's case by: its table, dealer, players, game and day."""
    day = utc_day(record.ended_at)
    tags = [("table", record.table_id)]
    tags += [("dealer", record.dealer_id)] if record.dealer_id else []
    tags += [("player", p) for p in sorted(set((record.players or {}).values()))]
    tags += [("game", record.game)] if record.game else []
    tags += [("day", day.isoformat())] if day else []
    return tuple(tags)


def conflict_evidence(hand_id: str, table_id: str, stored_sha256: str, offered_sha256: str,
                      detail: str, offered_json: str) -> Evidence:
    """A re-post of a booked hand with other bytes, which the ledger refused (SURV-9
    ``LEDGER_CONFLICT``, critical): the hand's case takes the refusal as its evidence.

    Why not the re-post's own findings: they are not what the book holds. A log adjudicated
    again under another profile opened cases on findings of records the ledger had
    refused, and ``cases verify`` could not read them again from the book (QA). The
    tags are the offered record's where it reads (players, dealer, game, day); the table
    is the booked hand's."""
    finding = conflict_finding(hand_id, stored_sha256, offered_sha256, detail)
    try:
        offered: AdjudicationRecord | None = decode_record(offered_json)
    except (msgspec.DecodeError, msgspec.ValidationError):
        offered = None
    tags = _record_tags(offered) if offered is not None else (("table", table_id),)
    return Evidence(
        source_id=f"{CONFLICT}{hand_id}:{offered_sha256}", kind="finding",
        subject=Subject("hand", (hand_id,)), table_id=table_id, hand_id=hand_id,
        rule=finding.rule, code=finding.code, severity=finding.severity,
        summary=_findings_summary([finding]), hands=((table_id, hand_id),),
        tags=tuple(sorted({("table", table_id), *tags})),
        day=utc_day(offered.ended_at) if offered is not None else None)


def conflicts_query() -> Any:
    """The refused re-posts (``conflicts``) with their booked hand's table, and each one's
    case source, for ``conflict_evidence``."""
    c = Conflict
    source = (literal(CONFLICT) + c.hand_id + literal(":") + c.offered_sha256).label("source")
    return (select(source, c.hand_id, Hand.table_id, c.stored_sha256, c.offered_sha256,
                   c.detail, c.offered_json)
            .join(Hand, Hand.hand_id == c.hand_id))


def unfiled_conflicts(conn: Connection) -> list[Evidence]:
    """The refused re-posts no case holds yet. Read at every intake, so the embedded run
    (the ledger books first) and the pipeline (the ledger service writes the conflict,
    the archive service opens the cases) file each one; conflicts are rare, and each is
    looked up in ``case_evidence`` by its primary key."""
    query = conflicts_query().subquery()
    filed = select(CaseEvidence.source_id).where(CaseEvidence.source_id == query.c.source)
    rows = conn.execute(select(query).where(~filed.exists())
                        .order_by(query.c.hand_id, query.c.offered_sha256))
    return [conflict_evidence(*row[1:]) for row in rows]


def _not_refused(conn: Connection, items: Sequence[Evidence]) -> list[Evidence]:
    """Leave out a hand's findings whose record is not the one the ledger booked (a
    refused re-post: its case takes the refusal, ``unfiled_conflicts``). A hand not booked
    yet is taken as offered: on the pipeline the archive service may take a record
    before the ledger service has booked it."""
    hands = {i.hand_id for i in items if i.record_sha256 is not None and i.hand_id}
    booked = stored_hashes(conn, hands) if hands else {}
    return [i for i in items
            if i.record_sha256 is None or i.hand_id not in booked
            or booked[i.hand_id].sha256 == i.record_sha256]


def _findings_summary(findings: list[Finding]) -> str:
    shown = "; ".join(f"{f.rule} {f.code} ({f.severity}): {f.message}"
                      for f in findings[:FINDINGS_IN_SUMMARY])
    more = len(findings) - FINDINGS_IN_SUMMARY
    return shown + (f"; and {more} more" if more > 0 else "")


def alert_evidence(alert: Alert) -> Evidence | None:
    """An alert at warning or above, or None."""
    if not _serious(alert.severity):
        return None
    evidence: dict[str, Any] = alert.evidence or {}
    hands = [(alert.table_id, alert.hand_id)] if alert.hand_id else []
    for cited in evidence.get("hands") or []:
        if isinstance(cited, dict) and isinstance(cited.get("hand_id"), str):
            hands.append((str(cited.get("table_id") or alert.table_id), cited["hand_id"]))
    subject = alert_subject(alert)
    tags = alert_tags(alert) | {("table", t) for t, _ in hands}
    return Evidence(
        source_id=f"alert:{alert_key(alert)}", kind="alert", subject=subject,
        table_id=alert.table_id, hand_id=alert.hand_id, rule=alert.rule, code=alert.code,
        severity=alert.severity, summary=alert.message, hands=tuple(dict.fromkeys(hands)),
        tags=tuple(sorted(tags)))


def alert_tags(alert: Alert) -> set[tuple[str, str]]:
    """Whom and what an alert names, as (kind, value): its table, the dealer and players
    of its evidence and subject, its game. The queue finds the alert's case by them, and
    the console's search finds the alert by them."""
    evidence: dict[str, Any] = alert.evidence or {}
    tags = {("table", alert.table_id)}
    for name in ("dealer", "player", "from_player", "to_player"):
        if isinstance(evidence.get(name), str):
            tags.add(("dealer" if name == "dealer" else "player", evidence[name]))
    for player in evidence.get("players") or []:
        tags.add(("player", str(player)))
    if isinstance(evidence.get("game"), str):
        tags.add(("game", evidence["game"]))
    subject = alert_subject(alert)
    if subject.kind in ("dealer", "player"):
        tags.add((subject.kind, subject.ids[0]))
    if subject.kind == "pair":
        tags |= {("player", p) for p in subject.ids}
    return tags


def evidence_of(records: Iterable[AdjudicationRecord], alerts: Iterable[Alert]
                ) -> list[Evidence]:
    items = [record_evidence(r) for r in records] + [alert_evidence(a) for a in alerts]
    return [item for item in items if item is not None]


def take_evidence(conn: Connection, items: Sequence[Evidence], at: str,
                  actor: str = SYSTEM_ACTOR) -> IntakeResult:
    """Open or join a case for each item not taken before (inside the caller's write
    transaction)."""
    result = IntakeResult()
    items = [*_not_refused(conn, items), *unfiled_conflicts(conn)]
    if not items:
        return result
    known = set(conn.execute(select(CaseEvidence.source_id).where(
        CaseEvidence.source_id.in_(sorted({i.source_id for i in items})))).scalars())
    days, hand_tags = hand_facts(conn, {h for i in items for _, h in i.hands})
    cases = _open_cases(conn, {i.subject.key for i in items if i.source_id not in known})
    filing = Filing()
    for item in items:
        if item.source_id in known:  # taken before, or twice in this intake
            result.repeats += 1
            continue
        known.add(item.source_id)
        case_id = _join_or_open(conn, cases, item, at, actor, result)
        filing.add(case_id, item, days, hand_tags)
    filing.write(conn)
    return result


class _OpenCase:
    """An open case as the intake has left it so far: id, version and status."""

    __slots__ = ("case_id", "status", "version")

    def __init__(self, case_id: int, version: int, status: CaseStatus) -> None:
        self.case_id = case_id
        self.version = version
        self.status = status


SUBJECTS_PER_QUERY = 500  # subjects whose open cases one query reads (bound parameters)


def _open_cases(conn: Connection, subjects: set[str]) -> dict[str, _OpenCase]:
    """The open cases of ``subjects``, read and locked (``FOR UPDATE``; SQLite's write
    lock) at once for the intake's transaction: a query each per item was a third of a
    case's intake. A case another writer opens meanwhile meets the unique index of open
    subjects when this intake opens its own, and the intake runs again (``open_cases``)."""
    found: dict[str, _OpenCase] = {}
    ordered = sorted(subjects)  # the locks taken in one order by every writer
    for start in range(0, len(ordered), SUBJECTS_PER_QUERY):
        rows = conn.execute(select(Case.subject, Case.case_id, Case.version, Case.state,
                                   Case.severity, Case.assignee, Case.outcome, Case.reason)
                            .where(Case.subject.in_(ordered[start:start + SUBJECTS_PER_QUERY]),
                                   Case.state != "closed")
                            .order_by(Case.subject).with_for_update())
        for row in rows:
            found[row.subject] = _OpenCase(int(row.case_id), int(row.version), CaseStatus(
                row.state, row.severity, row.assignee, row.outcome, row.reason))
    return found


def _join_or_open(conn: Connection, cases: dict[str, _OpenCase], item: Evidence, at: str,
                  actor: str, result: IntakeResult) -> int:
    """The item joins its subject's open case, or opens one (``cases`` kept up to date)."""
    detail = {"evidence": item.source_id, "rule": item.rule, "code": item.code,
              "severity": item.severity, "summary": item.summary}
    case = cases.get(item.subject.key)
    if case is None:
        result.opened += 1
        title = f"{item.subject.title}: {item.code} ({item.rule})"
        status = opened(item.severity)
        case_id = open_case(conn, item.subject.key, item.subject.kind, title, status, actor,
                            at, detail)
        cases[item.subject.key] = _OpenCase(case_id, 1, status)
        return case_id
    after = apply(case.case_id, case.status, "evidence", severity=item.severity)
    case.version = change_case(conn, case.case_id, case.version, case.status, after,
                               "evidence", actor, at, detail)
    case.status = after
    result.joined += 1
    return case.case_id


_FILE = insert(CaseEvidence)  # values as parameters (``services.cases.audit`` says why)


class Filing:
    """The evidence rows, their hands and the cases' tags (the queue's filters) of an
    intake, written together at its end, one statement a table: a statement each per
    item was half of a case's intake. The cases they name are opened or joined first
    (``_join_or_open``), in the same transaction."""

    def __init__(self) -> None:
        self.evidence: list[dict[str, Any]] = []
        self.hands: list[dict[str, Any]] = []
        self.tags: list[dict[str, Any]] = []

    def add(self, case_id: int, item: Evidence, days: dict[str, dt.date],
            hand_tags: dict[str, set[tuple[str, str]]]) -> None:
        day = item.day or next((days[h] for _, h in item.hands if h in days), None)
        self.evidence.append({
            "source_id": item.source_id, "case_id": case_id, "kind": item.kind,
            "table_id": item.table_id, "hand_id": item.hand_id, "rule": item.rule,
            "code": item.code, "severity": item.severity, "summary": item.summary, "day": day})
        self.hands += [{"case_id": case_id, "hand_id": h, "table_id": t} for t, h in item.hands]
        tags = set(item.tags).union(*(hand_tags.get(h, ()) for _, h in item.hands))
        self.tags += [{"case_id": case_id, "kind": k, "value": v[:200]} for k, v in sorted(tags)]

    def write(self, conn: Connection) -> None:
        if self.evidence:
            conn.execute(_FILE, self.evidence)
        _insert_new(conn, CaseHand, self.hands)
        _insert_new(conn, CaseTag, self.tags)


def hand_facts(conn: Connection, hand_ids: set[str]
               ) -> tuple[dict[str, dt.date], dict[str, set[tuple[str, str]]]]:
    """Each booked hand's day, and the tags it gives a case that names it: its day, game
    and dealer. An alert's evidence names hands but says only what its pattern counts (a
    chain break its table), and the queue's game and dealer filters missed its case."""
    if not hand_ids:
        return {}, {}
    rows = conn.execute(select(Hand.hand_id, Hand.day, Hand.game, Hand.dealer_id)
                        .where(Hand.hand_id.in_(sorted(hand_ids))))
    days: dict[str, dt.date] = {}
    tags: dict[str, set[tuple[str, str]]] = {}
    for hand_id, day, game, dealer in rows:
        facts = tags.setdefault(hand_id, set())
        if day is not None:
            days[hand_id] = day
            facts.add(("day", day.isoformat()))
        if game:
            facts.add(("game", game))
        if dealer:
            facts.add(("dealer", dealer))
    return days, tags


def _insert_new(conn: Connection, model: type[Any], rows: list[dict[str, Any]]) -> None:
    if not rows:
        return
    table = model.__table__
    dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
    conn.execute(dialect.insert(table).on_conflict_do_nothing(), rows)


def open_cases(engine: Engine, records: Iterable[AdjudicationRecord], alerts: Iterable[Alert],
               at: str | None = None, attempts: int = 3) -> IntakeResult:
    """Take a run's findings and alerts into cases, in one write transaction; run again
    if another writer opened the same subject's case meanwhile (the unique index)."""
    items = evidence_of(records, alerts)
    when = at or now_utc()
    for attempt in range(attempts):
        try:
            with write_transaction(engine) as conn:
                return take_evidence(conn, items, when)
        except IntegrityError:
            if attempt == attempts - 1:
                raise
    raise AssertionError("unreachable")
