"""Every case's row held to its audit trail: the trail read again, entry by entry, must
lead to the row as it stands.

Why: the row is what the queue lists and the console shows (open, escalated, closed "no
issue"); the trail is what a regulator reads. The database lets the row change only with
the next audit entry written first (migration 0013), but someone with the owner's rights
can drop that guard and close a case in one statement. Reading each trail again finds
such a change, and a trail with an entry missing or out of order, whatever the guards.

The trail says, for each version, the state before and after and what changed
(``detail.changed``: the fields of the case an action set, all of them when it opened);
applied in order they give the case's state, severity, assignee, outcome and reason,
which must be the row's, as must its version (the last entry's) and ``updated_at`` (that
entry's time). Pure reading.

A case's hands and tags (``case_hands``, ``case_tags``) are what the queue's filters
(``--player``, ``--table``, ``--dealer``, ``--game``, ``--date``) and the console find it
by; a row deleted or changed behind the dropped guard made a case vanish from a filtered
queue, and ``verify`` passed (QA). Each case's evidence is read again from its source (a
finding's booked record, an alert's archived JSON) and made into the rows the intake
files (``services.cases.intake``: the same functions, not a second account of them), and
the case's rows are compared with those.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec
import orjson
from sqlalchemy import Connection, Engine, Select, and_, func, literal, or_, select

from services.cases.intake import (
    ALERT,
    CONFLICT,
    FINDING,
    MIN_SEVERITY,
    Evidence,
    Filing,
    alert_evidence,
    conflict_evidence,
    conflicts_query,
    hand_facts,
    record_evidence,
)
from services.cases.lifecycle import SEVERITY_RANK
from services.cases.queries import alerts_of_days, placed_day
from services.events.contract import decode_alert, decode_record
from services.ledger.archive_tables import ArchiveAlert, ArchiveTable
from services.ledger.case_tables import Case, CaseAudit, CaseEvidence, CaseHand, CaseTag
from services.ledger.chunks import keyset_chunks
from services.ledger.models import FindingRow, Hand
from services.ledger.spans import days_between, within_days

CASES_PER_CHUNK = 500
FIELDS = ("state", "severity", "assignee", "outcome", "reason")
# The severities whose alerts open cases (``services.cases.intake``).
SERIOUS = tuple(sorted(s for s, rank in SEVERITY_RANK.items()
                       if rank >= SEVERITY_RANK[MIN_SEVERITY]))


@dataclass(frozen=True)
class CaseBreak:
    """A case whose row is not where its trail leads, or whose trail is broken; or an
    archived alert that is no case's evidence (``case_id`` None)."""

    case_id: int | None
    message: str


@dataclass
class CaseRecheck:
    cases: int = 0
    entries: int = 0
    breaks: list[CaseBreak] = field(default_factory=list)


@dataclass(frozen=True)
class Entry:
    """One audit entry as the check reads it."""

    version: int
    at: str
    action: str
    state_before: str | None
    state_after: str
    detail: str


def recheck_cases(engine: Engine, first_day: dt.date | None = None,
                  last_day: dt.date | None = None, table_id: str | None = None
                  ) -> CaseRecheck:
    """Every case (or those with evidence of the span's days, or of one table) against
    its trail."""
    report = CaseRecheck()
    spanned = first_day is not None or last_day is not None
    raised_on_no_hand = alerts_of_days(engine, first_day, last_day) if spanned else []
    with engine.connect() as conn:
        query = _cases_query(first_day, last_day, table_id, raised_on_no_hand)
        for chunk in keyset_chunks(conn, query, Case.case_id, CASES_PER_CHUNK):
            ids = [row.case_id for row in chunk]
            trails = _trails(conn, ids)
            evidence = _evidence(conn, ids)
            given = _given(conn, ids, evidence, trails)
            held = _held(conn, ids)
            for row in chunk:
                trail = trails.get(row.case_id, [])
                report.cases += 1
                report.entries += len(trail)
                report.breaks += case_breaks(row.case_id, _row_fields(row), row.version,
                                             row.updated_at, trail,
                                             set(evidence.get(row.case_id, {})))
                report.breaks += link_breaks(row.case_id, given[row.case_id],
                                             *held.get(row.case_id, ({}, set())))
        report.breaks += alerts_without_case(conn, first_day, last_day, table_id)
        report.breaks += findings_without_case(conn, first_day, last_day, table_id)
        report.breaks += conflicts_without_case(conn, first_day, last_day, table_id)
    return report


