"""Operators and analysts take unassigned cases only (QA problem 2).

QA: an operator's "Assign to me" (a POST with the CSRF token and the version only) took
an escalated case from the compliance officer who held it: 303, its assignee changed
from the officer to the operator. The role table keeps assigning a case to someone else
for officers, and taking a case someone holds is assigning it away from them: refused,
403, nothing written; the queue and the case page offer no "Assign to me" on it.
"""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import Engine
from starlette.testclient import TestClient

from services.cases.actions import act
from services.cases.queries import CaseFilter, get_case, list_cases
from tests.unit.console.support import (
    case_version,
    console_client,
    csrf_of,
    log_in,
    one_case_database,
)


def _client(engine: Engine, name: str) -> tuple[TestClient, str]:
    client = console_client(engine)
    assert log_in(client, name) == 303
    return client, csrf_of(client)


def _assignee(engine: Engine, case_id: int) -> str | None:
    case = get_case(engine, case_id)
    assert case is not None
    return case.summary.assignee


def _take(engine: Engine, name: str, case_id: int) -> tuple[int, str]:
    client, csrf = _client(engine, name)
    page = client.post(f"/cases/{case_id}/assign", data={
        "csrf": csrf, "version": case_version(engine, case_id)})
    return page.status_code, page.text


def test_a_case_someone_holds_is_not_taken_by_an_operator_or_analyst(tmp_path: Path) -> None:
    engine = one_case_database(str(tmp_path / "l.sqlite"))
    case_id = list_cases(engine, CaseFilter())[0].case_id
    act(engine, case_id, "assign", "cora", assignee="cora")
    act(engine, case_id, "escalate", "cora", text="needs the officer")
    for name in ("olga", "dan"):
        version = case_version(engine, case_id)
        status, text = _take(engine, name, case_id)
        assert status == 403, text[:300]
        assert ("case 1 is assigned to cora: only a compliance officer reassigns a case "
                "someone holds; ask cora or a compliance officer") in text
        assert _assignee(engine, case_id) == "cora"
        assert case_version(engine, case_id) == version  # nothing written
        client, _ = _client(engine, name)  # and nothing offers it
        assert f'action="/cases/{case_id}/assign"' not in client.get("/queue").text
        assert f'action="/cases/{case_id}/assign"' not in client.get(f"/cases/{case_id}").text


def test_an_unassigned_case_is_still_taken_and_an_officer_still_reassigns(
        tmp_path: Path) -> None:
    engine = one_case_database(str(tmp_path / "l.sqlite"))
    case_id = list_cases(engine, CaseFilter())[0].case_id
    client, _ = _client(engine, "olga")
    assert f'action="/cases/{case_id}/assign"' in client.get("/queue").text
    assert _take(engine, "olga", case_id)[0] == 303
    assert _assignee(engine, case_id) == "olga"
    assert _take(engine, "olga", case_id)[0] == 303  # her own: nothing to refuse
    assert _take(engine, "cora", case_id)[0] == 303  # an officer takes it from her
    assert _assignee(engine, case_id) == "cora"
    officer, csrf = _client(engine, "cora")
    page = officer.post(f"/cases/{case_id}/assign", data={
        "csrf": csrf, "assignee": "dan", "version": case_version(engine, case_id)})
    assert page.status_code == 303
    assert _assignee(engine, case_id) == "dan"
