"""A case's hands and tags (``case_hands``, ``case_tags``: what the queue's filters and the
console find it by) held to what its evidence gives: ``services.cases.recheck``.

QA: a case's rows deleted behind the dropped guards passed ``pitwatch verify``, and the
case was gone from ``cases list --player`` (or ``--dealer`` ...). The cases are made the
real way (a simulated day adjudicated by the command); each expected message is built
from rows the test reads itself (a hand's record, an archived alert, the case's rows),
not from the code under test.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
from sqlalchemy import Engine, text

from services.archive.writer import archive_run
from services.cases.intake import open_cases
from services.cases.queries import CaseFilter, list_cases
from services.cases.recheck import CaseBreak, Given, link_breaks, recheck_cases
from services.ledger.db import open_ledger
from services.ledger.posting import post_many
from tests.unit.cases.test_cases import AT, hands, sweetheart
from tests.unit.cases.test_recheck import worked
from tests.unit.cli.helpers import failing_verify, pitwatch
from tests.unit.ledger.dbread import rows

FINDING_CASE = ("SELECT e.case_id, e.hand_id, e.table_id, h.record_json FROM case_evidence e "
                "JOIN hands h ON h.hand_id = e.hand_id WHERE e.kind = 'finding' "
                "ORDER BY e.case_id LIMIT 1")
# A SURV-9 alert names one hand: the intake found it booked (its evidence has a day) and
# tagged the case with that hand's dealer, game and day.
ALERT_CASE = ("SELECT e.case_id, a.hand_id, a.table_id, h.dealer_id, a.alert_id "
              "FROM case_evidence e JOIN archive_alerts a ON 'alert:' || a.alert_id = "
              "e.source_id JOIN hands h ON h.hand_id = a.hand_id WHERE e.kind = 'alert' "
              "AND e.day IS NOT NULL ORDER BY e.case_id LIMIT 1")


@pytest.fixture(scope="module")
def adjudicated_day(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two tables of 60 hands adjudicated into a database: cases of findings and of
    SURV-9 alerts (made once; each test works on a copy)."""
    from tests.unit.archive.support import simulated_log

    folder = tmp_path_factory.mktemp("adjudicated")
    log = folder / "day.jsonl"
    log.write_bytes(b"\n".join(simulated_log(tables=2, hands=60).lines) + b"\n")
    ran = pitwatch("adjudicate", str(log), "--ledger", f"sqlite:///{folder}/day.sqlite")
    assert ran.code == 0, ran.stderr  # findings, no failure
    return folder / "day.sqlite"


@pytest.fixture
def day(adjudicated_day: Path, tmp_path: Path) -> Iterator[tuple[str, Engine]]:
    copy = tmp_path / "day.sqlite"
    for part in ("", "-wal", "-shm"):  # what a write-ahead log still holds comes along
        made = adjudicated_day.with_name(adjudicated_day.name + part)
        if made.exists():
            shutil.copy(made, copy.with_name(copy.name + part))
    url = f"sqlite:///{copy}"
    engine = open_ledger(url)
    yield url, engine
    engine.dispose()


def changed(engine: Engine, *statements: str, **params: Any) -> None:
    with engine.begin() as conn:
        for statement in statements:
            conn.execute(text(statement), params)


def only_break(url: str, engine: Engine, case_id: int, *messages: str) -> None:
    """``recheck_cases`` finds exactly ``messages`` of case ``case_id``, and ``pitwatch
    verify`` lists them as its case breaks (exit 1)."""
    assert recheck_cases(engine).breaks == [CaseBreak(case_id, m) for m in messages]
    engine.dispose()
    body = failing_verify(url)
    assert [b["what"] for b in body["breaks"] if b["kind"] == "case"] == list(messages)


def players_of(record_json: str) -> list[str]:
    return sorted(set(orjson.loads(record_json)["players"].values()))


def test_the_adjudicated_day_has_no_break(day: tuple[str, Engine]) -> None:
    url, engine = day
    kinds = dict(rows(engine, "SELECT kind, count(*) FROM case_evidence GROUP BY kind"))
    assert kinds.get("finding", 0) > 0 and kinds.get("alert", 0) > 0, kinds
    assert rows(engine, "SELECT count(*) FROM case_hands")[0][0] > 0
    report = recheck_cases(engine)
    assert (report.cases, report.breaks) == (sum(kinds.values()), [])
    engine.dispose()
    ran = pitwatch("verify", "--db", url)
    assert ran.code == 0, ran.stderr


