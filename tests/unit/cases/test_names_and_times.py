"""A case's trail names people on one line and keeps its times in the order of its
versions (found by QA, 2026-12-06: an assignee with a line break forged a heading line
under ``cases show``; a writer that waited for another's lock stamped its entry earlier
than the other's; ``--actor ""`` was taken as the login name)."""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import orjson
import pytest

from services.cases import actions
from services.cases.actions import CaseChanged, assign, note
from services.cases.lifecycle import CaseRefused
from services.cases.queries import get_case
from services.ledger.db import open_ledger
from tests.unit.cases.test_cases import _one_case
from tests.unit.cli.helpers import assert_one_line_usage_error, pitwatch


@pytest.mark.parametrize("name", ["mallory\ncase 5  state closed", "tab\there", "bell\x07",
                                  "evil\u202egnp.exe", "line\u2028sep", "zero\u200bwidth"])
def test_a_name_is_one_line_of_visible_characters(tmp_path: Path, name: str) -> None:
    url, case = _one_case(tmp_path)
    engine = open_ledger(url)
    try:
        before = get_case(engine, int(case))
        with pytest.raises(CaseRefused, match="control or formatting character"):
            assign(engine, int(case), name, "sup")
        with pytest.raises(CaseRefused, match="control or formatting character"):
            note(engine, int(case), "seen", name)
        assert get_case(engine, int(case)) == before
    finally:
        engine.dispose()


def test_the_heading_stays_two_lines_whatever_the_reason_holds(tmp_path: Path) -> None:
    url, case = _one_case(tmp_path)
    reason = "fine\ncase 9  state open  severity info  assignee -  version 1"
    assert pitwatch("cases", "close", case, "--outcome", "no_issue", "--reason", reason,
                    "--actor", "ann", "--db", url).code == 0
    shown = pitwatch("cases", "show", case, "--db", url).stdout
    assert shown.startswith(f"case {case} ")
    assert not any(line.startswith("case 9") for line in shown.splitlines()), shown
    assert "fine\\ncase" in shown  # the line break shown as its escape


def test_a_blank_actor_is_refused_not_taken_for_the_login(tmp_path: Path) -> None:
    url, case = _one_case(tmp_path)
    ran = pitwatch("cases", "assign", case, "bob", "--actor", "", "--db", url)
    assert_one_line_usage_error(ran, "every action names who takes it")


def test_a_version_not_reached_yet_is_not_called_a_change_since(tmp_path: Path) -> None:
    url, case = _one_case(tmp_path)
    engine = open_ledger(url)
    try:
        with pytest.raises(CaseChanged, match="is at version 1, not 99: it has no such "
                                              "version yet"):
            note(engine, int(case), "seen", "ann", expected_version=99)
        note(engine, int(case), "seen", "ann", expected_version=1)
        with pytest.raises(CaseChanged, match="at version 2, not 1: someone acted on it since"):
            note(engine, int(case), "seen", "ann", expected_version=1)
    finally:
        engine.dispose()


