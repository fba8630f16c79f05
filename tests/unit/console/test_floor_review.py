"""The floor's "to review" counts the hands the daily report lists for review (QA: after
a second log re-posted hands with other bytes, refused as SURV-9 ``LEDGER_CONFLICT``, the
floor said 41 where the daily report said 398: it counted a hand's status and booking
only, not the ledger's conflicts).

By hand (tests/unit/ledger/builders.py, 2024-05-01, table T1): T1-000001 and T1-000002
are booked ``ok``; a re-post of T1-000001 with another rule profile is refused and kept as
a conflict: one hand to review, on both pages."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import msgspec
from sqlalchemy import select

from services.console.floor import table_lines
from services.ledger.db import open_ledger
from services.ledger.posting import post_many
from services.reports.daily import daily_from_ledger
from tests.unit.ledger.builders import hcf_dp_collects, hcf_seat1_wins

DAY = dt.date(2024, 5, 1)


def test_a_refused_re_post_is_to_review_on_the_floor_as_in_the_daily_report(
        tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'ledger.sqlite'}"
    engine = open_ledger(url)
    assert {p.status for p in post_many(engine, [hcf_seat1_wins(), hcf_dp_collects()])} == {
        "posted"}
    (line,) = table_lines(engine, DAY)
    assert (line.hands, line.review) == (2, 0)
    changed = msgspec.structs.replace(hcf_seat1_wins(), rule_profile="house-v2")
    (again,) = post_many(engine, [changed])
    assert [f.code for f in again.findings] == ["LEDGER_CONFLICT"], again
    (line,) = table_lines(engine, DAY)
    report = daily_from_ledger(engine, DAY, None, url)
    assert (line.hands, line.review) == (2, 1)
    assert report.tables[0].totals.review == 1


def test_the_hand_page_lists_a_refused_re_post_as_the_daily_report_does(
        tmp_path: Path) -> None:
    """The hand page said "No findings: the hand was settled as the rules say" of a hand
    whose re-post the ledger refused: it lists it now, as the critical SURV-9 finding the
    daily report counts."""
    from services.console.hands import hand_page

    engine = open_ledger(f"sqlite:///{tmp_path / 'ledger.sqlite'}")
    post_many(engine, [hcf_seat1_wins()])
    page = hand_page(engine, "T1-000001")
    assert page is not None and page.findings == []
    post_many(engine, [msgspec.structs.replace(hcf_seat1_wins(), rule_profile="house-v2")])
    page = hand_page(engine, "T1-000001")
    assert page is not None
    assert [(f.rule, f.code, f.severity) for f in page.findings] == [
        ("SURV-9", "LEDGER_CONFLICT", "critical")]
    assert "refused, the booked hand is unchanged" in page.findings[0].message


def test_a_rejected_hand_booked_without_a_day_is_to_review_on_its_archived_day(
        db_url: str, tmp_path: Path) -> None:
    """QA: a hand cut by the end of the log (run without ``--leave-open``) is booked
    rejected with no day; the daily report placed it on the day of its last archived
    events (its header said 60 need review) but its section-1 total and the floor counted
    hands by the ledger's day only (58), and the hand was on no floor.

    By hand: one HCF table, three clean hands on 2026-01-05; the log ends in the third
    (its payouts, rake and end, seq 247 on, cut off). Booked: two hands on 2026-01-05,
    none to review; the third rejected (INCOMPLETE_HAND) with no day, its events archived
    on 2026-01-05. So 2026-01-05: 2 hands, 1 to review, on T001's row, in the report's
    header, its section-1 total and the floor alike; 2026-01-06: nothing."""
    from services.console.floor import days_with_hands, floor
    from services.ledger.models import Hand
    from services.reports.render import render_html
    from tests.unit.cli.helpers import pitwatch
    from tests.unit.reports.logs import lines_of, simulated

    events, records = simulated("hcf", hands=3, faulty=False, seed=5, tables=1)
    assert [(r.hand_id, r.status) for r in records] == [
        ("T001-000001", "ok"), ("T001-000002", "ok"), ("T001-000003", "ok")]
    log = tmp_path / "cut.jsonl"
    log.write_bytes(b"\n".join(lines_of(e for e in events if e["seq"] < 247)) + b"\n")
    engine = open_ledger(db_url)
    ran = pitwatch("adjudicate", str(log), "--ledger", db_url)
    assert ran.code == 1, ran.stderr  # exit 1: a hand rejected
    with engine.connect() as conn:
        booked = {h: (s, d) for h, s, d in conn.execute(
            select(Hand.hand_id, Hand.status, Hand.day))}
    assert booked == {"T001-000001": ("ok", dt.date(2026, 1, 5)),
                      "T001-000002": ("ok", dt.date(2026, 1, 5)),
                      "T001-000003": ("rejected", None)}

    day = dt.date(2026, 1, 5)
    report = daily_from_ledger(engine, day, None, db_url)
    on_floor = floor(engine, day, dt.date(2026, 1, 7))
    assert report.review_hand_ids == ["T001-000003"]
    assert [(t.table_id, t.totals.hands, t.totals.review) for t in report.tables] == [
        ("T001", 2, 1)]
    assert (report.totals.hands, report.totals.review) == (2, 1)
    assert [(t.table_id, t.game, t.hands, t.review) for t in on_floor.tables] == [
        ("T001", "hcf", 2, 1)]
    assert (on_floor.totals.hands, on_floor.totals.review) == (2, 1)
    html = render_html("daily.html", d=report, generated_at="2026-01-07T08:00:00Z",
                       link=lambda h: h)
    assert "2 hand(s) at 1 table(s); 1 need review." in html
    total = re.search(r'<th colspan="2">All tables</th>(.*?)</tr>', html)
    assert total is not None
    cells = re.findall(r"<th[^>]*>([^<]*)</th>", total.group(1))
    assert (cells[0], cells[-1]) == ("2", "1")  # hands, to review
    assert days_with_hands(engine) == [day]
    assert floor(engine, dt.date(2026, 1, 6), dt.date(2026, 1, 7)).tables == []
    engine.dispose()