def findings_without_case(conn: Connection, first_day: dt.date | None,
                          last_day: dt.date | None, table_id: str | None
                          ) -> list[CaseBreak]:
    """Booked hands of archived tables whose record has a finding at warning or above
    that no case holds as evidence (``finding:<hand_id>``). A run that archives opens
    them with the hands it books (a ledger kept with ``--no-archive`` opens none: its
    tables are not in the archive's catalog). A case deleted with its trail and evidence
    was found for an alert, never for a finding (QA): the hand's finding then waits in no
    one's queue."""
    f, h = FindingRow, Hand
    source = literal(FINDING) + h.hand_id
    evidenced = select(CaseEvidence.source_id).where(CaseEvidence.source_id == source).exists()
    archived = select(ArchiveTable.table_id).where(ArchiveTable.table_id == h.table_id).exists()
    serious = (select(f.hand_id).where(f.hand_id == h.hand_id, f.origin == "record",
                                       f.severity.in_(SERIOUS)).exists())
    query = within_days(select(h.hand_id, h.table_id).where(serious, archived, ~evidenced),
                        h.day, first_day, last_day).order_by(h.hand_id)
    if table_id is not None:
        query = query.where(h.table_id == table_id)
    return [CaseBreak(None, f"hand {hand_id} (table {table}) has a finding at warning or "
                            "above that is no case's evidence: booked by a run that stopped "
                            "before opening its case (run it again; on the pipeline, the "
                            "archive service may not have taken it yet), or its case was "
                            "removed")
            for hand_id, table in conn.execute(query)]


def conflicts_without_case(conn: Connection, first_day: dt.date | None,
                           last_day: dt.date | None, table_id: str | None
                           ) -> list[CaseBreak]:
    """Refused re-posts of booked hands of archived tables (the ledger's ``conflicts``)
    that no case holds as evidence (``conflict:<hand_id>:<offered SHA-256>``): every
    intake files the ones it finds unfiled, so one left over was written by a run that
    stopped before its cases, or its case was removed."""
    refused = conflicts_query().subquery()
    evidenced = (select(CaseEvidence.source_id)
                 .where(CaseEvidence.source_id == refused.c.source).exists())
    archived = (select(ArchiveTable.table_id)
                .where(ArchiveTable.table_id == refused.c.table_id).exists())
    booked = select(Hand.hand_id).where(Hand.hand_id == refused.c.hand_id)
    query = (select(refused.c.hand_id, refused.c.table_id)
             .where(archived, ~evidenced,
                    within_days(booked, Hand.day, first_day, last_day).exists())
             .order_by(refused.c.hand_id, refused.c.offered_sha256))
    if table_id is not None:
        query = query.where(refused.c.table_id == table_id)
    return [CaseBreak(None, f"hand {hand_id} (table {table}) was re-posted with other "
                            "content, which the ledger refused (SURV-9), and that is no "
                            "case's evidence: kept by a run that stopped before opening its "
                            "case (run it again), or its case was removed")
            for hand_id, table in conn.execute(query)]


