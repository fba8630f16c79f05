"""The events a report replays, from the database's event archive.

Why its own module: ``report hand``, ``report daily`` and the console's hand view read
the same archived events, and a table may archive years of them: each source here reads
a table's segments as the replay consumes them (``services.reports.replay.ArchivedEvents``),
so only the wanted hands' span is ever held.
"""

from __future__ import annotations

from sqlalchemy import Engine

from services.archive.reader import bodies_through_hand, hand_table
from services.reports.replay import ArchivedEvents


def through_hand(engine: Engine, hand_id: str) -> ArchivedEvents | None:
    """The hand's table's archived events from its first through the hand and the event
    after it (None: the archive does not hold the hand)."""
    where = hand_table(engine, hand_id)
    if where is None:
        return None
    return ArchivedEvents((where[0],), lambda _table: bodies_through_hand(engine, where))


def tables_of(engine: Engine, hand_ids: list[str]) -> ArchivedEvents | None:
    """The archived events of the tables these hands were played at, each from its first
    through the last of these hands it holds and the event after it (None: the archive
    holds none of them). Not the tables' later events: a day's hands of a table that
    played on for years are replayed without reading those years."""
    last: dict[str, tuple[str, int, int]] = {}
    for hand_id in hand_ids:
        where = hand_table(engine, hand_id)
        if where is not None and (where[0] not in last or where > last[where[0]]):
            last[where[0]] = where
    if not last:
        return None
    return ArchivedEvents(tuple(sorted(last)),
                          lambda table: bodies_through_hand(engine, last[table]))
