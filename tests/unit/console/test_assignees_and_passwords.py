"""Who a case may be assigned to in the console, a bulk assignment that assigned nothing,
the passwords ``users add`` takes and the PDFs' file names (QA, 2026-12-06).

- A case could be assigned to an auditor, a role that may not work it: refused, 400.
- A bulk assignment every case of which had changed said "0 case(s) assigned" with 200
  and the command line's "(pitwatch cases show 20)": now 409, in the console's words.
- ``users add`` took "  spacey-password  ", which the login (it drops blanks around
  what is typed) could never match: refused, in one line.
- Names are one person's in another width too: "ＯＬＧＡ" is olga, "ＰＩＴＷＡＴＣＨ" is no
  user name.
"""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import Engine
from starlette.testclient import TestClient
from typer.testing import CliRunner

from services.cases.queries import CaseFilter, get_case, list_cases
from services.cli import app
from services.console.pages import pdf_name
from services.console.users import UserRefused, check_user
from tests.unit.console.support import case_version, console_client, csrf_of, log_in

AUDITOR_REFUSED = ("aud is an auditor (read-only), who cannot work cases: assign cases to "
                   "a surveillance operator, a dispute analyst or a compliance officer")


def _open_cases(engine: Engine) -> list[int]:
    return [c.case_id for c in list_cases(engine, CaseFilter(state="open"))]


def _client(engine: Engine, name: str) -> tuple[TestClient, str]:
    client = console_client(engine)
    assert log_in(client, name) == 303
    return client, csrf_of(client)


def _trail(engine: Engine, case_id: int) -> list[Any]:
    case = get_case(engine, case_id)
    assert case is not None
    return list(case.audit)


def _problem(page: str) -> str:
    start = page.index('<p class="problem" role="alert">') + len(
        '<p class="problem" role="alert">')
    return page[start:page.index("</p>", start)]


def test_no_case_is_assigned_to_an_auditor(day_engine: Engine) -> None:
    first, second = _open_cases(day_engine)[:2]
    officer, csrf = _client(day_engine, "cora")
    before = {c: _trail(day_engine, c) for c in (first, second)}
    page = officer.post(f"/cases/{first}/assign", data={
        "csrf": csrf, "assignee": "aud", "version": case_version(day_engine, first)})
    assert page.status_code == 400 and _problem(page.text) == AUDITOR_REFUSED
    page = officer.post("/queue/assign", data={
        "csrf": csrf, "assignee": "AUD", "case": [str(first), str(second)],
        **{f"version-{c}": case_version(day_engine, c) for c in (first, second)}})
    assert page.status_code == 400 and _problem(page.text) == AUDITOR_REFUSED
    assert {c: _trail(day_engine, c) for c in (first, second)} == before


def test_a_reviewer_typed_in_full_width_is_that_user(day_engine: Engine) -> None:
    case_id = _open_cases(day_engine)[2]
    officer, csrf = _client(day_engine, "cora")
    page = officer.post(f"/cases/{case_id}/assign", data={
        "csrf": csrf, "assignee": "\uff2f\uff2c\uff27\uff21",  # ＯＬＧＡ
        "version": case_version(day_engine, case_id)})
    assert page.status_code == 303, page.text[:300]
    case = get_case(day_engine, case_id)
    assert case is not None and case.summary.assignee == "olga"


@pytest.mark.parametrize("typed", ["", "   "])
def test_an_officer_who_clears_assign_to_is_asked_whom(day_engine: Engine, typed: str
                                                       ) -> None:
    """QA: the officer's "Assign to" field cleared (or blanks) assigned the case to the
    officer. Refused, 400, nothing written; a reviewer's form, which has no such field
    ("Assign to me"), still takes the case."""
    case_id = _open_cases(day_engine)[0]
    before = _trail(day_engine, case_id)
    officer, csrf = _client(day_engine, "cora")
    page = officer.post(f"/cases/{case_id}/assign", data={
        "csrf": csrf, "assignee": typed, "version": case_version(day_engine, case_id)})
    assert page.status_code == 400
    assert _problem(page.text) == ("name the reviewer to assign the case to (your own name "
                                   "to take it yourself)")
    assert _trail(day_engine, case_id) == before
    analyst, csrf = _client(day_engine, "olga")
    page = analyst.post(f"/cases/{case_id}/assign", data={
        "csrf": csrf, "version": case_version(day_engine, case_id)})
    assert page.status_code == 303, page.text[:300]
    case = get_case(day_engine, case_id)
    assert case is not None and case.summary.assignee == "olga"


