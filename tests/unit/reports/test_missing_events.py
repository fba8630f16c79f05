"""A report says where a hand's events are missing from, never "not supplied" for a
source that was given.

``report hand ID --ledger URL`` of a hand whose archived events were deleted (behind the
dropped guard) said "The event log was not supplied" and exited 0; ``report daily
--events FILE`` with a file lacking some hands to review wrote each such copy as a
ledger-only report saying the log was not supplied, while its table named the log, and
said nothing. Now: the archive's loss is named (exit 1, one line on stderr), and a hand
the file lacks is read from the archive, its copy the very report ``report hand ID
--ledger URL`` writes, and stderr names each such hand (exit 1)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import orjson
import pytest
from sqlalchemy import text

from services.ledger.db import open_ledger
from services.reports.cli import ARCHIVE_NAME, safe_name
from services.reports.daily import daily_from_ledger
from services.reports.dispute import disputes_from_ledger
from tests.profiles import PROFILES
from tests.unit.archive.support import simulated_log
from tests.unit.cli.helpers import assert_one_line_usage_error, pitwatch
from tests.unit.reports.test_from_archive import STAMP, archived_day, sixth_hand

DAY = "2026-01-05"
NOT_SUPPLIED = ("The event log was not supplied (--events FILE), so this report shows the "
                "record as booked in the ledger only")
LOST = ("The event archive holds no event of this hand, though the ledger booked it and "
        "the archive holds table {table}&#39;s events (removed from the archive, or not "
        "archived yet: run `pitwatch verify`), so this report shows the record as booked "
        "in the ledger only")


def delete_archived(url: str, *hand_ids: str) -> None:
    """The hands' segments deleted, as someone who drops the archive's guard can."""
    engine = open_ledger(url)
    with engine.begin() as conn:
        conn.execute(text("DROP TRIGGER IF EXISTS archive_segments_no_delete"))
        for hand_id in hand_ids:
            conn.execute(text("DELETE FROM archive_segments WHERE hand_id = :h"),
                         {"h": hand_id})
    engine.dispose()


def review_hands(url: str) -> list[str]:
    engine = open_ledger(url)
    hands = daily_from_ledger(engine, dt.date.fromisoformat(DAY)).review_hand_ids
    engine.dispose()
    return hands


def daily_with_copies(tmp_path: Path, url: str, events: Path) -> tuple[Path, list[str]]:
    """``report daily --events EVENTS -o OUT/daily.html`` of the day, for a file lacking
    some hands to review: exit 1; OUT, and the warning lines on stderr."""
    out = tmp_path / "out"
    out.mkdir()
    ran = pitwatch("report", "daily", "--date", DAY, "--ledger", url, "--events", str(events),
                   "-o", str(out / "daily.html"), "--generated-at", STAMP)
    assert ran.code == 1, ran.stderr
    return out, [line for line in ran.stderr.splitlines() if line.startswith("warning: ")]


def table_of(hand_id: str) -> str:
    return hand_id.split("-")[0]


def report_hand(hand_id: str, url: str, *more: str) -> tuple[int, str, str]:
    ran = pitwatch("report", "hand", hand_id, "--ledger", url, "--generated-at", STAMP, *more)
    return ran.code, ran.stdout, ran.stderr


# ---------------------------------------------------------------- report hand


def test_a_hand_the_archive_lost_is_named_as_lost_not_as_not_supplied(tmp_path: Path
                                                                      ) -> None:
    url, log = archived_day(tmp_path)
    hand_id = sixth_hand(log)
    delete_archived(url, hand_id)
    code, html, said = report_hand(hand_id, url)
    assert code == 1, said
    assert LOST.format(table=table_of(hand_id)) in html
    assert "The event log was not supplied" not in html
    assert "<th>Event log</th>" not in html  # it read no events of the hand
    lines = [line for line in said.splitlines() if line.strip()]
    assert len(lines) == 1 and "Traceback" not in said, said
    assert lines[0].startswith(f"warning: hand {hand_id}: the event archive holds no event "
                               "of this hand"), said
    assert "run `pitwatch verify`" in lines[0]
    # The next hand of the table still reads its events from the archive. Re-derived
    # there, its chain now misses the lost hand's events, so its record is not the one
    # booked: the report shows both, and says so in one line, exit 1.
    after = f"{hand_id[:-6]}{int(hand_id[-6:]) + 1:06d}"
    code, html, said = report_hand(after, url)
    assert ARCHIVE_NAME in html and "holds no event" not in html, said
    assert code == 1 and [line for line in said.splitlines() if line.strip()] == [
        f"warning: hand {after}: the record booked in the ledger differs from the one the "
        "event archive re-derives (section 8 shows both); pitwatch verify checks the "
        "booking"], said


def test_a_database_kept_without_the_archive_still_says_not_supplied(tmp_path: Path
                                                                     ) -> None:
    """Nothing is lost where nothing was archived: the report is the ledger's, exit 0."""
    url = f"sqlite:///{tmp_path}/day.sqlite"
    log = tmp_path / "day.jsonl"
    log.write_bytes(b"\n".join(simulated_log().lines) + b"\n")
    assert pitwatch("adjudicate", str(log), "--ledger", url, "--no-archive").code == 0
    code, html, said = report_hand(sixth_hand(log), url)
    assert code == 0, said
    assert NOT_SUPPLIED in html and "holds no event" not in html


