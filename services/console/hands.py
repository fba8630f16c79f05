"""One hand in the console: its findings first, the alerts that cite it, the cases that
name it, and its dispute report rendered live from the archive (HTML and PDF).

The dispute report is ``pitwatch report hand HAND --ledger URL``'s, built by the same
functions (``services.reports``) from the booked record and the archived events, so what
the console shows is what the file report says, byte for byte but for the time stamp.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import Engine, select

from services.archive.reader import hand_table
from services.cases.queries import CaseSummary, get_case
from services.events.contract import Alert, Finding, decode_alert
from services.games.profile import Profiles
from services.ledger.archive_tables import ArchiveAlert
from services.ledger.case_tables import CaseEvidence, CaseHand
from services.ledger.models import Conflict
from services.ledger.queries import stored_hand
from services.reports.alerts import AlertLine, alert_line
from services.reports.archived import hand_archive_lacks, through_hand
from services.reports.daily import ConflictLine
from services.reports.dispute import (
    NOT_SUPPLIED,
    DisputeReport,
    dispute_from_ledger,
    ledger_only_note,
)
from services.reports.render import render_html

ARCHIVE_NAME = "the event archive"


class NoSuchHand(LookupError):
    """The console's database holds no hand of this id. Its message names no database:
    the reports' own ("not in the ledger at URL") told every logged-in user the server's
    database address (QA), which a user of the console has no need of."""


def no_such_hand(hand_id: str) -> NoSuchHand:
    return NoSuchHand(f"hand {hand_id[:80]!r} is not in this database: check the hand id "
                      "(Search finds a hand by any part of its id)")


@dataclass(frozen=True)
class HandPage:
    hand_id: str
    table_id: str
    game: str
    status: str
    ledger_status: str
    findings: list[Finding]
    alerts: list[AlertLine]
    cases: list[CaseSummary] = field(default_factory=list)
    archived: bool = False


def citing_alerts(engine: Engine, table_id: str, hand_id: str) -> list[Alert]:
    """The archived alerts raised on the hand, and those citing it as evidence that
    opened or joined a case naming the hand (alerts at warning and above)."""
    with engine.connect() as conn:
        raised = set(conn.execute(select(ArchiveAlert.alert_id)
                                  .where(ArchiveAlert.hand_id == hand_id)).scalars())
        cases = select(CaseHand.case_id).where(CaseHand.table_id == table_id,
                                               CaseHand.hand_id == hand_id)
        sources = conn.execute(select(CaseEvidence.source_id)
                               .where(CaseEvidence.case_id.in_(cases),
                                      CaseEvidence.kind == "alert")).scalars()
        cited = {s.removeprefix("alert:") for s in sources}
        rows = conn.execute(select(ArchiveAlert.alert_json)
                            .where(ArchiveAlert.alert_id.in_(raised | cited))
                            .order_by(ArchiveAlert.alert_id)).scalars()
        return [decode_alert(row) for row in rows]


def cases_of_hand(engine: Engine, table_id: str, hand_id: str) -> list[CaseSummary]:
    with engine.connect() as conn:
        ids = conn.execute(select(CaseHand.case_id).distinct()
                           .where(CaseHand.table_id == table_id, CaseHand.hand_id == hand_id)
                           .order_by(CaseHand.case_id)).scalars().all()
    details = [get_case(engine, case_id) for case_id in ids]
    return [d.summary for d in details if d is not None]


def hand_page(engine: Engine, hand_id: str) -> HandPage | None:
    """What the hand page shows above the report (None: the ledger has no such hand)."""
    stored = stored_hand(engine, hand_id)
    if stored is None:
        return None
    record = stored.record
    order = {"critical": 0, "warning": 1, "info": 2}
    found = [*stored.findings, *refused_re_posts(engine, hand_id)]
    findings = sorted(found, key=lambda f: (order.get(f.severity, 3), f.rule))
    alerts = [alert_line(a) for a in citing_alerts(engine, record.table_id, hand_id)]
    return HandPage(hand_id, record.table_id, record.game or "?", record.status,
                    stored.ledger_status, findings, alerts,
                    cases_of_hand(engine, record.table_id, hand_id),
                    archived=hand_table(engine, hand_id) is not None)


def refused_re_posts(engine: Engine, hand_id: str) -> list[Finding]:
    """The re-posts of the hand the ledger refused (other bytes: SURV-9
    ``LEDGER_CONFLICT``), each as the critical finding the daily report lists it as. The
    booked record's own findings do not hold them (its rows never change), so the page
    once said "No findings: the hand was settled as the rules say" of a hand the daily
    report listed for review (QA)."""
    with engine.connect() as conn:
        rows = conn.execute(select(Conflict.offered_sha256, Conflict.stored_sha256,
                                   Conflict.detail).where(Conflict.hand_id == hand_id)
                            .order_by(Conflict.offered_sha256)).all()
    return [ConflictLine(*row).finding(hand_id) for row in rows]


def dispute_report(engine: Engine, url: str, hand_id: str, profiles: Profiles) -> DisputeReport:
    """The hand's dispute report from the ledger and the archive, with the archived alerts
    that cite it (raises ``NoSuchHand`` when the ledger has no such hand: asked first, so
    the report's own refusal, which names the database's URL, is not what a user sees)."""
    if stored_hand(engine, hand_id) is None:
        raise no_such_hand(hand_id)
    lines = through_hand(engine, hand_id)
    lacking = hand_archive_lacks(engine, hand_id) if lines is None else None
    report = dispute_from_ledger(engine, url, hand_id, profiles, lines,
                                 log_name=ARCHIVE_NAME if lines is not None else None,
                                 missing=NOT_SUPPLIED if lacking is None
                                 else ledger_only_note(lacking))
    table_id = report.table_id
    report.attach_alerts(citing_alerts(engine, table_id, hand_id), ARCHIVE_NAME)
    return report


def dispute_html(engine: Engine, url: str, hand_id: str, profiles: Profiles,
                 generated_at: str) -> str:
    return render_html("dispute.html", r=dispute_report(engine, url, hand_id, profiles),
                       generated_at=generated_at)