def test_a_bulk_assignment_of_cases_that_all_changed_is_a_conflict(day_engine: Engine
                                                                   ) -> None:
    first, second, third = _open_cases(day_engine)[3:6]
    shown = {c: case_version(day_engine, c) for c in (first, second, third)}
    analyst, analyst_csrf = _client(day_engine, "dan")
    for case_id in (first, second):  # taken after the officer's queue was shown
        assert analyst.post(f"/cases/{case_id}/assign", data={
            "csrf": analyst_csrf, "version": shown[case_id]}).status_code == 303
    officer, csrf = _client(day_engine, "cora")
    page = officer.post("/queue/assign", data={
        "csrf": csrf, "assignee": "olga", "case": [str(first), str(second)],
        **{f"version-{c}": shown[c] for c in (first, second)}})
    assert page.status_code == 409
    assert _problem(page.text) == (
        f"cases {first} and {second} are not at the versions the queue showed (someone "
        "acted on them since): nothing was assigned; open the queue again and assign them "
        "from there")
    page = officer.post("/queue/assign", data={
        "csrf": csrf, "assignee": "olga", "case": [str(first)],
        f"version-{first}": shown[first]})
    assert page.status_code == 409
    assert _problem(page.text) == (
        f"case {first} is not at the version the queue showed (someone acted on it since): "
        "nothing was assigned; open the queue again and assign it from there")
    for case_id in (first, second):
        case = get_case(day_engine, case_id)
        assert case is not None and case.summary.assignee == "dan"
    # one assigned, one changed: 200, the changed one named without the command line's hint
    page = officer.post("/queue/assign", data={
        "csrf": csrf, "assignee": "olga", "case": [str(first), str(third)],
        **{f"version-{c}": shown[c] for c in (first, third)}})
    assert page.status_code == 200 and "1 case(s) assigned to olga" in page.text
    assert f"case {first} is at version" in page.text and "pitwatch cases" not in page.text


def _users_add(name: str, password: str) -> tuple[int, list[str]]:
    result = CliRunner().invoke(app, ["users", "add", name, "--role", "auditor", "--db",
                                      "sqlite:///:memory:", "--password-stdin"],
                                input=password + "\n", prog_name="pitwatch",
                                env={"COLUMNS": "200"})
    return result.exit_code, [line for line in result.stderr.splitlines() if line.strip()]


@pytest.mark.parametrize("password", ["  spacey-password  ", "spacey-password ",
                                      " spacey-password", "x" + " " * 9, "x" + "\u00a0" * 9,
                                      " " * 12])
def test_a_password_with_blanks_around_it_is_refused(password: str) -> None:
    code, lines = _users_add("spacey", password)
    assert code == 2 and len(lines) == 1, lines
    assert lines[0] == ("error: Invalid value for NAME or password: a password may not start "
                        "or end with a space (the login drops them): give it without them (see: "
                        "pitwatch users add --help)")


def test_blanks_inside_a_password_are_kept() -> None:
    assert check_user("sp", "a b c d e f", "auditor") == "sp"
    assert check_user("sp", "x        y", "auditor") == "sp"


def test_pitwatch_in_full_width_is_no_user_name() -> None:
    with pytest.raises(UserRefused, match="'pitwatch' is the name of what pitwatch does"):
        check_user("\uff30\uff29\uff34\uff37\uff21\uff34\uff23\uff28", "long enough pw",
                   "auditor")


def test_a_pdf_is_named_one_to_one_with_its_hand_or_table() -> None:
    """Both PDFs were ``hand-A_1_-000004.pdf``; the digests are ``printf %s ID |
    sha256sum``'s first 16 digits."""
    assert pdf_name("hand-", "T001-000004") == "hand-T001-000004.pdf"
    assert pdf_name("hand-", "A_1_-000004") == "hand-A_1_-000004.pdf"
    assert pdf_name("hand-", "A<1>-000004") == "hand-A_1_-000004~f00324dea1748cf4.pdf"
    assert pdf_name("daily-2026-01-05-", "A<1>") == "daily-2026-01-05-A_1_~03d440aec12007c4.pdf"