# ---------------------------------------------------------------- report daily


def test_hands_the_events_file_lacks_are_read_from_the_archive_and_named(tmp_path: Path
                                                                        ) -> None:
    """The file holds table T001 only. Each other hand to review: one line on stderr, and
    its copy is ``report hand ID --ledger URL``'s report byte for byte; T001's copies are
    ``report hand ID --events FILE --ledger URL``'s. One hand of another table whose
    archived events were deleted too is in neither: its copy says so (no event log
    named), and so does stderr. Exit 1."""
    url, log = archived_day(tmp_path)
    t1 = tmp_path / "t1.jsonl"
    t1.write_bytes(b"".join(line + b"\n" for line in log.read_bytes().splitlines()
                            if orjson.loads(line)["table_id"] == "T001"))
    hands = review_hands(url)
    elsewhere = [h for h in hands if table_of(h) != "T001"]
    assert elsewhere and len(elsewhere) < len(hands)  # both kinds, for the test to mean it
    gone = elsewhere[-1]
    delete_archived(url, gone)
    out, warned = daily_with_copies(tmp_path, url, t1)
    assert warned == [
        f"warning: hand {h} is in neither t1.jsonl nor the event archive: its report shows "
        "the booking only" if h == gone else
        f"warning: hand {h} is not (whole) in t1.jsonl: its report is from {ARCHIVE_NAME}, as "
        f"`pitwatch report hand {h} --ledger URL` writes it" for h in elsewhere]
    assert sorted(p.name for p in out.iterdir()) == sorted(
        ["daily.html", *(safe_name(h) for h in hands)])
    for hand_id in hands:
        copy = (out / safe_name(hand_id)).read_text()
        assert "The event log was not supplied" not in copy, hand_id
        if hand_id == gone:
            assert ("Neither the event log t1.jsonl nor the event archive holds an event of "
                    "this hand, though the ledger booked it and the archive holds table "
                    f"{table_of(gone)}&#39;s events") in copy
            assert "<th>Event log</th>" not in copy
            continue
        by_hand = (report_hand(hand_id, url) if hand_id in elsewhere
                   else report_hand(hand_id, url, "--events", str(t1)))
        assert by_hand[0] == 0, by_hand[2]
        assert copy == by_hand[1], hand_id


def test_a_hand_the_archive_lost_gets_report_hands_copy_and_a_warning(tmp_path: Path
                                                                     ) -> None:
    """Without --events: the copy of a review hand whose archived events were deleted is
    what ``report hand ID --ledger URL`` writes (the loss named), stderr says so, exit 1."""
    url, _log = archived_day(tmp_path)
    gone = review_hands(url)[0]
    delete_archived(url, gone)
    out = tmp_path / "out"
    out.mkdir()
    ran = pitwatch("report", "daily", "--date", DAY, "--ledger", url,
                   "-o", str(out / "daily.html"), "--generated-at", STAMP)
    assert ran.code == 1, ran.stderr
    warned = [line for line in ran.stderr.splitlines() if line.startswith("warning: ")]
    assert warned == [f"warning: hand {gone}: the event archive holds no event of this hand, "
                      "though the ledger booked it and the archive holds table "
                      f"{table_of(gone)}'s events (removed from the archive, or not archived "
                      "yet: run `pitwatch verify`); its report shows the booking only"]
    copy = (out / safe_name(gone)).read_text()
    assert LOST.format(table=table_of(gone)) in copy
    assert copy == report_hand(gone, url)[1]


