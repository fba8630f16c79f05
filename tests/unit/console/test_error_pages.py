"""What the console's refusals tell a logged-in user, and what they keep to the server.

QA (exploratory, 2026-12): the hand report of a hand the database does not hold was a
404 naming the database's URL (its password hidden) to any logged-in user; the server's
database address is none of a console user's business. And a case action while another
process held SQLite's write lock waited 30 s and showed the generic 500.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import Engine

from services.cases.queries import CaseFilter, get_case, list_cases
from tests.unit.console.support import console_client, csrf_of, log_in, one_case_database

URL = "postgresql+psycopg://pitwatch:S3cretPw@db.internal.example:5433/pitwatch"


@pytest.mark.parametrize("path", ["/reports/hand/NOPE-000001", "/reports/hand-pdf/NOPE-000001",
                                  "/hands/NOPE-000001"])
def test_a_hand_not_in_the_database_is_not_found_without_the_database_address(
        day_engine: Engine, path: str) -> None:
    client = console_client(day_engine, url=URL)
    assert log_in(client, "olga") == 303
    page = client.get(path)
    assert page.status_code == 404
    assert ("hand &#39;NOPE-000001&#39; is not in this database: check the hand id"
            in page.text), page.text[-600:]
    for part in ("db.internal.example", "5433", "postgresql", "S3cretPw", "***"):
        assert part not in page.text, part


def test_a_report_refusal_from_below_names_no_database() -> None:
    """A refusal of the report layer that names the URL (typed or as shown) reads "this
    database" on the console's page."""
    from services.console.pages import without_url

    shown = "postgresql+psycopg://pitwatch:***@db.internal.example:5433/pitwatch"
    assert without_url(f"hand 'X' is not in the ledger at {shown}", URL) == (
        "hand 'X' is not in the ledger at this database")
    assert without_url(f"no ledger at {URL}", URL) == "no ledger at this database"
    assert without_url("hand 'X' has events but never produced a record", URL) == (
        "hand 'X' has events but never produced a record")


def test_a_database_busy_with_another_writer_is_a_503_and_nothing_changed(
        tmp_path: Path) -> None:
    """QA: while another process held SQLite's write lock, a case action waited 30 s and
    then showed the generic 500. It is a 503 saying the database is busy and nothing
    changed. The lock is real: a second connection's ``BEGIN IMMEDIATE``; the console's
    own wait (``busy_wait_ms``) is short so the test does not sit out the shared 30 s."""
    path = tmp_path / "l.sqlite"
    engine = one_case_database(str(path))
    (case,) = list_cases(engine, CaseFilter())
    before = get_case(engine, case.case_id)
    assert before is not None
    version = str(before.summary.version)
    officer = console_client(engine, busy_wait_ms=50)
    assert log_in(officer, "cora") == 303
    csrf = csrf_of(officer)
    late = console_client(engine, busy_wait_ms=50)
    holder = sqlite3.connect(path, isolation_level=None)
    try:
        holder.execute("BEGIN IMMEDIATE")  # another writer, holding the write lock
        noted = officer.post(f"/cases/{case.case_id}/note",
                             data={"csrf": csrf, "version": version, "text": "seen"})
        assert noted.status_code == 503
        assert (f"the database is busy with another writer (another pitwatch process is "
                f"writing to it): nothing changed on case {case.case_id}; submit it again"
                in noted.text), noted.text[-600:]
        bulk = officer.post("/queue/assign", data={
            "csrf": csrf, "assignee": "dan", "case": [str(case.case_id)],
            f"version-{case.case_id}": version})
        assert bulk.status_code == 503 and "0 case(s) assigned to dan" in bulk.text
        assert f"case {case.case_id}: the database is busy with another writer" in bulk.text
        # any other write (here a login, which logs its try first) is a 503 too
        assert log_in(late, "dan") == 503
        assert officer.get(f"/cases/{case.case_id}").status_code == 200  # reads go on
        assert get_case(engine, case.case_id) == before  # nothing changed
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert officer.post(f"/cases/{case.case_id}/note", data={
        "csrf": csrf, "version": version, "text": "seen"}).status_code == 303
    after = get_case(engine, case.case_id)
    assert after is not None and after.audit[-1].detail["note"] == "seen"
    assert log_in(late, "dan") == 303
    engine.dispose()


def test_an_operational_error_other_than_a_busy_database_is_still_a_fault() -> None:
    """Only SQLite's "database is locked" is "busy, try again"; anything else the
    database says is the server's 500 (its log says why)."""
    from sqlalchemy.exc import OperationalError

    from services.console.web import database_busy

    assert database_busy(OperationalError("BEGIN IMMEDIATE", {},
                                          sqlite3.OperationalError("database is locked")))
    assert not database_busy(OperationalError("SELECT", {},
                                              sqlite3.OperationalError("no such table: x")))
    assert not database_busy(RuntimeError("database is locked"))
