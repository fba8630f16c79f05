"""Each archived alert's columns held to its JSON.

Why: the queries read the columns, not the JSON: the console's floor shows alerts above
``info`` by the ``severity`` column, the cases check looks for an alert's case by it, and
a table's stream breaks are found by ``table_id`` and ``seq``. An alert whose column was
lowered behind the table's guard (critical CHAIN_BROKEN set to ``info``) left the floor
and its case could go with it, and ``verify`` passed (QA). The JSON is the alert as
produced; every column, and the key (``alert_key``: a stream alert's names the hash of
its JSON), is derived from it again and compared.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import msgspec
from sqlalchemy import Engine, select

from services.archive.alerts import alert_row
from services.archive.chain import ChainBreak
from services.events.contract import decode_alert
from services.ledger.archive_tables import ArchiveAlert
from services.ledger.models import Hand
from services.ledger.spans import within_days

STREAM_ROWS = 2000


@dataclass
class AlertCheck:
    """How many archived alerts were checked, and the breaks among them: ``verify`` says
    the count (a database ``surveil --db`` made holds alerts and no event)."""

    checked: int = 0
    breaks: list[ChainBreak] = field(default_factory=list)


def alert_breaks(engine: Engine, table_id: str | None = None,
                 first_day: dt.date | None = None, last_day: dt.date | None = None
                 ) -> AlertCheck:
    """The archived alerts (of one table; with a span, those of the span's booked hands,
    as the cases check takes them) checked: those whose row is not the one their JSON
    makes are its breaks."""
    a = ArchiveAlert
    query = select(a.alert_id, a.table_id, a.hand_id, a.rule, a.code, a.severity, a.seq,
                   a.event_id, a.alert_json).order_by(a.alert_id)
    if table_id is not None:
        query = query.where(a.table_id == table_id)
    if first_day is not None or last_day is not None:
        query = query.where(within_days(select(Hand.hand_id).where(Hand.hand_id == a.hand_id),
                                        Hand.day, first_day, last_day).exists())
    check = AlertCheck()
    check.breaks += _breaks(engine, query, check)
    return check


def _breaks(engine: Engine, query: Any, check: AlertCheck) -> Iterator[ChainBreak]:
    with engine.connect() as conn:
        for row in conn.execution_options(yield_per=STREAM_ROWS).execute(query):
            check.checked += 1
            stored = dict(row._mapping)
            try:
                made = alert_row(decode_alert(stored["alert_json"]))
            except (msgspec.DecodeError, msgspec.ValidationError) as exc:
                yield _break(stored, f"its JSON is no alert ({exc})")
                continue
            differ = [name for name in made if name != "alert_json" and
                      made[name] != stored[name]]
            if differ:
                said = "; ".join(f"{name} {stored[name]!s} where its JSON gives "
                                 f"{made[name]!s}" for name in differ)
                yield _break(stored, f"its row says {said}")


def _break(stored: dict[str, Any], what: str) -> ChainBreak:
    seq = stored["seq"] if type(stored["seq"]) is int else None
    return ChainBreak(str(stored["table_id"]), seq, stored["event_id"], "alert",
                      f"archived alert {stored['alert_id']}: {what} (changed behind the "
                      "archive's guards: the console and the cases read the row)")
