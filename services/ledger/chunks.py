"""Reading a large table in chunks by its key (keyset pagination).

Why: ``pitwatch verify`` reads every booked hand and every case of years of data. One
query over all of them would hold a cursor (and on SQLite, a read transaction) open while
each chunk's rows are looked up and checked; ``OFFSET`` pages cost more the further they
go. Each chunk here is its own query, read after the last key of the one before: the same
cost for the first chunk and the millionth, memory bounded by the chunk.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from sqlalchemy import Connection, Row, Select
from sqlalchemy.orm import InstrumentedAttribute


def keyset_chunks(conn: Connection, query: Select[*tuple[Any, ...]],
                  key: InstrumentedAttribute[Any],
                  size: int) -> Iterator[list[Row[*tuple[Any, ...]]]]:
    """The rows of ``query`` in chunks of at most ``size``, in the order of ``key`` (a
    unique column the query selects)."""
    after: Any = None
    while True:
        paged = query.order_by(None).order_by(key)
        if after is not None:
            paged = paged.where(key > after)
        chunk = list(conn.execute(paged.limit(size)))
        if not chunk:
            return
        yield chunk
        after = getattr(chunk[-1], key.key)
