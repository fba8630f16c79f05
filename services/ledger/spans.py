"""A span of UTC days as a query filter: the one way the commands that take ``--from`` and
``--to`` (verify, its rechecks, the archive's reader) narrow a query to it.

Why one function: the span is inclusive at both ends and either end may be open; written
out at each query, the two comparisons were repeated a dozen times, each a place for an
end to slip to ``<``.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, TypeVar

from sqlalchemy import ColumnElement, Select, and_, true

Q = TypeVar("Q", bound=Select[*tuple[Any, ...]])


def within_days(query: Q, day: Any, first_day: dt.date | None,
                last_day: dt.date | None) -> Q:
    """``query`` kept to rows whose ``day`` column lies in ``first_day``..``last_day``
    (both included; None: that end open)."""
    return query.where(days_between(day, first_day, last_day))


def days_between(day: Any, first_day: dt.date | None,
                 last_day: dt.date | None) -> ColumnElement[bool]:
    """The condition ``within_days`` puts: for a query that takes rows in the span or
    others besides (``or_``)."""
    ends = [*([day >= first_day] if first_day is not None else []),
            *([day <= last_day] if last_day is not None else [])]
    return and_(true(), *ends)
