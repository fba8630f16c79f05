"""The segments a span of days leaves out from the middle of a table's chain: filed under
a day outside the span, though they arrived between the span's own segments.

Why they exist: the archive files a segment under the UTC day of its last event, and the
contract sets no order on a table's timestamps. A table clock stepped back across
midnight (an NTP correction) files the events after it under the day before, so a span
verified alone (``pitwatch verify --from D --to D``) missed their seqs and reported a
``gap``, which the guide says means a changed database (QA: an honest archive failed a
one-day verify). Such seqs are not missing: they are verified with the span.

Found from the gaps themselves, which is exact and costs nothing on an honest table: a
gap's seqs are looked up by the table's ``(table_id, first_seq)`` index on every day, so a
clock off by any amount is found, and a verify that finds no gap reads nothing more.
"""

from __future__ import annotations

import datetime as dt
import heapq
from collections.abc import Iterable, Iterator

from sqlalchemy import Engine, not_, or_

from services.archive.chain import ChainBreak
from services.archive.reader import StoredSegment, segments_query, stored_segments
from services.ledger.archive_tables import ArchiveSegment
from services.ledger.spans import days_between

S = ArchiveSegment


def missing_seqs(breaks: Iterable[ChainBreak]) -> list[tuple[int, int]]:
    """The seqs (first, last) of each ``gap`` the walk reported that the stream did not
    have at intake (those never arrived: no day holds them)."""
    return [(b.previous_seq + 1, b.seq - 1) for b in breaks
            if b.kind == "gap" and not b.at_intake and b.seq is not None
            and b.previous_seq is not None and b.previous_seq + 1 <= b.seq - 1]


def filed_elsewhere(engine: Engine, table_id: str, first_day: dt.date | None,
                    last_day: dt.date | None, gaps: list[tuple[int, int]]
                    ) -> list[StoredSegment]:
    """The table's segments outside ``first_day``..``last_day`` whose accepted events
    start at a seq of one of ``gaps``, in arrival order."""
    if not gaps or (first_day is None and last_day is None):
        return []
    within_a_gap = or_(*(S.first_seq.between(first, last) for first, last in gaps))
    query = (segments_query(table_id)
             .where(S.first_seq.is_not(None), within_a_gap,
                    not_(days_between(S.day, first_day, last_day))))
    with engine.connect() as conn:
        return list(stored_segments(conn, query))


def in_arrival_order(span: Iterable[StoredSegment], others: list[StoredSegment]
                     ) -> Iterator[StoredSegment]:
    """The span's segments with ``others`` put where they arrived (both in arrival
    order: ``head_seq``, then ``ordinal``)."""
    return heapq.merge(span, others, key=lambda s: (s.segment.head_seq, s.segment.ordinal))


def note(table_id: str, others: list[StoredSegment]) -> str:
    """What verify says when it took segments of other days into the span."""
    days = sorted({s.segment.day for s in others})
    return (f"table {table_id}: {len(others)} segment(s) filed under "
            f"{', '.join(days)}, outside the span, arrived between the span's own (the "
            "table's clock went back past midnight): verified with the span, as the seqs "
            "between its events")