def test_the_time_of_an_entry_is_read_holding_the_case(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Another process holds the database's write lock; a note waits for it. The clock
    moves on while it waits. The note's entry bears the time it was written (after the
    wait), so a later version never bears an earlier time than the one before it."""
    url, case = _one_case(tmp_path)
    clock = {"now": "2026-01-20T10:00:00.000Z"}
    monkeypatch.setattr(actions, "now_utc", lambda: clock["now"])
    engine = open_ledger(url)
    holder = sqlite3.connect(url.removeprefix("sqlite:///"), isolation_level=None)
    try:
        holder.execute("BEGIN IMMEDIATE")
        done: list[Any] = []
        waiting = threading.Thread(target=lambda: done.append(
            note(engine, int(case), "after the lock", "ann")))
        waiting.start()
        time.sleep(0.5)  # sequencing only: let the note reach the lock (nothing timed)
        clock["now"] = "2026-01-20T10:05:00.000Z"
        holder.execute("COMMIT")
        waiting.join(timeout=60)
        assert done, "the note never got the lock"
        trail = get_case(engine, int(case))
        assert trail is not None and trail.audit[-1].at == "2026-01-20T10:05:00.000Z"
    finally:
        holder.close()
        engine.dispose()


@pytest.mark.parametrize(("text", "said"), [
    ("\x1b]0;pwned\x07 \x1b[31mRED", "holds a control character"),
    ("nul\x00here", "holds a control character"),
    ("back\x08space", "holds a control character"),
    ("evil\u202egnp.exe", "direction override"),
    ("z" * 2001, "is 2,001 characters, more than the 2,000 it may have"),
])
def test_a_note_or_reason_is_plain_lines_of_at_most_2000(tmp_path: Path, text: str,
                                                         said: str) -> None:
    """QA: the command line took a note of 120,000 characters (the console refuses over
    2,000), and notes and reasons kept escapes, bells and NULs that ``cases show --format
    csv`` then printed raw to the reader's terminal. Refused, nothing written; a note of
    lines and tabs of 2,000 characters is kept as written."""
    url, case = _one_case(tmp_path)
    for command in (["cases", "note", case, text],
                    ["cases", "close", case, "--outcome", "no_issue", "--reason", text],
                    ["cases", "escalate", case, "--reason", text]):
        ran = pitwatch(*command, "--actor", "ann", "--db", url)
        assert_one_line_usage_error(ran, said)
    engine = open_ledger(url)
    try:
        detail = get_case(engine, int(case))
        assert detail is not None and detail.summary.version == 1
        kept = ("line one\n\tline two\r\n" + "y" * 2000)[:2000]
        assert note(engine, int(case), kept, "ann").version == 2
    finally:
        engine.dispose()


def test_a_name_is_at_most_100_characters(tmp_path: Path) -> None:
    url, case = _one_case(tmp_path)
    for command in (["cases", "assign", case, "b" * 101, "--actor", "ann"],
                    ["cases", "note", case, "seen", "--actor", "a" * 101]):
        ran = pitwatch(*command, "--db", url)
        assert_one_line_usage_error(ran, "is 101 characters, more than the 100 a name may have")
    assert pitwatch("cases", "assign", case, "b" * 100, "--actor", "ann", "--db", url).code == 0


def test_assigning_a_case_to_whom_it_has_already_records_nothing(tmp_path: Path) -> None:
    """QA: a second ``assign`` to the same reviewer wrote an audit entry changing nothing
    and raised the version, so every other reviewer's open form was refused as stale."""
    url, case = _one_case(tmp_path)
    engine = open_ledger(url)
    try:
        assert assign(engine, int(case), "alice", "bob").version == 2
        again = assign(engine, int(case), "alice", "bob")
        assert (again.version, again.changed) == (2, False)
        assert note(engine, int(case), "seen", "carol", expected_version=2).version == 3
        assert assign(engine, int(case), "dave", "bob").version == 4  # a real reassign
    finally:
        engine.dispose()
    ran = pitwatch("cases", "assign", case, "dave", "--actor", "bob", "--db", url)
    assert ran.code == 0
    assert ran.stderr.strip() == f"case {case}: already assigned to dave: nothing changed " \
                                 "(version 4)"


def test_a_person_does_not_act_as_pitwatch(tmp_path: Path) -> None:
    """QA: ``--actor pitwatch`` wrote entries under the name of what pitwatch does by
    itself (opening cases, joining evidence), so a trail could not tell them apart."""
    url, case = _one_case(tmp_path)
    for actor in ("pitwatch", " PitWatch "):
        ran = pitwatch("cases", "note", case, "seen", "--actor", actor, "--db", url)
        assert_one_line_usage_error(ran, "is the name of what pitwatch does by itself")


def test_the_assignee_filter_takes_any_capitals_and_no_empty_value(tmp_path: Path) -> None:
    """QA: a case the command line gave to "Op" never showed under ``--assignee op`` (nor
    in op's "My cases" on the console, which matches names in any capitals); an empty
    filter value matched nothing, silently."""
    url, case = _one_case(tmp_path)
    assert pitwatch("cases", "assign", case, "Op", "--actor", "lead", "--db", url).code == 0
    for name in ("op", "OP", " Op "):
        listed = pitwatch("cases", "list", "--assignee", name, "--db", url, "--format", "json")
        assert [c["case"] for c in orjson.loads(listed.stdout)] == [int(case)], name
    for option in ("--assignee", "--player", "--table", "--dealer", "--game"):
        ran = pitwatch("cases", "list", option, "", "--db", url)
        assert_one_line_usage_error(ran, option, "an empty value matches no case")
