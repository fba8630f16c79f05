"""``pitwatch cases list`` shows what the console's queue shows (QA): by default every
case not closed, the cases to work (it showed closed ones too, and the console did not);
``--state any`` every case; one state, that state's cases. The cases are hand-built
(``test_cases.hands``): T1-000003's critical finding, the D7 sweetheart alert (critical)
and T1-000001's warning finding, in that order; T1-000003's case is closed here."""

from __future__ import annotations

from pathlib import Path

import orjson

from services.cases.actions import close
from services.cases.intake import open_cases
from services.cases.queries import WORK, CaseFilter, list_cases
from services.ledger.db import open_ledger
from services.ledger.posting import post_many
from tests.unit.cases.test_cases import AT, hands, sweetheart
from tests.unit.cli.helpers import assert_one_line_usage_error, pitwatch


def _closed_one(tmp_path: Path) -> str:
    """The URL of a ledger with three cases, hand:T1-000003's closed."""
    url = f"sqlite:///{tmp_path}/states.sqlite"
    engine = open_ledger(url)
    try:
        post_many(engine, hands())
        open_cases(engine, hands(), [sweetheart("P12")], at=AT)
        (done,) = [c.case_id for c in list_cases(engine) if c.subject == "hand:T1-000003"]
        close(engine, done, "no_issue", "dealer's count was right", "ann")
    finally:
        engine.dispose()
    return url


def test_cases_list_shows_the_cases_to_work_unless_asked_for_a_state(tmp_path: Path) -> None:
    url = _closed_one(tmp_path)

    def subjects(*options: str) -> list[str]:
        ran = pitwatch("cases", "list", "--db", url, "--format", "json", *options)
        assert ran.code == 0, ran.stderr
        return [r["subject"] for r in orjson.loads(ran.stdout)]

    to_work = ["dealer:D7", "hand:T1-000001"]  # most serious first; the closed one left out
    assert subjects() == to_work
    assert subjects("--state", "work") == to_work
    assert subjects("--state", "any") == ["hand:T1-000003", "dealer:D7", "hand:T1-000001"]
    assert subjects("--state", "closed") == ["hand:T1-000003"]
    assert subjects("--state", "open") == to_work
    # the limit counts the cases to work, not the closed one before them
    assert subjects("--limit", "1") == ["dealer:D7"]
    assert subjects("--severity", "critical") == ["dealer:D7"]
    assert subjects("--severity", "critical", "--state", "any") == ["hand:T1-000003",
                                                                      "dealer:D7"]
    table = pitwatch("cases", "list", "--db", url)
    assert table.code == 0 and "Cases (2)" in table.stdout
    assert_one_line_usage_error(pitwatch("cases", "list", "--db", url, "--state", "all"),
                                "--state", "choose from", "work", "any")


def test_the_query_leaves_closed_cases_out_before_the_limit(tmp_path: Path) -> None:
    url = _closed_one(tmp_path)
    engine = open_ledger(url)
    try:
        assert [c.subject for c in list_cases(engine, CaseFilter(state=WORK, limit=1))] == [
            "dealer:D7"]
        assert len(list_cases(engine, CaseFilter())) == 3  # None: every state, as before
    finally:
        engine.dispose()
