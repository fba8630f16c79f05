"""What the console's pages show and do: the floor's money by hand, actions on cases as
audit entries by the logged-in user, the queue, the hand viewer and its PDF, the daily
report, and players and dealers with and without surveillance profiles."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

from sqlalchemy import Engine, text

from services.cases.queries import CaseFilter, get_case, list_cases
from services.ledger.db import open_ledger
from services.ledger.posting import post_hand
from tests.unit.console.support import (
    Clock,
    add_users,
    case_version,
    console_client,
    csrf_of,
    log_in,
)
from tests.unit.ledger.builders import (
    hcf_dp_collects,
    hcf_seat1_wins,
    move,
    record,
    russian_house_hand,
)


def _rows(html: str) -> list[list[str]]:
    return [[re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row)]
            for row in re.findall(r"<tr>(.*?)</tr>", html, flags=re.S)]


def test_the_floor_by_table_and_game_worked_out_by_hand(tmp_path: Path) -> None:
    """builders.py: T1 has two HCF hands, wagers 5+5 (alice) and 5 (carol): drop 15, rake
    1 + 2 = 3, no house bank, win 3, hold 3/15 = 20.00%. R1 (one hand, house-banked): drop
    10 + 10 = 20, the bank takes 10 and pays 20 (-10), win -10, hold -50.00%."""
    engine = open_ledger(f"sqlite:///{tmp_path}/l.sqlite")
    for hand in (hcf_seat1_wins(), hcf_dp_collects(), russian_house_hand()):
        post_hand(engine, hand)
    add_users(engine)
    client = console_client(engine)
    assert log_in(client, "olga") == 303
    page = client.get("/floor").text
    rows = _rows(page)
    assert ["T1", "hcf", "2", "0", "15", "3", "0", "+3", "20.00"] in rows
    # A negative hold with the real minus sign (U+2212), as the daily report prints it
    # and as the chips beside it are (QA: "-50.00" beside "−10").
    assert ["R1", "hcf", "1", "0", "20", "0", "−10", "−10", "−50.00"] in rows
    assert ["all tables", "3", "0", "35", "3", "−10", "−7", "−20.00"] in rows
    assert "Floor · 2024-05-01" in page  # no hands today: the latest day with hands


def test_the_floors_negative_hold_is_written_as_the_daily_reports(tmp_path: Path) -> None:
    """R1's one hand (builders.py): win −10 on a drop of 20, hold −50.00%, with U+2212 on
    the floor and in the daily report of the same day alike, and no hyphen-minus."""
    engine = open_ledger(f"sqlite:///{tmp_path}/l.sqlite")
    post_hand(engine, russian_house_hand())
    add_users(engine)
    client = console_client(engine)
    assert log_in(client, "cora") == 303  # a compliance officer: the floor and the report
    floor = _rows(client.get("/floor/live").text)
    report = _rows(client.get("/reports/daily?day=2024-05-01").text)
    assert ["R1", "hcf", "1", "0", "20", "0", "−10", "−10", "\u221250.00"] in floor
    assert any(row[0] == "R1" and "\u221250.00" in row for row in report), report
    assert not any(cell.startswith("-") for row in floor for cell in row)
    assert client.get("/floor/live").text.count("<h2>") == 3  # the refreshed part alone


def test_a_dead_hands_returned_wagers_are_not_the_floors_drop(tmp_path: Path) -> None:
    """A dead hand at T1 (GEN-6: seat 1's wager of 40 placed and returned): none of it was
    at risk, so the floor's drop stays the two live hands' 15 (5 + 5 + 5) and hold 3/15 =
    20.00%, the figures the daily report shows for the day (before: drop 55, 5.45%)."""
    engine = open_ledger(f"sqlite:///{tmp_path}/l.sqlite")
    dead = record("T1-000009", [move(91, "stack:1", "layout:1", 40, "wager"),
                                move(92, "layout:1", "stack:1", 40, "layout_return")],
                  status="dead")
    for hand in (hcf_seat1_wins(), hcf_dp_collects(), dead):
        post_hand(engine, hand)
    add_users(engine)
    client = console_client(engine)
    assert log_in(client, "olga") == 303
    assert ["T1", "hcf", "3", "0", "15", "3", "0", "+3", "20.00"] in _rows(
        client.get("/floor").text)


def test_the_floor_says_it_shows_the_latest_day_only_when_it_chose_that_day(
        tmp_path: Path) -> None:
    """QA: ``/floor?day=2026-01-06`` (any day chosen, even 9999-12-31) said "No hands are
    booked today: this is the latest day with hands". That is said only when no day was
    chosen and today has no hands, so the floor shows the latest day that has."""
    engine = open_ledger(f"sqlite:///{tmp_path}/l.sqlite")
    for hand in (hcf_seat1_wins(), hcf_dp_collects()):  # booked on 2024-05-01
        post_hand(engine, hand)
    add_users(engine)
    fallback = ("No hands are booked today (2026-01-10): this is the latest day with "
                "hands.")
    client = console_client(engine, Clock(dt.datetime(2026, 1, 10, 12, tzinfo=dt.UTC)))
    assert log_in(client, "olga") == 303
    page = client.get("/floor").text
    assert "Floor · 2024-05-01" in page and fallback in page
    for day, rows in (("2024-05-01", True), ("2026-01-06", False), ("9999-12-31", False)):
        page = client.get(f"/floor?day={day}").text
        assert f"Floor · {day}" in page, day
        assert "No hands are booked today" not in page, day
        assert ("The ledger holds no hands on this day." in page) is not rows, day
    on_the_day = console_client(engine, Clock(dt.datetime(2024, 5, 1, 18, tzinfo=dt.UTC)))
    assert log_in(on_the_day, "olga") == 303
    page = on_the_day.get("/floor").text  # today has hands: today's floor, nothing to say
    assert "Floor · 2024-05-01" in page and "No hands are booked today" not in page


def _hand_case(engine: Engine, state: str = "open") -> int:
    return next(c.case_id for c in list_cases(engine, CaseFilter(state=state))
                if c.subject_kind == "hand")


def test_actions_on_a_case_are_audit_entries_of_the_user(day_engine: Engine) -> None:
    case_id = _hand_case(day_engine)
    operator, analyst = console_client(day_engine), console_client(day_engine)
    assert log_in(operator, "olga") == 303 and log_in(analyst, "dan") == 303
    version = get_case(day_engine, case_id).summary.version  # type: ignore[union-attr]
    csrf = csrf_of(operator)
    assert operator.post(f"/cases/{case_id}/assign",
                         data={"csrf": csrf, "version": str(version)}).status_code == 303
    assert operator.post(f"/cases/{case_id}/note", data={
        "csrf": csrf, "version": str(version + 1), "text": "seat 3 paid twice"}
    ).status_code == 303
    assert analyst.post(f"/cases/{case_id}/close", data={
        "csrf": csrf_of(analyst), "version": str(version + 2), "outcome": "procedural",
        "text": "dealer retrained"}).status_code == 303
    case = get_case(day_engine, case_id)
    assert case is not None
    assert (case.summary.state, case.summary.assignee, case.summary.outcome, case.reason) == (
        "closed", "olga", "procedural", "dealer retrained")
    trail = [(a.version, a.actor, a.action, a.state_before, a.state_after)
             for a in case.audit[-3:]]
    assert trail == [(version + 1, "olga", "assign", "open", "in_review"),
                     (version + 2, "olga", "note", "in_review", "in_review"),
                     (version + 3, "dan", "close", "in_review", "closed")]
    page = operator.get(f"/cases/{case_id}").text
    assert "seat 3 paid twice" in page and "dealer retrained" in page
    assert 'id="close"' not in page  # a closed case offers no more decisions
    # What each entry changed, as words (it showed a Python dict: QA).
    assert "changed: state closed, outcome procedural, reason dealer retrained" in page
    assert "{&#39;" not in page and "{'" not in page


def test_an_action_on_a_case_changed_since_it_was_shown_is_refused(day_engine: Engine) -> None:
    case_id = _hand_case(day_engine)
    client = console_client(day_engine)
    assert log_in(client, "cora") == 303
    before = get_case(day_engine, case_id)
    assert before is not None
    stale = str(before.summary.version - 1)
    response = client.post(f"/cases/{case_id}/escalate",
                           data={"csrf": csrf_of(client), "version": stale})
    assert response.status_code == 409
    assert "someone acted on it since" in response.text
    assert get_case(day_engine, case_id) == before


def test_a_case_version_in_digits_that_are_not_ascii_is_refused(day_engine: Engine) -> None:
    """``\u00b2`` (superscript two) passed the form's number check (``str.isdigit``) and
    ``int`` then raised: HTTP 500. It is a version that is not a number now."""
    case_id = _hand_case(day_engine)
    client = console_client(day_engine)
    assert log_in(client, "cora") == 303
    before = get_case(day_engine, case_id)
    response = client.post(f"/cases/{case_id}/escalate",
                           data={"csrf": csrf_of(client), "version": "\u00b2"})
    assert response.status_code == 400
    assert "the form&#39;s case version is not a number" in response.text
    assert get_case(day_engine, case_id) == before


def test_a_refused_action_says_why(day_engine: Engine) -> None:
    case_id = _hand_case(day_engine)
    client = console_client(day_engine)
    assert log_in(client, "dan") == 303
    response = client.post(f"/cases/{case_id}/close", data={
        "csrf": csrf_of(client), "text": "no outcome", "version": case_version(day_engine, case_id)})
    assert response.status_code == 400  # a rule of cases refuses it; 409 is "changed since"
    assert "closing needs an outcome" in response.text
    # an outcome that is none of them is named as such, not as missing (QA)
    response = client.post(f"/cases/{case_id}/close", data={
        "csrf": csrf_of(client), "outcome": "guilty", "text": "x",
        "version": case_version(day_engine, case_id)})
    assert response.status_code == 400
    assert ("no outcome &#39;guilty&#39;: one of confirmed, no_issue, procedural, referred"
            in response.text) and "needs an outcome" not in response.text


def test_bulk_assign_by_an_officer(day_engine: Engine) -> None:
    open_ids = [c.case_id for c in list_cases(day_engine, CaseFilter(state="open"))][:3]
    assert len(open_ids) == 3
    client = console_client(day_engine)
    assert log_in(client, "cora") == 303
    response = client.post("/queue/assign", data={
        "csrf": csrf_of(client), "assignee": "dan", "case": [str(i) for i in open_ids],
        **{f"version-{i}": case_version(day_engine, i) for i in open_ids}})
    assert response.status_code == 200 and "3 case(s) assigned to dan" in response.text
    for case_id in open_ids:
        case = get_case(day_engine, case_id)
        assert case is not None
        last = case.audit[-1]
        assert (case.summary.assignee, last.actor, last.action) == ("dan", "cora", "assign")


def test_bulk_assign_of_numbers_that_name_no_case(day_engine: Engine) -> None:
    """A value that was no number was read as case 1 (so case 1 was assigned), and a number
    beyond the database's integers ended in a server error. Each is now a problem listed,
    and the real case beside them is assigned."""
    cases = list_cases(day_engine, CaseFilter(state="open"))
    real = cases[-1].case_id
    first = get_case(day_engine, 1)
    assert first is not None and real != 1
    client = console_client(day_engine)
    assert log_in(client, "cora") == 303
    response = client.post("/queue/assign", data={
        "csrf": csrf_of(client), "assignee": "olga",
        "case": ["abc", "-1", "99999999999999999999999", "\u00b2", str(real)],
        f"version-{real}": case_version(day_engine, real)})
    assert response.status_code == 200, response.text[:300]
    assert "1 case(s) assigned to olga" in response.text
    for shown in ("no case &#39;abc&#39;", "no case &#39;-1&#39;",
                  "no case &#39;99999999999999999999999&#39;",
                  "no case &#39;\u00b2&#39;"):  # a digit to isdigit(), not to int(): HTTP 500
        assert shown in response.text, shown
    after = get_case(day_engine, 1)
    assert after is not None and after.audit == first.audit
    assigned = get_case(day_engine, real)
    assert assigned is not None and assigned.summary.assignee == "olga"
    assert client.get("/cases/99999999999999999999999").status_code == 404


def test_the_queue_filters_sorts_and_pages(day_engine: Engine) -> None:
    client = console_client(day_engine)
    assert log_in(client, "aud") == 303
    csrf = csrf_of(client)
    every = list_cases(day_engine, CaseFilter())
    page = client.post("/queue", data={"csrf": csrf, "state": "any", "sort": "case"}).text
    shown = [int(i) for i in re.findall(r'<td><a href="/cases/(\d+)">', page)]
    assert shown == sorted(c.case_id for c in every)[:100]
    closed = client.post("/queue", data={"csrf": csrf, "state": "closed"}).text
    assert re.findall(r'<td><a href="/cases/(\d+)">', closed) == [
        str(c.case_id) for c in every if c.state == "closed"]
    assert "assign to me" not in page  # an auditor is offered no action


def test_the_hand_viewer_findings_first_then_the_report_and_its_pdf(day_engine: Engine) -> None:
    case = next(c for c in list_cases(day_engine, CaseFilter()) if c.subject_kind == "hand")
    hand_id = case.subject.removeprefix("hand:")
    client = console_client(day_engine)
    assert log_in(client, "dan") == 303
    page = client.get(f"/hands/{hand_id}").text
    assert page.index("<h2>Findings</h2>") < page.index("<h2>Dispute report</h2>")
    assert f'href="/cases/{case.case_id}"' in page
    report = client.get(f"/reports/hand/{hand_id}").text
    assert "the event archive" in report and hand_id in report
    pdf = client.get(f"/reports/hand-pdf/{hand_id}")
    assert pdf.content.startswith(b"%PDF-")
    assert pdf.headers["content-disposition"] == f'attachment; filename="hand-{hand_id}.pdf"'
    assert client.get("/hands/no-such-hand").status_code == 404


def test_the_daily_report_and_its_pdf(day_engine: Engine) -> None:
    client = console_client(day_engine)
    assert log_in(client, "aud") == 303
    page = client.get("/daily").text
    assert 'src="/reports/daily?day=2026-01-05"' in page
    report = client.get("/reports/daily?day=2026-01-05").text
    assert 'target="_top" href="/hands/' in report  # review hands open in the console
    assert client.get("/reports/daily.pdf?day=2026-01-05").content.startswith(b"%PDF-")
    assert client.get("/reports/daily?day=1999-01-01").status_code == 404


def test_a_day_without_hands_names_the_days_the_database_holds(day_engine: Engine) -> None:
    """QA: /daily?day=2030-01-01 showed the picker on another day than its report, and the
    report said only "no hands booked that day"; ``report daily`` names the days held."""
    client = console_client(day_engine)
    assert log_in(client, "aud") == 303
    page = client.get("/daily?day=2030-01-01").text
    assert "<iframe" not in page
    assert ("No hands ended on 2030-01-01: this database holds day 2026-01-05. Choose a day "
            "from the list.") in page
    report = client.get("/reports/daily?day=2030-01-01&table=T9")
    assert report.status_code == 404
    assert "no hands ended on 2030-01-01 at table T9: this database holds day 2026-01-05" \
        in report.text


def test_the_console_daily_report_lists_the_archived_alerts(tmp_path: Path) -> None:
    """The console renders the daily report through ``daily_from_ledger``, and took no
    alerts file: section 5 always said "no alerts file was given", though the database
    held the day's alerts (``surveil --db`` archives them). It lists them now: SWEET and
    DRIFT concern the day's hands (tests/unit/reports/test_daily_alerts.py)."""
    from services.archive.writer import archive_run
    from tests.unit.reports.test_daily import records
    from tests.unit.reports.test_daily_alerts import DRIFT, NEXT_DAY, SWEET

    engine = open_ledger(f"sqlite:///{tmp_path}/l.sqlite")
    for hand in records():
        post_hand(engine, hand)
    archive_run(engine, [], [SWEET, DRIFT, NEXT_DAY])
    add_users(engine)
    client = console_client(engine)
    assert log_in(client, "aud") == 303
    report = re.sub(r"\s+", " ", client.get("/reports/daily?day=2026-01-05").text)
    assert "from the database&#39;s archived alerts that were raised on" in report
    assert "2 alert(s), one box each" in report and "PROCEDURE_DRIFT" in report


def test_players_and_dealers_without_and_with_stored_profiles(tmp_path: Path) -> None:
    """The profile tables of migration 0003: empty, then holding rows (inserted here, so
    the expected cells are the inserted values), then absent as in a database migrated
    before 0003."""
    engine = open_ledger(f"sqlite:///{tmp_path}/l.sqlite")
    post_hand(engine, hcf_seat1_wins())
    add_users(engine)
    client = console_client(engine)
    assert log_in(client, "olga") == 303
    page = client.get("/people").text
    assert "The profile tables are there but hold no profiles yet" in page
    assert ["D7", "1", "0", "0"] in _rows(page)  # dealer, hands dealt, cases, open
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO surveillance_players (player_id, hands, wagered, net) "
                          "VALUES ('alice', 40, 400, -25)"))
        conn.execute(text(
            "INSERT INTO surveillance_dealers (dealer_id, game, hands, misdeals, "
            "exposed_hands, mispay_hands, mispay_chips, wagered, house_net) VALUES "
            "('D7', 'hcf', 120, 3, 1, 2, 5, 2400, 130), ('D8', 'hcf', 90, 0, 0, 0, 0, 1800, 40)"))
    page = client.get("/people").text
    assert "No surveillance profiles" not in page
    assert "hold no profiles yet" not in page
    assert ["alice", "40", "400", "-25"] in _rows(page)
    one = client.post("/people", data={"csrf": csrf_of(client), "kind": "player",
                                       "person": "alice"}).text
    assert ["alice", "40", "400", "-25"] in _rows(one)
    dealer = client.post("/people", data={"csrf": csrf_of(client), "kind": "dealer",
                                          "person": "D7"}).text
    assert ["D7", "hcf", "120", "3", "1", "2", "5", "2400", "130"] in _rows(dealer)
    assert not [r for r in _rows(dealer) if r and r[0] == "D8"]
    assert "alice" not in dealer  # a dealer's page shows no player's profile
    with engine.begin() as conn:  # as a database migrated before 0003
        for table in ("surveillance_dealer_players", "surveillance_dealers",
                      "surveillance_players"):
            conn.execute(text(f"DROP TABLE {table}"))
    page = client.get("/people").text
    assert "No surveillance profiles are stored in this database" in page
    assert ["D7", "1", "0", "0"] in _rows(page)


