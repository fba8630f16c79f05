"""What the case forms must carry and what the console refuses, found by driving a live
console with hostile requests (2026-12-06): each was once applied, cut short, read as
another case, or answered with a server error."""

from __future__ import annotations

import socket
from typing import Any

import pytest
from sqlalchemy import Engine
from starlette.testclient import TestClient
from typer.testing import CliRunner

from services.cases.queries import CaseFilter, get_case, list_cases
from services.ledger.db import shown_url
from tests.unit.console.support import case_version, console_client, csrf_of, log_in

HUGE = "9" * 5000  # more digits than int() reads (4,300): a ValueError, once an HTTP 500


def _open_case(engine: Engine, skip: int = 0) -> int:
    return [c.case_id for c in list_cases(engine, CaseFilter(state="open"))][skip]


def _officer(engine: Engine) -> tuple[TestClient, str]:
    client = console_client(engine)
    assert log_in(client, "cora") == 303
    return client, csrf_of(client)


def _trail(engine: Engine, case_id: int) -> list[Any]:
    case = get_case(engine, case_id)
    assert case is not None
    return list(case.audit)


def test_an_action_without_the_version_its_page_showed_is_refused(day_engine: Engine) -> None:
    """Without a version the action was applied to whatever the case had become."""
    case_id = _open_case(day_engine)
    client, csrf = _officer(day_engine)
    before = _trail(day_engine, case_id)
    for version in (None, "", "  "):
        data = {"csrf": csrf, "text": "seen"} | ({} if version is None else {"version": version})
        response = client.post(f"/cases/{case_id}/note", data=data)
        assert response.status_code == 400, version
        assert "did not say which version of the case you saw" in response.text
    response = client.post(f"/cases/{case_id}/note",
                           data={"csrf": csrf, "text": "seen", "version": HUGE})
    assert response.status_code == 400 and "is not a number" in response.text
    assert _trail(day_engine, case_id) == before


def test_bulk_assign_takes_no_case_changed_since_the_queue_was_shown(day_engine: Engine) -> None:
    """An analyst takes a case; an officer's bulk form, showing the version before, no
    longer hands it to someone else (it did, silently: a lost update)."""
    taken, other = _open_case(day_engine), _open_case(day_engine, 1)
    shown = {case_id: case_version(day_engine, case_id) for case_id in (taken, other)}
    analyst = console_client(day_engine)
    assert log_in(analyst, "dan") == 303
    assert analyst.post(f"/cases/{taken}/assign", data={
        "csrf": csrf_of(analyst), "version": shown[taken]}).status_code == 303
    officer, csrf = _officer(day_engine)
    response = officer.post("/queue/assign", data={
        "csrf": csrf, "assignee": "olga", "case": [str(taken), str(other)],
        **{f"version-{case_id}": v for case_id, v in shown.items()}})
    assert response.status_code == 200
    assert "1 case(s) assigned to olga" in response.text
    assert f"case {taken} is at version" in response.text  # named, not taken
    taken_case, other_case = get_case(day_engine, taken), get_case(day_engine, other)
    assert taken_case is not None and taken_case.summary.assignee == "dan"
    assert other_case is not None and other_case.summary.assignee == "olga"


def test_bulk_assign_needs_each_cases_version_and_takes_each_case_once(
        day_engine: Engine) -> None:
    first, second = _open_case(day_engine, 2), _open_case(day_engine, 3)
    client, csrf = _officer(day_engine)
    before = _trail(day_engine, second)
    response = client.post("/queue/assign", data={
        "csrf": csrf, "assignee": "olga", "case": [str(first)] * 3 + [str(second)],
        f"version-{first}": case_version(day_engine, first)})
    assert response.status_code == 200
    assert "1 case(s) assigned to olga" in response.text
    assert f"case {second}: the form did not say which version" in response.text
    assert [a.action for a in _trail(day_engine, first)].count("assign") == 1
    assert _trail(day_engine, second) == before
    response = client.post("/queue/assign", data={"csrf": csrf, "assignee": "olga",
                                                  "case": [HUGE]})
    assert response.status_code == 400 and "no case &#39;99999" in response.text


@pytest.mark.parametrize("named", ["0", "00", "2147483647", "1000000001", "99999999999", HUGE,
                                   "abc", "-3"])
