"""What a v1 timestamp is: an RFC 3339 instant in UTC that exists on the calendar.

Why more than a pattern: ``2026-02-30T18:00:00.000Z`` has the shape of a timestamp but
names no instant. It used to pass the contract and the hand came out ``ok`` with that
``ended_at``; then the ledger (``date.fromisoformat``) and the metrics could not read it
(issue #19). The pattern checks the shape and the ranges a regular expression states
plainly (month 01-12, day 01-31, hour 00-23, minute and second 00-59, digits ASCII only);
``timestamp_problem`` checks the rest: year 0000 does not exist (RFC 3339 years are
0000-9999, but there is no year 0 in the Gregorian calendar and no table clock is there),
and the day must exist in its month (Gregorian leap years).

Leap seconds (second 60) are rejected: the contract's instants are POSIX time, which has
none, and every consumer (Python's datetime, PostgreSQL, Prometheus) would have to
special-case them. A table clock must smear a leap second (as the public NTP services of
Google, Amazon and Meta do) or repeat second 59.
"""

from __future__ import annotations

import calendar

# Shape and ranges. ``[0-9]``, not ``\\d``: Python's ``\\d`` also matches other scripts'
# digits, which no other regex engine reading the published schema would.
TIMESTAMP_PATTERN = (
    r"^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])"
    r"T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\.[0-9]{1,9})?(Z|\+00:00)$"
)
# Fixed English names (``calendar.month_name`` follows the locale; a reason must not).
_MONTHS = ("", "January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December")


def timestamp_problem(ts: str) -> str | None:
    """Why ``ts`` (which matches TIMESTAMP_PATTERN) names no instant, or None.

    The usual timestamp (day 01-28 of a year other than 0000) is decided by two string
    comparisons: this runs once per event on the intake path.
    """
    if ts[8:10] <= "28" and not ts.startswith("0000"):
        return None
    year, month, day = int(ts[:4]), int(ts[5:7]), int(ts[8:10])
    if year == 0:
        return f"{ts!r} is not a real instant: there is no year 0000"
    days = calendar.monthrange(year, month)[1]
    if day > days:
        return (f"{ts!r} is not a real instant: {_MONTHS[month]} {year} has "
                f"{days} days")
    return None
