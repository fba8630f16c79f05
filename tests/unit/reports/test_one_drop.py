"""One drop for one day in the daily report, the console's floor and ``ledger totals``.

"Drop" was written out three times: the daily report's ``hand_money``, the floor's SQL
and the ledger's ``table_day_totals``. A dead hand's wagers (GEN-6 / HCF-13: every wager
goes back) were left out of the first two last week and still counted by the third, so
``pitwatch ledger totals`` showed T1 a drop of 55 where the report and the floor showed
15. It is now defined once, in ``services.ledger.queries``, and the three agree.

The day, by hand (tests/unit/ledger/builders.py, 2024-05-01, table T1, game hcf):
  T1-000001: alice and bob wager 5 each           drop 10
  T1-000002: carol wagers 5                        drop  5
  T1-000009: dead, seat 1 wagers 40, returned      drop  0 (40 returned)
  drop 15; rake 1 + 2 = 3; win 3; hold 3 / 15 = 20.00%.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from typer.testing import CliRunner

from services.console.floor import table_lines
from services.events.contract import AdjudicationRecord
from services.ledger.cli import ledger_app
from services.ledger.db import open_ledger
from services.ledger.posting import post_many
from services.ledger.queries import table_day_totals
from services.reports.daily import daily_from_ledger, hand_money
from tests.unit.ledger.builders import hcf_dp_collects, hcf_seat1_wins, move, record

DAY = dt.date(2024, 5, 1)


def _dead() -> AdjudicationRecord:
    return record("T1-000009", [move(91, "stack:1", "layout:1", 40, "wager"),
                                move(92, "layout:1", "stack:1", 40, "layout_return")],
                  status="dead")


def test_the_report_the_floor_and_the_ledger_show_one_drop(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'ledger.sqlite'}"
    engine = open_ledger(url)
    dead = _dead()
    posted = post_many(engine, [hcf_seat1_wins(), hcf_dp_collects(), dead])
    assert {p.status for p in posted} == {"posted"}

    report = daily_from_ledger(engine, DAY, None, url)
    (table,) = report.tables
    (line,) = table_lines(engine, DAY)
    (totals,) = table_day_totals(engine)

    assert (table.table_id, table.totals.hands, table.totals.drop, table.totals.win,
            table.totals.hold, table.totals.returned) == ("T1", 3, 15, 3, "20.00", 40)
    assert (line.table_id, line.hands, line.drop, line.win, line.hold) == (
        "T1", 3, 15, 3, "20.00")
    assert (totals.table_id, totals.day, totals.hands, totals.drop) == ("T1", DAY, 3, 15)
    assert report.reconciled, [r for r in report.reconciliation if not r.ok]

    shown = CliRunner().invoke(ledger_app, ["totals", "--db", url, "--format", "json"])
    assert shown.exit_code == 0, shown.output
    assert '"drop": 15,' in shown.output


def test_a_dead_hands_wagers_are_not_drop_by_the_one_definition() -> None:
    from services.ledger.queries import counts_as_drop

    assert counts_as_drop("wager", "ok") and counts_as_drop("bet", "discrepancy")
    assert not counts_as_drop("wager", "dead") and not counts_as_drop("bet", "dead")
    assert not counts_as_drop("payout", "ok") and not counts_as_drop("rake", "ok")
    money = hand_money(_dead())
    assert (money.drop, money.returned) == (0, 40)


def _dead_pot_hand() -> AdjudicationRecord:
    """A dead pot hand at T1: seat 2 bets 20 into the pot, and the pot pays it back."""
    return record("T1-000010", [move(101, "stack:2", "pot", 20, "bet"),
                                move(102, "pot", "stack:2", 20, "payout")],
                  status="dead")


def test_a_dead_hands_refunds_are_not_payouts_on_either_side(tmp_path: Path) -> None:
    """The payouts leave dead hands out in the ledger's totals too, as the drop does:
    ``ledger totals`` once counted a dead hand's refunds as payouts where the report did
    not, and the reconciliation added them back ("payouts + refunds in dead hands").
    By hand: T1-000001's payout 10 (bob pays alice); the dead hand's 20 back is neither
    drop nor payout; drop 15 as above."""
    url = f"sqlite:///{tmp_path / 'ledger.sqlite'}"
    engine = open_ledger(url)
    posted = post_many(engine, [hcf_seat1_wins(), hcf_dp_collects(), _dead_pot_hand()])
    assert {p.status for p in posted} == {"posted"}, posted
    (totals,) = table_day_totals(engine)
    assert (totals.hands, totals.drop, totals.payouts) == (3, 15, 10)
    report = daily_from_ledger(engine, DAY, None, url)
    assert (report.tables[0].totals.drop, report.tables[0].totals.payouts) == (15, 10)
    rows = {r.quantity: (r.report, r.ledger) for r in report.reconciliation}
    assert rows["drop"] == (15, 15) and rows["payouts"] == (10, 10), rows
    assert report.reconciled
