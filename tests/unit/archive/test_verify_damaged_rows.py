"""``pitwatch verify`` on rows rewritten behind the archive's guards with values pitwatch
never writes (QA's cases): each such row is listed as a break naming its table and
segment (or checkpoint, or kept state), the rest is still verified, the command exits 1,
never with a traceback; both engines list the same. A hand's segment filed under no hand
is found; a span or table that holds nothing is a usage error (exit 2), not a pass.

The damaged databases are made as QA made them: an archived day, its triggers dropped
(SQLite), one row changed by SQL.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import orjson
import pytest
from sqlalchemy import Engine, text

from services.adjudicator.segments import ArchivedEvent, Segment
from services.archive.chain import ChainBreak
from services.archive.checkpoints import checkpoints_of, make_checkpoints, start_for
from services.archive.segment import PackedSegment, event_lines, pack_parts
from services.archive.verify import check_table, decode_segment, verify_archive
from services.events.canonical import canonical_json
from services.ledger.db import open_ledger
from tests.profiles import PROFILES
from tests.unit.archive.support import keep, run, simulated_log
from tests.unit.cli.helpers import assert_one_line_usage_error, failing_verify, pitwatch

DAY = dt.date(2026, 1, 5)  # the simulated day
AT = "2026-12-06T12:00:00Z"


@pytest.fixture(scope="module")
def archived_day(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The clean simulated day (three tables) kept in a SQLite file: the file, copied by
    each test that damages it."""
    path = tmp_path_factory.mktemp("day") / "day.sqlite"
    engine = open_ledger(f"sqlite:///{path}")
    keep(engine, simulated_log(faults=False).lines)
    engine.dispose()
    return path


@pytest.fixture
def day_copy(archived_day: Path, tmp_path: Path) -> Iterator[tuple[str, Engine]]:
    path = tmp_path / "copy.sqlite"
    shutil.copy(archived_day, path)
    url = f"sqlite:///{path}"
    engine = open_ledger(url)
    yield url, engine
    engine.dispose()


def tampered(engine: Engine, *statements: str) -> None:
    """The statements run with every append-only trigger of the archive dropped."""
    with engine.begin() as conn:
        for table in ("archive_segments", "archive_checkpoints", "table_carries"):
            for what in ("update", "delete"):
                conn.execute(text(f"DROP TRIGGER IF EXISTS {table}_no_{what}"))
        for statement in statements:
            conn.execute(text(statement))


def a_hands_segment(engine: Engine) -> Any:
    """A hand's segment of T001 in the middle of the day (its rowid, key and columns)."""
    with engine.connect() as conn:
        return conn.execute(text(
            "SELECT rowid, head_seq, ordinal, first_seq, hand_id FROM archive_segments "
            "WHERE table_id = 'T001' AND hand_id IS NOT NULL ORDER BY head_seq "
            "LIMIT 1 OFFSET 5")).one()


def both_engines(engine: Engine, monkeypatch: pytest.MonkeyPatch, **kwargs: Any
                 ) -> list[ChainBreak]:
    """``verify_archive``'s breaks on the native core and the Python reference, held to be
    the same."""
    found = {}
    for name in ("native", "python"):
        monkeypatch.setenv("PITWATCH_ENGINE", name)
        found[name] = verify_archive(engine, **kwargs).breaks
    monkeypatch.delenv("PITWATCH_ENGINE")
    assert found["native"] == found["python"]
    return found["native"]


# ---------------------------------------------------------------- damaged segment rows


DAMAGE = {  # value set, the column the first break names, its kind, the chain linked on
    "refused not JSON": ("refused = 'garbage'", "refused", "unreadable", False),
    "refused an object": ("refused = '{}'", "refused", "unreadable", False),
    "refused null": ("refused = 'null'", "refused", "unreadable", False),
    "refused not positions": ("refused = '[\"a\"]'", "refused", "unreadable", False),
    "day of no month": ("day = '2026-13-45'", "day", "column", True),
    "day not a date": ("day = 'not-a-date'", "day", "column", True),
    "body stored as text": ("body = CAST(body AS TEXT)", "body", "column", True),
    # (not the bytes written: not read, the chain linked across it by its columns)
    "body replaced by text": ("body = 'hello'", "body", "column", True),
}