@pytest.mark.parametrize("case", [FINDING_CASE, ALERT_CASE], ids=["finding", "alert"])
def test_a_deleted_hand_of_a_case_is_found(day: tuple[str, Engine], case: str) -> None:
    url, engine = day
    case_id, hand, table, *_ = rows(engine, case)[0]
    assert rows(engine, "SELECT table_id FROM case_hands WHERE case_id = :c AND "
                        "hand_id = :h", c=case_id, h=hand) == [(table,)]
    changed(engine, "DROP TRIGGER case_hands_no_delete",
            "DELETE FROM case_hands WHERE case_id = :c AND hand_id = :h", c=case_id, h=hand)
    only_break(url, engine, case_id,
               f"case {case_id}: its hand {hand} (table {table}) is missing (its evidence "
               "names it)")


def test_a_deleted_player_tag_is_found(day: tuple[str, Engine]) -> None:
    """The hand's record names the player; the queue's ``--player`` filter missed the
    case once its tag was gone."""
    url, engine = day
    case_id, _, _, record_json = rows(engine, FINDING_CASE)[0]
    player = players_of(record_json)[0]
    wanted = CaseFilter(player=player)
    assert case_id in [c.case_id for c in list_cases(engine, wanted)]
    changed(engine, "DROP TRIGGER case_tags_no_delete",
            "DELETE FROM case_tags WHERE case_id = :c AND kind = 'player' AND value = :p",
            c=case_id, p=player)
    assert case_id not in [c.case_id for c in list_cases(engine, wanted)]
    only_break(url, engine, case_id,
               f"case {case_id}: its tag player={player} is missing (its evidence names it)")


def test_a_deleted_dealer_tag_of_an_alerts_case_is_found(day: tuple[str, Engine]) -> None:
    """The alert names no dealer; its hand, booked when the alert was taken in, does."""
    url, engine = day
    case_id, _, _, dealer, _ = rows(engine, ALERT_CASE)[0]
    assert dealer
    changed(engine, "DROP TRIGGER case_tags_no_delete",
            "DELETE FROM case_tags WHERE case_id = :c AND kind = 'dealer' AND value = :d",
            c=case_id, d=dealer)
    only_break(url, engine, case_id,
               f"case {case_id}: its tag dealer={dealer} is missing (its evidence names it)")


def test_a_tag_put_in_is_found(day: tuple[str, Engine]) -> None:
    """No guard is dropped: the tags are append-only, not closed."""
    url, engine = day
    case_id, _, _, record_json = rows(engine, FINDING_CASE)[0]
    assert "P9" not in players_of(record_json)
    changed(engine, "INSERT INTO case_tags (case_id, kind, value) VALUES (:c, 'player', 'P9')",
            c=case_id)
    only_break(url, engine, case_id,
               f"case {case_id}: holds tag player=P9 its evidence does not give")


def test_a_tags_value_changed_is_found(day: tuple[str, Engine]) -> None:
    url, engine = day
    case_id, _, _, record_json = rows(engine, FINDING_CASE)[0]
    player = players_of(record_json)[-1]
    changed(engine, "DROP TRIGGER case_tags_no_update",
            "UPDATE case_tags SET value = 'P9' WHERE case_id = :c AND kind = 'player' "
            "AND value = :p", c=case_id, p=player)
    only_break(url, engine, case_id,
               f"case {case_id}: its tag player={player} is missing (its evidence names it)",
               f"case {case_id}: holds tag player=P9 its evidence does not give")


def test_a_hand_put_in_or_moved_to_another_table_is_found(day: tuple[str, Engine]) -> None:
    url, engine = day
    case_id, hand, table, _ = rows(engine, FINDING_CASE)[0]
    (other,), = rows(engine, "SELECT min(hand_id) FROM hands WHERE hand_id <> :h", h=hand)
    changed(engine, "DROP TRIGGER case_hands_no_update",
            "UPDATE case_hands SET table_id = 'T009' WHERE case_id = :c AND hand_id = :h",
            "INSERT INTO case_hands (case_id, hand_id, table_id) VALUES (:c, :o, 'T001')",
            c=case_id, h=hand, o=other)
    said = {hand: f"case {case_id}: holds hand {hand} at table T009, where its evidence "
                  f"gives table {table}",
            other: f"case {case_id}: holds hand {other} (table T001) its evidence does not "
                   "give"}
    only_break(url, engine, case_id, *(said[h] for h in sorted(said)))  # by hand


def test_an_alert_gone_from_the_archive_is_one_break(day: tuple[str, Engine]) -> None:
    """Its case's rows cannot be read again from it: that is the break, once, and a row
    only it gave is not listed as extra (the case's hand and tags stay)."""
    url, engine = day
    case_id, _, _, _, alert_id = rows(engine, ALERT_CASE)[0]
    changed(engine, "DROP TRIGGER archive_alerts_no_delete",
            "DELETE FROM archive_alerts WHERE alert_id = :a", a=alert_id)
    only_break(url, engine, case_id,
               f"case {case_id}: its evidence alert:{alert_id} cannot be read again (the "
               "archive does not hold the alert), so rows no other evidence gives are "
               "not judged")


