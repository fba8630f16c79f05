"""``pitwatch verify --from D --to D`` of a table whose clock went back past midnight.

The archive files a segment under the UTC day of its last event, and the contract sets no
order on timestamps: after an NTP correction at midnight, a table's seqs are no longer in
day order. A one-day verify reported the other day's seqs as a ``gap`` (QA helper 96),
which the guide says means a changed database. Here one HCF table plays six hands, a
second apart, across midnight: hand 4 ends on day 2; the events between hands 4 and 5
(the designated player's offers) are stamped just before midnight, filed under day 1.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import orjson
from sqlalchemy import Engine, text

from services.archive.verify import verify_archive
from services.events.canonical import GENESIS_HASH, event_hash
from services.simulator.run import simulate
from tests.profiles import HOUSE
from tests.unit.archive.support import keep

DAY_1, DAY_2 = dt.date(2026, 1, 5), dt.date(2026, 1, 6)


def _clock_back_log() -> tuple[list[bytes], tuple[int, int]]:
    """The log, and the seqs (first, last) of the events between hands 4 and 5."""
    events: list[dict[str, Any]] = [dict(e) for e in simulate(["hcf"], 1, 6, seed=4,
                                                                 profile=HOUSE).events]
    ends = [i for i, e in enumerate(events) if e["type"] == "hand_ended"]
    between = range(ends[3] + 1, ends[4] + 1)
    between = range(between.start, next(i for i in between
                                         if events[i]["type"] == "hand_started"))
    assert len(between) > 0, "the simulated table makes no offers between hands 4 and 5"
    midnight = dt.datetime(2026, 1, 6, tzinfo=dt.UTC)
    start = midnight - dt.timedelta(seconds=ends[3] - 3)  # hand 4 ends at 00:00:03
    out, prev = [], GENESIS_HASH
    for seq, event in enumerate(events, start=1):
        at = start + dt.timedelta(seconds=seq - 1)
        if seq - 1 in between:  # stepped back: 23:59:59.9
            at = midnight - dt.timedelta(milliseconds=100)
        event = {**event, "seq": seq, "prev_hash": prev,
                 "ts": at.strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"}
        prev = event_hash(event)
        out.append(orjson.dumps(event))
    return out, (between.start + 1, between.stop)


def test_each_day_verifies_clean_with_the_seqs_filed_under_the_other(engine: Engine) -> None:
    lines, (first, last) = _clock_back_log()
    keep(engine, lines)
    with engine.connect() as conn:
        days = {str(r.day)[:10]: (r.first, r.last) for r in conn.execute(text(
            "SELECT day, min(first_seq) AS first, max(last_seq) AS last "
            "FROM archive_segments GROUP BY day"))}
    # Day 1 holds seqs on both sides of hand 4's (day 2's) events, and day 2 around the
    # offers (day 1's): neither day's seqs are one run.
    assert days[DAY_1.isoformat()] == (1, last)
    assert days[DAY_2.isoformat()][0] < first and days[DAY_2.isoformat()][1] == len(lines)
    assert verify_archive(engine).breaks == []
    for day in (DAY_1, DAY_2):
        report = verify_archive(engine, day, day)
        assert report.breaks == [], (day, report.breaks)
        assert len(report.notes) == 1 and "outside the span" in report.notes[0]
    assert verify_archive(engine, DAY_1, DAY_2).notes == []


def test_a_changed_event_filed_under_the_other_day_is_still_found(engine: Engine) -> None:
    """The seqs taken in from the other day are verified, not waved through: the last
    offer (filed under day 1) re-stamped after it was hashed breaks the chain at the
    event after it (a break the stream had at intake), and the day-2 verify reports it
    there, not as a gap."""
    lines, (_first, last) = _clock_back_log()
    changed = [orjson.loads(line) for line in lines]
    changed[last - 1] = {**changed[last - 1], "ts": "2026-01-05T23:59:59.800Z"}
    keep(engine, [*lines[:last - 1], orjson.dumps(changed[last - 1]), *lines[last:]])
    report = verify_archive(engine, DAY_2, DAY_2)
    assert [(b.seq, b.kind, b.at_intake) for b in report.breaks] == [
        (last + 1, "altered", True)]
