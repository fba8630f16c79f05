"""``pitwatch archive detach`` checkpoints every table at the cut before it detaches (QA: a
week of operations, nightly checkpoints every 100,000 lines, then a detach: every day-07
dispute report was "booking only", saying to run `archive checkpoint` before a detach,
which the operator had done; `pitwatch replay` of the live days was refused, exit 2).

The last nightly checkpoint lay inside the detached day, where it cannot be used: the
events after it are cold. The checkpoint at the cut (after each table's last event of
the days detached) is continued by the first live event, so the first live hand of a
table reports from the archive, and a replay of the live days starts there.
PostgreSQL only: SQLite's archive has no partitions to detach."""

from __future__ import annotations

import datetime as dt
import re
import sys
import types
from pathlib import Path

import orjson
import pytest
from sqlalchemy import Engine, text

import services.archive.cli as archive_cli
from services.archive.checkpoints import make_checkpoints
from services.archive.verify import verify_archive
from tests.profiles import PROFILES
from tests.unit.archive.support import keep
from tests.unit.archive.test_replay_detached import DAY_ONE, DAY_TWO, hands_ended_on
from tests.unit.archive.test_verify_start import two_day_log
from tests.unit.cli.helpers import pitwatch

NOW = dt.datetime(2033, 1, 6, 9, 0, tzinfo=dt.UTC)  # seven years on: DAY_ONE is past retention


class _Pinned(dt.datetime):
    @classmethod
    def now(cls, tz: dt.tzinfo | None = None) -> _Pinned:
        return cls.fromtimestamp(NOW.timestamp(), tz)


def _pin_now(monkeypatch: pytest.MonkeyPatch) -> None:
    shim = types.SimpleNamespace(**{**vars(dt), "datetime": _Pinned})
    monkeypatch.setattr(archive_cli, "dt", shim)


