"""Finding hands: by hand id, table, player, dealer, date range and rule ID, combined.

Every value is a bound parameter (SQLAlchemy), never SQL text: a search string is data,
whatever it contains. A hand id matches anywhere in the id (``LIKE`` with its wildcards
escaped), the other fields match exactly.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, fields

from sqlalchemy import Engine, exists, select

from services.events.characters import CONTROL, holds_any
from services.events.days import parse_day
from services.ledger.archive_tables import ArchiveAlert
from services.ledger.models import Account, FindingRow, Hand, Posting

LIMIT = 500


class SearchRefused(ValueError):
    """A search that cannot run as given (a date that is not a date); one line."""


@dataclass(frozen=True)
class HandQuery:
    hand_id: str = ""
    table: str = ""
    player: str = ""
    dealer: str = ""
    date_from: str = ""
    date_to: str = ""
    rule: str = ""

    @classmethod
    def from_form(cls, form: dict[str, str]) -> HandQuery:
        return cls(**{f.name: form.get(f.name, "").strip()[:200] for f in fields(cls)})

    @property
    def empty(self) -> bool:
        return not any(getattr(self, f.name) for f in fields(self))


@dataclass(frozen=True)
class FoundHand:
    hand_id: str
    table_id: str
    game: str | None
    status: str
    ledger_status: str
    dealer_id: str | None
    ended_at: str | None


@dataclass(frozen=True)
class FoundAlert:
    alert_id: str
    table_id: str
    hand_id: str | None
    rule: str
    code: str
    severity: str


def _day(text: str, name: str) -> dt.date | None:
    if not text:
        return None
    try:
        return parse_day(text)
    except ValueError:
        raise SearchRefused(f"{name}: write the day as YYYY-MM-DD") from None


def _printable(q: HandQuery) -> None:
    """No control character in a search: SQLite ends a ``LIKE`` pattern at a NUL, so a
    hand id of one NUL matched every hand; no id holds one."""
    for f in fields(q):
        if holds_any(getattr(q, f.name), CONTROL):
            raise SearchRefused(f"{f.name.replace('_', ' ')}: a control character is in no "
                                "id: type the id as it is shown")


def find_hands(engine: Engine, q: HandQuery, limit: int = LIMIT) -> list[FoundHand]:
    """The booked hands matching every field given, latest first (``SearchRefused`` for
    a search that cannot run as given)."""
    _printable(q)
    first, last = _day(q.date_from, "from"), _day(q.date_to, "to")
    query = select(Hand.hand_id, Hand.table_id, Hand.game, Hand.status, Hand.ledger_status,
                   Hand.dealer_id, Hand.ended_at)
    if q.hand_id:
        query = query.where(Hand.hand_id.contains(q.hand_id, autoescape=True))
    if q.table:
        query = query.where(Hand.table_id == q.table)
    if q.dealer:
        query = query.where(Hand.dealer_id == q.dealer)
    if first is not None:
        query = query.where(Hand.day >= first)
    if last is not None:
        query = query.where(Hand.day <= last)
    if q.player:
        query = query.where(exists().where(Posting.hand_id == Hand.hand_id,
                                           Account.name == Posting.account,
                                           Account.player_id == q.player))
    if q.rule:
        query = query.where(exists().where(FindingRow.hand_id == Hand.hand_id,
                                           FindingRow.rule == q.rule))
    query = query.order_by(Hand.ended_at.desc(), Hand.hand_id).limit(limit)
    with engine.connect() as conn:
        return [FoundHand(*row) for row in conn.execute(query)]


def find_alerts(engine: Engine, q: HandQuery, limit: int = LIMIT) -> list[FoundAlert]:
    """Archived alerts of a rule, table or hand (the fields alerts carry as columns)."""
    if not (q.rule or q.table or q.hand_id):
        return []
    A = ArchiveAlert
    query = select(A.alert_id, A.table_id, A.hand_id, A.rule, A.code, A.severity)
    if q.rule:
        query = query.where(A.rule == q.rule)
    if q.table:
        query = query.where(A.table_id == q.table)
    if q.hand_id:
        query = query.where(A.hand_id.contains(q.hand_id, autoescape=True))
    with engine.connect() as conn:
        return [FoundAlert(*row) for row in conn.execute(query.order_by(A.alert_id)
                                                         .limit(limit))]
