"""The ledger's booked hands as anchors of the archive's chain: each booked hand's last
event (its ``last_seq`` and ``last_hash``, written by the ledger, not the archive) must be
an archived event of that hand (``services.archive.chain.ChainWalk``)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

from sqlalchemy import Connection, Engine, select

from services.archive.chain import Anchor, ChainBreak
from services.archive.reader import STREAM_ROWS
from services.ledger.models import Hand
from services.ledger.spans import within_days


def booked_anchors(conn: Connection, table_id: str, first_day: dt.date | None,
             last_day: dt.date | None) -> Iterator[Anchor]:
    """The ledger's booked hands of the table, in ``last_seq`` order, read as consumed."""
    query = select(Hand.hand_id, Hand.last_seq, Hand.last_hash, Hand.ledger_status).where(
        Hand.table_id == table_id, Hand.last_hash.is_not(None), Hand.last_seq.is_not(None))
    query = within_days(query, Hand.day, first_day, last_day).order_by(Hand.last_seq,
                                                                      Hand.hand_id)
    for hand_id, seq, digest, status in conn.execution_options(
            yield_per=STREAM_ROWS).execute(query):
        if seq is not None and digest is not None:
            yield Anchor(hand_id, seq, digest, status == "posted")


def seqless_anchors(engine: Engine, table_id: str, first_day: dt.date | None,
                     last_day: dt.date | None) -> list[ChainBreak]:
    """Booked hands of an archived table that name their last event's hash but no seq:
    nothing to hold them to in the chain (``booked_anchors`` leaves them out), so a copy whose
    ``last_seq`` was cleared passed verify (QA). The adjudicator writes both or
    neither."""
    query = select(Hand.hand_id).where(
        Hand.table_id == table_id, Hand.ledger_status == "posted",
        Hand.last_hash.is_not(None), Hand.last_seq.is_(None))
    with engine.connect() as conn:
        hands = conn.execute(within_days(query, Hand.day, first_day, last_day)
                             .order_by(Hand.hand_id)).scalars().all()
    return [ChainBreak(table_id, None, None, "anchor",
                       f"hand {hand_id} was booked with its last event's hash but no seq: "
                       "the ledger's row cannot be held to the archive's chain (the "
                       "adjudicator records both)") for hand_id in hands]
