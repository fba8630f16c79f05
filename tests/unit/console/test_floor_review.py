"""The floor's "to review" counts the hands the daily report lists for review (QA: after
a second log re-posted hands with other bytes, refused as SURV-9 ``LEDGER_CONFLICT``, the
floor said 41 where the daily report said 398: it counted a hand's status and booking
only, not the ledger's conflicts).

By hand (tests/unit/ledger/builders.py, 2024-05-01, table T1): T1-000001 and T1-000002
are booked ``ok``; a re-post of T1-000001 with another rule profile is refused and kept as
a conflict: one hand to review, on both pages."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import msgspec

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
