"""``pitwatch verify`` says each damage to the archive once, where it is (QA, 2026-12-06).

* A segment removed or copied before a kept table state: the gap (or the copies) is the
  break, and the state, which can no longer be derived from the damaged archive, is a
  note naming that break, not a ``carry`` break ("a table that never was": the state was
  genuine, the archive had lost events).
* A stored body whose SHA-256 is not the one stored with it: one break naming its seqs
  as its columns say, nothing read from it (a flipped bit had been read as events at seqs
  of other hands, listed as conflicts there, as gaps and as changed kept states).
* JSON and CSV name every hash of a broken link whole (the table shows 16 digits), and the
  hand of the event before the link, so that an auditor finds the event changed.

The databases are made as QA made them: days adjudicated with ``--leave-open``, the
archive's triggers dropped, one row changed by SQL. What is expected is read off the
rows changed (their seqs, the bytes written), not off verify.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import msgspec
import orjson
import pytest
from sqlalchemy import Engine, text

from services.archive.checkpoints import make_checkpoints
from services.archive.segment import compress, event_lines
from services.archive.verify import check_table, decode_segment, verify_archive
from services.events.canonical import canonical_json
from services.ledger.db import open_ledger
from tests.profiles import PROFILES
from tests.unit.archive.support import run, simulated_log
from tests.unit.archive.test_carry import cut_inside_hands, run_days, simulated_clean_log
from tests.unit.archive.test_verify_damaged_rows import tampered
from tests.unit.cli.helpers import failing_verify, pitwatch

TABLE = "T001"


@pytest.fixture(scope="module")
def two_days(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two tables, two days run one by one (the first with ``--leave-open``): each table
    has a kept state after the first day, derived again as kept. The file, copied by each
    test that damages it."""
    folder = tmp_path_factory.mktemp("days")
    engine = open_ledger(f"sqlite:///{folder}/days.sqlite")
    run_days(cut_inside_hands(simulated_clean_log(), 2), folder, engine, "native")
    engine.dispose()
    return folder / "days.sqlite"


@pytest.fixture
def days(two_days: Path, tmp_path: Path) -> tuple[str, Engine]:
    path = tmp_path / "copy.sqlite"
    path.write_bytes(two_days.read_bytes())
    return f"sqlite:///{path}", open_ledger(f"sqlite:///{path}")


def kept_seq(engine: Engine) -> int:
    with engine.connect() as conn:
        return int(conn.execute(text("SELECT last_seq FROM table_carries WHERE table_id = "
                                     f"'{TABLE}'")).scalar_one())


