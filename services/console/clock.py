"""Times as the console stores them: RFC 3339 UTC with milliseconds, as the case trail.

One format everywhere lets the database compare times as strings (a session's end, the
login rate limit's window) on SQLite and PostgreSQL alike.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

Clock = Callable[[], dt.datetime]


def utc_now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def stamp(moment: dt.datetime) -> str:
    return moment.astimezone(dt.UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
