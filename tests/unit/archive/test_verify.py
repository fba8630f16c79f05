"""``pitwatch verify``: a demo day archived verifies clean (the tampered events of the
stream reported as breaks it had when it arrived), and every single-field change to a
stored event is found.

The expected breaks of the clean day come from the simulator's truth labels (``tamper``:
"seq N amount lowered by 1 after it was hashed", so the stream breaks at seq N + 1), not
from the archive code. Each mutation changes one field of one stored event, the way a
person rewriting the archive would (valid canonical JSON, recompressed, every column
left as it was); verify must report a break in the archive at that table, at the
event or the one after it (or in the columns of its segment).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec
import orjson
import pytest
from sqlalchemy import Engine, text
from sqlalchemy.exc import IntegrityError

from services.archive.chain import Anchor
from services.archive.segment import PackedSegment, compress, event_lines
from services.archive.verify import (
    NO_CATALOG_ROW,
    DecodedSegment,
    IntakeBreak,
    check_table,
    decode_segment,
    intake_break,
    reaches_end,
    verify_archive,
)
from services.events.canonical import canonical_json
from tests.unit.archive.support import Run, keep, run, simulated_log
from tests.unit.cli.helpers import failing_verify, pitwatch

MUTATIONS = 1200


def expected_intake_breaks() -> set[tuple[str, int]]:
    """(table, seq) where the simulated stream itself is broken: after each tampered event."""
    out = set()
    for label in simulated_log().truth:
        if label.fault == "tamper":
            match = re.match(r"seq (\d+) amount lowered", label.detail)
            assert match is not None, label.detail
            out.add((label.table_id, int(match.group(1)) + 1))
    return out


def test_a_demo_day_archived_verifies_clean(engine: Engine) -> None:
    keep(engine, simulated_log().lines)
    report = verify_archive(engine)
    assert report.archive_breaks == []
    assert {(b.table_id, b.seq) for b in report.breaks} == expected_intake_breaks()
    assert all(b.at_intake for b in report.breaks) and not report.failed()
    assert report.failed(strict=True)
    assert report.events == len(simulated_log().lines)


def test_the_command_exits_0_on_the_clean_day_and_1_with_strict(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/day.sqlite"
    log = tmp_path / "day.jsonl"
    log.write_bytes(b"\n".join(simulated_log().lines) + b"\n")
    assert pitwatch("adjudicate", str(log), "--ledger", url).code == 0  # findings only
    clean = pitwatch("verify", "--db", url)
    assert clean.code == 0, clean.stderr
    assert "no break in the archive" in clean.stderr
    assert "3 break(s) the stream had when it arrived" in clean.stderr
    assert pitwatch("verify", "--db", url, "--strict").code == 1
    one = pitwatch("verify", "--db", url, "--table", "T002", "--from", "2026-01-05",
                       "--to", "2026-01-05", "--format", "json")
    assert one.code == 0
    body = orjson.loads(one.stdout)
    assert body["tables"] == 1 and [b["seq"] for b in body["breaks"]] == [
        seq for table, seq in expected_intake_breaks() if table == "T002"]


# ---------------------------------------------------------------- single-field changes


@dataclass
class Table:
    segments: list[PackedSegment]
    decoded: list[DecodedSegment]
    anchors: list[Anchor]
    intake: list[IntakeBreak]


@pytest.fixture(scope="module")
def archived() -> dict[str, Table]:
    """The simulated day's segments, decoded once; a mutation re-decodes only its own."""
    done: Run = run(simulated_log().lines)
    tables: dict[str, Table] = {}
    for segment in sorted(done.segments, key=lambda s: (s.table_id, s.head_seq, s.ordinal)):
        table = tables.setdefault(segment.table_id, Table([], [], [], []))
        table.segments.append(segment)
        table.decoded.append(decode_segment(segment))
    for record in done.records:
        if record.last_hash is not None and record.last_seq is not None:
            tables[record.table_id].anchors.append(
                Anchor(record.hand_id, record.last_seq, record.last_hash))
    for alert in done.alerts:
        found = intake_break(alert.code, alert.seq or 0, alert.message)
        if found is not None:
            tables[alert.table_id].intake.append(found)
    return tables