def alerts_without_case(conn: Connection, first_day: dt.date | None,
                        last_day: dt.date | None, table_id: str | None) -> list[CaseBreak]:
    """Archived alerts at warning or above that no case holds as evidence. Each opens or
    joins a case when it is archived (in the archive service's transaction; the embedded
    runner opens the cases right after archiving), and evidence is append-only: an alert
    without its case was archived by a run that stopped before its cases (run it again),
    or put in by hand, and it shows on the console's floor as if pitwatch had raised it,
    naming a dealer or a player. With a span, the alerts of the span's booked hands (an
    alert has no day of its own; a table's stream alerts outside hands are looked at
    without a span)."""
    a = ArchiveAlert
    source = literal(ALERT) + a.alert_id
    evidenced = select(CaseEvidence.source_id).where(CaseEvidence.source_id == source).exists()
    query = (select(a.alert_id, a.rule, a.code, a.severity)
             .where(a.severity.in_(SERIOUS), ~evidenced).order_by(a.alert_id))
    if table_id is not None:
        query = query.where(a.table_id == table_id)
    if first_day is not None or last_day is not None:
        hands = within_days(select(Hand.hand_id).where(Hand.hand_id == a.hand_id),
                            Hand.day, first_day, last_day)
        query = query.where(hands.exists())
    return [CaseBreak(None, f"alert {alert_id} ({rule} {code}, {severity}) is archived but "
                            "is no case's evidence: archived by a run that stopped before "
                            "opening its case (run it again), or put in by hand")
            for alert_id, rule, code, severity in conn.execute(query)]


def case_breaks(case_id: int, fields: dict[str, Any], version: int, updated_at: str,
                trail: Sequence[Entry], evidence: set[str] | None = None) -> list[CaseBreak]:
    """One case: its trail in order (versions 1, 2, ... each leaving off where the one
    before ended), then where the trail leads against the row, then its evidence rows
    (``evidence``: their source ids) against the evidence its trail took in (each entry
    that opened the case or joined evidence to it names its source)."""
    def broken(message: str) -> list[CaseBreak]:
        return [CaseBreak(case_id, f"case {case_id}: {message}")]

    if [e.version for e in trail] != list(range(1, len(trail) + 1)):
        return broken("its audit trail is not versions 1.." f"{len(trail)} in order "
                      f"({', '.join(str(e.version) for e in trail) or 'no entry'})")
    status: dict[str, Any] = {}
    taken: set[str] = set()
    for entry in trail:
        if (entry.version == 1) != (entry.action == "open") or (
                entry.state_before != status.get("state")):
            return broken(f"audit entry {entry.version} ({entry.action}) does not follow "
                          f"the one before it (state before {entry.state_before!r}, the "
                          f"trail had {status.get('state')!r})")
        try:
            detail = orjson.loads(entry.detail)
            changed = detail["changed"]
        except (orjson.JSONDecodeError, KeyError, TypeError):
            return broken(f"audit entry {entry.version} does not say what it changed")
        if isinstance(detail.get("evidence"), str):
            taken.add(detail["evidence"])
        if not isinstance(changed, dict) or not set(changed) <= set(FIELDS):
            return broken(f"audit entry {entry.version} does not say what it changed")
        status.update(changed)
        if status.get("state") != entry.state_after:
            return broken(f"audit entry {entry.version} says state {entry.state_after!r} "
                          f"but changed it to {status.get('state')!r}")
    last = trail[-1] if trail else None
    led = {name: status.get(name) for name in FIELDS}
    differs = [f"{name} {fields[name]!r} (the trail: {led[name]!r})" for name in FIELDS
               if fields[name] != led[name]]
    if last is None or version != last.version:
        differs.insert(0, f"version {version} (the trail: {last.version if last else 0})")
    elif updated_at != last.at:
        differs.append(f"updated_at {updated_at} (the trail: {last.at})")
    if differs:
        return broken("the row holds " + ", ".join(differs) + ": changed without its "
                      "audit entry")
    if evidence is not None and evidence != taken:
        extra, missing = sorted(evidence - taken), sorted(taken - evidence)
        return broken("its evidence is not what its trail took in ("
                      + "; ".join([*(f"{e} with no audit entry" for e in extra[:3]),
                                   *(f"{m} taken in but not filed" for m in missing[:3])])
                      + ")")
    return []


