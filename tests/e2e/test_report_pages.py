"""Every report fits its pages: rendered to PNG, no content in the page margins.

The daily report carries surveillance alerts with long messages and 40 evidence hands
(a sweethearting dealer), the dispute reports a faulty hand of every game with the
ledger and the alerts; the check itself is shown to catch a table wider than the page.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from pathlib import Path

import pytest

from services.events.contract import AdjudicationRecord
from services.ledger.db import open_ledger
from services.ledger.posting import post_many
from services.reports.daily import daily_from_ledger
from services.reports.dispute import dispute_from_ledger
from services.reports.render import html_to_pdf, render_html
from services.surveillance import surveil_lines, surveillance_config
from tests.e2e.pages import overflow
from tests.profiles import HOUSE, PROFILES
from tests.unit.reports.logs import GAMES, lines_of, simulated
from tests.unit.surveillance.sweetheart import sweethearting_log

STAMP = "2026-01-06T08:00:00Z"


def _busiest_day(records: list[AdjudicationRecord]) -> dt.date:
    days = Counter(r.ended_at[:10] for r in records if r.ended_at)
    return dt.date.fromisoformat(days.most_common(1)[0][0])


def test_the_check_finds_a_table_wider_than_the_page() -> None:
    """A 300 mm wide table on a 210 mm page: the right margin has ink."""
    html = ('<html><body><table style="width:300mm;border:2px solid black"><tr>'
            '<td>wide</td><td style="text-align:right">edge</td></tr></table></body></html>')
    page = ('<style>@page { size: A4; margin: 16mm 14mm 18mm 14mm; }</style>' + html)
    assert overflow(html_to_pdf(page)) == ["page 1: content in the right margin"]


def test_daily_report_with_alerts_fits_the_page(tmp_path: Path) -> None:
    lines = sweethearting_log(tables=2, hands=400, seed=3)
    run = surveil_lines(((line, f"line {i}") for i, line in enumerate(lines, 1)),
                        surveillance_config(HOUSE), PROFILES)
    assert run.alerts, "the sweethearting dealer is alerted (SURV-2)"
    url = f"sqlite:///{tmp_path / 'ledger.sqlite'}"
    engine = open_ledger(url)
    post_many(engine, run.records)
    report = daily_from_ledger(engine, _busiest_day(run.records), None, url)
    report.attach_alerts(run.alerts, "alerts.jsonl")
    assert report.alerts and report.review
    html = render_html("daily.html", d=report, generated_at=STAMP, link=lambda h: h)
    assert overflow(html_to_pdf(html)) == []


@pytest.mark.parametrize("game", GAMES)
def test_dispute_report_of_a_faulty_hand_fits_the_page(game: str, tmp_path: Path) -> None:
    events, records = simulated(game, hands=60, seed=9)
    url = f"sqlite:///{tmp_path / 'ledger.sqlite'}"
    engine = open_ledger(url)
    post_many(engine, records)
    worst = max(records, key=lambda r: (len(r.findings), r.hand_id))
    report = dispute_from_ledger(engine, url, worst.hand_id, PROFILES, lines_of(events),
                                 log_name="events.jsonl")
    html = render_html("dispute.html", r=report, generated_at=STAMP)
    assert overflow(html_to_pdf(html)) == []