@pytest.mark.parametrize("case", sorted(DAMAGE))
def test_a_damaged_segment_row_is_a_break_and_the_rest_is_verified(
        day_copy: tuple[str, Engine], monkeypatch: pytest.MonkeyPatch, case: str) -> None:
    url, engine = day_copy
    change, column, kind, read = DAMAGE[case]
    segment = a_hands_segment(engine)
    with engine.connect() as conn:
        total = conn.execute(text("SELECT count(*) FROM archive_segments")).scalar_one()
    tampered(engine, f"UPDATE archive_segments SET {change} WHERE rowid = {segment.rowid}")
    breaks = both_engines(engine, monkeypatch)
    first = breaks[0]
    assert (first.table_id, first.seq, first.kind) == ("T001", segment.first_seq, kind)
    assert first.message.startswith(f"segment at seq {segment.first_seq}: column {column} ")
    assert {b.table_id for b in breaks} == {"T001"}  # T002 and T003 verified clean
    # Its events read (a day or a body's storage class say nothing of them) link as ever,
    # and so does a body not the bytes written, linked across by its columns; else the
    # chain shows the events it could not read as missing, and goes on.
    assert read == all(b.kind in ("column", "unreadable") for b in breaks)
    engine.dispose()
    body = failing_verify(url)  # exit 1, the breaks listed as JSON: no traceback
    assert (body["tables"], body["segments"]) == (3, total)
    listed = body["breaks"][0]
    assert (listed["table"], listed["seq"], listed["kind"]) == ("T001", segment.first_seq, kind)


def test_a_hands_segment_filed_under_no_hand_is_found(
        day_copy: tuple[str, Engine], monkeypatch: pytest.MonkeyPatch) -> None:
    """Filed under no hand, a report of the hand finds none of its events; the hand is
    the one its first event (an accepted hand_started) starts, as the table state cut it.
    Filed under another hand, found as before."""
    url, engine = day_copy
    segment = a_hands_segment(engine)
    tampered(engine, f"UPDATE archive_segments SET hand_id = NULL WHERE rowid = {segment.rowid}")
    breaks = both_engines(engine, monkeypatch)
    assert [(b.table_id, b.seq, b.kind) for b in breaks] == [
        ("T001", segment.first_seq, "column")]
    assert breaks[0].message == (
        f"segment at seq {segment.first_seq}: column hand_id holds None, but its first event "
        f"starts hand {segment.hand_id}: the segment is that hand's")
    assert [(b["table"], b["kind"]) for b in failing_verify(url)["breaks"]] == [
        ("T001", "column")]
    tampered(engine, f"UPDATE archive_segments SET hand_id = 'T001-999999' "
                     f"WHERE rowid = {segment.rowid}")
    assert "holds 'T001-999999'" in verify_archive(engine).breaks[0].message


def test_a_later_part_of_a_hands_segment_filed_under_no_hand_is_found() -> None:
    """A hand's segment over ``MAX_PART_BYTES`` is stored in parts, each filed under the
    hand, only the first starting with its hand_started: a later part filed under none
    (or another hand) is found; the parts as written are not."""
    segments = run(simulated_log(tables=1, faults=False).lines).segments
    hand = next(s for s in segments[3:] if s.hand_id is not None)
    lines = event_lines(hand.codec, hand.body)
    big = orjson.loads(lines[2])
    big["data"]["pad"] = "x" * 950_000  # one event near a part's bound by itself
    lines[2] = canonical_json(big)
    events = []
    for i, line in enumerate(lines):
        obj = orjson.loads(line)
        events.append(ArchivedEvent(line, obj["seq"], obj["ts"], obj["prev_hash"],
                                    i in hand.refused))
    parts = pack_parts(Segment(hand.table_id, hand.hand_id, hand.head_seq, hand.ordinal,
                               events))
    assert len(parts) == 3 and all(p.hand_id == hand.hand_id for p in parts)

    def hand_breaks(stored: list[PackedSegment]) -> list[ChainBreak]:
        return [b for b in check_table(hand.table_id, [decode_segment(p) for p in stored])
                if "hand_id" in b.message]

    assert hand_breaks(parts) == []
    for at in (1, 2):
        for filed in (None, "T001-999999"):
            changed = list(parts)
            changed[at] = msgspec.structs.replace(parts[at], hand_id=filed)
            found = hand_breaks(changed)
            assert [(b.kind, b.seq) for b in found] == [("column", parts[at].first_seq)]
            assert f"goes on from hand {hand.hand_id}'s part before it" in found[0].message