# ---------------------------------------------------------------- hands and tags

HANDS_PER_QUERY = 500  # named hands whose booked facts one query reads (bound parameters)


@dataclass
class Given:
    """What one case's evidence gives, read again from its sources: the hands it must
    hold (hand id -> the tables its evidence names it at), the tags it must hold, the tags
    it may hold besides, what could not be read, and whether all of it was read.

    Why "may": the intake adds the day, game and dealer of each hand an item names as the
    hand is booked then (``hand_facts``), and on the pipeline the ledger may book a hand
    after the archive service took an alert naming it; those tags are required only where
    the filing shows the hand was booked (an alert naming one hand, filed with a day).
    Why ``whole``: with a source unread (or evidence and trail at odds, listed by
    ``case_breaks``), a row no read source gives may be the unread one's: not judged."""

    hands: dict[str, set[str]] = field(default_factory=dict)
    tags: set[tuple[str, str]] = field(default_factory=set)
    may: set[tuple[str, str]] = field(default_factory=set)
    unread: list[str] = field(default_factory=list)
    whole: bool = True


def link_breaks(case_id: int, given: Given, hands: dict[str, str],
                tags: set[tuple[str, str]]) -> list[CaseBreak]:
    """One case's ``case_hands`` (hand id -> table) and ``case_tags`` rows against what its
    evidence gives: each source that cannot be read, each row missing, each row extra."""
    said = [*given.unread]
    said += [f"its hand {hand} (table {', '.join(sorted(given.hands[hand]))}) is missing "
             "(its evidence names it)" for hand in sorted(given.hands.keys() - hands.keys())]
    if given.whole:
        for hand, table in sorted(hands.items()):
            tables = given.hands.get(hand)
            if tables is None:
                said.append(f"holds hand {hand} (table {table}) its evidence does not give")
            elif table not in tables:
                said.append(f"holds hand {hand} at table {table}, where its evidence gives "
                            f"table {', '.join(sorted(tables))}")
    said += [f"its tag {kind}={value} is missing (its evidence names it)"
             for kind, value in sorted(given.tags - tags)]
    if given.whole:
        said += [f"holds tag {kind}={value} its evidence does not give"
                 for kind, value in sorted(tags - given.tags - given.may)]
    return [CaseBreak(case_id, f"case {case_id}: {message}") for message in said]


def _given(conn: Connection, case_ids: list[int],
           evidence: dict[int, dict[str, dt.date | None]],
           trails: dict[int, list[Entry]]) -> dict[int, Given]:
    """What each case's evidence gives (``Given``): the sources both filed and taken in by
    its trail, read in one query for the chunk's records and one for its alerts, then
    made into rows by the intake's own functions and filing (``Filing``, ``hand_facts``:
    used here so that how an item becomes rows is decided in one place, and a change
    there is checked as written)."""
    given = {case_id: Given() for case_id in case_ids}
    wanted: set[tuple[int, str]] = set()
    for case_id in case_ids:
        filed, taken = evidence.get(case_id, {}), _taken(trails.get(case_id, []))
        given[case_id].whole = filed.keys() == taken
        wanted |= {(case_id, source) for source in filed.keys() & taken}
    read: list[tuple[int, Evidence, dt.date | None]] = []
    for case_id, source, item in _read_sources(conn, case_ids):
        if (case_id, source) not in wanted:
            continue
        wanted.discard((case_id, source))
        if isinstance(item, Evidence):
            read.append((case_id, item, evidence[case_id][source]))
            continue
        given[case_id].whole = False
        if item is not None:
            given[case_id].unread.append(f"its evidence {source} cannot be read again "
                                         f"({item}), so rows no other evidence gives "
                                         "are not judged")
    for case_id, source in sorted(wanted):  # neither a finding's nor an alert's
        given[case_id].whole = False
        given[case_id].unread.append(f"its evidence {source} names no finding or alert")
    facts = _facts(conn, {hand for _, item, _ in read for _, hand in item.hands})
    must, may = Filing(), Filing()
    for case_id, item, day in read:
        booked = item.day is None and day is not None and len(item.hands) == 1
        must.add(case_id, item, {}, facts if booked else {})
        may.add(case_id, item, {}, facts)
        if day is not None:  # filed with its evidence: the intake tagged the case with it
            given[case_id].tags.add(("day", day.isoformat()))
    for row in must.hands:
        given[row["case_id"]].hands.setdefault(row["hand_id"], set()).add(row["table_id"])
    for row in must.tags:
        given[row["case_id"]].tags.add((row["kind"], row["value"]))
    for row in may.tags:
        given[row["case_id"]].may.add((row["kind"], row["value"]))
    return given