def test_a_path_that_names_no_case_is_not_found(day_engine: Engine, named: str) -> None:
    """``/cases/0`` showed case 1 and its forms acted on case 1; an id above a billion was
    read as a billion; thousands of digits were an HTTP 500."""
    client, csrf = _officer(day_engine)
    before = _trail(day_engine, 1)
    page = client.get(f"/cases/{named}")
    assert page.status_code == 404 and f"there is no case {named[:40]}" in page.text
    for action in ("note", "assign", "escalate"):
        response = client.post(f"/cases/{named}/{action}", data={
            "csrf": csrf, "text": "x", "version": case_version(day_engine, 1)})
        assert response.status_code == 404, action
    assert _trail(day_engine, 1) == before


def test_a_case_rule_refusal_is_a_bad_request_and_a_change_since_a_conflict(
        day_engine: Engine) -> None:
    case_id = _open_case(day_engine, 4)
    client, csrf = _officer(day_engine)
    version = case_version(day_engine, case_id)
    blank = client.post(f"/cases/{case_id}/note",
                        data={"csrf": csrf, "text": "   ", "version": version})
    assert blank.status_code == 400 and "a note needs its text" in blank.text
    assert client.post(f"/cases/{case_id}/note", data={
        "csrf": csrf, "text": "first", "version": version}).status_code == 303
    stale = client.post(f"/cases/{case_id}/note",
                        data={"csrf": csrf, "text": "second", "version": version})
    assert stale.status_code == 409


def test_a_text_longer_than_it_may_be_is_refused_not_cut(day_engine: Engine) -> None:
    """A 100,000-character note was stored as its first 2,000 characters, without a word."""
    case_id = _open_case(day_engine, 5)
    client, csrf = _officer(day_engine)
    before = _trail(day_engine, case_id)
    version = case_version(day_engine, case_id)
    for field, value in (("text", "n" * 2001), ("assignee", "a" * 101)):
        response = client.post(f"/cases/{case_id}/assign" if field == "assignee"
                               else f"/cases/{case_id}/note",
                               data={"csrf": csrf, field: value, "version": version})
        assert response.status_code == 400, field
        assert "more than the" in response.text and "shorten it" in response.text
    assert _trail(day_engine, case_id) == before
    whole = "w" * 2000
    assert client.post(f"/cases/{case_id}/note", data={
        "csrf": csrf, "text": whole, "version": version}).status_code == 303
    assert _trail(day_engine, case_id)[-1].detail["note"] == whole


def test_the_login_brings_back_the_page_asked_for_with_its_query(day_engine: Engine) -> None:
    client = console_client(day_engine)
    response = client.get("/queue?assignee=me&state=any")
    assert response.status_code == 303
    login_page = client.get(response.headers["location"])
    assert 'value="/queue?assignee=me&amp;state=any"' in login_page.text


def test_a_refusal_names_the_role_in_good_english(day_engine: Engine) -> None:
    client = console_client(day_engine)
    assert log_in(client, "aud") == 303
    page = client.post("/queue/assign", data={"csrf": csrf_of(client), "assignee": "x",
                                              "case": "1"})
    assert page.status_code == 403 and "an auditor (read-only) may not do this" in page.text


def test_the_database_password_is_never_shown(day_engine: Engine) -> None:
    """The console named its database URL in every report and in the hand report's 'not
    found': a PostgreSQL password with it, to every role."""
    url = "postgresql://pitwatch:S3cretPw@db.internal/pitwatch"
    client = console_client(day_engine, url=url)
    assert log_in(client, "olga") == 303
    hand_id = next(c.subject.removeprefix("hand:") for c in list_cases(day_engine, CaseFilter())
                   if c.subject_kind == "hand")
    pages = [client.get(f"/reports/hand/{hand_id}"), client.get("/reports/hand/NOPE")]
    officer = console_client(day_engine, url=url)
    assert log_in(officer, "cora") == 303
    pages.append(officer.get("/reports/daily"))
    for page in pages:
        assert "S3cretPw" not in page.text, page.url
    assert "pitwatch:***@db.internal" in pages[0].text and pages[1].status_code == 404
    assert shown_url(url) == "postgresql://pitwatch:***@db.internal/pitwatch"
    assert shown_url("not a url") == "not a url"