def test_without_an_archive_every_copy_is_the_ledgers_report(tmp_path: Path) -> None:
    """A database kept with --no-archive and no --events: each copy is the ledger-only
    report ``report hand ID --ledger URL`` writes (the links of the daily report used to
    lead nowhere), one line says why, exit 0: nothing the database should hold is
    missing."""
    url = f"sqlite:///{tmp_path}/day.sqlite"
    log = tmp_path / "day.jsonl"
    log.write_bytes(b"\n".join(simulated_log().lines) + b"\n")
    assert pitwatch("adjudicate", str(log), "--ledger", url, "--no-archive").code == 0
    hands = review_hands(url)
    out = tmp_path / "out"
    out.mkdir()
    ran = pitwatch("report", "daily", "--date", DAY, "--ledger", url,
                   "-o", str(out / "daily.html"), "--generated-at", STAMP)
    assert ran.code == 0, ran.stderr
    assert "warning" not in ran.stderr
    assert (f"{len(hands)} of them show the booking only: the database holds no archive of "
            "their tables (give the event log with --events FILE)") in " ".join(
                ran.stderr.split())
    for hand_id in hands:
        assert (out / safe_name(hand_id)).read_text() == report_hand(hand_id, url)[1]


# ---------------------------------------------------------------- the library


def test_a_log_lacking_a_hand_is_said_to_lack_it(tmp_path: Path) -> None:
    """``disputes_from_ledger``: a booked hand the given lines do not hold gets the note
    that the log lacks it (not "not supplied") and names no event log; with ``missing``
    giving None it is left out for the caller to find elsewhere."""
    url, log = archived_day(tmp_path)
    hands = review_hands(url)
    lines = [line for line in log.read_bytes().splitlines()
             if orjson.loads(line)["table_id"] == table_of(hands[0])]
    engine = open_ledger(url)
    reports = disputes_from_ledger(engine, url, hands, lines, PROFILES, log_name="t.jsonl")
    left = disputes_from_ledger(engine, url, hands, lines, PROFILES, log_name="t.jsonl",
                                missing=lambda _h, _t: None)
    engine.dispose()
    lacking = {h for h in hands if table_of(h) != table_of(hands[0])}
    assert lacking and set(reports) == set(hands) and set(left) == set(hands) - lacking
    for hand_id in hands:
        report = reports[hand_id]
        if hand_id in lacking:
            assert report.notes[0].startswith(
                "The event log t.jsonl holds no event of this hand, so this report shows the "
                "record as booked in the ledger only"), report.notes
            assert report.log_name is None and report.timeline is None
        else:
            assert report.log_name == "t.jsonl" and report.timeline


def test_the_consoles_hand_report_names_a_hand_the_archive_lost(tmp_path: Path) -> None:
    """The console renders the same report: it said "not supplied" for such a hand."""
    from tests.unit.console.support import add_users, console_client, log_in

    url, log = archived_day(tmp_path)
    hand_id = sixth_hand(log)
    delete_archived(url, hand_id)
    engine = open_ledger(url)
    try:
        add_users(engine)
        client = console_client(engine)
        assert log_in(client, "dan") == 303
        page = client.get(f"/reports/hand/{hand_id}")
        assert page.status_code == 200
        assert LOST.format(table=table_of(hand_id)) in page.text
        assert "The event log was not supplied" not in page.text
    finally:
        engine.dispose()


@pytest.mark.parametrize("stamp", ["<b>not a time</b>", "2026-12-05", "2026-12-05T08:00:00",
                                   "yesterday"])
def test_a_generation_time_that_is_no_time_is_refused(stamp: str) -> None:
    """``--generated-at`` took any text and printed it as the report's generation time."""
    from tests.unit.cli.helpers import assert_one_line_usage_error

    for command in (["report", "hand", "H1"], ["report", "daily", "--date", "2026-01-05"]):
        ran = pitwatch(*command, "--generated-at", stamp)
        assert_one_line_usage_error(ran, "--generated-at", "is not a time")


