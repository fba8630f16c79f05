"""A case's row changes only with its audit entry (migration 0013, on SQLite and
PostgreSQL), and ``services.cases.recheck`` finds a row changed behind the dropped guard,
or a trail with an entry missing.

Expected counts come from the actions the tests take, not from the code under test."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import orjson
import pytest
from sqlalchemy import Engine, text
from sqlalchemy.exc import IntegrityError

from services.cases.actions import assign, close, escalate, note
from services.cases.intake import open_cases
from services.cases.queries import list_cases
from services.cases.recheck import Entry, case_breaks, recheck_cases
from services.ledger.db import open_ledger
from services.ledger.posting import post_many
from tests.unit.cases.test_cases import AT, hands, sweetheart
from tests.unit.cli.helpers import failing_verify, pitwatch
from tests.unit.ledger.dbread import rows

OPENED = {"state": "open", "severity": "critical", "assignee": None, "outcome": None,
          "reason": None}


def worked(engine: Engine) -> tuple[int, int, int, int]:
    """Three cases opened (two hands, one dealer), then seven actions on two of them:
    (cases, audit entries, the case worked on most (versions 1..5), the one untouched)."""
    post_many(engine, hands())
    open_cases(engine, hands(), [sweetheart("P1")], at=AT)
    first, second, third = (c.case_id for c in list_cases(engine))
    assign(engine, first, "ann", "lead")
    note(engine, first, "looked at the tape", "ann")
    escalate(engine, first, "ann", "needs surveillance")
    close(engine, first, "confirmed", "mispaid by 5", "bob")
    assign(engine, second, "bob", "lead")
    note(engine, second, "nothing on the tape", "bob")
    close(engine, second, "no_issue", "paid right", "bob")
    return 3, 3 + 7, first, third


def test_worked_cases_are_each_where_their_trail_leads(engine: Engine) -> None:
    cases, entries, _, _ = worked(engine)
    report = recheck_cases(engine)
    assert (report.cases, report.entries, report.breaks) == (cases, entries, [])


@pytest.mark.parametrize("statement", [
    "UPDATE cases SET state = 'closed', outcome = 'no_issue', reason = 'x' "
    "WHERE state = 'open'",
    "UPDATE cases SET assignee = 'mallory'",
    "UPDATE cases SET version = version + 1, assignee = 'mallory'",
    "UPDATE cases SET severity = 'info'",
    "UPDATE cases SET subject = 'hand:other'",
])
def test_a_case_row_changed_without_its_audit_entry_is_refused(engine: Engine,
                                                                statement: str) -> None:
    worked(engine)
    before = rows(engine, "SELECT * FROM cases ORDER BY case_id")
    with pytest.raises(IntegrityError, match="changes only with its audit entry"), \
            engine.begin() as conn:
        conn.execute(text(statement))
    assert rows(engine, "SELECT * FROM cases ORDER BY case_id") == before


def sqlite_worked(tmp_path: Path) -> tuple[str, Engine, int, int]:
    url = f"sqlite:///{tmp_path}/cases.sqlite"
    engine = open_ledger(url)
    _, _, most, untouched = worked(engine)
    return url, engine, most, untouched


@pytest.mark.parametrize(("statements", "says"), [
    (["UPDATE cases SET state = 'closed', outcome = 'no_issue', reason = 'x' "
      "WHERE case_id = :untouched"], "state 'closed' (the trail: 'open')"),
    (["UPDATE cases SET assignee = 'mallory' WHERE case_id = :untouched"],
     "assignee 'mallory' (the trail: None)"),
    (["UPDATE cases SET version = version + 1, updated_at = 'now' "
      "WHERE case_id = :untouched"], "version 2 (the trail: 1)"),
    (["DROP TRIGGER case_audit_no_delete",
      "DELETE FROM case_audit WHERE case_id = :most AND version = 3"],
     "not versions 1..4 in order"),
    (["DROP TRIGGER case_audit_no_update",
      "UPDATE case_audit SET state_after = 'open' WHERE case_id = :most AND version = 5"],
     "says state 'open' but changed it to 'closed'"),
])
def test_a_change_behind_the_dropped_guard_is_found(tmp_path: Path, statements: list[str],
                                                    says: str) -> None:
    _, engine, most, untouched = sqlite_worked(tmp_path)
    with engine.begin() as conn:
        conn.execute(text("DROP TRIGGER cases_change_with_audit"))
        for statement in statements:
            conn.execute(text(statement), {"most": most, "untouched": untouched})
    found = recheck_cases(engine).breaks
    assert len(found) == 1, found
    assert says in found[0].message, found[0].message
    engine.dispose()


def test_a_trail_read_again_entry_by_entry() -> None:
    opened = Entry(1, AT, "open", None, "open",
                   orjson.dumps({"changed": OPENED}).decode())
    closed = Entry(2, "later", "close", "open", "closed", orjson.dumps(
        {"changed": {"state": "closed", "outcome": "confirmed", "reason": "r"}}).decode())
    row = {**OPENED, "state": "closed", "outcome": "confirmed", "reason": "r"}
    assert case_breaks(7, row, 2, "later", [opened, closed]) == []
    assert "updated_at" in case_breaks(7, row, 2, "earlier", [opened, closed])[0].message
    assert "does not follow" in case_breaks(7, row, 2, "later", [
        opened, Entry(2, "later", "close", "escalated", "closed", closed.detail)])[0].message
    assert "does not say what it changed" in case_breaks(7, row, 2, "later", [
        opened, Entry(2, "later", "close", "open", "closed", "{}")])[0].message
    assert "version 1 (the trail: 0)" in case_breaks(7, OPENED, 1, AT, [])[0].message


def test_the_command_fails_on_a_case_closed_behind_the_guard(tmp_path: Path) -> None:
    url, engine, _, untouched = sqlite_worked(tmp_path)
    assert pitwatch("verify", "--db", url).code == 0
    with engine.begin() as conn:
        conn.execute(text("DROP TRIGGER cases_change_with_audit"))
        conn.execute(text("UPDATE cases SET state = 'closed', outcome = 'no_issue', "
                          "reason = 'x' WHERE case_id = :c"), {"c": untouched})
    engine.dispose()
    body = failing_verify(url)
    assert body["cases"] == 3
    assert [(b["kind"], b["what"].split(":")[0]) for b in body["breaks"]] == [
        ("case", f"case {untouched}")]


FORGED = ("INSERT INTO archive_alerts (alert_id, table_id, hand_id, rule, code, severity, "
          "seq, event_id, alert_json) VALUES (:id, 'T1', 'T1-000001', 'SURV-2', "
          "'SWEETHEARTING', :severity, NULL, NULL, '{}')")


def test_an_alert_put_in_by_hand_is_in_no_case(engine: Engine) -> None:
    """No guard is dropped (the alerts are append-only, not closed): an alert naming a
    dealer, inserted at warning, is listed; one at info opens no case anyway."""
    worked(engine)
    with engine.begin() as conn:
        conn.execute(text(FORGED), {"id": "SURV-2/forged", "severity": "warning"})
        conn.execute(text(FORGED), {"id": "SURV-2/harmless", "severity": "info"})
    found = recheck_cases(engine).breaks
    assert [(b.case_id, b.message.split(" (")[0]) for b in found] == [
        (None, "alert SURV-2/forged")]
    assert recheck_cases(engine, table_id="T2").breaks == []
    # With a span, the alerts of the span's booked hands: T1-000001 ended on day one.
    assert len(recheck_cases(engine, first_day=dt.date(2024, 5, 1),
                             last_day=dt.date(2024, 5, 1)).breaks) == 1
    assert recheck_cases(engine, first_day=dt.date(2024, 5, 2)).breaks == []


def test_evidence_filed_without_its_audit_entry_is_found(engine: Engine) -> None:
    """No guard is dropped (evidence is append-only, not closed): a finding filed under a
    case by hand, with no entry in its trail, is listed."""
    _, _, most, _ = worked(engine)
    with engine.begin() as conn:
        conn.execute(text(
            "INSERT INTO case_evidence (source_id, case_id, kind, table_id, hand_id, rule, "
            "code, severity, summary, day) VALUES ('finding:T1-000099', :c, 'finding', "
            "'T1', 'T1-000099', 'HCF-8', 'MISPAY', 'critical', 'planted', NULL)"),
            {"c": most})
    found = recheck_cases(engine).breaks
    assert [(b.case_id, "finding:T1-000099 with no audit entry" in b.message)
            for b in found] == [(most, True)]


def test_a_findings_case_removed_with_its_trail_is_found(tmp_path: Path) -> None:
    """QA: a hand's case deleted with its trail, evidence, hands and tags (the guards
    dropped) passed ``verify``; the same for an alert's case was found. The hand's
    finding (warning or above) is then no case's evidence: listed, exit 1. A ledger kept
    with ``--no-archive`` opens no cases, and is no break for it."""
    from tests.unit.archive.support import simulated_log

    log = tmp_path / "day.jsonl"
    log.write_bytes(b"\n".join(simulated_log(tables=2, hands=60).lines) + b"\n")
    url = f"sqlite:///{tmp_path}/day.sqlite"
    pitwatch("adjudicate", str(log), "--ledger", url)
    assert pitwatch("verify", "--db", url).code == 0
    engine = open_ledger(url)
    tables = ("case_audit", "case_evidence", "case_hands", "case_tags", "cases")
    with engine.begin() as conn:
        case_id, hand_id, table_id = conn.execute(text(
            "SELECT case_id, hand_id, table_id FROM case_evidence WHERE kind = 'finding' "
            "ORDER BY hand_id LIMIT 1")).one()
        for table in tables:
            conn.execute(text(f"DROP TRIGGER {table}_no_delete"))
            conn.execute(text(f"DELETE FROM {table} WHERE case_id = :c"), {"c": case_id})
    found = recheck_cases(engine).breaks
    other = "T002" if table_id == "T001" else "T001"
    assert recheck_cases(engine, table_id=other).breaks == []
    engine.dispose()
    assert [(b.case_id, b.message.split(" has a")[0]) for b in found] == [
        (None, f"hand {hand_id} (table {table_id})")]
    body = failing_verify(url)
    assert any(f"hand {hand_id} (table {table_id}) has a finding at warning or above that "
               "is no case's evidence" in b["what"] for b in body["breaks"])
    unarchived = f"sqlite:///{tmp_path}/booked.sqlite"
    pitwatch("adjudicate", str(log), "--no-archive", "--ledger", unarchived)
    ran = pitwatch("verify", "--db", unarchived)
    assert ran.code == 0 and "each where its trail leads" in ran.stderr, ran.stderr
