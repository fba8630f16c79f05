"""The floor: one day's hands, drop, win and hold by table and game, the open cases by
severity, and the latest alerts, in three queries however many tables there are.

Why group in the database: the floor of a casino is hundreds of tables and the page
refreshes itself; one grouped query per panel keeps a refresh a few milliseconds of
database work instead of a row per hand in Python.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from dataclasses import dataclass

from sqlalchemy import ColumnElement, Engine, case, func, select

from services.cases.lifecycle import SEVERITY_RANK
from services.ledger.archive_tables import ArchiveAlert
from services.ledger.case_tables import Case
from services.ledger.models import Account, Hand, Posting
from services.ledger.queries import chips_sum, drop_posting
from services.reports.day_figures import (
    OverallHold,
    days_of_undated,
    hands_to_review,
    overall_hold,
    table_hold,
)
from services.reports.day_figures import tables_without_drop as count_tables_without_drop

LATEST_ALERTS = 20


@dataclass(frozen=True)
class TableLine:
    """One table and game on the day. ``drop``: chips wagered on layouts and bet into
    pots, but not in a dead hand (every wager goes back: none was at risk), the ledger's
    one definition (``services.ledger.queries.drop_posting``) that the daily report and
    ``ledger totals`` use too, so that they show one figure for one day; ``win``: rake
    plus the house bank's result; ``hold``: win / drop, n/a without a drop (the daily
    report's ``day_figures.table_hold``)."""

    table_id: str
    game: str
    hands: int
    # hands to review as the daily report counts them (``day_figures.hands_to_review``):
    # a discrepancy, rejected, refused or questioned by the ledger; with those booked
    # without a day that it places on this one, which are not in ``hands``
    review: int
    drop: int
    rake: int
    house_bank: int

    @property
    def win(self) -> int:
        return self.rake + self.house_bank

    @property
    def hold(self) -> str:
        return table_hold(self.win, self.drop)


@dataclass(frozen=True)
class AlertLine:
    alert_id: str
    table_id: str
    hand_id: str | None
    rule: str
    code: str
    severity: str
    ended_at: str | None  # the end of the hand it was raised on


@dataclass(frozen=True)
class Floor:
    day: dt.date | None  # None: the ledger holds no hands at all
    days: list[dt.date]  # every day with hands, latest first
    tables: list[TableLine]
    open_cases: dict[str, dict[str, int]]  # severity -> state -> count (closed left out)
    alerts: list[AlertLine]
    # No day was asked for and today has no hands: ``day`` is the latest day with hands,
    # and the page says so. A day chosen is shown as chosen, with hands or none (the
    # page told a chosen day it was the latest day, being only not today).
    latest_for_today: bool = False

    @property
    def hold(self) -> OverallHold:
        """All tables' hold, of the tables that have one, as the daily report's."""
        return overall_hold((t.win, t.drop) for t in self.tables)

    @property
    def tables_without_drop(self) -> int:
        """How many tables have a game with a win and no drop (what ``hold`` leaves out):
        distinct tables, not rows of a table and game (as the daily report counts them;
        a table that played two games was two, QA)."""
        return count_tables_without_drop((t.table_id, t.win, t.drop) for t in self.tables)

    @property
    def totals(self) -> TableLine:
        """The tables' sums; their hold is ``hold``, not the ``hold`` of this line."""
        return TableLine("all tables", "", sum(t.hands for t in self.tables),
                         sum(t.review for t in self.tables), sum(t.drop for t in self.tables),
                         sum(t.rake for t in self.tables),
                         sum(t.house_bank for t in self.tables))


def days_with_hands(engine: Engine) -> list[dt.date]:
    """Every day with hands booked on it, or booked without a day and placed on it as the
    daily report places them (``day_figures.hands_to_review``), latest first."""
    with engine.connect() as conn:
        days = conn.execute(select(Hand.day).where(Hand.day.is_not(None)).distinct()).scalars()
        dated = {d if isinstance(d, dt.date) else dt.date.fromisoformat(str(d)) for d in days}
        return sorted(dated | days_of_undated(conn), reverse=True)


def floor(engine: Engine, day: dt.date | None, today: dt.date) -> Floor:
    """The floor of ``day``; without one, today's, or the latest day with hands when
    today has none (a simulated or archived day)."""
    days = days_with_hands(engine)
    latest_for_today = day is None and today not in days and bool(days)
    if day is None:
        day = today if today in days else (days[0] if days else None)
    tables = table_lines(engine, day) if day is not None else []
    return Floor(day, days, tables, open_cases(engine), latest_alerts(engine),
                 latest_for_today)


def _sum_where(condition: ColumnElement[bool]) -> ColumnElement[int]:
    return chips_sum(case((condition, Posting.amount), else_=0))


def table_lines(engine: Engine, day: dt.date) -> list[TableLine]:
    money = (select(Posting.hand_id,
                    _sum_where(drop_posting()).label("drop"),
                    _sum_where(Account.kind == "house_rake").label("rake"),
                    _sum_where(Account.kind == "house_bank").label("bank"))
             .join(Account, Account.name == Posting.account)
             .join(Hand, Hand.hand_id == Posting.hand_id).where(Hand.day == day)
             .group_by(Posting.hand_id).subquery())
    query = (select(Hand.table_id, func.coalesce(Hand.game, "?"), func.count(),
                    chips_sum(func.coalesce(money.c.drop, 0)),
                    chips_sum(func.coalesce(money.c.rake, 0)),
                    chips_sum(func.coalesce(money.c.bank, 0)))
             .outerjoin(money, money.c.hand_id == Hand.hand_id).where(Hand.day == day)
             .group_by(Hand.table_id, Hand.game).order_by(Hand.table_id, Hand.game))
    with engine.connect() as conn:
        review = Counter((h.table_id, h.game or "?") for h in hands_to_review(conn, day))
        lines = {(t, g): (int(n), int(d), int(k), int(b))
                 for t, g, n, d, k, b in conn.execute(query)}
    return [TableLine(t, g, n, review[(t, g)], d, k, b)
            for (t, g), (n, d, k, b) in sorted((key, lines.get(key, (0, 0, 0, 0)))
                                               for key in lines.keys() | review.keys())]


def open_cases(engine: Engine) -> dict[str, dict[str, int]]:
    query = (select(Case.severity, Case.state, func.count()).where(Case.state != "closed")
             .group_by(Case.severity, Case.state))
    out: dict[str, dict[str, int]] = {}
    with engine.connect() as conn:
        for severity, state, count in conn.execute(query):
            out.setdefault(severity, {})[state] = int(count)
    return dict(sorted(out.items(), key=lambda kv: -SEVERITY_RANK.get(kv[0], -1)))


def latest_alerts(engine: Engine, limit: int = LATEST_ALERTS) -> list[AlertLine]:
    """The alerts at warning or above on the latest hands (an alert has no time of its
    own; the hand it was raised on has); stream alerts with no hand come last."""
    A = ArchiveAlert
    query = (select(A.alert_id, A.table_id, A.hand_id, A.rule, A.code, A.severity,
                    Hand.ended_at)
             .outerjoin(Hand, Hand.hand_id == A.hand_id)
             .where(A.severity != "info")
             .order_by(Hand.ended_at.desc().nulls_last(), A.alert_id).limit(limit))
    with engine.connect() as conn:
        return [AlertLine(*row) for row in conn.execute(query)]
