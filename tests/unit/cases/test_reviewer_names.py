"""A reviewer is one name in any capitals, the same for the queue's ``assignee`` filter as
for an assign to whom the case has already, on SQLite and PostgreSQL (the ``engine``
fixture). QA: ``cases assign 11 Ann`` then ``cases assign 11 ann`` recorded a new version
and audit entry, though ``--assignee`` takes the two for one reviewer and docs/cases.md
says assigning the reviewer who has the case changes nothing."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest
from sqlalchemy import Engine

from services.cases.actions import CaseRefused, act, assign, escalate
from services.cases.intake import open_cases
from services.cases.queries import CaseFilter, get_case, list_cases
from services.ledger.posting import post_many
from tests.unit.cases.test_cases import AT, _one_case, hands
from tests.unit.cli.helpers import assert_one_line_usage_error, pitwatch


def _first_case(engine: Engine) -> int:
    post_many(engine, hands())
    open_cases(engine, hands(), [], at=AT)
    return min(c.case_id for c in list_cases(engine))


def _trail(engine: Engine, case_id: int) -> list[tuple[int, str]]:
    case = get_case(engine, case_id)
    assert case is not None
    return [(a.version, a.action) for a in case.audit]


def test_the_same_reviewer_in_other_capitals_changes_nothing(engine: Engine) -> None:
    case = _first_case(engine)
    assert assign(engine, case, "Ann", "lead").version == 2
    for same in ("ann", "ANN", " aNn "):
        again = assign(engine, case, same, "lead")
        assert (again.version, again.changed, again.after.assignee) == (2, False, "Ann"), same
    assert _trail(engine, case) == [(1, "open"), (2, "assign")]
    assert escalate(engine, case, "lead").version == 3
    again = assign(engine, case, "ann", "lead")  # escalated, still Ann's: nothing to do
    assert (again.version, again.changed) == (3, False)
    assert assign(engine, case, "Bob", "lead").version == 4  # another reviewer is a change
    assert _trail(engine, case) == [(1, "open"), (2, "assign"), (3, "escalate"),
                                    (4, "assign")]


def test_a_name_with_capitals_beyond_ascii_is_one_reviewer_on_either_database(
        engine: Engine) -> None:
    """SQLite's ``lower()`` folds only ASCII letters and PostgreSQL's every letter: the
    queue's filter, compared there, found a case of "ÅSA" under ``--assignee ÅSA`` on
    PostgreSQL and not on SQLite."""
    case = _first_case(engine)
    assert assign(engine, case, "ÅSA", "lead").version == 2
    for name in ("ÅSA", "åsa", "Åsa"):
        assert [c.case_id for c in list_cases(engine, CaseFilter(assignee=name))] == [case], \
            name
        again = assign(engine, case, name, "lead")
        assert (again.version, again.changed) == (2, False), name
    assert list_cases(engine, CaseFilter(assignee="asa")) == []  # another name


def test_the_command_says_the_case_is_already_that_reviewers(tmp_path: Path) -> None:
    url, case = _one_case(tmp_path)
    assert pitwatch("cases", "assign", case, "Ann", "--actor", "lead", "--db", url).code == 0
    ran = pitwatch("cases", "assign", case, "ann", "--actor", "lead", "--db", url)
    assert ran.code == 0, ran.stderr
    assert ran.stderr.strip() == f"case {case}: already assigned to Ann: nothing changed " \
                                 "(version 2)"


def test_pitwatch_is_no_reviewer(engine: Engine, tmp_path: Path) -> None:
    """QA: ``cases assign 7 pitwatch`` succeeded, giving the case to the name no one may
    act under (``--actor pitwatch`` was refused already). Refused by the case rules, which
    the console's actions go through (``act``), and nothing is recorded."""
    case = _first_case(engine)
    for name in ("pitwatch", "PitWatch"):
        with pytest.raises(CaseRefused, match="assign the case to a person"):
            act(engine, case, "assign", "lead", assignee=name)
    assert _trail(engine, case) == [(1, "open")]
    url, number = _one_case(tmp_path)
    ran = pitwatch("cases", "assign", number, "pitwatch", "--actor", "lead", "--db", url)
    assert_one_line_usage_error(ran, "'pitwatch' is the name of what pitwatch does by "
                                     "itself: assign the case to a person")
    shown = pitwatch("cases", "show", number, "--db", url, "--format", "json")
    assert (shown.code, orjson.loads(shown.stdout)["assignee"]) == (0, None)
