"""Timestamps written ``+00:00`` (the contract takes it as well as ``Z``) are shown right:
the dispute timeline gave ``23:59:37.576+00:0`` (QA). Where a report shows an event's
timestamp, it shows the ``Z`` form, whichever the table sent; the stored data keeps its
own."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from services.reports.daily import BookedHand, daily_report
from services.reports.dispute import dispute_from_log
from services.reports.render import clock, render_html, utc
from tests.profiles import PROFILES
from tests.unit.reports.logs import adjudicate, lines_of, rechain, simulated


def test_utc_and_clock_of_both_forms() -> None:
    assert utc("2026-01-05T23:59:37.576+00:00") == "2026-01-05T23:59:37.576Z"
    assert utc("2026-01-05T23:59:37.576Z") == "2026-01-05T23:59:37.576Z"
    assert utc("2026-01-05T23:59:37+00:00") == "2026-01-05T23:59:37Z"
    assert utc(None) == ""
    assert clock("2026-01-05T23:59:37.576+00:00") == "23:59:37.576"
    assert clock("2026-01-05T23:59:37.576Z") == "23:59:37.576"
    assert clock("2026-01-05T08:00:00+00:00") == "08:00:00"


def _plus_zero(events: Any, hand_id: str) -> list[dict[str, Any]]:
    """Every timestamp of ``hand_id`` written +00:00 instead of Z, chain recomputed."""
    def edit(event: dict[str, Any]) -> None:
        if event["hand_id"] == hand_id and event["ts"].endswith("Z"):
            event["ts"] = event["ts"][:-1] + "+00:00"
    return rechain(events, edit)


def test_the_dispute_report_shows_times_of_a_plus_zero_hand() -> None:
    events, _ = simulated("hcf", hands=6, faulty=False, tables=1)
    hand_id = next(e["hand_id"] for e in events if e["type"] == "hand_ended")
    edited = _plus_zero(events, hand_id)
    ended = next(e["ts"] for e in edited
                 if e["hand_id"] == hand_id and e["type"] == "hand_ended")
    assert ended.endswith("+00:00")  # the log as sent
    report = dispute_from_log(lines_of(edited), hand_id, PROFILES)
    html = render_html("dispute.html", r=report, generated_at="2026-01-06T08:00:00Z")
    assert "+00:0" not in html
    # "Hand ended" in the Z form; the timeline's time of day whole (12 characters).
    assert f"<td class=\"id\">{ended[:-6]}Z</td>" in html
    times = re.findall(r'<tr><td class="id">([0-9:.]+)</td>', html)
    assert times and all(len(t) == len("23:59:37.576") for t in times), times
    assert ended[11:-6] in times
    assert report.record.ended_at == ended  # the record keeps what the table sent


def test_the_daily_review_list_shows_the_z_form() -> None:
    events, _ = simulated("hcf", hands=6, faulty=True, tables=1)
    records = adjudicate(events)
    wrong = next(r for r in records if r.status == "discrepancy")
    edited = _plus_zero(events, wrong.hand_id)
    record = next(r for r in adjudicate(edited) if r.hand_id == wrong.hand_id)
    assert record.ended_at is not None and record.ended_at.endswith("+00:00")
    day = dt.date.fromisoformat(record.ended_at[:10])
    report = daily_report([BookedHand(record)], day, None, "test")
    html = render_html("daily.html", d=report, generated_at="2026-01-06T08:00:00Z",
                       link=lambda h: f"hand-{h}.html")
    assert f">{record.ended_at[:-6]}Z</td>" in html
    assert "+00:00" not in html
