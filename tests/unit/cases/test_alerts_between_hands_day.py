"""An alert raised on no hand is on the day of its event: the case queue's ``--date``, a
span's ``verify`` and the daily report find it there, also on a day without hands.

QA helper 102: one HCF table plays six hands on 2026-01-05; after its last hand, seat 2
puts 50 in cash in play (GEN-4 ``CASH_IN_PLAY``, a warning: a case on the table) at
2026-01-06T00:00:05Z. The case had no day, so ``cases list --date 2026-01-06`` refused
the day ("no case, hand or archive names it"), ``--date 2026-01-05`` did not list it
either, and the 2026-01-06 report was refused as a day without hands: the alert was in
no day's report and on no day's queue. SQLite and PostgreSQL.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import orjson
from sqlalchemy import Engine, text

from tests.unit.archive.support import simulated_log
from tests.unit.cases.day_cases import listed_cases
from tests.unit.cli.helpers import pitwatch
from tests.unit.reports.logs import rechain


def _log(tmp_path: Path) -> tuple[Path, int]:
    """The log, and the seq of the cash put down after the last hand."""
    events: list[dict[str, Any]] = [
        orjson.loads(line) for line in simulated_log(tables=1, hands=6, faults=False).lines]
    cash = {**events[-1], "event_id": "00000000-0000-4000-8000-00000000ca5e",
            "seq": len(events) + 1, "ts": "2026-01-06T00:00:05.000Z", "hand_id": None,
            "type": "chips_changed", "data": {"seat": 2, "amount": 50, "kind": "cash_in_play"}}
    path = tmp_path / "day.jsonl"
    path.write_bytes(b"".join(orjson.dumps(e) + b"\n"
                              for e in rechain([*events, cash], lambda e: None)))
    return path, len(events) + 1


def test_the_case_and_the_report_of_an_alert_after_the_days_last_hand(
        engine: Engine, db_url: str, tmp_path: Path) -> None:
    log, seq = _log(tmp_path)
    assert pitwatch("adjudicate", str(log), "--ledger", db_url).code == 0
    with engine.connect() as conn:
        [case] = conn.execute(text("SELECT case_id FROM case_evidence "
                                   "WHERE code = 'CASH_IN_PLAY'")).scalars().all()
        days = {str(d)[:10] for d in conn.execute(text("SELECT day FROM hands")).scalars()}
    assert days == {"2026-01-05"}  # no hand on the alert's day
    assert listed_cases(db_url, "--date", "2026-01-06") == {case}
    assert case not in listed_cases(db_url, "--date", "2026-01-05")
    day = pitwatch("verify", "--db", db_url, "--from", "2026-01-06", "--to", "2026-01-06")
    assert day.code == 0, day.stderr
    assert "checked 1 case(s)" in day.stderr
    out = tmp_path / "daily.html"
    report = pitwatch("report", "daily", "--date", "2026-01-06", "--ledger", db_url,
                      "-o", str(out))
    assert report.code == 0, report.stderr
    words = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", out.read_text()))
    assert "0 hand(s) at 0 table(s)" in words
    assert f"CASH_IN_PLAY Severity warning Table T001 Raised on hand none: the table's " \
           f"event seq {seq}" in words
