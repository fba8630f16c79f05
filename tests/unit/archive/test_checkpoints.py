"""Table checkpoints (``services.archive.checkpoints``): a report of a hand late in a
table's life starts from the latest usable checkpoint before it, and shows exactly what
the reference's event-by-event replay from the table's first event shows; a checkpoint
that no longer describes the archive is not used; ``pitwatch verify`` derives each again.

The reference side is the Python engine replaying the lines the archive holds through the
hand (``lines_through_hand``) from the first: it never reads a checkpoint.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import orjson
import pytest
from sqlalchemy import Engine, text
from sqlalchemy.exc import IntegrityError

from services.archive.checkpoints import (
    Checkpoint,
    checkpoints_of,
    make_checkpoints,
    rederive,
    start_for,
    why_not_usable,
)
from services.archive.reader import bodies_through_hand, hand_table
from services.archive.verify import verify_archive
from services.ledger.db import open_ledger
from services.reports.archived import through_hand
from services.reports.replay import ArchivedEvents, HandReplay, replay_hand
from tests.profiles import PROFILES
from tests.unit.archive.support import keep, lines_through_hand, same_replay, simulated_log
from tests.unit.cli.helpers import pitwatch
from tests.unit.reports.logs import GAMES, lines_of, simulated

AT = "2026-12-05T12:00:00Z"


def reports_as_from_the_start(engine: Engine, hand_id: str) -> HandReplay:
    """The hand's replay from the archive with checkpoints, held to the reference."""
    source = through_hand(engine, hand_id)
    held = lines_through_hand(engine, hand_id)
    assert source is not None and held is not None
    native = replay_hand(source, hand_id, PROFILES, "native")
    same_replay(native, replay_hand(held, hand_id, PROFILES, "python"))
    return native


def ended_hands(lines: list[bytes] | tuple[bytes, ...]) -> dict[str, list[str]]:
    """Each table's hands in the order they ended, from the log (a hostile log's lines
    that are not such events are passed by)."""
    out: dict[str, list[str]] = {}
    for line in lines:
        try:
            event = orjson.loads(line)
        except orjson.JSONDecodeError:
            continue
        if isinstance(event, dict) and event.get("type") == "hand_ended" and isinstance(
                event.get("table_id"), str) and isinstance(event.get("hand_id"), str):
            out.setdefault(event["table_id"], []).append(event["hand_id"])
    return out


# ---------------------------------------------------------------- reports from checkpoints


