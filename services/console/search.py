"""Finding hands and alerts: by hand id, table, player, dealer, date range and rule ID,
combined.

Every value is a bound parameter (SQLAlchemy), never SQL text: a search string is data,
whatever it contains. A hand id matches anywhere in the id (``LIKE`` with its wildcards
escaped), the other fields match exactly.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, fields

from sqlalchemy import Engine, exists, select

from services.cases.intake import alert_tags
from services.events.characters import CONTROL, holds_any
from services.events.contract import decode_alert
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
    if q.rule:  # rule IDs are written in capitals (HCF-7); "hcf-7" is the same rule
        query = query.where(exists().where(FindingRow.hand_id == Hand.hand_id,
                                           FindingRow.rule == q.rule.upper()))
    query = query.order_by(Hand.ended_at.desc(), Hand.hand_id).limit(limit)
    with engine.connect() as conn:
        return [FoundHand(*row) for row in conn.execute(query)]


def find_alerts(engine: Engine, q: HandQuery, limit: int = LIMIT) -> list[FoundAlert]:
    """The archived alerts matching every field given: the rule (in any capitals), table
    and hand as the alert's own columns; a date range by the day of the hand it was
    raised on; a player or a dealer as the alert names them (``alert_tags``, by which the
    queue finds the alert's case too).

    Why: a search for P7's hands (or a day's) listed every alert of the rule or table
    beside them, P3's and last month's too, and a search by player or dealer alone listed
    none; "hcf-7" found nothing where "HCF-7" found the hands (QA)."""
    _printable(q)
    if q.empty:
        return []
    first, last = _day(q.date_from, "from"), _day(q.date_to, "to")
    a = ArchiveAlert
    query = select(a.alert_id, a.table_id, a.hand_id, a.rule, a.code, a.severity,
                   a.alert_json)
    if q.rule:
        query = query.where(a.rule == q.rule.upper())
    if q.table:
        query = query.where(a.table_id == q.table)
    if q.hand_id:
        query = query.where(a.hand_id.contains(q.hand_id, autoescape=True))
    if first is not None or last is not None:
        raised_on = select(Hand.hand_id).where(Hand.hand_id == a.hand_id)
        raised_on = raised_on.where(Hand.day >= first) if first is not None else raised_on
        raised_on = raised_on.where(Hand.day <= last) if last is not None else raised_on
        query = query.where(raised_on.exists())
    named = [(kind, value) for kind, value in (("player", q.player), ("dealer", q.dealer))
             if value]
    for _, value in named:  # narrowed in SQL, then read as the alert names them
        query = query.where(a.alert_json.contains(value, autoescape=True))
    found: list[FoundAlert] = []
    with engine.connect() as conn:
        for alert_id, table_id, hand_id, rule, code, severity, raw in conn.execute(
                query.order_by(a.alert_id)):
            if named and not set(named) <= alert_tags(decode_alert(raw)):
                continue
            found.append(FoundAlert(alert_id, table_id, hand_id, rule, code, severity))
            if len(found) == limit:
                break
    return found