def test_search_combines_its_fields_worked_out_by_hand(tmp_path: Path) -> None:
    """builders.py: T1-000001 (alice, bob; day one), T1-000002 (carol, bob; day one),
    R1-000001 (alice, carol; day one), T1-000003 (alice, bob; day two, an HCF-7 finding);
    all dealt by D7."""
    from services.events.contract import Finding
    from tests.unit.ledger.builders import DAY_TWO

    engine = open_ledger(f"sqlite:///{tmp_path}/l.sqlite")
    late = hcf_seat1_wins("T1-000003", ended_at=DAY_TWO)
    late = type(late)(**{**{f: getattr(late, f) for f in late.__struct_fields__},
                         "status": "discrepancy",
                         "findings": [Finding(code="MISPAY", rule="HCF-7", severity="critical",
                                              seat=1, amount=5, message="overpaid by 5")]})
    for hand in (hcf_seat1_wins(), hcf_dp_collects(), russian_house_hand(), late):
        post_hand(engine, hand)
    add_users(engine)
    client = console_client(engine)
    assert log_in(client, "aud") == 303
    csrf = csrf_of(client)

    def found(**fields: str) -> list[str]:
        page = client.post("/search", data={"csrf": csrf, **fields}).text
        return sorted(re.findall(r'<td class="id"><a href="/hands/([^"]+)">', page))

    assert found(player="carol") == ["R1-000001", "T1-000002"]
    assert found(player="alice", table="T1") == ["T1-000001", "T1-000003"]
    assert found(dealer="D7", date_to="2024-05-01") == ["R1-000001", "T1-000001", "T1-000002"]
    assert found(date_from="2024-05-02") == ["T1-000003"]
    assert found(rule="HCF-7") == ["T1-000003"]
    assert found(hand_id="-00000") == ["R1-000001", "T1-000001", "T1-000002", "T1-000003"]
    assert found(hand_id="R1") == ["R1-000001"]
    assert found(player="nobody") == []
    bad = client.post("/search", data={"csrf": csrf, "date_from": "May 1"})
    assert bad.status_code == 400 and "from: write the day as YYYY-MM-DD" in bad.text