@pytest.mark.parametrize("content", [
    b"hello\nnot json\n", b"\x89PNG\r\n\x1a\n\x00\x01", b"table_id,hand_id\nT1,T1-1\n",
    b'\n\n  ["not", "an object"]\n'])
def test_a_file_that_is_no_event_log_is_named_as_such(tmp_path: Path, content: bytes) -> None:
    """QA: ``report hand ID --events FILE`` of a file that is no event log (text, a PNG,
    a CSV, a JSON array) said "no event in the log belongs to hand", as if the hand were
    missing from a good log: the file is named as no JSONL event log, one line, exit 2.
    A good log lacking the hand still says that."""
    wrong = tmp_path / "wrong.txt"
    wrong.write_bytes(content)
    ran = pitwatch("report", "hand", "T1-000001", "--events", str(wrong),
                   "-o", str(tmp_path / "r.html"))
    assert_one_line_usage_error(
        ran, "wrong.txt is not a JSONL event log: its first line is not a JSON object "
             "with a table_id; give the table's event log")
    for blank in (b"", b"\n  \n\t\n"):
        wrong.write_bytes(blank)
        ran = pitwatch("report", "hand", "T1-000001", "--events", str(wrong),
                       "-o", str(tmp_path / "r.html"))
        assert_one_line_usage_error(ran, "wrong.txt holds no event (no line but blanks)")
    good = tmp_path / "day.jsonl"
    good.write_bytes(b"\n".join(simulated_log(1, 2, faults=False).lines) + b"\n")
    ran = pitwatch("report", "hand", "T9-000001", "--events", str(good),
                   "-o", str(tmp_path / "r.html"))
    assert_one_line_usage_error(ran, "no event in the log belongs to hand 'T9-000001'")


def test_hands_booked_without_a_day_are_reviewed_on_their_archived_day(tmp_path: Path
                                                                       ) -> None:
    """QA: the daily report selected hands by the ledger's day, so a hand booked without
    one (rejected: its record has no end time) was in no day's report. Day two of the
    two-day log run without ``--leave-open``: every hand of it booked rejected (GEN-5)
    with no day, its
    events archived on 2026-01-06. That day's report lists each for review, after the
    day's own (none), says why they are there, and keeps them out of the hands and money
    (counting them to review on their tables' rows); day
    one's report does not list them."""
    from services.reports.daily import daily_from_ledger
    from tests.unit.archive.test_replay import two_runs_without_leave_open

    url, one, two = two_runs_without_leave_open(tmp_path)
    engine = open_ledger(url)
    second = daily_from_ledger(engine, dt.date(2026, 1, 6))
    first = daily_from_ledger(engine, dt.date(2026, 1, 5))
    engine.dispose()
    assert second.review_hand_ids == sorted(two) and second.undated == len(two)
    assert {h.status for h in second.review} == {"rejected"}
    assert "NO_CONFIGURATION (GEN-5)" in second.review[0].codes
    # Not in the hands or money; counted to review on their tables' rows (as the floor
    # counts them), so that section 1's total says what the header says.
    assert second.totals.hands == 0 and second.totals.drop == 0
    assert {(t.totals.hands, t.totals.booked) for t in second.tables} == {(0, 0)}
    assert sum(t.totals.review for t in second.tables) == len(two) == second.totals.review
    assert set(first.review_hand_ids).isdisjoint(two) and first.undated == 0
    assert first.totals.hands == len(one)
    html = tmp_path / "daily.html"
    ran = pitwatch("report", "daily", "--date", "2026-01-06", "--ledger", url,
                   "--generated-at", STAMP, "-o", str(html))
    assert ran.code == 0, ran.stderr
    page = html.read_text()
    assert f"The last {len(two)} hand(s) were booked without a day" in page
    assert all(hand in page for hand in two)
    # Section 2 said "No findings." above the rejected hands' findings of section 4, then
    # left them out of its counts (QA: a SEQ_GAP that cut a hand short was in no count of
    # the day). Each of these hands is refused for NO_CONFIGURATION (GEN-5).
    assert (f"With the findings of the {len(two)} hand(s) booked without a day "
            "(section 4)") in page
    assert "<p>No findings" not in page
    assert ("GEN-5", "NO_CONFIGURATION", len(two)) in [
        (f.rule, f.code, f.count) for f in second.findings]
    counted = sum(f.count for f in second.findings)
    assert counted == second.totals.findings == sum(t.totals.findings for t in second.tables)
    assert counted == sum(t.findings for t in second.dealers.values())
    # Each hand's report, written beside it, says when the hand ended by its events (it
    # said "no hand_ended recorded" beside the hand_ended event it listed).
    events = [orjson.loads(line) for line in b"".join(
        (tmp_path / f"{day}.jsonl").read_bytes() for day in ("2026-01-06",)).splitlines()]
    for hand_id in sorted(two)[:3]:
        ended = next(e["ts"] for e in events
                     if e["hand_id"] == hand_id and e["type"] == "hand_ended")
        copy = (tmp_path / safe_name(hand_id)).read_text()
        assert (f"{ended} (its hand_ended event; the record, rejected, carries no end "
                "time)") in copy
        assert "no hand_ended recorded" not in copy