def a_hands_segment_before(engine: Engine, seq: int) -> Any:
    """A hand's segment of the table in the middle of what the kept state was made from."""
    with engine.connect() as conn:
        rows = conn.execute(text(
            "SELECT rowid, head_seq, ordinal, first_seq, last_seq, body FROM archive_segments "
            f"WHERE table_id = '{TABLE}' AND hand_id IS NOT NULL AND last_seq < {seq} "
            "ORDER BY head_seq, ordinal")).all()
    return rows[len(rows) // 2]


def flip_a_bit(engine: Engine, segment: Any) -> None:
    """QA's flip: one bit in the middle of the segment's stored body, its SHA-256 column
    left as it was (the archive's triggers dropped first)."""
    body = bytearray(segment.body)
    body[len(body) // 2] ^= 1
    tampered(engine)
    with engine.begin() as conn:
        conn.execute(text("UPDATE archive_segments SET body = :body WHERE rowid = :row"),
                     {"body": bytes(body), "row": segment.rowid})


def test_the_undamaged_days_derive_every_kept_state(days: tuple[str, Engine]) -> None:
    _, engine = days
    report = verify_archive(engine, profiles=PROFILES)
    engine.dispose()
    assert report.breaks == [] and report.kept_states == 2


def test_a_segment_removed_before_a_kept_state_is_a_gap_not_a_forged_state(
        days: tuple[str, Engine]) -> None:
    url, engine = days
    segment = a_hands_segment_before(engine, kept_seq(engine))
    tampered(engine, f"DELETE FROM archive_segments WHERE rowid = {segment.rowid}")
    report = verify_archive(engine, profiles=PROFILES)
    engine.dispose()
    first, last = segment.first_seq, segment.last_seq
    assert [(b.table_id, b.seq, b.kind, b.message) for b in report.breaks] == [
        (TABLE, last + 1, "gap", f"seq {first}..{last} missing before seq {last + 1}")]
    assert report.kept_states == 1  # the other table's
    said = [n for n in report.notes if n.startswith(f"table {TABLE}:")]
    assert len(said) == 1 and "cannot be derived again: the archive is damaged before it " \
        f"(the gap at seq {last + 1:,} listed is the first of its breaks there)" in said[0]
    assert "never was" not in said[0] and "hands it left open" not in said[0]
    assert [(b["table"], b["kind"]) for b in failing_verify(url)["breaks"]] == [
        (TABLE, "gap")]


def test_a_segment_copied_before_a_kept_state_is_the_copy_not_a_forged_state(
        days: tuple[str, Engine]) -> None:
    _, engine = days
    segment = a_hands_segment_before(engine, kept_seq(engine))
    with engine.connect() as conn:
        columns = [r[1] for r in conn.execute(text("PRAGMA table_info(archive_segments)"))]
    listed = ", ".join(columns)
    chosen = listed.replace("ordinal", "ordinal + 100000")
    tampered(engine, f"INSERT INTO archive_segments ({listed}) SELECT {chosen} FROM "
                     f"archive_segments WHERE rowid = {segment.rowid}")
    report = verify_archive(engine, profiles=PROFILES)
    engine.dispose()
    first, last = segment.first_seq, segment.last_seq
    assert [(b.table_id, b.seq, b.kind) for b in report.breaks] == [
        (TABLE, seq, "copy") for seq in range(first, last + 1)]
    assert report.kept_states == 1
    said = [n for n in report.notes if n.startswith(f"table {TABLE}:")]
    assert len(said) == 1 and (f"(the copy at seq {first:,} listed is the first of its "
                               "breaks there)") in said[0]


def test_a_bit_flipped_in_a_body_is_one_break_and_nothing_read_from_it(
        days: tuple[str, Engine]) -> None:
    """QA's flip: one bit in the middle of a hand's stored body (its SHA-256 column left):
    one break at the segment's first seq naming its seqs as its columns say; the events
    after it link on from its columns; the kept state after it is a note."""
    url, engine = days
    segment = a_hands_segment_before(engine, kept_seq(engine))
    flip_a_bit(engine, segment)
    report = verify_archive(engine, profiles=PROFILES)
    engine.dispose()
    first, last = segment.first_seq, segment.last_seq
    assert [(b.table_id, b.seq, b.kind, b.message) for b in report.breaks] == [
        (TABLE, first, "column",
         f"segment at seq {first}..{last} (as its columns say): the stored body is not the "
         "bytes written (its SHA-256 differs): its events are not read, nor verified; the "
         "chain goes on from the hash its columns name")]
    said = [n for n in report.notes if n.startswith(f"table {TABLE}:")]
    assert len(said) == 1 and f"(the column at seq {first:,} listed" in said[0]
    assert [(b["table"], b["seq"], b["kind"]) for b in failing_verify(url)["breaks"]] == [
        (TABLE, first, "column")]


def test_a_body_that_decodes_to_other_seqs_is_not_read_as_them() -> None:
    """A body replaced by an earlier segment's (its SHA-256 column left): read, its events
    were listed as copies at those earlier seqs, and its own seqs as a gap. Not read, it is
    one break, and the chain links across its seqs by its columns."""
    segments = sorted((s for s in run(simulated_log(faults=False).lines).segments
                       if s.table_id == TABLE), key=lambda s: (s.head_seq, s.ordinal))
    hands = [n for n, s in enumerate(segments) if s.hand_id is not None]
    earlier, at = segments[hands[3]], hands[10]
    original = segments[at]
    assert original.first_seq is not None and original.last_seq is not None
    stored = msgspec.structs.replace(original, body=earlier.body,
                                     body_sha256=hashlib.sha256(original.body).hexdigest())
    decoded = [decode_segment(s) for s in segments]
    decoded[at] = decode_segment(stored)
    found = check_table(TABLE, decoded)
    assert [(b.seq, b.kind) for b in found if not b.at_intake] == [
        (original.first_seq, "column")]
    # Its columns say it ends at another hash than the event after it carries: that link.
    stored = msgspec.structs.replace(stored, last_hash="ab" * 32)
    decoded[at] = decode_segment(stored)
    found = [b for b in check_table(TABLE, decoded) if not b.at_intake]
    assert [(b.seq, b.kind) for b in found] == [
        (original.first_seq, "column"), (original.last_seq + 1, "altered")]
    assert found[1].full is not None and "ab" * 32 in found[1].full


def test_json_and_csv_name_a_broken_links_hashes_whole_and_the_hand(tmp_path: Path) -> None:
    """One payout rewritten with its body's hash (QA's payout): the row names the hash the
    next event carries and the one the changed event hashes to, each whole in JSON and CSV
    (16 digits in the table), and the changed event's id and hand."""
    url = f"sqlite:///{tmp_path}/day.sqlite"
    log = tmp_path / "day.jsonl"
    log.write_bytes(b"\n".join(simulated_log(faults=False).lines) + b"\n")
    assert pitwatch("adjudicate", str(log), "--ledger", url).code in (0, 1)
    engine = open_ledger(url)
    with engine.connect() as conn:
        row = next(r for r in conn.execute(text(
            "SELECT rowid, codec, body FROM archive_segments WHERE table_id = 'T001' AND "
            "hand_id IS NOT NULL ORDER BY head_seq")).all()[5:]
            if b'"type":"payout"' in bytes(r.body) or any(
                b'"type":"payout"' in line for line in event_lines(r.codec, bytes(r.body))))
    lines = event_lines(row.codec, bytes(row.body))
    index = next(i for i, line in enumerate(lines) if b'"type":"payout"' in line)
    was = hashlib.sha256(lines[index]).hexdigest()  # what the next event carries
    event = orjson.loads(lines[index])
    event["data"]["amount"] += 1
    lines[index] = canonical_json(event)
    now = hashlib.sha256(lines[index]).hexdigest()
    body = compress(b"\n".join(lines))
    tampered(engine)
    with engine.begin() as conn:
        conn.execute(text("UPDATE archive_segments SET body = :body, body_sha256 = :sha "
                          "WHERE rowid = :row"),
                     {"body": body, "sha": hashlib.sha256(body).hexdigest(), "row": row.rowid})
    engine.dispose()
    seq, hand = event["seq"], event["hand_id"]
    expected = (f"seq {seq + 1} carries prev_hash {was} but seq {seq} as archived hashes to "
                f"{now}: seq {seq} (event {event['event_id']}, hand {hand}) or this event "
                f"(hand {hand}) changed")
    listed = [b for b in failing_verify(url)["breaks"] if b["at intake"] == "no"]
    assert [(b["seq"], b["kind"], b["what"]) for b in listed] == [
        (seq + 1, "altered", expected)]
    as_csv = pitwatch("verify", "--db", url, "--format", "csv")
    assert as_csv.code == 1 and expected in as_csv.stdout
    as_table = pitwatch("verify", "--db", url)
    assert as_table.code == 1
    assert f"{was[:16]}…" in as_table.stdout and f"{now[:16]}…" in as_table.stdout
    assert was not in as_table.stdout and now not in as_table.stdout


def test_a_bit_flipped_before_a_checkpoint_is_the_bodys_break_not_the_checkpoints(
        days: tuple[str, Engine]) -> None:
    """Checkpoints every 300 lines, then QA's flip in a hand's body: the body's one break,
    and the checkpoint whose stretch holds it a note (it gave two ``checkpoint`` breaks:
    derived from a damaged stretch, a genuine checkpoint differs too). The checkpoints
    before the flip, and those after the next one, are derived and compared as ever."""
    url, engine = days
    made = make_checkpoints(engine, PROFILES, "2026-12-06T00:00:00Z", TABLE, every=300)
    assert made.tables == 1 and not made.skipped
    with engine.connect() as conn:
        heads = [int(h) for h in conn.execute(text(
            "SELECT head_seq FROM archive_checkpoints WHERE table_id = :t ORDER BY head_seq"),
            {"t": TABLE}).scalars()]
    segment = a_hands_segment_before(engine, kept_seq(engine))
    after = [h for h in heads if h >= segment.first_seq]
    assert len(after) >= 2 and any(h < segment.first_seq for h in heads)
    flip_a_bit(engine, segment)
    report = verify_archive(engine, profiles=PROFILES)
    engine.dispose()
    first = segment.first_seq
    assert [(b.table_id, b.seq, b.kind) for b in report.breaks] == [(TABLE, first, "column")]
    noted = [n for n in report.notes if "cannot be derived again: the archive is damaged "
             f"before it (the column at seq {first:,} listed)" in n and "checkpoint" in n]
    assert len(noted) == 1 and f"segment {after[0]}/" in noted[0], report.notes
    assert [(b["kind"]) for b in failing_verify(url)["breaks"]] == ["column"]
