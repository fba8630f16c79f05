"""``keyset_chunks``: every row once, in key order, in chunks of the size asked, across
chunk boundaries (the recheck's chunks hold 500 rows; these hold 7), on both databases."""

from __future__ import annotations

import pytest
from sqlalchemy import Engine, select

from services.ledger import recheck
from services.ledger.chunks import keyset_chunks
from services.ledger.models import Hand
from tests.unit.archive.support import keep, simulated_log
from tests.unit.ledger.dbread import rows


def test_every_row_once_in_key_order(engine: Engine) -> None:
    keep(engine, simulated_log().lines)
    everything = [h for (h,) in rows(engine, "SELECT hand_id FROM hands")]
    assert len(everything) > 7 * 3
    with engine.connect() as conn:
        chunks = list(keyset_chunks(conn, select(Hand.hand_id, Hand.day).where(
            Hand.table_id != "none"), Hand.hand_id, 7))
    assert all(1 <= len(chunk) <= 7 for chunk in chunks)
    assert [row.hand_id for chunk in chunks for row in chunk] == sorted(everything)


def test_the_recheck_reads_the_same_in_small_chunks(engine: Engine,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    keep(engine, simulated_log().lines)
    whole = recheck.recheck_ledger(engine)
    monkeypatch.setattr(recheck, "HANDS_PER_CHUNK", 7)
    chunked = recheck.recheck_ledger(engine)
    assert (chunked.hands, chunked.postings, chunked.breaks) == (
        whole.hands, whole.postings, whole.breaks)
    assert whole.hands == len(rows(engine, "SELECT hand_id FROM hands"))
