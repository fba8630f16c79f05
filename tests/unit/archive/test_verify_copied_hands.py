"""A hand booked twice under two hand ids is a break for ``pitwatch verify``.

The ledger refuses a record copied under another hand id since migration 0017 (a hand
ending at the event a booked hand ends at, GEN-8); a ledger written before it may hold
such a copy, every chip of it counted twice, and verify's check of each booked hand's
last event against the archive passed it (the copy names the same, archived event)."""

from __future__ import annotations

from pathlib import Path

import msgspec
import orjson
import pytest
from alembic import command

from services.archive.verify import verify_archive
from services.ledger.db import alembic_config, open_ledger
from services.ledger.posting import post_hand
from services.ledger.queries import stored_record
from tests.unit.cli.helpers import pitwatch
from tests.unit.ledger.dbread import book_as_before_0017
from tests.unit.reports.test_from_archive import archived_day, sixth_hand


def test_a_copy_booked_before_the_ledger_refused_it_is_a_break(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    url, log = archived_day(tmp_path)
    hand_id = sixth_hand(log)
    engine = open_ledger(url)
    assert not verify_archive(engine).failed()
    original = stored_record(engine, hand_id)
    assert original is not None and original.last_seq is not None
    copy = msgspec.structs.replace(original, hand_id=f"{hand_id}-COPY")
    assert post_hand(engine, copy).status == "refused"  # the ledger of today
    config = alembic_config()  # a ledger from before migration 0017:
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.downgrade(config, "0016_table_carries")
    book_as_before_0017(monkeypatch)
    second = msgspec.structs.replace(original, hand_id=f"{hand_id}-AGAIN")
    assert post_hand(engine, second).status == "posted"
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.upgrade(config, "head")
    report = verify_archive(engine)
    engine.dispose()
    assert [(b.kind, b.seq, b.message) for b in report.archive_breaks] == [
        ("anchor", original.last_seq,
         f"hands {hand_id} and {hand_id}-AGAIN were both booked ending at seq "
         f"{original.last_seq}: an event belongs to one hand, so one is a copy of the other "
         "and its chips are counted twice")]
    ran = pitwatch("verify", "--db", url)
    assert ran.code == 1 and f"{hand_id}-AGAIN" in ran.stdout + ran.stderr


def test_a_copy_booked_before_its_original_is_a_break(tmp_path: Path) -> None:
    """QA: a copy posted first is booked and the genuine hand, arriving after it, refused
    as its copy; verify passed the copy (it ends at an archived event, the right hash),
    though that event is of another hand. Shifted back one event (the hand's event
    before its last, with that event's hash), a copy was booked beside its original and
    passed too. Each is a break naming the hand whose event it ends at."""
    (tmp_path / "first").mkdir()
    url, log = archived_day(tmp_path / "first")
    hand_id = sixth_hand(log)
    engine = open_ledger(url)
    original = stored_record(engine, hand_id)
    engine.dispose()
    assert original is not None and original.last_seq is not None
    later = f"sqlite:///{tmp_path}/later.sqlite"
    ledger = open_ledger(later)
    copy = msgspec.structs.replace(original, hand_id="A-COPY")
    assert post_hand(ledger, copy).status == "posted"
    assert pitwatch("adjudicate", str(log), "--ledger", later).code == 1  # the genuine one
    report = verify_archive(ledger)
    assert [(b.kind, b.seq, b.message) for b in report.archive_breaks] == [
        ("anchor", original.last_seq,
         f"hand A-COPY was booked ending at seq {original.last_seq}, an event of hand "
         f"{hand_id}: a record copied under another hand id, its chips counted for a hand "
         "that never was")]
    ledger.dispose()


def test_a_copy_shifted_to_the_event_before_is_a_break(tmp_path: Path) -> None:
    url, log = archived_day(tmp_path)
    hand_id = sixth_hand(log)
    engine = open_ledger(url)
    original = stored_record(engine, hand_id)
    assert original is not None and original.last_seq is not None
    events = [orjson.loads(line) for line in log.read_bytes().splitlines()]
    last = next(e for e in events if e["hand_id"] == hand_id and e["seq"] == original.last_seq)
    shifted = msgspec.structs.replace(original, hand_id=f"{hand_id}-SHIFTED",
                                      last_seq=original.last_seq - 1, last_hash=last["prev_hash"])
    assert post_hand(engine, shifted).status == "posted"
    breaks = [(b.kind, b.seq) for b in verify_archive(engine).archive_breaks]
    engine.dispose()
    assert breaks == [("anchor", original.last_seq - 1)]


def test_a_copy_booked_past_the_archives_end_or_with_no_seq_is_a_break(tmp_path: Path
                                                                       ) -> None:
    """QA: a copy of a hand whose ``last_seq`` was moved past the table's last archived
    event (with a made-up hash, so the ledger's copy rule does not know it) passed verify,
    as did one whose ``last_seq`` was cleared: nothing in the chain to hold either to.
    Each is a break naming the hand; the honest day before them was clean."""
    url, log = archived_day(tmp_path)
    hand_id = sixth_hand(log)
    table = hand_id.split("-")[0]
    events = [orjson.loads(line) for line in log.read_bytes().splitlines()]
    end = max(e["seq"] for e in events if e["table_id"] == table)
    engine = open_ledger(url)
    original = stored_record(engine, hand_id)
    assert original is not None and original.last_seq is not None
    past = msgspec.structs.replace(original, hand_id="PAST", last_seq=end + 500,
                                   last_hash="ab" * 32)
    seqless = msgspec.structs.replace(original, hand_id="NOSEQ", last_seq=None,
                                      last_hash="cd" * 32)
    assert not verify_archive(engine).failed()
    assert [post_hand(engine, r).status for r in (past, seqless)] == ["posted", "posted"]
    report = verify_archive(engine)
    assert [(b.table_id, b.kind, b.seq, b.message) for b in report.archive_breaks] == [
        (table, "anchor", end + 500,
         f"hand PAST was booked ending at seq {end + 500}, past the archive's last event "
         f"of the table (seq {end}): the ledger holds chips for events the archive never "
         "kept (or not yet: while a run is being kept, or after one was stopped part way, "
         "the archive may be behind the ledger; verify once the run or the archive service "
         "caught up, or run the stopped log again)"),
        (table, "anchor", None,
         "hand NOSEQ was booked with its last event's hash but no seq: the ledger's row "
         "cannot be held to the archive's chain (the adjudicator records both)")]
    engine.dispose()
    ran = pitwatch("verify", "--db", url)
    assert ran.code == 1 and "hand PAST" in ran.stdout and "hand NOSEQ" in ran.stdout