def test_a_file_of_another_day_warns_of_some_hands_and_counts_the_rest(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """QA: ``report daily --events FILE`` with a file holding none of the day's hands to
    review printed a warning line for each (56 lines): the first ``WARNINGS_SHOWN`` (20;
    3 here, the day having 8), then their count; every copy is still written."""
    from services.reports.cli import HandCopies

    monkeypatch.setattr(HandCopies, "WARNINGS_SHOWN", 3)
    url, _log = archived_day(tmp_path)
    other = tmp_path / "other.jsonl"
    another_table = [line.replace(b"T001", b"X001")  # no hand of the day's
                     for line in simulated_log(1, 3, seed=99, faults=False).lines]
    other.write_bytes(b"\n".join(another_table) + b"\n")
    hands = review_hands(url)
    assert len(hands) > 3  # for the test to mean it
    out, warned = daily_with_copies(tmp_path, url, other)
    assert warned[:-1] == [
        f"warning: hand {h} is not (whole) in other.jsonl: its report is from {ARCHIVE_NAME}, as "
        f"`pitwatch report hand {h} --ledger URL` writes it" for h in hands[:3]]
    assert warned[-1] == (f"warning: ... and {len(hands) - 3} more hand(s) like these (each "
                          "copy names where its events came from)")
    assert len(list(out.iterdir())) == len(hands) + 1


def test_a_file_of_records_given_for_the_events_is_refused(tmp_path: Path) -> None:
    """QA: ``report daily --events FILE`` took a file of adjudication records (what
    ``pitwatch adjudicate`` prints, given in place of its input) for an event log: exit
    0, each hand's copy saying the log held its events but made no record of it; and an
    empty file warned once a hand to review. Both are named in one line, exit 2, before
    any report is written, by ``report daily`` and ``report hand`` alike."""
    url, log = archived_day(tmp_path)
    records = tmp_path / "records.jsonl"
    records.write_text(pitwatch("adjudicate", str(log)).stdout, encoding="utf-8")
    assert orjson.loads(records.read_bytes().splitlines()[0])["status"] == "ok"
    out = tmp_path / "out"
    out.mkdir()
    daily = ["report", "daily", "--date", DAY, "--ledger", url, "-o", str(out / "daily.html")]
    hand = ["report", "hand", sixth_hand(log), "--ledger", url, "-o", str(out / "hand.html")]
    for command in (daily, hand):
        ran = pitwatch(*command, "--events", str(records))
        assert_one_line_usage_error(
            ran, "records.jsonl is not a JSONL event log: its first line is an adjudication "
                 "record (pitwatch adjudicate's output), not an event; give the table's "
                 "event log")
    records.write_bytes(b'{"table_id": "T1", "hand_id": "T1-1"}\n')
    ran = pitwatch(*daily, "--events", str(records))
    assert_one_line_usage_error(ran, "its first line is a JSON object with no event type")
    records.write_bytes(b"")
    ran = pitwatch(*daily, "--events", str(records))
    assert_one_line_usage_error(ran, "records.jsonl holds no event (no line but blanks)")
    assert list(out.iterdir()) == []
    ran = pitwatch(*daily, "--events", str(log))
    assert ran.code == 0, ran.stderr
