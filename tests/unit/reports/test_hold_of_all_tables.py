"""All tables' hold, in the daily report and on the console's floor: the hold of the tables
that have one, not all the win over all the drop (QA: ev1 2026-01-05 read 4,632 / 213,935
= 2.17 % with Chinese Poker's rake of 2,446 in the win, its table's own hold n/a; without
it 2,186 / 213,935 = 1.02 %).

The day, by hand (tests/unit/ledger/builders.py, 2024-05-01; every hand dealt by D7):
  T1 hcf       T1-000001 drop 10, rake 1; T1-000002 drop 5, rake 2   drop 15, win  3,  20.00
  R1 russian   drop 10 + 10, the bank takes 10 and pays 20 (-10)       drop 20, win -10, -50.00
  H1 hold'em   bets 10 + 10 into the pot, rake 1 from it               drop 20, win  1,   5.00
  C1 chinese   rake 5 + 5, points 20 between seats (not drop)          drop  0, win 10,    n/a
  All tables: drop 55, win 4; of the tables with a hold win 3 - 10 + 1 = -6 over 55:
  -10.909..% -> "-10.91" (all the win over all the drop, 4 / 55, read "7.27"); 10 left
  out, one table. D7 dealt them all: the same.
"""

from __future__ import annotations

import datetime as dt

import msgspec
from sqlalchemy import Engine

from services.console.floor import floor
from services.events.contract import AdjudicationRecord
from services.ledger.posting import post_many
from services.reports.daily import daily_from_ledger
from services.reports.render import render_html
from tests.unit.console.support import add_users, console_client, log_in
from tests.unit.ledger.builders import (
    hcf_dp_collects,
    hcf_seat1_wins,
    holdem_pot_hand,
    move,
    record,
    russian_house_hand,
)

DAY = dt.date(2024, 5, 1)


def chinese_hand() -> AdjudicationRecord:
    """Chinese Poker: seats 1 and 2 pay 5 rake each; seat 2 pays seat 1 20 points."""
    return msgspec.structs.replace(record("C1-000001", [
        move(41, "stack:1", "house", 5, "rake"),
        move(42, "stack:2", "house", 5, "rake"),
        move(43, "stack:2", "stack:1", 20, "collection"),
    ], table_id="C1"), game="chinese")


def _day(engine: Engine) -> None:
    posted = post_many(engine, [hcf_seat1_wins(), hcf_dp_collects(), russian_house_hand(),
                                msgspec.structs.replace(holdem_pot_hand(), game="holdem"),
                                chinese_hand()])
    assert {p.status for p in posted} == {"posted"}


def test_all_tables_hold_leaves_out_the_tables_without_one(engine: Engine) -> None:
    _day(engine)
    report = daily_from_ledger(engine, DAY, None, "test")
    tables = {t.table_id: (t.totals.drop, t.totals.win, t.totals.hold) for t in report.tables}
    assert tables == {"T1": (15, 3, "20.00"), "R1": (20, -10, "-50.00"),
                      "H1": (20, 1, "5.00"), "C1": (0, 10, "n/a")}
    assert (report.totals.drop, report.totals.win) == (55, 4)
    assert (report.hold.win, report.hold.drop, report.hold.hold) == (-6, 55, "-10.91")
    assert (report.hold.left_out, report.hold.tables_left_out) == (10, 1)
    assert report.dealer_holds["D7"].hold == "-10.91"

    on_floor = floor(engine, DAY, DAY)
    assert (on_floor.totals.drop, on_floor.totals.win) == (55, 4)
    assert on_floor.hold == report.hold

    html = render_html("daily.html", d=report, generated_at="2024-05-02T08:00:00Z",
                       link=lambda h: h)
    assert ('<th class="num">+4</th><th class="num">\u221210.91</th>' in html)
    assert "7.27" not in html
    assert ("All tables' hold % is the hold of the tables that have a drop: their win, "
            "\u22126, over their drop, 55.") in html
    assert ("The win of the games without a drop at 1 table(s), +10 (Chinese Poker's rake"
            in html)


def test_the_floor_page_totals_the_hold_as_the_report(engine: Engine) -> None:
    _day(engine)
    add_users(engine)
    client = console_client(engine)
    assert log_in(client, "olga") == 303
    page = client.get("/floor/live?day=2024-05-01").text
    assert ('<th class="num">+4</th><th class="num">\u221210.91</th></tr></tfoot>'
            in page), page
    assert "7.27" not in page
    assert ("All tables' hold % is the hold of the tables that have one (a drop): their "
            "win over their drop, as the daily report totals it. The win of the games "
            "without a drop at 1 table(s), +10 (Chinese Poker's rake, a fee on play "
            "between players), "
            "is in the win but not in the hold: \u22126 over 55.") in page


def test_a_day_without_a_drop_has_no_hold() -> None:
    """Only Chinese Poker (or only dead hands): no table has a hold, nor has the day."""
    from services.reports.day_figures import overall_hold

    assert overall_hold([(10, 0), (0, 0)]).hold == "n/a"
    assert overall_hold([]).hold == "n/a"
    assert overall_hold([(3, 15), (-10, 20)]).hold == "-20.00"  # -7 / 35