@pytest.mark.parametrize("game", GAMES)
def test_a_report_from_a_checkpoint_is_the_report_from_the_first_event(
        game: str, tmp_path: Any) -> None:
    """Every game with every fault kind, a checkpoint every 200 archived lines: each
    table's first, middle and last two hands replay as the reference replays them, and
    every hand after the first checkpoint started from one."""
    events, _ = simulated(game, hands=40, tables=2)
    engine = open_ledger(f"sqlite:///{tmp_path}/{game}.sqlite")
    lines = lines_of(events)
    keep(engine, lines)
    made = make_checkpoints(engine, PROFILES, AT, every=200)
    assert made.checkpoints >= 4 and made.skipped == []
    for hands in ended_hands(lines).values():
        for hand_id in (hands[0], hands[len(hands) // 2], *hands[-2:]):
            replay = reports_as_from_the_start(engine, hand_id)
            if hand_id in hands[-2:]:
                assert replay.history_note is not None
                assert "checkpoint of table" in replay.history_note
    engine.dispose()


def test_checkpoints_on_both_databases_and_append_only(engine: Engine) -> None:
    """SQLite and PostgreSQL: the last hands of each table from checkpoints; a second run
    adds none; the rows refuse UPDATE and DELETE."""
    lines = simulated_log().lines
    keep(engine, lines)
    first = make_checkpoints(engine, PROFILES, AT, every=1_000)
    assert first.checkpoints >= 6 and first.tables == 3
    assert make_checkpoints(engine, PROFILES, AT, every=1_000).checkpoints == 0
    for hands in ended_hands(lines).values():
        assert reports_as_from_the_start(engine, hands[-1]).history_note is not None
    for statement in ("UPDATE archive_checkpoints SET lines = lines + 1",
                      "DELETE FROM archive_checkpoints"):
        with pytest.raises(IntegrityError, match="append-only"), engine.begin() as conn:
            conn.execute(text(statement))
    assert verify_archive(engine, profiles=PROFILES).archive_breaks == []


def test_hostile_streams_report_from_checkpoints_as_from_the_start(tmp_path: Any) -> None:
    """Hostile-input corpora (events of one table misrouted into another, late, refused,
    damaged): every tenth hand of every table, from checkpoints every 300 lines."""
    from tests.fuzz.corpus import build_corpus

    for seed in (10, 25):
        lines = build_corpus(seed=seed).mutated
        engine = open_ledger(f"sqlite:///{tmp_path}/corpus{seed}.sqlite")
        keep(engine, lines)
        assert make_checkpoints(engine, PROFILES, AT, every=300).checkpoints > 10
        for hands in ended_hands(lines).values():
            for hand_id in hands[5::10]:
                if hand_table(engine, hand_id) is not None:
                    reports_as_from_the_start(engine, hand_id)
        engine.dispose()


def stray_log() -> tuple[list[bytes], str, str]:
    """A clean HCF table where an event naming its 20th hand arrives during its 10th (a
    copy of the 20th hand's first event under a seq already taken: refused, archived in
    the 10th hand's segment). Returns the log, the 20th hand and the 10th."""
    lines = list(simulated_log(tables=1, faults=False).lines)
    events = [orjson.loads(line) for line in lines]
    starts = [i for i, e in enumerate(events) if e["type"] == "hand_started"]
    late, early = events[starts[19]], events[starts[9]]
    stray = dict(late, event_id="00000000-0000-4000-8000-0000000000aa", seq=early["seq"])
    lines.insert(starts[9] + 3, orjson.dumps(stray))
    return lines, late["hand_id"], early["hand_id"]


def test_a_hand_named_early_in_another_hands_segment_starts_before_that(
        tmp_path: Any) -> None:
    """The report's span starts at the first line naming its hand, here inside the 10th
    hand: the checkpoint it starts from lies before that line (the checkpoints list the
    stray), and the report is the reference's."""
    lines, hand_id, early = stray_log()
    engine = open_ledger(f"sqlite:///{tmp_path}/stray.sqlite")
    keep(engine, lines)
    make_checkpoints(engine, PROFILES, AT, every=100)
    with engine.connect() as conn:
        listing = [c for c in checkpoints_of(conn, "T001") if hand_id in c.strays]
    assert len(listing) == 1
    start = start_for(engine, "T001", {hand_id})
    early_at = hand_table(engine, early)
    assert start is not None and early_at is not None
    assert start.key < listing[0].key and start.key < early_at[1:]
    replay = reports_as_from_the_start(engine, hand_id)
    assert replay.events[0].event.event_id == "00000000-0000-4000-8000-0000000000aa"
    assert any(e.event.hand_id == early for e in replay.events)  # from inside the 10th
    engine.dispose()


def test_a_checkpoint_right_before_the_hand_falls_back_to_the_first_event(
        tmp_path: Any) -> None:
    """A checkpoint after every segment, and the one just before the hand's first segment
    given as the start: nothing the intake takes comes between it and the hand's first
    line, so the span's anchor lies before it; the table is read from its first event."""
    lines = list(simulated_log(tables=1, faults=False).lines)
    engine = open_ledger(f"sqlite:///{tmp_path}/every.sqlite")
    keep(engine, lines)
    make_checkpoints(engine, PROFILES, AT, every=1)
    hand_id = ended_hands(lines)["T001"][12]
    where = hand_table(engine, hand_id)
    assert where is not None
    with engine.connect() as conn:
        first_key = conn.execute(text(
            "SELECT head_seq, ordinal FROM archive_segments WHERE hand_id = :h "
            "ORDER BY head_seq, ordinal LIMIT 1"), {"h": hand_id}).one()
        before = [c for c in checkpoints_of(conn, "T001") if c.key < tuple(first_key)][-1]

    def bodies(_table: str, after: tuple[int, int] | None) -> Any:
        return bodies_through_hand(engine, where, after)

    source = ArchivedEvents(("T001",), bodies, {"T001": before})
    native = replay_hand(source, hand_id, PROFILES, "native")
    held = lines_through_hand(engine, hand_id)
    assert held is not None
    same_replay(native, replay_hand(held, hand_id, PROFILES, "python"))
    assert native.history_note is None
    engine.dispose()


# ---------------------------------------------------------------- what is not used


def checkpointed(tmp_path: Any, name: str) -> tuple[Engine, list[bytes], list[Checkpoint]]:
    lines = list(simulated_log(tables=1, faults=False).lines)
    engine = open_ledger(f"sqlite:///{tmp_path}/{name}.sqlite")
    keep(engine, lines)
    make_checkpoints(engine, PROFILES, AT, every=500)
    with engine.connect() as conn:
        return engine, lines, list(checkpoints_of(conn, "T001"))


def test_a_segment_added_before_a_checkpoint_makes_it_unused(tmp_path: Any) -> None:
    """A segment stored under a key before the checkpoints (here the table's first again,
    under another ordinal): the archive no longer holds what they were made from, so the
    report replays from the first event, and verify says they are not used; the copied
    events themselves are breaks (kind ``copy``)."""
    engine, lines, made = checkpointed(tmp_path, "added")
    with engine.begin() as conn:
        conn.execute(text(
            "INSERT INTO archive_segments SELECT day, table_id, head_seq, ordinal - 1000, "
            "hand_id, first_seq, last_seq, events, refused, first_prev_hash, last_hash, "
            "first_ts, last_ts, codec, body_sha256, body FROM archive_segments "
            "ORDER BY head_seq, ordinal LIMIT 1"))
        whys = [why_not_usable(conn, c) for c in made]
    assert all(w is not None and "not the" in w for w in whys)
    hand_id = ended_hands(lines)["T001"][-1]
    assert start_for(engine, "T001", {hand_id}) is None
    assert reports_as_from_the_start(engine, hand_id).history_note is None
    notes: list[str] = []
    assert rederive(engine, "T001", PROFILES, notes=notes) == []
    assert len(notes) == len(made) and all("is not used" in n for n in notes)
    with engine.connect() as conn:
        copied = conn.execute(text(
            "SELECT first_seq, last_seq FROM archive_segments WHERE ordinal < 0")).one()
    breaks = verify_archive(engine, profiles=PROFILES).archive_breaks
    assert [(b.kind, b.seq) for b in breaks] == [
        ("copy", seq) for seq in range(copied.first_seq, copied.last_seq + 1)]
    engine.dispose()


def test_a_changed_state_is_found_by_verify_and_a_damaged_one_is_not_used(
        tmp_path: Any) -> None:
    """Behind the dropped guard: the last checkpoint's state replaced by the one before it
    with its hash (a careful forger): the counts still hold, so only deriving it again
    shows it, and verify fails; its state's bytes changed without the hash: not used
    (the report starts from the one before), and verify notes it."""
    engine, lines, made = checkpointed(tmp_path, "changed")
    last, previous = made[-1], made[-2]
    hand_id = ended_hands(lines)["T001"][-1]
    with engine.begin() as conn:
        conn.execute(text("DROP TRIGGER archive_checkpoints_no_update"))
        conn.execute(text("UPDATE archive_checkpoints SET state = :s, state_sha256 = :h "
                          "WHERE head_seq = :k AND ordinal = :o"),
                     {"s": previous.state, "h": previous.state_sha256, "k": last.head_seq,
                      "o": last.ordinal})
    report = verify_archive(engine, profiles=PROFILES)
    assert [(b.kind, b.table_id) for b in report.archive_breaks] == [("checkpoint", "T001")]
    assert "is not the table's state the archive derives there" in report.breaks[0].message
    assert failing(engine)
    with engine.begin() as conn:
        conn.execute(text("UPDATE archive_checkpoints SET state = :s "
                          "WHERE head_seq = :k AND ordinal = :o"),
                     {"s": last.state + b"x", "k": last.head_seq, "o": last.ordinal})
    start = start_for(engine, "T001", {hand_id})
    assert start is not None and start.key == previous.key
    assert reports_as_from_the_start(engine, hand_id).history_note is not None
    again = verify_archive(engine, profiles=PROFILES)
    assert again.archive_breaks == []
    assert any("SHA-256 differs" in n for n in again.notes)
    engine.dispose()


def failing(engine: Engine) -> bool:
    return verify_archive(engine, profiles=PROFILES).failed()


def test_the_command_makes_checkpoints_and_verify_derives_them(tmp_path: Any) -> None:
    url = f"sqlite:///{tmp_path}/day.sqlite"
    log = tmp_path / "day.jsonl"
    log.write_bytes(b"\n".join(simulated_log().lines) + b"\n")
    assert pitwatch("adjudicate", str(log), "--ledger", url).code in (0, 1)
    made = pitwatch("archive", "checkpoint", "--db", url, "--every", "1000")
    assert made.code == 0, made.stderr
    assert "checkpoint(s) made over 3 table(s)" in made.stderr
    again = pitwatch("archive", "checkpoint", "--db", url, "--every", "1000")
    assert "0 checkpoint(s) made over 3 table(s)" in again.stderr
    assert pitwatch("verify", "--db", url).code == 0
    from tests.unit.cli.helpers import assert_one_line_usage_error

    assert_one_line_usage_error(pitwatch("archive", "checkpoint", "--db", url, "--table",
                                         "T9"), "holds no table", "pitwatch archive days")
    assert_one_line_usage_error(pitwatch("archive", "checkpoint", "--db", url, "--every",
                                         "5"), "--every")


# ---------------------------------------------------------------- retention


@pytest.mark.integration
def test_a_checkpoint_made_before_a_detach_still_serves_and_verifies(
        pg_engine: Engine) -> None:
    """Two days; checkpoints; seven years later the first day is detached: the detach
    counts its segments and events, so the checkpoints of day two still hold, a report of
    a day-two hand starts from one and equals the report made before the detach, verify
    derives them clean, and a new run continues from them."""
    from services.archive.partitions import detach_days, detachable_days
    from tests.unit.archive.test_verify_start import two_day_log

    lines = two_day_log()
    keep(pg_engine, lines)
    make_checkpoints(pg_engine, PROFILES, AT, every=400)
    day_two = [h for h in ended_hands(lines)["T001"] if any(
        orjson.loads(line)["hand_id"] == h and orjson.loads(line)["ts"].startswith(
            "2026-01-06") for line in lines)]
    hand_id = day_two[-1]
    before = reports_as_from_the_start(pg_engine, hand_id)
    assert before.history_note is not None
    days = detachable_days(pg_engine, dt.date(2033, 1, 6), 7)
    detach_days(pg_engine, days, "2033-01-06T09:00:00Z")
    with pg_engine.connect() as conn:
        counted = conn.execute(text("SELECT count(*) FROM archive_detached WHERE "
                                    "segments IS NULL OR events IS NULL")).scalar_one()
    assert counted == 0
    start = start_for(pg_engine, "T001", {hand_id})
    assert start is not None and start.day == dt.date(2026, 1, 6)
    source = through_hand(pg_engine, hand_id)
    assert source is not None
    after = replay_hand(source, hand_id, PROFILES, "native")
    assert after.history_note == before.history_note
    assert after.events == before.events and after.record == before.record
    assert verify_archive(pg_engine, profiles=PROFILES).archive_breaks == []
    assert make_checkpoints(pg_engine, PROFILES, AT, every=400).skipped == []


def test_a_daily_reports_tables_from_checkpoints_number_their_lines_as_from_the_start(
        tmp_path: Any) -> None:
    """Two tables read for a daily report (their lines numbered on across the tables); an
    early line of the second table's archive damaged (behind the dropped guard: an event
    of a type the contract does not know, so every replay names it as rejected): from
    checkpoints, the rejected line keeps the number the read from the first event gives
    it."""
    from services.archive.segment import compress, event_lines
    from services.reports.archived import tables_of
    from services.reports.replay import replay_hands

    lines = list(simulated_log(faults=False).lines)
    engine = open_ledger(f"sqlite:///{tmp_path}/daily.sqlite")
    keep(engine, lines)
    with engine.begin() as conn:
        row = conn.execute(text(
            "SELECT day, head_seq, ordinal, codec, body FROM archive_segments WHERE "
            "table_id = 'T002' AND hand_id IS NOT NULL ORDER BY head_seq, ordinal "
            "LIMIT 1 OFFSET 2")).one()
        body = event_lines(row.codec, bytes(row.body))
        body[3] = orjson.dumps(dict(orjson.loads(body[3]), type="damaged"))
        conn.execute(text("DROP TRIGGER archive_segments_no_update"))
        conn.execute(text("UPDATE archive_segments SET body = :b WHERE table_id = 'T002' "
                          "AND head_seq = :h AND ordinal = :o"),
                     {"b": compress(b"\n".join(body)), "h": row.head_seq, "o": row.ordinal})
    make_checkpoints(engine, PROFILES, AT, every=500)
    with engine.connect() as conn:
        named = [c.rejected_first for c in checkpoints_of(conn, "T002")]
    assert named and all(len(n) == 1 for n in named)
    hands = ended_hands(lines)
    wanted = [hands["T001"][-1], hands["T002"][-1]]
    source = tables_of(engine, wanted)
    assert source is not None and set(source.starts) == {"T001", "T002"}
    native = replay_hands(source, wanted, PROFILES, "native")
    reference = replay_hands(source.lines(), wanted, PROFILES, "python")
    for hand_id in wanted:
        same_replay(native[hand_id], reference[hand_id])
    rejected = native[wanted[1]].rejected_lines
    assert len(rejected) == 1 and rejected[0].startswith("line ")
    assert int(rejected[0].split()[1].rstrip(":")) > named[0][0][0]  # after T001's lines
    engine.dispose()


@pytest.mark.parametrize("forged", ["not a state", "another table's"])
def test_a_state_this_core_cannot_take_is_not_started_from(tmp_path: Any, forged: str) -> None:
    """Behind the dropped guard, the last checkpoint's state replaced with its hash: bytes
    that are no table state of this core (a format from another release reads the same
    way), or another table's state. The report starts from the table's first event (or an
    earlier checkpoint) and is the reference's; verify names the checkpoint and derives
    the ones after it from the one before; a new run continues from a readable one."""
    import hashlib

    lines = list(simulated_log(tables=2, faults=False).lines)
    engine = open_ledger(f"sqlite:///{tmp_path}/forged.sqlite")
    keep(engine, lines)
    make_checkpoints(engine, PROFILES, AT, every=500)
    with engine.connect() as conn:
        mine = list(checkpoints_of(conn, "T001"))
        other = list(checkpoints_of(conn, "T002"))
    state = b"\x7fnot a state" if forged == "not a state" else other[-1].state
    target = mine[1]
    with engine.begin() as conn:
        conn.execute(text("DROP TRIGGER archive_checkpoints_no_update"))
        conn.execute(text("UPDATE archive_checkpoints SET state = :s, state_sha256 = :h "
                          "WHERE table_id = 'T001' AND head_seq = :k AND ordinal = :o"),
                     {"s": state, "h": hashlib.sha256(state).hexdigest(),
                      "k": target.head_seq, "o": target.ordinal})
    hand_id = next(h for h in ended_hands(lines)["T001"] if (
        (where := hand_table(engine, h)) is not None and target.key < where[1:]
        and (len(mine) < 3 or where[1:] < mine[2].key)))
    start = start_for(engine, "T001", {hand_id})
    assert start is not None and start.key == target.key
    assert reports_as_from_the_start(engine, hand_id).history_note is None
    report = verify_archive(engine, profiles=PROFILES)
    assert [(b.kind, b.table_id) for b in report.archive_breaks] == [("checkpoint", "T001")]
    assert f"segment {target.head_seq}/{target.ordinal}," in report.archive_breaks[0].message
    assert make_checkpoints(engine, PROFILES, AT, every=500).skipped == []
    engine.dispose()


def test_with_the_reference_engine_verify_says_it_did_not_derive_them(
        tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    engine, _, made = checkpointed(tmp_path, "reference")
    assert made
    monkeypatch.setenv("PITWATCH_ENGINE", "python")
    report = verify_archive(engine, profiles=PROFILES)
    assert report.archive_breaks == []
    assert report.notes == ["table T001: its checkpoints were not derived again (they are "
                            "the native core's states; PITWATCH_ENGINE=python)"]
    engine.dispose()