def _taken(trail: Sequence[Entry]) -> set[str]:
    """The sources a trail's entries took in (an entry that does not read names none:
    ``case_breaks`` lists it)."""
    taken: set[str] = set()
    for entry in trail:
        try:
            detail = orjson.loads(entry.detail)
        except orjson.JSONDecodeError:
            continue
        if isinstance(detail, dict) and isinstance(detail.get("evidence"), str):
            taken.add(detail["evidence"])
    return taken


def _read_sources(conn: Connection, case_ids: list[int]
                  ) -> Iterator[tuple[int, str, Evidence | str | None]]:
    """Each finding and alert source of the cases made into ``Evidence`` again, or why it
    cannot be (None: an alert of a table the archive does not hold, taken in without
    archiving, ``open_cases`` on its own: nothing to read it from, and no break)."""
    e = CaseEvidence
    records = (select(e.case_id, e.source_id, Hand.record_json).select_from(e)
               .outerjoin(Hand, Hand.hand_id == func.substr(e.source_id, len(FINDING) + 1))
               .where(e.case_id.in_(case_ids), e.source_id.startswith(FINDING)))
    for case_id, source, raw in conn.execute(records):
        yield case_id, source, _finding(source, raw)
    catalogued = select(ArchiveTable.table_id).where(ArchiveTable.table_id == e.table_id)
    alerts = (select(e.case_id, e.source_id, ArchiveAlert.alert_json,
                     catalogued.exists().label("catalogued")).select_from(e)
              .outerjoin(ArchiveAlert,
                         ArchiveAlert.alert_id == func.substr(e.source_id, len(ALERT) + 1))
              .where(e.case_id.in_(case_ids), e.source_id.startswith(ALERT)))
    for case_id, source, raw, in_catalog in conn.execute(alerts):
        yield case_id, source, _alert(source, raw, bool(in_catalog))
    refused = conflicts_query().subquery()
    reposts = (select(e.case_id, e.source_id, refused).select_from(e)
               .outerjoin(refused, refused.c.source == e.source_id)
               .where(e.case_id.in_(case_ids), e.source_id.startswith(CONFLICT)))
    for case_id, source, _, *conflict in conn.execute(reposts):
        yield case_id, source, (conflict_evidence(*conflict) if conflict[0] is not None
                                else "the ledger holds no such refused re-post")


def _finding(source: str, raw: str | None) -> Evidence | str:
    if raw is None:
        return "its hand is not booked: on the pipeline the ledger may not have booked it yet"
    try:
        item = record_evidence(decode_record(raw))
    except (msgspec.DecodeError, ValueError) as exc:
        return f"its booked record does not read: {exc}"
    if item is None:
        return "its booked record has no finding at warning or above"
    return item if item.source_id == source else f"its booked record is {item.source_id}'s"


def _alert(source: str, raw: str | None, catalogued: bool) -> Evidence | str | None:
    if raw is None:
        return "the archive does not hold the alert" if catalogued else None
    try:
        item = alert_evidence(decode_alert(raw))
    except (msgspec.DecodeError, ValueError) as exc:
        return f"its archived JSON is no alert: {exc}"
    if item is None:
        return "its archived alert is below warning"
    return item if item.source_id == source else f"its archived JSON is {item.source_id}'s"


