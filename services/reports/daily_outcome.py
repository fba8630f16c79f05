"""What ``pitwatch report daily`` tells its caller beside the report: why there is no
report (no hands), and whether the one written reconciles (its exit code).

Apart from ``services.reports.cli`` so that the command module stays readable; nothing
here writes a report.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from sqlalchemy import Engine

from services.reports.daily import DailyReport


def no_hands(engine: Engine, day: dt.date, table: str | None, url: str) -> tuple[str, str]:
    """Why a daily report would be empty, with the days and tables the ledger does hold,
    and the option to fix."""
    from services.ledger.db import shown_url
    from services.ledger.queries import table_day_totals

    held = table_day_totals(engine)
    days = sorted({str(t.day) for t in held if t.day is not None})
    tables = sorted({t.table_id for t in held if table is None or t.day == day})
    where = f" at table {table}" if table else ""
    if not held:
        return f"the ledger {shown_url(url)} holds no hands at all", "--ledger"
    span = f"{days[0]} to {days[-1]}" if len(days) > 1 else (days[0] if days else "none")
    hint = (f"; tables with hands that day: {', '.join(tables)}"
            if table and any(t.day == day for t in held) else "")
    return (f"no hands ended on {day.isoformat()}{where} in {shown_url(url)} (it holds days "
            f"{span}{hint}): check --date and --table", "--table" if hint else "--date")


def unreconciled(report: DailyReport, warn: Callable[[str], None]) -> bool:
    """Whether the report's totals differ from the ledger's, ``warn`` given one line
    saying so when they do (the command then exits 1, the report written).

    Why an exit code: the heading said "SOME TOTALS DO NOT RECONCILE WITH THE LEDGER"
    and the command exited 0 with nothing on stderr, so a nightly script filed a report
    the guide says to stop at (QA), where ``report hand`` exits 1 on a booking that
    differs from its events."""
    wrong = [r for r in report.reconciliation if not r.ok]
    if wrong:
        first = wrong[0]
        warn(f"the totals of {report.day.isoformat()} do not reconcile with the ledger: "
             f"{len(wrong)} figure(s) differ (section 6), the first table {first.table_id} "
             f"{first.quantity}: report {first.report:,}, ledger {first.ledger:,}; stop, "
             "and run pitwatch verify (the report is written)")
    return bool(wrong)
