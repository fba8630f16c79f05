"""``report hand ID --events FILE`` without ``--ledger``, FILE a later day's log.

QA: a file that starts the hand's table part way through its hash chain (the days before
in other files) was replayed as if the table began there: the report of a hand the whole
log judges a sweetheart overpay said "rejected", its one finding NO_CONFIGURATION "hand
played before any table_configured event", the chain "VERIFIED", exit 0, and never said
where the file starts the table. With no booking to set the replay beside and no state to
start from, such a file is refused in one line naming the seq and what to give instead;
the whole log still gives the report. And a hand the ledger lacks is refused with what to
check, as ``ledger hand`` words it."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from services.reports.dispute import HandNotWholeInLog, dispute_from_log
from tests.profiles import PROFILES
from tests.unit.archive.support import simulated_log
from tests.unit.cli.helpers import assert_one_line_usage_error, pitwatch


def _later_day(tmp_path: Path) -> tuple[Path, Path, str, int]:
    """A clean log of two tables, and the same log from a hand of table T001 half way
    through on (a later day's file): both files, the hand, and its table's first seq in
    the later file."""
    lines = list(simulated_log(tables=2, hands=12, faults=False).lines)
    events = [orjson.loads(line) for line in lines]
    starts = [i for i, e in enumerate(events)
              if e["type"] == "hand_started" and e["table_id"] == "T001"]
    cut = starts[len(starts) // 2]
    assert events[cut]["seq"] > 1
    whole, later = tmp_path / "whole.jsonl", tmp_path / "later.jsonl"
    whole.write_bytes(b"\n".join(lines) + b"\n")
    later.write_bytes(b"\n".join(lines[cut:]) + b"\n")
    return whole, later, str(events[cut]["hand_id"]), int(events[cut]["seq"])


def test_a_later_days_log_alone_is_refused_naming_where_it_starts_the_table(
        tmp_path: Path) -> None:
    _, later, hand_id, seq = _later_day(tmp_path)
    out = tmp_path / "h.html"
    ran = pitwatch("report", "hand", hand_id, "--events", str(later), "-o", str(out))
    assert_one_line_usage_error(
        ran, f"hand {hand_id}: the event log later.jsonl starts table T001 at seq {seq}, "
             "after its first event: the hand is not re-derived from it alone",
        "give the table's log from its first event on",
        "give --ledger URL of the ledger that booked the hand")
    assert not out.exists()
    with pytest.raises(HandNotWholeInLog, match=f"starts table T001 at seq {seq}"):
        dispute_from_log(later.read_bytes().splitlines(), hand_id, PROFILES,
                         log_name="later.jsonl")


def test_the_whole_log_still_gives_the_report(tmp_path: Path) -> None:
    whole, _, hand_id, _ = _later_day(tmp_path)
    out = tmp_path / "h.html"
    ran = pitwatch("report", "hand", hand_id, "--events", str(whole), "-o", str(out))
    assert ran.code == 0, ran.stderr
    html = out.read_text(encoding="utf-8")
    assert hand_id in html and "NO_CONFIGURATION" not in html
    report = dispute_from_log(whole.read_bytes().splitlines(), hand_id, PROFILES)
    assert report.record.status == "ok" and report.findings == []


def test_a_hand_the_ledger_lacks_says_what_to_check(tmp_path: Path) -> None:
    whole, _, _, _ = _later_day(tmp_path)
    url = f"sqlite:///{tmp_path}/l.sqlite"
    assert pitwatch("adjudicate", str(whole), "--ledger", url).code == 0
    ran = pitwatch("report", "hand", "NOPE", "--ledger", url)
    assert_one_line_usage_error(ran, "hand 'NOPE' is not in the ledger at",
                                "check the hand id and the database")
