"""``pitwatch replay`` of tables whose first days were detached past retention (QA): a
replay starts a table at its first archived event, and after a detach the table as it
stood then (its configuration, seats, stacks) is only in the detached day. Replayed from
there, every live hand came back rejected (SEQ_GAP, NO_CONFIGURATION) and the command
listed all of them as differing, exit 1: an audit failed for nothing. Now such tables are
left out with a note naming them and their last detached day when no checkpoint at the cut
holds them (days detached here by ``detach_days`` alone, as an older pitwatch detached
them; ``test_detach_cut.py``: ``archive detach`` makes one); a span of only them is
refused in one line (exit 2); days attached again replay as before. A report of such a hand (no
checkpoint made before the detach) said the booking was changed: it now says the archive
cannot re-derive it and why; verify of a detached day says the day is detached. PostgreSQL only: SQLite's
archive has no partitions to detach."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from pathlib import Path

import orjson
import pytest
from sqlalchemy import Engine, text

from services.archive.checkpoints import make_checkpoints
from services.archive.partitions import detach_days, detachable_days
from services.archive.replay import replay_archive
from services.archive.verify import verify_archive
from tests.profiles import PROFILES
from tests.unit.archive.support import keep
from tests.unit.archive.test_verify_start import two_day_log
from tests.unit.cli.helpers import assert_one_line_usage_error, pitwatch

DAY_ONE, DAY_TWO = dt.date(2026, 1, 5), dt.date(2026, 1, 6)


def hands_ended_on(lines: list[bytes], day: dt.date) -> Counter[str]:
    """Each table's hands whose ``hand_ended`` event is stamped ``day``, from the log."""
    ended: Counter[str] = Counter()
    for line in lines:
        event = orjson.loads(line)
        if event["type"] == "hand_ended" and event["ts"].startswith(day.isoformat()):
            ended[event["table_id"]] += 1
    return ended


@pytest.mark.integration
def test_tables_with_detached_first_days_are_left_out_with_a_note(pg_engine: Engine,
                                                                  tmp_path: Path) -> None:
    lines = two_day_log()
    keep(pg_engine, lines)
    day_two = hands_ended_on(lines, DAY_TWO)
    assert sorted(day_two) == ["T001", "T002", "T003"] and all(day_two.values())
    before = replay_archive(pg_engine, DAY_TWO, DAY_TWO, PROFILES)
    assert (before.hands, before.same, before.differences) == (sum(day_two.values()),
                                                               sum(day_two.values()), [])
    assert detachable_days(pg_engine, dt.date(2033, 1, 6), 7) == [DAY_ONE]
    detach_days(pg_engine, [DAY_ONE], "2033-01-06T09:00:00Z")

    after = replay_archive(pg_engine, DAY_TWO, DAY_TWO, PROFILES)
    assert (after.hands, after.differences, after.tables) == (0, [], 0)
    assert after.detached == {t: (n, DAY_ONE) for t, n in day_two.items()}
    url = pg_engine.url.render_as_string(hide_password=False)
    for span in (DAY_TWO, DAY_ONE):
        ran = pitwatch("replay", "--db", url, "--from", span.isoformat(),
                       "--to", span.isoformat())
        if span == DAY_TWO:
            assert_one_line_usage_error(
                ran, f"{sum(day_two.values())} booked hand(s) of the span are not "
                "replayed: they are at tables whose first days are detached past "
                "retention (T001 (through 2026-01-05), T002 (through 2026-01-05), T003 "
                "(through 2026-01-05))", "no checkpoint at the cut holds the table",
                "restore those days' tables, attach them again and run `pitwatch archive "
                "detach` again")
            assert "Invalid value" not in ran.stderr
        else:  # the detached day itself: its events are not in the live archive either
            assert_one_line_usage_error(ran, "first days are detached")

    # verify of the detached day: nothing live to check, and it says why (it said to
    # archive a run).
    ran = pitwatch("verify", "--db", url, "--from", "2026-01-05", "--to", "2026-01-05")
    assert ran.code == 0, ran.stderr
    assert ("the archive holds nothing here: 1 day(s) of it (2026-01-05) are detached past "
            "retention") in " ".join(ran.stderr.split()), ran.stderr

    # A report of a live hand of T001 (its day two) and of a hand on the detached day:
    # the booking only, exit 1, saying why; it said the booking was changed (QA).
    hands = {day: [e["hand_id"] for e in map(orjson.loads, lines)
                   if e["type"] == "hand_ended" and e["table_id"] == "T001"
                   and e["ts"].startswith(day.isoformat())] for day in (DAY_ONE, DAY_TWO)}
    assert hands[DAY_ONE] and hands[DAY_TWO]
    # The hand of the detached day says its own day is cold, and no more: no checkpoint
    # is missing, and a detach again would not bring it back (QA: it said both).
    why = {hands[DAY_TWO][-1]: "table T001's first days, through 2026-01-05, are detached "
                               "past retention",
           hands[DAY_ONE][0]: "it ended on 2026-01-05, a day of table T001 detached past "
                              "retention: restore that day's table and attach it again to "
                              "re-derive it (docs/archive.md, Retention)"}
    for hand_id, reason in why.items():
        out = tmp_path / f"{hand_id}.html"
        ran = pitwatch("report", "hand", hand_id, "--ledger", url, "-o", str(out))
        assert ran.code == 1, ran.stderr
        said = " ".join(ran.stderr.split())
        assert f"hand {hand_id}: the event archive cannot re-derive this hand: {reason}" \
            in said, ran.stderr
        assert ("archive detach` again" in said) == (hand_id == hands[DAY_TWO][-1]), said
        html = out.read_text()
        assert "changed after the hand was booked" not in html
        assert "cannot re-derive this hand" in " ".join(html.split())

    with pg_engine.begin() as conn:  # the day restored: attached again
        conn.execute(text("ALTER TABLE archive_segments ATTACH PARTITION "
                          "archive_segments_20260105 FOR VALUES FROM ('2026-01-05') "
                          "TO ('2026-01-06')"))
    again = replay_archive(pg_engine, DAY_TWO, DAY_TWO, PROFILES)
    assert (again.hands, again.same, again.differences, again.detached) == (
        sum(day_two.values()), sum(day_two.values()), [], {})
    ran = pitwatch("report", "hand", hands[DAY_TWO][-1], "--ledger", url,
                   "-o", str(tmp_path / "again.html"))
    assert ran.code == 0, ran.stderr