def test_a_case_page_lists_its_hands_findings_with_the_rule_text(tmp_path: Path) -> None:
    from services.cases.intake import open_cases
    from services.events.contract import Finding

    engine = open_ledger(f"sqlite:///{tmp_path}/l.sqlite")
    hand = hcf_seat1_wins()
    hand = type(hand)(**{**{f: getattr(hand, f) for f in hand.__struct_fields__},
                         "status": "discrepancy",
                         "findings": [Finding(code="MISPAY", rule="HCF-7", severity="critical",
                                              seat=1, amount=5, message="overpaid by 5")]})
    post_hand(engine, hand)
    open_cases(engine, [hand], [])
    add_users(engine)
    client = console_client(engine)
    assert log_in(client, "dan") == 303
    (case,) = list_cases(engine, CaseFilter())
    page = client.get(f"/cases/{case.case_id}").text
    assert ["T1-000001", "HCF-7", "critical", "MISPAY", "1", "+5", "overpaid by 5"] in _rows(page)
    assert "source: docs/rules/hcf.md" in page  # HCF-7 quoted from the rule book


def test_the_statistic_in_words() -> None:
    from services.console.explain import statistic_in_words
    from services.reports.alerts import AlertLine

    line = AlertLine(table_id="T1", hand_id="T1-9", rule="SURV-2", code="SWEETHEARTING",
                     severity="critical", subject="dealer D1, player P1", message="m",
                     count="10", statistic="favourable mispays", p_value="4.34e-07",
                     threshold="1e-06", hands=())
    assert statistic_in_words(line) == (
        "Counted: 10 (favourable mispays). If nothing were wrong, a result at least this "
        "extreme would come up with probability 4.34e-07 (about 1 in 2,304,147); SURV-2 "
        "raises an alert at or below 1e-06.")
    bare = AlertLine(table_id="T1", hand_id=None, rule="SURV-9", code="CHAIN_BROKEN",
                     severity="critical", subject="–", message="m", count="–",
                     statistic="–", p_value="–", threshold="–", hands=())
    assert statistic_in_words(bare).startswith("This alert carries no statistic")