@pytest.mark.integration
def test_detach_checkpoints_each_table_at_the_cut_so_later_hands_stay_rederivable(
        pg_engine: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lines = two_day_log()
    keep(pg_engine, lines)
    nightly = make_checkpoints(pg_engine, PROFILES, "2026-01-06T01:00:00Z", every=400)
    assert nightly.skipped == [] and nightly.checkpoints > 0
    with pg_engine.connect() as conn:
        # What the cut replays, from the tables themselves: each table's lines of day one
        # after its last checkpoint there.
        since = conn.execute(text(
            "SELECT s.table_id, sum(s.events) - coalesce((SELECT max(c.lines) FROM "
            "archive_checkpoints c WHERE c.table_id = s.table_id AND c.day = :d), 0), "
            "sum(s.events) FROM archive_segments s WHERE s.day = :d GROUP BY s.table_id "
            "ORDER BY s.table_id"), {"d": DAY_ONE}).all()
    assert [t for t, _, _ in since] == ["T001", "T002", "T003"]
    replayed = sum(int(n) for _, n, _ in since)
    assert replayed > 0
    url = pg_engine.url.render_as_string(hide_password=False)
    _pin_now(monkeypatch)

    dry = pitwatch("archive", "detach", "--db", url, "--dry-run", columns=400)
    assert dry.code == 0, dry.stderr
    assert dry.error_lines == [
        "would detach archive_segments_20260105",
        f"would make 3 checkpoint(s) at the cut (one per table, after its last event in "
        f"those days), replaying {replayed:,} archived line(s) since each table's last "
        "checkpoint",
        "1 day(s) older than 7 year(s) (dry run)"], dry.stderr
    with pg_engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM archive_checkpoints")).scalar_one() \
            == nightly.checkpoints  # the dry run made none

    ran = pitwatch("archive", "detach", "--db", url, columns=400)
    assert ran.code == 0, ran.stderr
    assert (f"made 3 checkpoint(s) at the cut, replaying {replayed:,} archived line(s) "
            "being detached since each table's last checkpoint") in ran.stderr, ran.stderr
    assert "detached archive_segments_20260105" in ran.stderr
    with pg_engine.connect() as conn:
        cut = conn.execute(text(
            "SELECT table_id, lines FROM archive_checkpoints WHERE day = :d AND lines IN "
            "(SELECT sum(events) FROM archive_segments_20260105 x WHERE x.table_id = "
            "archive_checkpoints.table_id) ORDER BY table_id"), {"d": DAY_ONE}).all()
    assert [(t, n) for t, n in cut] == [(t, int(total)) for t, _, total in since]

    # The first live hand of a table (its first hand ended on day two) and the last: from
    # the archive, re-derived, exit 0 (they were "booking only", exit 1).
    ended = [e for e in map(orjson.loads, lines) if e["type"] == "hand_ended"
             and e["table_id"] == "T002" and e["ts"].startswith(DAY_TWO.isoformat())]
    for hand_id in (ended[0]["hand_id"], ended[-1]["hand_id"]):
        out = tmp_path / f"{hand_id}.html"
        report = pitwatch("report", "hand", hand_id, "--ledger", url, "-o", str(out))
        assert report.code == 0, report.stderr
        html = " ".join(out.read_text().split())
        assert "cannot re-derive" not in html
        assert "restored from the checkpoint of table T002" in html, html[:2000]
    # The first live hand begins right after the cut: its first event's link is checked
    # against where the chain stood at the end of the detached day (archive_detached).
    with pg_engine.connect() as conn:
        stood = conn.execute(text("SELECT last_hash FROM archive_detached WHERE table_id = "
                                  "'T002'")).scalar_one()
    first = " ".join(re.sub(r"<[^>]+>", " ", (tmp_path / f"{ended[0]['hand_id']}.html")
                            .read_text()).split())
    assert f"prev_hash of the first event {stood}" in first
    assert "VERIFIED: every event of the hand links to the one before it" in first

    # The live day replayed from the cut: every hand of it compared, none differs.
    day_two = hands_ended_on(lines, DAY_TWO)
    replay = pitwatch("replay", "--db", url, "--from", DAY_TWO.isoformat(), "--to",
                      DAY_TWO.isoformat(), columns=400)
    assert replay.code == 0, replay.stderr
    assert (f"replayed {sum(day_two.values())} hand(s) of 3 table(s)" in replay.stderr
            and ": 0 differ" in replay.stderr), replay.stderr
    # A span reaching into the detached day: its hands are said to be left out.
    both = pitwatch("replay", "--db", url, "--from", DAY_ONE.isoformat(), "--to",
                    DAY_TWO.isoformat(), columns=400)
    assert both.code == 0, both.stderr
    assert "are not replayed" in both.stderr and ": 0 differ" in both.stderr

    found = verify_archive(pg_engine, profiles=PROFILES)
    assert found.archive_breaks == [], found.breaks

    # The cut checkpoint of T002 forged (another checkpoint's state and hash copied over
    # it, the guard switched off): it cannot be derived itself, its events detached, so
    # the difference shows at the next checkpoint, derived from it. It was blamed on that
    # genuine one alone (QA): the break now says either may be the changed one.
    with pg_engine.begin() as conn:
        conn.execute(text("ALTER TABLE archive_checkpoints DISABLE TRIGGER USER"))
        conn.execute(text(
            "UPDATE archive_checkpoints c SET state = o.state, state_sha256 = o.state_sha256 "
            "FROM (SELECT state, state_sha256 FROM archive_checkpoints WHERE table_id = "
            "'T002' ORDER BY lines LIMIT 1) o WHERE c.table_id = 'T002' AND c.day = :d "
            "AND c.lines = :n"), {"d": DAY_ONE, "n": dict((t, n) for t, n in cut)["T002"]})
        conn.execute(text("ALTER TABLE archive_checkpoints ENABLE TRIGGER USER"))
    forged = verify_archive(pg_engine, profiles=PROFILES)
    assert {(b.table_id, b.kind) for b in forged.breaks} == {("T002", "checkpoint")}
    cut_lines = dict((t, n) for t, n in cut)["T002"]
    assert all(b.message.endswith(
        f"(derived from the checkpoint after archived line {cut_lines:,}, the first past the "
        "detached days, which cannot be derived itself: either of the two was changed)")
        for b in forged.breaks), forged.breaks


@pytest.mark.integration
def test_a_table_that_cannot_be_checkpointed_at_the_cut_stops_the_detach(
        pg_engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    """A segment of the day that does not read (its body rewritten behind a dropped
    guard): T002's state at the cut cannot be derived, so nothing is detached (exit 1,
    one line naming the table); detached anyway, its later hands would have become
    booking-only without a word."""
    keep(pg_engine, two_day_log())
    with pg_engine.begin() as conn:
        conn.execute(text("ALTER TABLE archive_segments_20260105 DISABLE TRIGGER USER"))
        conn.execute(text(
            "UPDATE archive_segments_20260105 SET body = 'not a body'::bytea WHERE "
            "(table_id, head_seq) = (SELECT table_id, min(head_seq) FROM "
            "archive_segments_20260105 WHERE table_id = 'T002' GROUP BY table_id)"))
    url = pg_engine.url.render_as_string(hide_password=False)
    _pin_now(monkeypatch)
    ran = pitwatch("archive", "detach", "--db", url, columns=400)
    assert ran.code == 1, ran.stderr
    assert len(ran.error_lines) == 1, ran.stderr
    line = ran.error_lines[0]
    assert line.startswith("error: nothing detached: no checkpoint at the cut could be made "
                           "for table T002: the archived segment of table T002"), line
    with pg_engine.connect() as conn:
        attached = conn.execute(text("SELECT count(*) FROM archive_segments WHERE day = "
                                     "'2026-01-05'")).scalar_one()
        stored = conn.execute(text("SELECT count(*) FROM archive_checkpoints")).scalar_one()
    assert attached > 0 and stored == 0


@pytest.mark.integration
def test_a_table_cut_by_an_older_pitwatch_is_named_and_the_detach_goes_on(
        pg_engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    """Day one detached as an older pitwatch did (no checkpoint at the cut), then day two
    by this one: no state of the tables can be derived there, and the note says their
    later hands were booking-only already; the day is detached."""
    from services.archive.partitions import detach_days

    keep(pg_engine, two_day_log())
    detach_days(pg_engine, [DAY_ONE], "2033-01-06T09:00:00Z")
    url = pg_engine.url.render_as_string(hide_password=False)
    monkeypatch.setattr(sys.modules[__name__], "NOW", dt.datetime(2033, 1, 7, 9, 0,
                                                                  tzinfo=dt.UTC))
    _pin_now(monkeypatch)
    ran = pitwatch("archive", "detach", "--db", url, columns=400)
    assert ran.code == 0, ran.stderr
    notes = [line for line in ran.error_lines if line.startswith("note: ")]
    assert [n.split(":")[1] for n in notes] == [" no checkpoint at the cut for table T001",
                                                " no checkpoint at the cut for table T002",
                                                " no checkpoint at the cut for table T003"]
    assert all("booking-only already" in n for n in notes)
    assert "detached archive_segments_20260106" in ran.stderr
    assert "checkpoint(s) at the cut" not in ran.stderr  # none made, none claimed
