"""What the daily report and the console's floor count alike, defined once: the hold of a
table and of all tables, and which hands are to review on a day.

Why one module both use: each wrote its own, and they drifted (QA). The floor said 58
hands to review where the daily report's header said 60 (two rejected hands booked
without a day, which the report places on the day of their last archived events and the
floor counted on no day); and both totalled the hold as all the win over all the drop,
Chinese Poker's rake included, though that table's own hold is n/a because its rake is a
fee on play between players with no drop behind it (ev1 2026-01-05: 4,632 / 213,935 =
2.17 % where the tables with a hold held 2,186 / 213,935 = 1.02 %).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from sqlalchemy import ColumnElement, Connection, exists, select

from services.archive.queries import undated_hands
from services.ledger.models import Conflict, FindingRow, Hand

REVIEW_STATUSES = frozenset({"discrepancy", "rejected"})
IDS_PER_QUERY = 512  # hand ids a query looks up at a time


def percent(numerator: int, denominator: int, places: int = 2) -> str:
    """``numerator / denominator`` as a percentage with fixed decimals, computed exactly.

    Rounds half away from zero (1/8 = 12.5% at 0 places is "13"); "n/a" for a zero
    denominator (a table with no drop has no hold). ASCII "-" (the reports print it with
    the real minus sign, ``render.minus``); none on a value that rounds to zero: "0.00",
    not "-0.00".
    """
    if denominator == 0:
        return "n/a"
    scaled = Fraction(numerator * 100 * 10**places, denominator)
    magnitude = abs(scaled)
    rounded = int(magnitude + Fraction(1, 2))  # floor(x + 1/2) for x >= 0
    sign = "-" if scaled < 0 and rounded else ""  # a loss that rounds to 0 is "0.00"
    whole, frac = divmod(rounded, 10**places)
    return f"{sign}{whole}" + (f".{frac:0{places}d}" if places else "")


# ---------------------------------------------------------------- hold


def has_hold(drop: int) -> bool:
    """Whether a table (a table and game on a day) has a hold: it has a drop. A game that
    settles only between players (Chinese Poker) has drop 0 by definition and its win is
    the rake, a fee on play between players: its hold is n/a, and so is a table whose
    hands were all dead. Hold'em and draw tables have a drop (the chips bet into pots),
    so a hold (their rake over it)."""
    return drop != 0


def table_hold(win: int, drop: int) -> str:
    """Hold %: win / drop ("n/a" for a table without a hold, ``has_hold``)."""
    return percent(win, drop) if has_hold(drop) else "n/a"


@dataclass(frozen=True)
class OverallHold:
    """The hold of a group of tables (all of a day's, a dealer's): the win of the tables
    that have a hold over their drop. ``left_out``: the win of those that have none
    (Chinese Poker's rake), in the group's win but not in its hold."""

    win: int
    drop: int
    left_out: int = 0
    tables_left_out: int = 0

    @property
    def hold(self) -> str:
        return table_hold(self.win, self.drop)


def tables_without_drop(rows: Iterable[tuple[str, int, int]]) -> int:
    """How many tables, of rows (table id, win, drop) of a table and game, have a game
    with a win and no drop (the win ``overall_hold`` leaves out): distinct tables, not
    rows (a table that played two such games was two, QA). The daily report's and the
    console floor's one count."""
    return len({table for table, win, drop in rows if not has_hold(drop) and win})


def overall_hold(tables: Iterable[tuple[int, int]]) -> OverallHold:
    """The hold of the tables given as (win, drop): as each table's, n/a ones left out."""
    win = drop = left_out = tables_left_out = 0
    for table_win, table_drop in tables:
        if has_hold(table_drop):
            win, drop = win + table_win, drop + table_drop
        elif table_win:
            left_out, tables_left_out = left_out + table_win, tables_left_out + 1
    return OverallHold(win, drop, left_out, tables_left_out)


# ---------------------------------------------------------------- hands to review


def to_review() -> ColumnElement[bool]:
    """Whether a ``Hand`` row is to review, in SQL: its status is one to review, the
    ledger did not book it, the ledger added a finding of its own, or it refused a
    re-post of the hand with other bytes (SURV-9 ``LEDGER_CONFLICT``, kept in
    ``conflicts``). The floor once counted the first two only, so after 384 refused
    re-posts it said 41 hands to review where the daily report said 398 (QA)."""
    own = exists().where(FindingRow.hand_id == Hand.hand_id, FindingRow.origin == "ledger")
    refused = exists().where(Conflict.hand_id == Hand.hand_id)
    return (Hand.status.in_(REVIEW_STATUSES) | (Hand.ledger_status != "posted") | own
            | refused)


@dataclass(frozen=True)
class ToReview:
    hand_id: str
    table_id: str
    game: str | None
    dated: bool  # booked with the day; else booked without one, placed on it (below)


def hands_to_review(conn: Connection, day: dt.date, table: str | None = None
                    ) -> list[ToReview]:
    """The hands to review on ``day`` (``to_review``), optionally of one table, by hand
    id: those booked with that day, and those booked without a day (a rejected hand's
    record carries no end time) whose last archived events are of that day
    (``services.archive.queries.undated_hands``, the day ``pitwatch replay`` gives them).
    The daily report lists and counts these, and the floor counts them."""
    dated = select(Hand.hand_id, Hand.table_id, Hand.game).where(Hand.day == day,
                                                                 to_review())
    if table is not None:
        dated = dated.where(Hand.table_id == table)
    found = [ToReview(h, t, g, True) for h, t, g in conn.execute(dated)]
    placed = sorted(h for hands in undated_hands(conn, day, day, table).values()
                    for h in hands)
    for start in range(0, len(placed), IDS_PER_QUERY):
        rows = conn.execute(
            select(Hand.hand_id, Hand.table_id, Hand.game)
            .where(Hand.hand_id.in_(placed[start:start + IDS_PER_QUERY]), to_review()))
        found.extend(ToReview(h, t, g, False) for h, t, g in rows)
    return sorted(found, key=lambda r: r.hand_id)


def days_of_undated(conn: Connection) -> set[dt.date]:
    """The days on which hands booked without a day are placed (``hands_to_review``)."""
    return {placed for hands in undated_hands(conn, dt.date.min, dt.date.max, None).values()
            for placed in hands.values() if placed is not None}