def leaves(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every scalar, empty list and empty object of a JSON value, by path."""
    if isinstance(value, dict) and value:
        for key, child in value.items():
            yield from leaves(child, (*path, key))
    elif isinstance(value, list) and value:
        for i, child in enumerate(value):
            yield from leaves(child, (*path, i))
    else:
        yield path


def changed(value: Any) -> Any:
    """Another value of the same kind (a tamperer's edit)."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, str):
        last = value[-1:] or "a"
        return value[:-1] + ("b" if last == "a" else "a")
    if value is None:
        return 1
    if isinstance(value, list):
        return ["x"]
    return {"x": 1}


def mutate(segment: PackedSegment, index: int, path: tuple[Any, ...]) -> PackedSegment:
    lines = event_lines(segment.codec, segment.body)
    obj = orjson.loads(lines[index])
    target = obj
    for step in path[:-1]:
        target = target[step]
    if path:
        target[path[-1]] = changed(target[path[-1]])
    lines[index] = canonical_json(obj)
    return msgspec.structs.replace(segment, body=compress(b"\n".join(lines)))


def test_the_unchanged_day_has_no_break_in_the_archive(archived: dict[str, Table]) -> None:
    for table_id, t in archived.items():
        found = check_table(table_id, t.decoded, None, t.anchors, t.intake)
        assert [b for b in found if not b.at_intake] == []


def field_name(path: tuple[Any, ...]) -> str:
    return ".".join("[]" if isinstance(p, int) else str(p) for p in path)


def test_every_single_field_change_to_a_stored_event_is_found(
        archived: dict[str, Table]) -> None:
    """1,200 changes, the fields taken in turn (every field any stored event has, each
    about as often), each at a random event that has it, at any table."""
    rng = random.Random(25)
    where: dict[str, list[tuple[str, int, int, tuple[Any, ...]]]] = {}
    for table_id, t in archived.items():
        for position, segment in enumerate(t.segments):
            for index, line in enumerate(event_lines(segment.codec, segment.body)):
                for path in leaves(orjson.loads(line)):
                    where.setdefault(field_name(path), []).append(
                        (table_id, position, index, path))
    names = sorted(where)
    missed: list[str] = []
    tables: set[str] = set()
    for n in range(MUTATIONS):
        table_id, position, index, path = rng.choice(where[names[n % len(names)]])
        tables.add(table_id)
        t = archived[table_id]
        segment = t.segments[position]
        seq = orjson.loads(event_lines(segment.codec, segment.body)[index])["seq"]
        decoded = list(t.decoded)
        decoded[position] = decode_segment(mutate(segment, index, path))
        found = [b for b in check_table(table_id, decoded, None, t.anchors, t.intake)
                 if not b.at_intake]
        if not any(b.table_id == table_id and (b.seq in (seq, seq + 1) or b.kind in (
                "column", "unreadable", "conflict")) for b in found):
            missed.append(f"{table_id} seq {seq} {path}: {found}")
    assert missed == []
    assert len(names) >= 30 and tables == set(archived)
    assert {"seq", "prev_hash", "event_id", "ts", "hand_id", "table_id", "type", "v",
            "source", "data.amount", "data.seat", "data.card", "data.seats.[].stack"} <= set(names)


def test_every_changed_byte_of_a_stored_body_or_column_is_found(
        archived: dict[str, Table]) -> None:
    """500 single bit flips in the compressed bodies as stored, and a changed character in
    every column verify derives from a body, at random segments: all found (a flip that
    leaves the decompressed events as they were is found by the body's stored SHA-256)."""
    rng = random.Random(26)
    missed = []
    columns = ["first_prev_hash", "last_hash", "first_ts", "last_ts", "day", "hand_id"]
    for n in range(500 + len(columns) * 20):
        table_id = rng.choice(sorted(archived))
        t = archived[table_id]
        position = rng.randrange(len(t.segments))
        stored = msgspec.structs.replace(t.segments[position],
                                         body_sha256=hashlib.sha256(
                                             t.segments[position].body).hexdigest())
        if n < 500:
            body = bytearray(stored.body)
            body[rng.randrange(len(body))] ^= 1 << rng.randrange(8)
            changed_segment = msgspec.structs.replace(stored, body=bytes(body))
        else:
            name = columns[(n - 500) % len(columns)]
            value = getattr(stored, name)
            if value is None:
                continue
            changed_segment = msgspec.structs.replace(stored, **{name: changed(value)})
        decoded = list(t.decoded)
        decoded[position] = decode_segment(changed_segment)
        found = [b for b in check_table(table_id, decoded, None, t.anchors, t.intake)
                 if not b.at_intake]
        if not found:
            missed.append((table_id, position, n))
    assert missed == []


def test_a_change_made_in_the_database_is_found_by_the_command(tmp_path: Path) -> None:
    """Someone with the database's owner rights drops the guard and rewrites one payout:
    ``pitwatch verify`` names the table and the seq after it, and exits 1."""
    url = f"sqlite:///{tmp_path}/day.sqlite"
    log = tmp_path / "day.jsonl"
    log.write_bytes(b"\n".join(simulated_log(faults=False).lines) + b"\n")
    assert pitwatch("adjudicate", str(log), "--ledger", url).code in (0, 1)
    from services.ledger.db import open_ledger

    engine = open_ledger(url)
    with engine.begin() as conn:
        stored = conn.execute(text(
            "SELECT day, table_id, head_seq, ordinal, codec, body FROM archive_segments "
            "WHERE hand_id IS NOT NULL ORDER BY table_id, head_seq")).all()
        day, table, head, ordinal, codec, body = next(
            row for row in stored[5:] if b'"type":"payout"' in b"".join(
                event_lines(row.codec, bytes(row.body))))
        lines = event_lines(codec, bytes(body))
        index = next(i for i, line in enumerate(lines) if b'"type":"payout"' in line)
        obj = orjson.loads(lines[index])
        obj["data"]["amount"] += 1
        lines[index] = canonical_json(obj)
        conn.execute(text("DROP TRIGGER archive_segments_no_update"))
        body = compress(b"\n".join(lines))  # and the body's own hash, as a careful forger
        conn.execute(text("UPDATE archive_segments SET body = :body, body_sha256 = :sha "
                          "WHERE day = :day AND table_id = :table AND head_seq = :head AND "
                          "ordinal = :ordinal"),
                     {"body": body, "sha": hashlib.sha256(body).hexdigest(), "day": day,
                      "table": table, "head": head, "ordinal": ordinal})
    engine.dispose()
    breaks = failing_verify(url)["breaks"]
    assert [(b["table"], b["seq"], b["kind"], b["at intake"]) for b in breaks] == [
        (obj["table_id"], obj["seq"] + 1, "altered", "no")]


# ---------------------------------------------------------------- the end of a chain


def log_last_seqs() -> dict[str, int]:
    """Each table's highest seq in the input log: what the catalog must say once the log
    is archived (the simulated day refuses no event at a table's end)."""
    last: dict[str, int] = {}
    for line in simulated_log().lines:
        obj = orjson.loads(line)
        last[obj["table_id"]] = max(last.get(obj["table_id"], 0), obj["seq"])
    return last


def end_breaks(table_id: str, t: Table, kept: int, archived_to: int) -> list[Any]:
    return [b for b in check_table(table_id, t.decoded[:kept], None, t.anchors, t.intake,
                                   archived_to) if not b.at_intake]


def test_segments_cut_from_a_chains_end_are_found_against_the_catalog(
        archived: dict[str, Table]) -> None:
    """The last one, two or three segments of each table removed (a hand, or the events
    after the last hand): every link left holds, so only the catalog shows the cut."""
    last = log_last_seqs()
    assert set(last) == set(archived)
    for table_id, t in archived.items():
        assert end_breaks(table_id, t, len(t.decoded), last[table_id]) == []
        for cut in (1, 2, 3):
            kept = len(t.decoded) - cut
            highest = max(orjson.loads(line)["seq"] for s in t.segments[:kept]
                          for line in event_lines(s.codec, s.body))
            assert check_table(table_id, t.decoded[:kept], None, t.anchors, t.intake) == [
                b for b in check_table(table_id, t.decoded, None, t.anchors, t.intake)
                if b.seq is not None and b.seq <= highest], "no link shows the cut"
            found = end_breaks(table_id, t, kept, last[table_id])
            assert [(b.table_id, b.seq, b.kind) for b in found] == [
                (table_id, highest + 1, "end")]
            assert f"archived up to seq {last[table_id]}, the archive holds seq {highest} " \
                   "last" in found[0].message


def test_a_catalog_that_disagrees_with_the_chain_is_found(archived: dict[str, Table]) -> None:
    table_id, t = sorted(archived.items())[0]
    last = log_last_seqs()[table_id]
    raised = end_breaks(table_id, t, len(t.decoded), last + 5)
    assert [(b.seq, b.kind) for b in raised] == [(last + 1, "end")]
    lowered = end_breaks(table_id, t, len(t.decoded), last - 5)
    assert [(b.seq, b.kind) for b in lowered] == [(last, "end")]
    assert "the catalog was changed" in lowered[0].message
    missing = end_breaks(table_id, t, len(t.decoded), NO_CATALOG_ROW)
    assert [(b.seq, b.kind) for b in missing] == [(last, "end")]
    assert "has no row for the table" in missing[0].message
    assert end_breaks(table_id, t, 0, NO_CATALOG_ROW) == []  # nothing archived, no row


def test_events_archived_while_verify_reads_are_no_break(archived: dict[str, Table]) -> None:
    """The catalog is read before the chain and after it: on a live archive the chain may
    pass the first reading (events archived meanwhile), never the second."""
    table_id, t = sorted(archived.items())[0]
    last = log_last_seqs()[table_id]
    live = [b for b in check_table(table_id, t.decoded, None, t.anchors, t.intake,
                                   last - 10, last + 30) if not b.at_intake]
    assert live == []
    past = [b for b in check_table(table_id, t.decoded, None, t.anchors, t.intake,
                                   last - 10, last - 1) if not b.at_intake]
    assert [(b.seq, b.kind) for b in past] == [(last, "end")]


def test_a_span_is_held_to_the_catalog_only_when_it_reaches_the_tables_last_day(
        engine: Engine) -> None:
    keep(engine, simulated_log().lines)
    day = dt.date(2026, 1, 5)  # the simulated day
    assert reaches_end(engine, "T001", None)
    assert reaches_end(engine, "T001", day)
    assert not reaches_end(engine, "T001", day - dt.timedelta(days=1))
    assert verify_archive(engine, day, day).archive_breaks == []


def test_a_chains_end_removed_in_the_database_is_found_by_the_command(tmp_path: Path) -> None:
    """Someone with the owner's rights drops the segments' guard and deletes a table's last
    hand: every link left holds, the catalog still says how far the table was archived;
    and the catalog's own guard refuses to be lowered to match."""
    url = f"sqlite:///{tmp_path}/day.sqlite"
    log = tmp_path / "day.jsonl"
    log.write_bytes(b"\n".join(simulated_log(faults=False).lines) + b"\n")
    assert pitwatch("adjudicate", str(log), "--ledger", url).code in (0, 1)
    assert pitwatch("verify", "--db", url).code == 0
    from services.ledger.db import open_ledger

    engine = open_ledger(url)
    with engine.begin() as conn:
        last_hand = conn.execute(text(
            "SELECT table_id, hand_id, first_seq FROM archive_segments "
            "WHERE hand_id IS NOT NULL ORDER BY last_seq DESC LIMIT 1")).one()
        conn.execute(text("DROP TRIGGER archive_segments_no_delete"))
        conn.execute(text("DELETE FROM archive_segments WHERE table_id = :t AND "
                          "first_seq >= :s"), {"t": last_hand.table_id,
                                               "s": last_hand.first_seq})
    with pytest.raises(IntegrityError, match="never goes down"), engine.begin() as conn:
        conn.execute(text("UPDATE archive_tables SET last_seq = :s - 1 WHERE table_id = :t"),
                     {"t": last_hand.table_id, "s": last_hand.first_seq})
    engine.dispose()
    breaks = failing_verify(url)["breaks"]
    assert [(b["table"], b["seq"], b["kind"]) for b in breaks] == [
        (last_hand.table_id, last_hand.first_seq, "end")]
    assert "segments removed from its end" in breaks[0]["what"]


# ---------------------------------------------------------------- damaged streams


@pytest.fixture(scope="module", params=[10, 25])
def damaged(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
            ) -> Iterator[Engine]:
    """A hostile-input corpus (tests/fuzz) archived: seed 10 has a record of another
    table's seq 952 misrouted into T002 early (the head jumps, 777..887 come too late
    and are refused, 888..951 come late and are taken in, one of them not fitting);
    seed 25 has T008's seq 1560 damaged into the DLQ while 1559 and 1561 came late."""
    from services.ledger.db import open_ledger
    from tests.fuzz.corpus import build_corpus

    path = tmp_path_factory.mktemp(f"damaged{request.param}")
    engine = open_ledger(f"sqlite:///{path}/ledger.sqlite")
    keep(engine, build_corpus(seed=request.param).mutated)
    yield engine
    engine.dispose()


def test_a_damaged_stream_archived_as_it_came_verifies_clean(damaged: Engine) -> None:
    """Gaps partly filled by events that came late, and a late event that did not fit,
    are the stream's own breaks (its alerts say so), not the archive's."""
    report = verify_archive(damaged)
    assert report.archive_breaks == []
    assert {b.kind for b in report.breaks} >= {"gap", "altered"}


def test_a_late_event_removed_from_a_damaged_stream_is_still_found(damaged: Engine) -> None:
    """Events that came late and were taken in (REORDERED) are archived: one removed
    behind the dropped guard leaves a gap inside a gap the intake reported, which is the
    archive's, not the stream's."""
    with damaged.connect() as conn:
        late = conn.execute(text(
            "SELECT table_id, seq FROM archive_alerts WHERE code = 'REORDERED' "
            "ORDER BY table_id, seq")).all()
    assert late
    table_id, seq = late[len(late) // 2]
    segments = [decode_segment(s) for s in _stored_segments(damaged, table_id)]
    without = []
    for d in segments:
        lines = event_lines(d.segment.codec, d.segment.body)
        kept = [line for line in lines if orjson.loads(line)["seq"] != seq]
        if len(kept) == len(lines):
            without.append(d)
            continue
        refused = [i for i, line in enumerate(kept)
                   if lines.index(line) in set(d.segment.refused)]
        changed = msgspec.structs.replace(d.segment, body=compress(b"\n".join(kept)),
                                          refused=refused, body_sha256=None)
        without.append(decode_segment(changed))
    intake = _intake(damaged, table_id)
    found = [b for b in check_table(table_id, without, None, (), intake) if not b.at_intake]
    assert any(b.kind == "gap" and b.previous_seq is not None
               and b.previous_seq < seq < (b.seq or 0) for b in found), found


def _stored_segments(engine: Engine, table_id: str) -> list[PackedSegment]:
    from services.archive.reader import iter_segments, segments_query

    with engine.connect() as conn:
        return list(iter_segments(conn, segments_query(table_id, None, None)))


def _intake(engine: Engine, table_id: str) -> list[IntakeBreak]:
    with engine.connect() as conn:
        rows = conn.execute(text("SELECT code, seq, alert_json FROM archive_alerts WHERE "
                                 "table_id = :t AND rule = 'SURV-9' AND seq IS NOT NULL"),
                            {"t": table_id}).all()
    found = [intake_break(code, seq, orjson.loads(raw)["message"]) for code, seq, raw in rows]
    return [b for b in found if b is not None]