def test_the_console_trusts_no_forwarded_address_unless_told(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    """Uvicorn believes X-Forwarded-For from 127.0.0.1 by default, so a local client chose
    the address the login limit counted. ``serve console`` turns that off unless given
    the proxy's address."""
    import uvicorn

    from services.cli import app
    from services.ledger.db import open_ledger

    url = f"sqlite:///{tmp_path}/ledger.sqlite"
    open_ledger(url).dispose()
    seen: list[uvicorn.Config] = []

    def served(server: uvicorn.Server, sockets: list[Any]) -> None:
        seen.append(server.config)
        for listening in sockets:  # bound by serve console itself, before it says so
            listening.close()

    monkeypatch.setattr(uvicorn.Server, "run", served)
    runner = CliRunner()
    for extra in ([], ["--trusted-proxy", "10.0.0.7", "--trusted-proxy", "10.0.0.8"]):
        with socket.socket() as probe:  # a port free now, for the console to bind
            probe.bind(("127.0.0.1", 0))
            port = str(probe.getsockname()[1])
        result = runner.invoke(app, ["serve", "console", "--db", url, "--port", port, *extra])
        assert result.exit_code == 0, result.output
    assert seen[0].proxy_headers is False  # no X-Forwarded-For believed, from anyone
    assert (seen[1].proxy_headers, seen[1].forwarded_allow_ips) == (
        True, ["10.0.0.7", "10.0.0.8"])


@pytest.mark.parametrize("path", ["/floor?day=2026-02-30", "/floor/live?day=soon",
                                  "/daily?day=2026-13-01", "/reports/daily?day=x"])
def test_a_day_that_is_no_date_is_refused_not_swapped_for_the_latest(
        day_engine: Engine, path: str) -> None:
    client, _ = _officer(day_engine)
    page = client.get(path)
    assert page.status_code == 400 and "is not a date: write it as YYYY-MM-DD" in page.text


def test_an_unknown_queue_state_is_refused_not_read_as_any(day_engine: Engine) -> None:
    client, csrf = _officer(day_engine)
    for page in (client.get("/queue?state=bogus"),
                 client.post("/queue", data={"csrf": csrf, "state": "bogus"})):
        assert page.status_code == 400 and "no case state &#39;bogus&#39;" in page.text
    assert client.get("/queue?state=any").status_code == 200
    assert client.get("/queue?state=closed").status_code == 200


def test_a_control_character_in_a_search_matches_nothing_and_says_so(
        day_engine: Engine) -> None:
    """A hand id of one NUL matched every hand (SQLite ends a LIKE pattern there)."""
    client, csrf = _officer(day_engine)
    page = client.post("/search", data={"csrf": csrf, "hand_id": "\x00"})
    assert page.status_code == 400 and "a control character is in no id" in page.text


def test_cases_are_assigned_only_to_users_of_the_console(day_engine: Engine) -> None:
    """QA: an officer assigned a case to a name no console user has (a typo), and it was
    in nobody's queue. A name that is no user, or a disabled user's, is refused (400,
    nothing written), one case or many; a user's name in other capitals is the user."""
    from services.console.users import add_user, disable_user
    from tests.unit.console.support import PASSWORD

    case_id, other = _open_case(day_engine, 6), _open_case(day_engine, 7)
    client, csrf = _officer(day_engine)
    before = {c: _trail(day_engine, c) for c in (case_id, other)}
    add_user(day_engine, "gone", PASSWORD, "dispute_analyst")
    disable_user(day_engine, "gone")
    for name in ("olgaa", "gone", "nobody at all"):
        single = client.post(f"/cases/{case_id}/assign", data={
            "csrf": csrf, "assignee": name, "version": case_version(day_engine, case_id)})
        assert single.status_code == 400, name
        assert f"no console user is named &#39;{name}&#39;" in single.text
        bulk = client.post("/queue/assign", data={
            "csrf": csrf, "assignee": name, "case": [str(other)],
            f"version-{other}": case_version(day_engine, other)})
        assert bulk.status_code == 400 and "assign cases to a user of the console" in bulk.text
    assert {c: _trail(day_engine, c) for c in (case_id, other)} == before
    assert client.post(f"/cases/{case_id}/assign", data={
        "csrf": csrf, "assignee": " Olga ",
        "version": case_version(day_engine, case_id)}).status_code == 303
    assert client.post("/queue/assign", data={
        "csrf": csrf, "assignee": "OLGA", "case": [str(other)],
        f"version-{other}": case_version(day_engine, other)}).status_code == 200
    for c in (case_id, other):
        case = get_case(day_engine, c)
        assert case is not None and case.summary.assignee == "olga"


def test_a_user_assigning_a_case_to_their_own_name_in_capitals_takes_it(
        day_engine: Engine) -> None:
    """QA: an analyst typing their own name in other capitals ("Dan") was told that only
    an officer assigns cases to someone else (403); names match in any capitals. Another
    user's name, in any capitals, is still refused to them."""
    case_id = _open_case(day_engine, -1)  # the other tests take the first few
    analyst = console_client(day_engine)
    assert log_in(analyst, "dan") == 303
    csrf = csrf_of(analyst)
    before = _trail(day_engine, case_id)
    for other in ("cora", "Cora"):
        refused = analyst.post(f"/cases/{case_id}/assign", data={
            "csrf": csrf, "assignee": other, "version": case_version(day_engine, case_id)})
        assert refused.status_code == 403 and "only a compliance officer" in refused.text
    assert _trail(day_engine, case_id) == before
    for typed in ("Dan", " DAN "):
        taken = analyst.post(f"/cases/{case_id}/assign", data={
            "csrf": csrf, "assignee": typed, "version": case_version(day_engine, case_id)})
        assert taken.status_code == 303, (typed, taken.text[:300])
        case = get_case(day_engine, case_id)
        assert case is not None and case.summary.assignee == "dan"
        assert case.audit[-1].actor == "dan"
    # one entry: the second time the case was dan's already (an assign that changes
    # nothing is not recorded), and was accepted, not refused as someone else's
    assert len(_trail(day_engine, case_id)) == len(before) + 1


def test_a_note_sent_in_another_encoding_than_utf8_is_refused(day_engine: Engine) -> None:
    """``text=caf%E9`` (Latin-1's é, not UTF-8) was stored as "caf\\ufffd" on the
    append-only trail (QA): refused (400), nothing recorded; the same note in UTF-8 is
    kept as typed."""
    case_id = _open_case(day_engine)
    client, csrf = _officer(day_engine)
    version = case_version(day_engine, case_id)
    before = _trail(day_engine, case_id)
    body = f"csrf={csrf}&version={version}&text=caf%E9+ok"
    sent = client.post(f"/cases/{case_id}/note", content=body.encode(),
                       headers={"content-type": "application/x-www-form-urlencoded"})
    assert sent.status_code == 400
    assert "holds bytes that are not UTF-8" in sent.text
    assert _trail(day_engine, case_id) == before
    utf8 = client.post(f"/cases/{case_id}/note",
                       data={"csrf": csrf, "text": "café ok", "version": version})
    assert utf8.status_code == 303
    assert "café ok" in str(_trail(day_engine, case_id)[-1])


def test_a_note_sent_after_the_session_ended_says_so_and_leads_back_to_its_case(
        day_engine: Engine) -> None:
    """QA: a note posted after the session had ended went to the login, then the floor,
    and nothing said it was lost. Now the login says the form was not acted on and leads
    back to the case page the form was on; nothing is written meanwhile."""
    import datetime as dt

    from tests.unit.console.support import Clock

    case_id = _open_case(day_engine)
    clock = Clock()
    client = console_client(day_engine, clock=clock)
    assert log_in(client, "cora") == 303
    csrf = csrf_of(client)
    before = _trail(day_engine, case_id)
    clock.now += dt.timedelta(hours=9)  # past a shift's session
    sent = client.post(f"/cases/{case_id}/note",
                       data={"csrf": csrf, "note": "checked the tape",
                             "version": case_version(day_engine, case_id)},
                       headers={"referer": f"https://testserver/cases/{case_id}"})
    assert sent.status_code == 303
    assert sent.headers["location"] == f"/login?next=/cases/{case_id}&unsent=1"
    login = client.get(sent.headers["location"])
    assert "what you sent was not done: log in and send it again" in login.text
    assert f'value="/cases/{case_id}"' in login.text
    assert _trail(day_engine, case_id) == before
    # A form from another site's page is not followed there.
    elsewhere = client.post(f"/cases/{case_id}/note", data={"csrf": csrf, "note": "x"},
                            headers={"referer": "https://evil.example/cases/1"})
    assert elsewhere.headers["location"] == "/login?next=/&unsent=1"
