"""``cases list --table/--dealer/--player`` refuses a name the database does not know
(QA: ``--table T999`` and ``--player nobody`` listed "Cases (0)" and exit 0, the answer
of a clear queue, where ``verify --table T999`` refuses naming the tables there are). A
name the database knows with no case is a clear queue: exit 0, nothing listed."""

from __future__ import annotations

from pathlib import Path

import orjson

from services.ledger.db import open_ledger
from services.ledger.posting import post_many
from tests.unit.cases.test_cases import _one_case
from tests.unit.cli.helpers import assert_one_line_usage_error, pitwatch
from tests.unit.ledger.builders import move, record


def _with_a_quiet_table(url: str) -> None:
    """Table T2 with one clean hand (no finding, so no case), dealt by D7 to dave only:
    seat 1 antes 5 and gets it back (layout return)."""
    engine = open_ledger(url)
    booked = post_many(engine, [record("T2-000001", [
        move(1, "stack:1", "layout:1", 5, "wager"),
        move(2, "layout:1", "stack:1", 5, "layout_return")],
        table_id="T2", players={"1": "dave"})])
    engine.dispose()
    assert [b.status for b in booked] == ["posted"], booked


def test_an_unknown_table_dealer_or_player_is_refused_naming_the_known(tmp_path: Path) -> None:
    url, _ = _one_case(tmp_path)
    _with_a_quiet_table(url)
    for option, value, named in (("--table", "T9", "it knows T1, T2"),
                                 ("--dealer", "D8", "it knows D7"),
                                 ("--player", "nobody", "dave")):
        ran = pitwatch("cases", "list", option, value, "--db", url, "--format", "json")
        assert_one_line_usage_error(ran, option, f"the database knows no {option[2:]} "
                                    f"{value!r}", named)
        assert ran.stdout == ""


def test_a_known_name_without_a_case_is_a_clear_queue(tmp_path: Path) -> None:
    url, _ = _one_case(tmp_path)
    _with_a_quiet_table(url)
    for option, value in (("--table", "T2"), ("--player", "dave")):
        ran = pitwatch("cases", "list", option, value, "--db", url, "--format", "json")
        assert (ran.code, orjson.loads(ran.stdout)) == (0, []), ran.stderr
    # The sweetheart alert names player P12, who holds no account: a case names him.
    ran = pitwatch("cases", "list", "--player", "P12", "--db", url, "--format", "json")
    assert ran.code == 0, ran.stderr
    assert [c["subject"] for c in orjson.loads(ran.stdout)] == ["dealer:D7"]


def test_a_day_with_no_case_and_no_hand_is_refused_naming_the_days(tmp_path: Path) -> None:
    """A mistyped date listed "Cases (0)" and exit 0, a clear day to a scheduled export
    (QA). The test hands end on 2024-05-01 and 2024-05-02 (DAY_ONE, DAY_TWO)."""
    url, _ = _one_case(tmp_path)
    ran = pitwatch("cases", "list", "--date", "2024-05-09", "--db", url, "--format", "json")
    assert_one_line_usage_error(ran, "--date", "the database knows no day '2024-05-09'",
                                "it knows 2024-05-01, 2024-05-02")
    assert ran.stdout == ""


def test_a_day_with_a_booked_hand_but_no_case_is_a_clear_queue(tmp_path: Path) -> None:
    url, _ = _one_case(tmp_path)
    engine = open_ledger(url)
    booked = post_many(engine, [record("T2-000001", [
        move(1, "stack:1", "layout:1", 5, "wager"),
        move(2, "layout:1", "stack:1", 5, "layout_return")],
        table_id="T2", players={"1": "dave"}, ended_at="2024-05-07T10:00:00Z")])
    engine.dispose()
    assert [b.status for b in booked] == ["posted"], booked
    ran = pitwatch("cases", "list", "--date", "2024-05-07", "--db", url, "--format", "json")
    assert (ran.code, orjson.loads(ran.stdout)) == (0, []), ran.stderr
