"""Daily figures of dead hands and of Chinese Poker (QA): a dead hand's returned wagers
were counted as drop ("Drop 40 | Win 0 | Hold 0.00" for a table of two dead hands), and
Chinese Poker's point payments between players showed nowhere, beside "Drop 0 | Payouts
0". Figures by hand."""

from __future__ import annotations

import re
from pathlib import Path

from services.events.contract import AdjudicationRecord
from services.ledger.db import open_ledger
from services.ledger.posting import post_many
from services.reports.daily import daily_from_ledger, daily_report, hand_money, records_of_day
from services.reports.render import render_html
from tests.unit.reports.test_daily import DAY, _m, _rec


def _dead(hand_id: str, table: str, ended: str) -> AdjudicationRecord:
    """Seats 2 and 3 ante 10 each; the hand is declared dead; both Antes go back."""
    return _rec(hand_id, table, "hcf", "d1", "all", ended,
                [_m("stack:2", "layout:2", 10, "wager"), _m("stack:3", "layout:3", 10, "wager"),
                 _m("layout:2", "stack:2", 10, "layout_return"),
                 _m("layout:3", "stack:3", 10, "layout_return")],
                {"2": 0, "3": 0, "house": 0}, status="dead")


def _won(hand_id: str, table: str, ended: str) -> AdjudicationRecord:
    """Russian: seat 1 antes 30, the house collects it: drop 30, house bank +30."""
    return _rec(hand_id, table, "russian", "d1", "none", ended,
                [_m("stack:1", "layout:1", 30, "wager"),
                 _m("layout:1", "house", 30, "wager_collected")],
                {"1": -30, "house": 30})


def _chinese(hand_id: str, ended: str) -> AdjudicationRecord:
    """Seat 1 pays seat 2 six points at 1 chip each, both pay a rake of 1."""
    return _rec(hand_id, "TC", "chinese", "d2", "all", ended,
                [_m("stack:1", "stack:2", 6, "collection"), _m("stack:1", "house", 1, "rake"),
                 _m("stack:2", "house", 1, "rake")],
                {"1": -7, "2": 5, "house": 2}, rake={"1": 1, "2": 1})


def _records() -> list[AdjudicationRecord]:
    return [_dead("TD-1", "TD", "2026-01-05T10:01:00Z"),
            _dead("TD-2", "TD", "2026-01-05T10:03:00Z"),
            _won("TM-1", "TM", "2026-01-05T11:00:00Z"),
            _dead("TM-2", "TM", "2026-01-05T11:05:00Z"),
            _chinese("TC-1", "2026-01-05T12:00:00Z"),
            _chinese("TC-2", "2026-01-05T12:05:00Z")]


def test_a_dead_hands_wagers_are_not_drop() -> None:
    money = hand_money(_dead("X", "TD", "2026-01-05T10:00:00Z"))
    assert (money.drop, money.payouts, money.returned, money.rake, money.bank) == (
        0, 0, 20, 0, 0)
    report = daily_report(records_of_day(_records(), DAY), DAY, None, "test")
    tables = {t.table_id: t.totals for t in report.tables}
    # Two dead hands only: no drop, so no hold (was "Drop 40 | Hold 0.00").
    assert (tables["TD"].hands, tables["TD"].drop, tables["TD"].win, tables["TD"].hold) == (
        2, 0, 0, "n/a")
    # One hand of drop 30 won by the house and one dead hand: hold 30/30 = 100.00 (was
    # 30/50 = 60.00).
    assert (tables["TM"].drop, tables["TM"].win, tables["TM"].hold) == (30, 30, "100.00")
    assert report.totals.returned == 60


def test_chinese_poker_shows_its_payments_between_players() -> None:
    report = daily_report(records_of_day(_records(), DAY), DAY, None, "test")
    chinese = next(t.totals for t in report.tables if t.table_id == "TC")
    assert (chinese.drop, chinese.payouts, chinese.between, chinese.rake, chinese.win) == (
        0, 0, 12, 4, 4)
    html = render_html("daily.html", d=report, generated_at="2026-01-06T08:00:00Z",
                       link=lambda h: h)
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))
    assert ("a game that settles only between players has drop and payouts 0 by "
            "definition, and its hold is n/a") in text
    assert "Paid between players" in text
    assert "TC Chinese Poker 2 12" in text
    assert ("Dead hands: 60 chip(s) wagered and returned to their players are not in the "
            "drop") in text


def test_the_reconciliation_compares_one_drop(tmp_path: Path) -> None:
    """The ledger's drop leaves dead hands out too (one definition,
    ``services.ledger.queries``): compared as it is, where the returned wagers were added
    back to the report's ("drop + wagers returned in dead hands": TD 40, TM 50)."""
    url = f"sqlite:///{tmp_path / 'ledger.sqlite'}"
    engine = open_ledger(url)
    assert all(r.status == "posted" for r in post_many(engine, _records()))
    report = daily_from_ledger(engine, DAY, None, url)
    assert report.reconciled, [r for r in report.reconciliation if not r.ok]
    rows = {(r.table_id, r.quantity): (r.report, r.ledger) for r in report.reconciliation}
    assert rows[("TD", "drop")] == (0, 0)
    assert rows[("TM", "drop")] == (30, 30)
    assert rows[("TC", "drop")] == (0, 0)
    assert not any("returned" in quantity for _, quantity in rows)
    assert report.totals.drop == 30
