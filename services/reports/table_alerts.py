"""The day of an alert raised on no hand: a GEN-4 ``CASH_IN_PLAY`` between hands, a GEN-5
``UNAUTHORISED_CONFIGURATION``, a SURV-9 chain alert outside a hand.

Why: the daily report placed an alert on a day by its hands (raised on, or citing as
evidence, one of the day's hands), so an alert that carries no hand was in no day's
report, "None: no alert ... concerns this day's hands" with the alert in the file given
(QA), while the guide has its reader stop at exactly these. Such an alert carries the
``seq`` and ``event_id`` of the event that raised it, and no time; the event archive
holds that event, with its ``ts``: the alert belongs to the UTC day of that event.

How: ``services.archive.event_days`` finds the event in the archive, which also gives
the case queue its day. An alert whose event the archive does not hold has no day here: the
report counts those it was given and says so, rather than placing them on a guessed day.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

from sqlalchemy import Engine

from services.archive.event_days import archived_of_days, event_day, hand_less
from services.events.contract import Alert


def of_day(engine: Engine, alerts: Iterable[Alert], day: dt.date,
           table: str | None = None) -> tuple[list[Alert], int]:
    """Of ``alerts``, those raised on no hand whose event is of ``day`` (at ``table``),
    and how many others raised on no hand have no day the archive can tell."""
    placed: list[Alert] = []
    unplaced = 0
    with engine.connect() as conn:
        for alert in hand_less(alerts, table):
            found = event_day(conn, alert)
            if found == day:
                placed.append(alert)
            elif found is None:
                unplaced += 1
    return placed, unplaced


def archived_of_day(engine: Engine, day: dt.date, table: str | None = None) -> list[Alert]:
    """The archived alerts raised on no hand whose event is of ``day`` (at ``table``)."""
    return archived_of_days(engine, day, day, table)
