"""A timestamp is a real instant (docs/events.md, envelope ``ts``; issue #19 item 3)."""

from __future__ import annotations

import pytest

from services.adjudicator.embedded import adjudicate_lines
from services.adjudicator.intake import ParsedEvent, Rejection, parse_record
from services.events.timestamps import timestamp_problem
from tests.profiles import PROFILES
from tests.unit.core.streams import hcf_stream, lines


@pytest.mark.parametrize(("ts", "problem"), [
    ("2026-01-05T18:00:01.176Z", None),
    ("2024-02-29T00:00:00Z", None),  # divisible by 4
    ("2000-02-29T00:00:00Z", None),  # divisible by 400
    ("1900-02-29T00:00:00Z", "February 1900 has 28 days"),  # by 100, not by 400
    ("2100-02-29T00:00:00Z", "February 2100 has 28 days"),
    ("2026-02-30T18:00:00.000Z", "February 2026 has 28 days"),
    ("2026-04-31T00:00:00Z", "April 2026 has 30 days"),
    ("2026-06-31T00:00:00Z", "June 2026 has 30 days"),
    ("2026-09-31T00:00:00Z", "September 2026 has 30 days"),
    ("2026-11-31T00:00:00Z", "November 2026 has 30 days"),
    ("2026-12-31T23:59:59.999999999+00:00", None),
    ("0000-01-01T00:00:00Z", "there is no year 0000"),
    ("0001-01-01T00:00:00Z", None),
])
def test_calendar(ts: str, problem: str | None) -> None:
    found = timestamp_problem(ts)
    assert (found is None) if problem is None else (found is not None and problem in found)


def _with_ts(ts: str) -> bytes:
    event = hcf_stream()[4]
    event["ts"] = ts
    return lines([event])[0]


@pytest.mark.parametrize("ts", [
    "2026-02-30T18:00:00.000Z",
    "2026-13-01T00:00:00Z",  # month 13
    "2026-01-32T00:00:00Z",  # day 32
    "0000-00-00T00:00:00Z",
    "2026-01-00T00:00:00Z",
    "2026-01-05T24:00:00Z",
    "2026-01-05T23:60:00Z",
    "2016-12-31T23:59:60Z",  # a real leap second: rejected, see timestamps.py
    "\u0662\u0660\u0662\u0666-01-05T18:00:01Z",  # Arabic-Indic digits matched \\d
    "2026-01-05T18:00:01+01:00",  # not UTC
    "2026-01-05t18:00:01z",
])
def test_impossible_or_non_utc_timestamps_are_rejected_at_ts(ts: str) -> None:
    result = parse_record(_with_ts(ts), "line 1")
    assert isinstance(result, Rejection)
    assert result.reason.startswith("schema: ") and result.reason.endswith("at `$.ts`")
    assert result.table_id in (None, "T1")


def test_the_calendar_reason_says_which_day_does_not_exist() -> None:
    result = parse_record(_with_ts("2026-02-30T18:00:00.000Z"), "line 1")
    assert isinstance(result, Rejection)
    assert result.reason == ("schema: '2026-02-30T18:00:00.000Z' is not a real instant: "
                             "February 2026 has 28 days - at `$.ts`")
    assert result.table_id == "T1"


@pytest.mark.parametrize("ts", ["2026-01-05T18:00:01.567+02:00", "2026-01-05T18:00:01-05:00",
                                "2026-01-05T18:00:01-00:00", "2026-01-05 18:00:01Z"])
def test_a_timestamp_not_in_the_contracts_form_is_said_in_words(ts: str) -> None:
    """Not msgspec's regular expression (QA helper 96): what is wrong, and what to write."""
    result = parse_record(_with_ts(ts), "line 1")
    assert isinstance(result, Rejection)
    assert result.reason == (
        f"schema: ts '{ts}' is not an RFC 3339 UTC timestamp of the contract (write it in "
        "UTC with Z or +00:00, 0 to 9 fraction digits, e.g. 2026-01-05T18:00:01.567Z) - "
        "at `$.ts`")
    assert "regex" not in result.reason


def test_a_leap_day_passes() -> None:
    assert isinstance(parse_record(_with_ts("2024-02-29T18:00:00.000Z"), "x"), ParsedEvent)


def test_an_impossible_hand_end_never_reaches_a_record() -> None:
    """The issue's stream: hand 1 ends on 2026-02-30. Its hand_ended is dead-lettered, so
    no record carries that ``ended_at`` (the ledger and the metrics never see it)."""
    events = hcf_stream()
    events[8]["ts"] = "2026-02-30T18:00:00.000Z"  # seq 9, hand 1's hand_ended
    records, dead = [], []
    for step in adjudicate_lines(lines(events), PROFILES):
        records += step.records
        dead += step.dead_letters
    assert [d.where for d in dead] == ["line 9"]
    assert "February 2026 has 28 days" in dead[0].reason
    assert all(r.ended_at is None or not r.ended_at.startswith("2026-02-30") for r in records)