def test_a_break_names_a_segment_without_a_seq_by_its_key() -> None:
    """A break text reads "segment at seq N" only with a seq: the column's value when the
    events give none (a segment of refused events only), else the events' lowest."""
    segments = run(simulated_log(tables=1, faults=False).lines).segments
    hand = next(s for s in segments if s.hand_id is not None)
    no_first = decode_segment(msgspec.structs.replace(hand, first_seq=None)).problems
    assert [(p.seq, p.message) for p in no_first] == [
        (hand.first_seq, f"segment at seq {hand.first_seq}: column first_seq holds None but "
                         f"its events give {hand.first_seq}")]
    single = next(s for s in segments if s.hand_id is None and s.events == 1)
    refused = msgspec.structs.replace(single, refused=[0], first_seq=None, last_seq=None,
                                      first_prev_hash=None, last_hash=None, events=5)
    problems = decode_segment(refused).problems
    assert [(p.seq, p.message) for p in problems] == [
        (None, f"segment at head_seq {single.head_seq}, ordinal {single.ordinal}: column "
               "events holds 5 but its events give 1")]


# ---------------------------------------------------------------- checkpoints, kept states


CHECKPOINT_DAMAGE = {
    "rejected_first": "rejected_first = 'garbage'",
    "strays": "strays = 'garbage'",
    "day": "day = '2026-02-31'",
    "state": "state = CAST(state AS TEXT)",
}


@pytest.mark.parametrize("column", sorted(CHECKPOINT_DAMAGE))
def test_a_damaged_checkpoint_row_is_a_break_and_never_used(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, column: str) -> None:
    url = f"sqlite:///{tmp_path}/checkpoints.sqlite"
    engine = open_ledger(url)
    lines = simulated_log(tables=1, faults=False).lines
    keep(engine, lines)
    make_checkpoints(engine, PROFILES, AT, every=500)
    with engine.connect() as conn:
        made = list(checkpoints_of(conn, "T001"))
    damaged = made[-1]
    hands = [orjson.loads(line)["hand_id"] for line in lines if b'"hand_ended"' in line]
    starts = {hand: start_for(engine, "T001", {hand}) for hand in hands[-5:]}
    late = next(h for h, start in starts.items() if start is not None and start == damaged)
    tampered(engine, f"UPDATE archive_checkpoints SET {CHECKPOINT_DAMAGE[column]} "
                     f"WHERE head_seq = {damaged.head_seq} AND ordinal = {damaged.ordinal}")
    said = (f"checkpoint of table T001 after segment {damaged.head_seq}/{damaged.ordinal} "
            f"cannot be read: column {column} ")
    for name in ("native", "python"):  # derived again, or not (a note): listed either way
        monkeypatch.setenv("PITWATCH_ENGINE", name)
        breaks = verify_archive(engine, profiles=PROFILES).breaks
        assert [(b.table_id, b.kind) for b in breaks] == [("T001", "checkpoint")], name
        assert breaks[0].message.startswith(said), breaks[0].message
    monkeypatch.delenv("PITWATCH_ENGINE")
    start = start_for(engine, "T001", {late})  # a report of a hand after it passes it by
    assert start is not None and start.key == made[-2].key
    assert make_checkpoints(engine, PROFILES, AT, every=500).skipped == []
    engine.dispose()
    assert [b["kind"] for b in failing_verify(url)["breaks"]] == ["checkpoint"]


