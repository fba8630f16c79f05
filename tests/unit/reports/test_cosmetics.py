"""Report cosmetics (QA): one minus sign, no "-0.00", a refused hand's record not called
booked, and ``report daily --date`` refusing a day that does not exist as the other
commands do. Expected texts written by hand."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import msgspec

from services.ledger.db import open_ledger
from services.ledger.posting import post_many
from services.reports.daily import TableDay, Totals, daily_report
from services.reports.day_figures import percent
from services.reports.dispute import dispute_from_ledger
from services.reports.render import render_html
from tests.profiles import PROFILES
from tests.unit.cli.helpers import assert_one_line_usage_error, pitwatch
from tests.unit.reports.logs import simulated


def test_a_loss_that_rounds_to_zero_is_zero() -> None:
    """-1 / 100,000 = -0.001 % -> "0.00"; -1 / 200 = -0.5 % stays "-0.50"."""
    assert percent(-1, 100_000) == "0.00"
    assert percent(-1, 200) == "-0.50"


def test_hold_uses_the_minus_sign_of_the_chip_figures() -> None:
    """A table with drop 4,215 and win -209: hold -4.958.. % -> "−4.96" beside "−209"."""
    report = daily_report([], dt.date(2026, 1, 5), None, "test")
    report.totals = Totals(hands=3, booked=3, drop=4215, payouts=4424, rake=0, bank=-209)
    # the all-tables hold is its tables' (``DailyReport.hold``): one table, these figures
    report.tables = [TableDay("T1", "hcf", "High Card Flush", totals=report.totals)]
    html = render_html("daily.html", d=report, generated_at="2026-01-06T08:00:00Z",
                       link=lambda h: h)
    assert '<th class="num">−209</th><th class="num">−4.96</th>' in html
    assert "-4.96" not in html


def test_a_refused_hands_record_is_not_called_booked(tmp_path: Path) -> None:
    _events, records = simulated("hcf", hands=6, seed=9, tables=1)
    victim = next(r for r in records if r.movements)
    assert victim.movements is not None
    broken = msgspec.structs.replace(victim, movements=victim.movements[:-1])
    url = f"sqlite:///{tmp_path / 'ledger.sqlite'}"
    engine = open_ledger(url)
    assert [r.status for r in post_many(engine, [broken])] == ["refused"]
    report = dispute_from_ledger(engine, url, victim.hand_id, PROFILES)
    html = render_html("dispute.html", r=report, generated_at="2026-01-06T08:00:00Z")
    section = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html[html.index("8. In the ledger"):]))
    assert ("Booking refused: the ledger keeps the record on file, with its findings, but "
            "booked no chips for it") in section
    assert "SHA-256 of the record on file (not booked)" in section
    assert "booked record" not in section


def test_report_daily_names_a_day_that_does_not_exist_as_cases_list_does(
        tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/never-opened.sqlite"
    ran = pitwatch("report", "daily", "--date", "2026-02-30", "--ledger", url)
    assert_one_line_usage_error(ran, "--date", "'2026-02-30' is not a day: write YYYY-MM-DD")
    other = pitwatch("cases", "list", "--date", "2026-02-30", "--db", url)
    assert "'2026-02-30' is not a day: write YYYY-MM-DD" in other.stderr