def test_a_version_that_is_not_a_number_is_refused(day_engine: Engine) -> None:
    case_id = _hand_case(day_engine)
    client = console_client(day_engine)
    assert log_in(client, "cora") == 303
    before = get_case(day_engine, case_id)
    response = client.post(f"/cases/{case_id}/note", data={
        "csrf": csrf_of(client), "version": "1 OR 1=1", "text": "x"})
    assert response.status_code == 400 and "not a number" in response.text
    assert get_case(day_engine, case_id) == before


def test_bulk_assign_does_not_count_a_case_the_reviewer_had(day_engine: Engine) -> None:
    """Bulk-assigning to dan a case dan holds changes nothing and records nothing (as
    docs/cases.md says); the page said "1 case(s) assigned to dan" of it (QA). Two cases:
    one dan has, one open: one assigned, one said apart."""
    first, second = [c.case_id for c in list_cases(day_engine, CaseFilter(state="open"))][:2]
    client = console_client(day_engine)
    assert log_in(client, "cora") == 303
    versions = {f"version-{first}": case_version(day_engine, first)}
    assert client.post("/queue/assign", data={"csrf": csrf_of(client), "assignee": "dan",
                                              "case": [str(first)], **versions}).status_code == 200
    trail = len(get_case(day_engine, first).audit)  # type: ignore[union-attr]
    ids = [first, second]
    response = client.post("/queue/assign", data={
        "csrf": csrf_of(client), "assignee": "dan", "case": [str(i) for i in ids],
        **{f"version-{i}": case_version(day_engine, i) for i in ids}})
    assert response.status_code == 200
    assert "1 case(s) assigned to dan." in response.text
    assert "1 case(s) dan had already, left as they were (nothing recorded)" in response.text
    assert len(get_case(day_engine, first).audit) == trail  # type: ignore[union-attr]


def test_bulk_assign_that_assigned_nothing_is_refused(day_engine: Engine) -> None:
    """A bulk form whose only case does not exist assigned nothing, and answered 200 "0
    case(s) assigned" (QA): now 400, the page still naming the case and why."""
    client = console_client(day_engine)
    assert log_in(client, "cora") == 303
    response = client.post("/queue/assign", data={
        "csrf": csrf_of(client), "assignee": "olga", "case": ["9999"], "version-9999": "1"})
    assert response.status_code == 400
    assert "0 case(s) assigned to olga" in response.text and "9999" in response.text