def test_a_record_that_does_not_read_is_one_break(day: tuple[str, Engine]) -> None:
    """The ledger's check lists the rewritten record too; the case's is one break."""
    url, engine = day
    case_id, hand, _, _ = rows(engine, FINDING_CASE)[0]
    changed(engine, "DROP TRIGGER hands_no_update",
            "UPDATE hands SET record_json = 'garbage' WHERE hand_id = :h", h=hand)
    found = recheck_cases(engine).breaks
    assert [(b.case_id, b.message.split(" (")[0]) for b in found] == [
        (case_id, f"case {case_id}: its evidence finding:{hand} cannot be read again")]
    assert "its booked record does not read" in found[0].message
    engine.dispose()
    body = failing_verify(url)
    assert [b["what"] for b in body["breaks"] if b["kind"] == "case"] == [found[0].message]


def test_cases_taken_in_without_an_archive(engine: Engine) -> None:
    """``open_cases`` on its own (no run archived the alert, ``worked``): the hands' cases
    are held to their booked records; the dealer's case, whose alert the archive does not
    hold, has nothing to be read again from, and is no break (a run archives an alert
    before its case takes it in, so there its absence is one)."""
    _, _, most, _ = worked(engine)
    assert recheck_cases(engine).breaks == []
    (dealer_case,), = rows(engine, "SELECT case_id FROM cases WHERE subject_kind = 'dealer'")
    changed(engine, "INSERT INTO case_tags (case_id, kind, value) VALUES (:c, 'player', 'P9')",
            c=most)
    changed(engine, "INSERT INTO case_tags (case_id, kind, value) VALUES (:c, 'player', 'P9')",
            c=dealer_case)
    assert recheck_cases(engine).breaks == [
        CaseBreak(most, f"case {most}: holds tag player=P9 its evidence does not give")]


def test_an_archived_alert_naming_two_hands(tmp_path: Path) -> None:
    """SURV-2 names its dealer and player and two hands: those and the day filed with
    its evidence are required. The game the hands give is not: which of the two hands the
    intake found booked cannot be told afterwards (on the pipeline the ledger may book
    them after the alert is taken in), so a game tag deleted there is not found."""
    url = f"sqlite:///{tmp_path}/alert.sqlite"
    engine = open_ledger(url)
    alert = sweetheart("P1")
    post_many(engine, hands())
    archive_run(engine, [], [alert])
    open_cases(engine, [], [alert], at=AT)
    assert recheck_cases(engine).breaks == []
    (case_id, day), = rows(engine, "SELECT case_id, day FROM case_evidence")
    held = set(rows(engine, "SELECT kind, value FROM case_tags"))
    assert {("dealer", "D7"), ("player", "P1"), ("day", day), ("game", "hcf")} <= held
    changed(engine, "DROP TRIGGER case_tags_no_delete",
            "DELETE FROM case_tags WHERE kind IN ('player', 'day', 'game')")
    assert recheck_cases(engine).breaks == [
        CaseBreak(case_id, f"case {case_id}: its tag day={day} is missing (its evidence "
                           "names it)"),
        CaseBreak(case_id, f"case {case_id}: its tag player=P1 is missing (its evidence "
                           "names it)")]
    engine.dispose()


def test_what_is_not_judged_when_a_source_is_unread() -> None:
    given = Given(hands={"H1": {"T1"}}, tags={("table", "T1")}, may={("day", "2026-01-05")},
                  unread=["its evidence alert:x cannot be read again (why), so ..."])
    held = ({"H2": "T1"}, {("player", "P9"), ("day", "2026-01-05")})
    assert [b.message for b in link_breaks(7, given, *held)] == [
        "case 7: its evidence alert:x cannot be read again (why), so ...",
        "case 7: its hand H1 (table T1) is missing (its evidence names it)",
        "case 7: holds hand H2 (table T1) its evidence does not give",
        "case 7: its tag table=T1 is missing (its evidence names it)",
        "case 7: holds tag player=P9 its evidence does not give"]
    given.whole = False
    assert [b.message for b in link_breaks(7, given, *held)] == [
        "case 7: its evidence alert:x cannot be read again (why), so ...",
        "case 7: its hand H1 (table T1) is missing (its evidence names it)",
        "case 7: its tag table=T1 is missing (its evidence names it)"]
