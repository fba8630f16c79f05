"""Names are compared after NFKC and case folding: the same letters in another width or
style are one name. QA: ``--actor 'ｐｉｔｗａｔｃｈ'`` (full width) was recorded where
``pitwatch`` and its capitals, blanks and invisible characters around it were refused,
and the trail then showed an entry that read as pitwatch's own."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest
from sqlalchemy import Engine

from services.cases.actions import CaseRefused, act, assign
from services.cases.lifecycle import same_name
from services.cases.queries import CaseFilter, list_cases
from tests.unit.cases.test_cases import _one_case
from tests.unit.cases.test_reviewer_names import _first_case, _trail
from tests.unit.cli.helpers import assert_one_line_usage_error, pitwatch

LOOKALIKES = [
    "\uff50\uff49\uff54\uff57\uff41\uff54\uff43\uff48",  # ｐｉｔｗａｔｃｈ, full width
    "\uff30\uff29\uff34\uff37\uff21\uff34\uff23\uff28",  # ＰＩＴＷＡＴＣＨ
    "\U0001d429\U0001d422\U0001d42d\U0001d430\U0001d41a\U0001d42d\U0001d41c\U0001d421",  # bold
    "\u24df\u24d8\u24e3\u24e6\u24d0\u24e3\u24d2\u24d7",  # ⓟⓘⓣⓦⓐⓣⓒⓗ, circled
    "pitwatch\u3000",  # an ideographic space after it
]


@pytest.mark.parametrize(("a", "b", "same"), [
    ("\uff21\uff4e\uff4e", "ann", True),  # Ａｎｎ
    ("A\u030aSA", "\u00e5sa", True),  # Å as A and a combining ring
    ("STRASSE", "stra\u00dfe", True),  # ß folds to ss
    ("\u00c5SA", "asa", False),  # another letter
    ("\u0440itwatch", "pitwatch", False),  # a Cyrillic er: another letter that looks alike
    ("ann", None, False),
])
def test_names_compare_after_nfkc_and_case_folding(a: str, b: str | None, same: bool) -> None:
    assert same_name(a, b) is same


@pytest.mark.parametrize("actor", LOOKALIKES)
def test_no_one_acts_under_a_lookalike_of_pitwatch(tmp_path: Path, actor: str) -> None:
    url, case = _one_case(tmp_path)
    ran = pitwatch("cases", "note", case, "actor test", "--actor", actor, "--db", url)
    assert_one_line_usage_error(ran, "'pitwatch' is the name of what pitwatch does by "
                                     "itself: act under your own name (--actor)")
    shown = orjson.loads(pitwatch("cases", "show", case, "--db", url, "--format",
                                  "json").stdout)
    assert [a["action"] for a in shown["audit"]] == ["open"]


PUNCTUATED = ["pit.watch", "pitwatch.", "Pit_Watch", "p-i-t-w-a-t-c-h",
              "\uff50\uff49\uff54\uff0e\uff57\uff41\uff54\uff43\uff48"]  # ｐｉｔ．ｗａｔｃｈ


def test_no_case_is_assigned_to_a_lookalike_of_pitwatch(engine: Engine) -> None:
    case = _first_case(engine)
    for name in [*LOOKALIKES, *PUNCTUATED]:
        with pytest.raises(CaseRefused, match="assign the case to a person"):
            act(engine, case, "assign", "lead", assignee=name)
    assert _trail(engine, case) == [(1, "open")]


def test_a_reviewer_in_another_width_is_the_same_reviewer(engine: Engine) -> None:
    case = _first_case(engine)
    assert assign(engine, case, "Ann", "lead").version == 2
    again = assign(engine, case, "\uff21\uff4e\uff4e", "lead")  # Ａｎｎ
    assert (again.version, again.changed) == (2, False)
    assert [c.case_id for c in list_cases(
        engine, CaseFilter(assignee="\uff41\uff4e\uff4e"))] == [case]  # ａｎｎ


@pytest.mark.parametrize(("action", "actor"), [
    (["note", "a note"], PUNCTUATED[0]), (["assign", "ann"], PUNCTUATED[1]),
    (["escalate"], PUNCTUATED[2]),
    (["close", "--outcome", "no_issue", "--reason", "fine"], PUNCTUATED[3]),
    (["note", "a note"], PUNCTUATED[4])])
def test_no_one_acts_under_a_name_that_reads_as_pitwatch(
        tmp_path: Path, action: list[str], actor: str) -> None:
    """QA: ``--actor pit.watch`` (and ``pitwatch.``, ...) was recorded, where the console
    refuses such a user name (``reads_as_system``): its entries read as pitwatch's own."""
    url, case = _one_case(tmp_path)
    ran = pitwatch("cases", action[0], case, *action[1:], "--actor", actor, "--db", url)
    assert_one_line_usage_error(ran, f"{actor!r} reads as 'pitwatch' (punctuation, "
                                     "capitals and widths aside)",
                                "act under your own name (--actor)")
    shown = orjson.loads(pitwatch("cases", "show", case, "--db", url, "--format",
                                  "json").stdout)
    assert [a["action"] for a in shown["audit"]] == ["open"]


@pytest.mark.parametrize("actor", ["pitwatcher", "pit", "watch.pit"])
def test_a_name_that_only_holds_pitwatchs_letters_acts(tmp_path: Path, actor: str) -> None:
    url, case = _one_case(tmp_path)
    ran = pitwatch("cases", "note", case, "a note", "--actor", actor, "--db", url)
    assert ran.code == 0, ran.stderr
