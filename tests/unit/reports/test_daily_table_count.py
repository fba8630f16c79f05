"""The daily report counts tables, not rows of table and game (QA: one table that played
6 High Card Flush then 4 Russian hands was "10 hand(s) at 2 table(s)").

Records of ``test_daily.records``: A and B at T1 (Russian), C at T2 (Hold'em), on
2026-01-05. Added here: E at T1 under another game, and two hands at T1 whose only chips
are rake taken from the players' stacks (games "cp" and "ofc": no drop, win 3 and 2).
"""

from __future__ import annotations

import re

from msgspec import structs

from services.events.contract import AdjudicationRecord
from services.reports.cli import safe_name
from services.reports.daily import BookedHand, daily_report
from services.reports.render import render_html
from tests.unit.reports.test_daily import DAY, _m, _rec, records


def _text(hands: list[AdjudicationRecord]) -> str:
    report = daily_report([BookedHand(r) for r in hands], DAY, None, "test")
    html = render_html("daily.html", d=report, generated_at="2026-01-06T00:00:00Z",
                       link=safe_name)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_one_table_of_two_games_is_one_table() -> None:
    """A, B (T1 Russian) and E (T1 Hold'em, A's chips): 3 hands, 2 rows, 1 table."""
    a, b, _c, _d = records()
    e = structs.replace(a, hand_id="E", game="holdem")
    assert "3 hand(s) at 1 table(s);" in _text([a, b, e])


def test_two_games_without_a_drop_at_one_table_are_one_table() -> None:
    """A, B (T1 Russian: drop 40, win -10) with two rake-only hands at T1 (win 3 + 2 = 5,
    no drop): the win left out of the hold is 5, at 1 table, where it said 2."""
    a, b, _c, _d = records()
    cp = _rec("CP", "T1", "cp", "d1", "all", "2026-01-05T13:00:00Z",
              [_m("stack:1", "house", 3, "rake")], {"1": -3, "house": 3})
    ofc = _rec("OFC", "T1", "ofc", "d1", "all", "2026-01-05T14:00:00Z",
               [_m("stack:1", "house", 2, "rake")], {"1": -2, "house": 2})
    text = _text([a, b, cp, ofc])
    assert "4 hand(s) at 1 table(s);" in text
    assert "The win of the games without a drop at 1 table(s), +5" in text
