"""A hand booked twice under two hand ids is a break for ``pitwatch verify``.

The ledger refuses a record copied under another hand id since migration 0017 (a hand
ending at the event a booked hand ends at, GEN-8); a ledger written before it may hold
such a copy, every chip of it counted twice, and verify's check of each booked hand's
last event against the archive passed it (the copy names the same, archived event)."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from services.archive.verify import verify_archive
from services.ledger import posting
from services.ledger.db import open_ledger
from services.ledger.posting import post_hand
from services.ledger.queries import stored_record
from tests.unit.cli.helpers import pitwatch
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
    monkeypatch.setattr(posting, "_refuse_events_of_other_hands",
                        lambda *args: None)  # a ledger from before migration 0017
    second = msgspec.structs.replace(original, hand_id=f"{hand_id}-AGAIN")
    assert post_hand(engine, second).status == "posted"
    report = verify_archive(engine)
    engine.dispose()
    assert [(b.kind, b.seq, b.message) for b in report.archive_breaks] == [
        ("anchor", original.last_seq,
         f"hands {hand_id} and {hand_id}-AGAIN were both booked ending at seq "
         f"{original.last_seq}: an event belongs to one hand, so one is a copy of the other "
         "and its chips are counted twice")]
    ran = pitwatch("verify", "--db", url)
    assert ran.code == 1 and f"{hand_id}-AGAIN" in ran.stdout + ran.stderr
