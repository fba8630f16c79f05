"""Every page of the console on both databases (SQLite and PostgreSQL, the ``engine``
fixture): each read page answers, each action lands in the audit trail, and the login
log refuses UPDATE and DELETE."""

from __future__ import annotations

import pytest
from sqlalchemy import Engine, text
from sqlalchemy.exc import DBAPIError

from services.cases.queries import CaseFilter, get_case, list_cases
from tests.unit.archive.support import keep, simulated_log
from tests.unit.console.support import add_users, console_client, csrf_of, log_in


def test_every_page_on_both_databases(engine: Engine) -> None:
    keep(engine, simulated_log(tables=2, hands=30).lines)
    add_users(engine)
    client = console_client(engine)
    assert log_in(client, "cora") == 303
    csrf = csrf_of(client)
    case = next(c for c in list_cases(engine, CaseFilter()) if c.subject_kind == "hand")
    hand_id = case.subject.removeprefix("hand:")
    for url in ("/floor", "/floor/live", "/queue", f"/cases/{case.case_id}",
                f"/hands/{hand_id}", f"/reports/hand/{hand_id}", "/search", "/daily",
                "/reports/daily", "/people"):
        assert client.get(url).status_code == 200, url
    for url, form in (("/queue", {"state": "any", "player": "P0-1", "sort": "updated"}),
                      ("/search", {"player": "P0-1", "date_from": "2026-01-01"}),
                      ("/people", {"kind": "dealer", "person": "D0-1"})):
        assert client.post(url, data={"csrf": csrf, **form}).status_code == 200, url
    version = case.version
    assert client.post(f"/cases/{case.case_id}/assign",
                       data={"csrf": csrf, "version": str(version)}).status_code == 303
    after = get_case(engine, case.case_id)
    assert after is not None and after.audit[-1].actor == "cora"
    assert after.summary.version == version + 1


@pytest.mark.parametrize("statement", ["UPDATE console_logins SET ok = true",
                                       "DELETE FROM console_logins"])
def test_the_login_log_is_append_only(engine: Engine, statement: str) -> None:
    add_users(engine)
    client = console_client(engine)
    assert log_in(client, "cora", "wrong password") == 401
    with pytest.raises(DBAPIError, match="append-only"), engine.begin() as conn:
        conn.execute(text(statement))