@pytest.mark.parametrize(("change", "says"), [
    ("events_taken = 'many'", "column events_taken holds 'many', not a count"),
    ("state = CAST(state AS TEXT)", "column state is stored as text"),
])
def test_a_damaged_kept_state_row_is_a_break(tmp_path: Path, change: str, says: str) -> None:
    """A state kept for the log that goes on (``--leave-open``), its row damaged: listed as
    a ``carry`` break, on a verify of every day (the others derived again) and of a span."""
    url = f"sqlite:///{tmp_path}/kept.sqlite"
    log = tmp_path / "day.jsonl"
    log.write_bytes(b"\n".join(simulated_log(faults=False).lines) + b"\n")
    assert pitwatch("adjudicate", str(log), "--leave-open", "--ledger", url).code == 0
    engine = open_ledger(url)
    assert verify_archive(engine, profiles=PROFILES).kept_states == 3
    tampered(engine, f"UPDATE table_carries SET {change} WHERE table_id = 'T002'")
    for span in ((None, None), (DAY, DAY)):
        report = verify_archive(engine, span[0], span[1], profiles=PROFILES)
        assert [(b.table_id, b.kind) for b in report.breaks] == [("T002", "carry")], span
        assert says in report.breaks[0].message
    assert report.kept_states == 0 and verify_archive(engine, profiles=PROFILES).kept_states == 2
    engine.dispose()
    assert [(b["table"], b["kind"]) for b in failing_verify(url)["breaks"]] == [
        ("T002", "carry")]


@pytest.mark.parametrize("change", ["last_seq = last_seq + 5",
                                    "last_hash = 'ab' || substr(last_hash, 3)",
                                    "last_hash = x'00ff'"])
def test_a_kept_state_row_naming_another_chain_head_is_a_break(tmp_path: Path,
                                                               change: str) -> None:
    """A kept state's row whose ``last_seq`` (by which the next log's run picks it) or
    ``last_hash`` was changed, its state left as kept: verify derived the state as
    kept and passed (last session's leftover). Now a ``carry`` break naming the head the
    row says and the one its events give: T002's last event in the log, its seq and the
    SHA-256 of its canonical JSON, read from the log here."""
    url = f"sqlite:///{tmp_path}/kept.sqlite"
    log = tmp_path / "day.jsonl"
    lines = simulated_log(faults=False).lines
    log.write_bytes(b"\n".join(lines) + b"\n")
    last = max((e for e in map(orjson.loads, lines) if e["table_id"] == "T002"),
               key=lambda e: e["seq"])
    digest = hashlib.sha256(canonical_json(last)).hexdigest()
    assert pitwatch("adjudicate", str(log), "--leave-open", "--ledger", url).code == 0
    engine = open_ledger(url)
    assert verify_archive(engine, profiles=PROFILES).kept_states == 3
    tampered(engine, f"UPDATE table_carries SET {change} WHERE table_id = 'T002'")
    report = verify_archive(engine, profiles=PROFILES)
    engine.dispose()
    assert [(b.table_id, b.kind) for b in report.breaks] == [("T002", "carry")]
    message = report.breaks[0].message
    if change.endswith("x'00ff'"):  # bytes, not text: no head to compare
        assert "column last_hash holds b'\\x00\\xff', not a hash" in message, message
    else:
        named_seq = last["seq"] + 5 if "last_seq" in change else last["seq"]
        named_hash = "ab" + digest[2:12] if "last_hash" in change else digest[:12]
        assert (f"names its table's chain head as seq {named_seq:,}, hash {named_hash}…, but "
                f"the archived events it was made from end at seq {last['seq']:,}, hash "
                f"{digest[:12]}…") in message, message
    assert report.kept_states == 2
    assert [(b["table"], b["kind"]) for b in failing_verify(url)["breaks"]] == [
        ("T002", "carry")]


# ---------------------------------------------------------------- nothing to verify


def test_verify_of_nothing_is_a_usage_error_naming_what_is_held(
        day_copy: tuple[str, Engine], tmp_path: Path) -> None:
    """A typo in a scheduled audit's table or days verified nothing and passed: now exit 2,
    one line naming the tables or the days the database holds. A database whose archive
    is empty but whose ledger holds hands (``--no-archive``) still has those to check."""
    url, engine = day_copy
    engine.dispose()
    assert_one_line_usage_error(pitwatch("verify", "--db", url, "--table", "NOPE"),
                                "--table", "holds no table 'NOPE'", "T001, T002, T003")
    assert_one_line_usage_error(
        pitwatch("verify", "--db", url, "--from", "2025-01-01", "--to", "2025-01-02"),
        "holds nothing from 2025-01-01 to 2025-01-02", "1 day, 2026-01-05")
    assert_one_line_usage_error(
        pitwatch("verify", "--db", url, "--table", "T002", "--from", "2026-02-01"),
        "table T002 holds nothing from 2026-02-01 on", "1 day, 2026-01-05")
    empty = f"sqlite:///{tmp_path}/empty.sqlite"
    open_ledger(empty).dispose()
    assert_one_line_usage_error(pitwatch("verify", "--db", empty), "--db",
                                "the archive holds nothing: archive a run")
    bare = f"sqlite:///{tmp_path}/bare.sqlite"
    log = tmp_path / "day.jsonl"
    log.write_bytes(b"\n".join(simulated_log(faults=False).lines) + b"\n")
    assert pitwatch("adjudicate", str(log), "--ledger", bare, "--no-archive").code == 0
    assert pitwatch("verify", "--db", bare).code == 0
    assert pitwatch("verify", "--db", url, "--table", "T002", "--from", "2026-01-05").code == 0