def _facts(conn: Connection, hand_ids: set[str]) -> dict[str, set[tuple[str, str]]]:
    """The tags each booked hand gives a case naming it, by the intake's own reading."""
    ordered = sorted(hand_ids)
    facts: dict[str, set[tuple[str, str]]] = {}
    for start in range(0, len(ordered), HANDS_PER_QUERY):
        facts.update(hand_facts(conn, set(ordered[start:start + HANDS_PER_QUERY]))[1])
    return facts


def _held(conn: Connection, case_ids: list[int]
          ) -> dict[int, tuple[dict[str, str], set[tuple[str, str]]]]:
    """Each case's ``case_hands`` (hand id -> table) and ``case_tags`` rows."""
    held: dict[int, tuple[dict[str, str], set[tuple[str, str]]]] = {}
    for case_id, hand, table in conn.execute(
            select(CaseHand.case_id, CaseHand.hand_id, CaseHand.table_id)
            .where(CaseHand.case_id.in_(case_ids))):
        held.setdefault(case_id, ({}, set()))[0][hand] = table
    for case_id, kind, value in conn.execute(
            select(CaseTag.case_id, CaseTag.kind, CaseTag.value)
            .where(CaseTag.case_id.in_(case_ids))):
        held.setdefault(case_id, ({}, set()))[1].add((kind, value))
    return held


# ---------------------------------------------------------------- reading


def _cases_query(first_day: dt.date | None, last_day: dt.date | None,
                 table_id: str | None, raised_on_no_hand: list[str]
                 ) -> Select[*tuple[Any, ...]]:
    """The cases to recheck; ``raised_on_no_hand``: the evidence ids of the alerts raised
    on no hand whose event is of the span (``alerts_of_days``)."""
    query: Select[*tuple[Any, ...]] = select(Case.case_id, Case.version, Case.updated_at,
                                *(getattr(Case, name) for name in FIELDS))
    if first_day is None and last_day is None and table_id is None:
        return query
    placed = and_(CaseEvidence.day.is_(None), CaseEvidence.hand_id.is_not(None),
                  days_between(placed_day(CaseEvidence.hand_id), first_day, last_day))
    evidence = select(CaseEvidence.case_id).where(
        CaseEvidence.case_id == Case.case_id,
        or_(days_between(CaseEvidence.day, first_day, last_day), placed,
            CaseEvidence.source_id.in_(raised_on_no_hand)))
    if table_id is not None:
        evidence = evidence.where(CaseEvidence.table_id == table_id)
    return query.where(evidence.exists())


def _row_fields(row: Any) -> dict[str, Any]:
    return {name: getattr(row, name) for name in FIELDS}


def _evidence(conn: Connection, case_ids: list[int]) -> dict[int, dict[str, dt.date | None]]:
    """Each case's evidence rows: source id -> the day filed with it."""
    out: dict[int, dict[str, dt.date | None]] = {}
    for case_id, source_id, day in conn.execute(
            select(CaseEvidence.case_id, CaseEvidence.source_id, CaseEvidence.day)
            .where(CaseEvidence.case_id.in_(case_ids))):
        out.setdefault(case_id, {})[source_id] = day
    return out


def _trails(conn: Connection, case_ids: list[int]) -> dict[int, list[Entry]]:
    rows = conn.execute(select(CaseAudit.case_id, CaseAudit.version, CaseAudit.at,
                               CaseAudit.action, CaseAudit.state_before,
                               CaseAudit.state_after, CaseAudit.detail)
                        .where(CaseAudit.case_id.in_(case_ids))
                        .order_by(CaseAudit.case_id, CaseAudit.version))
    out: dict[int, list[Entry]] = {}
    for case_id, version, at, action, before, after, detail in rows:
        out.setdefault(case_id, []).append(Entry(version, at, action, before, after, detail))
    return out
