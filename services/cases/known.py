"""Whether the database knows a table, dealer or player a queue filter names.

Why: ``pitwatch cases list --table T999`` (a typo, or a table of another casino's ledger)
listed "Cases (0)" and exit 0, the answer a clear queue gives (QA), where ``verify`` and
``replay`` refuse an unknown table naming the ones there are, and ``--game`` refuses a
name no table posts. A scheduled export of a mistyped queue would read as nothing to work.
A name the database knows with no case is a clear queue, and listed as one; a name it
does not know at all is refused.

Known means: a case names it (its tags), or the ledger or the archive holds it (a booked
hand's table or dealer, a player's account, an archived table). The ledger's lookups run
only when no case names the value, so a listing that matches pays nothing; a dealer no
case names costs one pass over the booked hands (``hands.dealer_id`` has no index).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import Engine, Select, select
from sqlalchemy.orm import InstrumentedAttribute

from services.ledger.archive_tables import ArchiveSegment, ArchiveTable
from services.ledger.case_tables import CaseTag
from services.ledger.models import Account, Hand

SHOWN = 10  # the known values a refusal names, at most


def unknown_subject(engine: Engine, kind: str, value: str) -> list[str] | None:
    """None when the database knows ``value`` as a ``kind`` (``table``, ``dealer`` or
    ``player``); else the values of that kind it knows, sorted (for the refusal)."""
    holders = _holders(kind)
    with engine.connect() as conn:
        if conn.execute(_tagged(kind, value)).first() is not None:
            return None
        if any(conn.execute(select(column).where(column == value).limit(1)).first()
               is not None for column in holders):
            return None
        known = {v for column in (CaseTag.value, *holders)
                 for v in conn.execute(_distinct(column, kind)).scalars() if v is not None}
    return sorted(known)


def unknown_day(engine: Engine, day: dt.date) -> list[str] | None:
    """None when a case is on ``day`` or the ledger booked a hand on it; else the days the
    database holds (cases' and booked hands'), sorted, for the refusal. A mistyped date
    (``2026-01-07`` for ``2026-01-06``) listed an empty queue and exit 0, the answer of a
    clear day, where a mistyped table is refused (QA). The booked hands are read only
    when no case is on the day."""
    wanted = day.isoformat()
    with engine.connect() as conn:
        if conn.execute(_tagged("day", wanted)).first() is not None:
            return None
        if conn.execute(select(Hand.day).where(Hand.day == day).limit(1)).first() is not None:
            return None
        # A day of the archive only (an alert raised between hands after the day's last
        # hand): the refusal said no archive named it (QA).
        if conn.execute(select(ArchiveSegment.day).where(ArchiveSegment.day == day)
                        .limit(1)).first() is not None:
            return None
        known = set(conn.execute(_distinct(CaseTag.value, "day")).scalars())
        known |= {d.isoformat() for d in conn.execute(select(Hand.day).distinct()).scalars()
                  if d is not None}
    return sorted(known)


def refusal(kind: str, value: str, known: list[str], field: str | None = None,
            name_them: bool = True) -> str:
    """One line: what is unknown, what there is, what to do. ``field``: where the name
    was given (the option ``--table`` by default; the console's form names its field);
    ``name_them``: False to leave the known names out (the console names no player or
    dealer to whoever typed one wrong: their ids stay on the pages that show them)."""
    where = field or f"--{kind}"
    if not known:
        return (f"the database knows no {kind} at all, so none is {value!r}: check the "
                f"database, or leave {where} out")
    named = ", ".join(known[:SHOWN]) + (f" and {len(known) - SHOWN:,} more"
                                        if len(known) > SHOWN else "")
    it_knows = f"it knows {named} " if name_them else ""
    return (f"the database knows no {kind} {value!r} (no case, hand or archive names it): "
            f"{it_knows}(check {where}; names are matched as written)")


Column = InstrumentedAttribute[Any]


def _holders(kind: str) -> tuple[Column, ...]:
    if kind == "table":
        return (Hand.table_id, ArchiveTable.table_id)
    if kind == "dealer":
        return (Hand.dealer_id,)
    if kind == "player":
        return (Account.player_id,)
    raise ValueError(f"not a subject kind a queue filters by: {kind!r}")


def _tagged(kind: str, value: str) -> Select[Any]:
    return select(CaseTag.value).where(CaseTag.kind == kind, CaseTag.value == value).limit(1)


def _distinct(column: Column, kind: str) -> Select[Any]:
    query = select(column).distinct()
    return query.where(CaseTag.kind == kind) if column is CaseTag.value else query