def test_what_verify_would_check_is_asked_alike_of_both_databases(engine: Engine) -> None:
    """The question the command asks before it verifies, on SQLite and PostgreSQL."""
    from services.archive.cli import nothing_to_verify

    empty = nothing_to_verify(engine, None, None, None)
    assert empty is not None and empty[0] == "--db"
    keep(engine, simulated_log(faults=False).lines)
    assert nothing_to_verify(engine, None, None, None) is None
    assert nothing_to_verify(engine, DAY, DAY, "T003") is None
    assert nothing_to_verify(engine, None, None, "T9") == (
        "--table", "the database holds no table 'T9': it holds T001, T002, T003 (check "
                   "--table)")
    later = DAY + dt.timedelta(days=1)
    assert nothing_to_verify(engine, later, None, "T001") == (
        "--from", "table T001 holds nothing from 2026-01-06 on: it holds 1 day, 2026-01-05 "
                  "(check --from and --to)")


def test_a_table_whose_every_segment_was_removed_is_still_verified(
        day_copy: tuple[str, Engine]) -> None:
    """The catalog names every archived table: one whose segments were all deleted is
    verified (its chain ends before the catalog's seq), not passed by, and an archive
    emptied so is a break, not a database that holds nothing."""
    url, engine = day_copy
    with engine.connect() as conn:
        last = conn.execute(text("SELECT last_seq FROM archive_tables WHERE table_id = 'T002'"
                                 )).scalar_one()
    tampered(engine, "DELETE FROM archive_segments WHERE table_id = 'T002'")
    breaks = verify_archive(engine).breaks
    assert [(b.table_id, b.seq, b.kind) for b in breaks] == [("T002", 1, "end")]
    assert f"archived up to seq {last}, the archive holds none of its events" in (
        breaks[0].message)
    tampered(engine, "DELETE FROM archive_segments")
    engine.dispose()
    assert [(b["table"], b["kind"]) for b in failing_verify(url)["breaks"]] == [
        ("T001", "end"), ("T002", "end"), ("T003", "end")]


def test_a_segment_that_does_not_read_leaves_what_derives_from_it_underived(
        tmp_path: Path) -> None:
    """Checkpoints and kept states are derived from the archived bodies: past a body that
    does not read, verify notes that they were not derived (the body itself is the break),
    and ``archive checkpoint`` passes the table by, saying why; neither ends in a traceback."""
    url = f"sqlite:///{tmp_path}/kept.sqlite"
    log = tmp_path / "day.jsonl"
    log.write_bytes(b"\n".join(simulated_log(faults=False).lines) + b"\n")
    assert pitwatch("adjudicate", str(log), "--leave-open", "--ledger", url).code == 0
    engine = open_ledger(url)
    make_checkpoints(engine, PROFILES, AT, "T001", every=500)
    segment = a_hands_segment(engine)
    with engine.connect() as conn:
        other = conn.execute(text("SELECT rowid FROM archive_segments WHERE table_id = "
                                  "'T002' ORDER BY head_seq LIMIT 1 OFFSET 5")).scalar_one()
    tampered(engine, *(f"UPDATE archive_segments SET body = X'00000000' WHERE rowid = {row}"
                       for row in (segment.rowid, other)))
    report = verify_archive(engine, profiles=PROFILES)
    # Each body once (not the bytes written: not read, its seqs linked across by its
    # columns), not again as unreadable and as the gap of its events.
    assert [(b.table_id, b.kind) for b in report.archive_breaks] == [
        ("T001", "column"), ("T002", "column")]
    underived = [n for n in report.notes if "not derived again" in n]
    assert len(underived) == 2  # the two tables' kept states
    assert all(f"head_seq {segment.head_seq}, ordinal {segment.ordinal} cannot be read" in n
               for n in underived if "T001" in n)
    # T001's checkpoint whose stretch holds the body: a note naming the body's break
    damaged = f"the archive is damaged before it (the column at seq {segment.first_seq:,} listed)"
    assert [n for n in report.notes if n.startswith("checkpoint of table T001")
            and damaged in n], report.notes
    assert report.kept_states == 1  # T003's
    skipped = make_checkpoints(engine, PROFILES, AT, every=500).skipped
    assert len(skipped) == 1 and skipped[0].startswith("table T002: the archived segment")
    engine.dispose()