@pytest.mark.integration
def test_a_checkpoint_inside_a_detached_day_is_said_to_be_there(pg_engine: Engine) -> None:
    """Checkpoints every 400 lines, then the first day detached: verify notes each of the
    day's checkpoints as not used because its day is detached (it said the archive now
    holds other counts of segments and lines up to it, which it does not); the second
    day's are used, and derived clean."""
    lines = two_day_log()
    keep(pg_engine, lines)
    made = make_checkpoints(pg_engine, PROFILES, "2026-12-06T12:00:00Z", every=400)
    with pg_engine.connect() as conn:
        on_day_one = conn.execute(text("SELECT count(*) FROM archive_checkpoints WHERE day = "
                                       "'2026-01-05'")).scalar_one()
    assert made.skipped == [] and on_day_one > 0
    detach_days(pg_engine, [DAY_ONE], "2033-01-06T09:00:00Z")
    report = verify_archive(pg_engine, profiles=PROFILES)
    assert report.archive_breaks == []
    unused = [n for n in report.notes if "is not used" in n]
    assert len(unused) == on_day_one, report.notes
    assert all(n.endswith("is not used: its day, 2026-01-05, is detached past retention (a "
                          "replay starts from a checkpoint in the live archive)")
               for n in unused), unused


@pytest.mark.integration
def test_the_daily_report_of_a_detached_day_says_its_hands_day_is_cold(
        pg_engine: Engine, tmp_path: Path) -> None:
    """The hands to review of a day detached past retention: each one's note says the
    day it ended on is detached, as ``report hand`` says; the daily report gave the
    table's reason ("no checkpoint at that cut lets a replay start after them") and said
    to run ``archive detach`` again, which detached the day again (QA)."""
    lines = two_day_log(faults=True)
    keep(pg_engine, lines)
    detach_days(pg_engine, [DAY_ONE], "2033-01-06T09:00:00Z")
    url = pg_engine.url.render_as_string(hide_password=False)
    ran = pitwatch("report", "daily", "--date", DAY_ONE.isoformat(), "--ledger", url,
                   "-o", str(tmp_path / "daily.html"))
    notes = [line for line in " ".join(ran.stderr.split()).split("hand ")
             if "cannot re-derive this hand" in line]
    assert notes, ran.stderr
    for note in notes:
        table = note.split("-")[0]
        assert (f"the event archive cannot re-derive this hand: it ended on 2026-01-05, a "
                f"day of table {table} detached past retention: restore that day's table "
                "and attach it again") in note, note
        assert "archive detach` again" not in note