def test_an_intake_alert_that_does_not_read_excuses_no_break(tmp_path: Path) -> None:
    """The intake's SURV-9 alerts say which breaks the stream had when it arrived; one
    whose JSON was rewritten into something else says nothing, so the break it named is
    listed as the archive's (exit 1), not a traceback."""
    url = f"sqlite:///{tmp_path}/faulty.sqlite"
    engine = open_ledger(url)
    keep(engine, simulated_log().lines)  # tampered events: breaks as received
    assert not verify_archive(engine).failed()
    tampered(engine, "DROP TRIGGER IF EXISTS archive_alerts_no_update",
             "UPDATE archive_alerts SET alert_json = 'garbage' WHERE code = 'CHAIN_BROKEN'")
    breaks = verify_archive(engine).archive_breaks
    assert breaks and {b.kind for b in breaks} == {"altered", "alert"}
    # The rewritten alert itself is a break too (``alert_check``).
    assert all("its JSON is no alert" in b.message for b in breaks if b.kind == "alert")
    engine.dispose()


def test_archive_days_lists_a_day_that_is_no_date_as_stored(
        day_copy: tuple[str, Engine]) -> None:
    """``archive days`` stopped with a traceback (SQLite's date parsing) on such a row."""
    url, engine = day_copy
    tampered(engine, "UPDATE archive_segments SET day = '2026-13-45' WHERE ordinal = 0")
    listed = pitwatch("archive", "days", "--db", url, "--format", "json")
    assert listed.code == 0, listed.stderr
    days = {d["day"]: d for d in orjson.loads(listed.stdout)}
    assert "'2026-13-45': no date (pitwatch verify)" in days and "2026-01-05" in days


def test_replay_and_a_report_stop_on_a_damaged_row_in_one_line(
        day_copy: tuple[str, Engine]) -> None:
    """They printed DamagedRow's traceback; a line naming the row and ``verify`` now."""
    url, engine = day_copy
    segment = a_hands_segment(engine)
    tampered(engine, "UPDATE archive_segments SET body = X'00112233' "
                     f"WHERE table_id = 'T001' AND head_seq = {segment.head_seq} "
                     f"AND ordinal = {segment.ordinal}")
    for args in (["replay", "--from", "2026-01-01", "--to", "2026-12-31", "--db", url],
                 ["report", "hand", str(segment.hand_id), "--ledger", url]):
        ran = pitwatch(*args)
        assert ran.code == 1, (args, ran.stderr)
        assert "Traceback" not in ran.stderr and len(ran.error_lines) == 1, ran.stderr
        assert ran.error_lines[0].startswith("error: the archived segment of table ")
        assert ran.error_lines[0].endswith("(the archive was changed there: pitwatch verify "
                                           "lists every break)")


def test_a_catalog_row_that_is_no_seq_stops_verify_in_one_line(
        day_copy: tuple[str, Engine]) -> None:
    """It stopped verify with int()'s traceback."""
    url, engine = day_copy
    with engine.begin() as conn:
        for trigger in conn.execute(text("SELECT name FROM sqlite_master WHERE type = "
                                         "'trigger' AND tbl_name = 'archive_tables'")).scalars():
            conn.execute(text(f"DROP TRIGGER {trigger}"))
        conn.execute(text("UPDATE archive_tables SET last_seq = 'many' WHERE table_id = 'T001'"))
    ran = pitwatch("verify", "--db", url)
    assert ran.code == 1 and "Traceback" not in ran.stderr, ran.stderr
    assert ran.error_lines[-1] == (
        "error: the archive's catalog row of table T001 holds 'many' as its last seq, which "
        "is no seq (the archive was changed there)")
