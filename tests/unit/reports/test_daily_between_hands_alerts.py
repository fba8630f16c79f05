"""Alerts raised on no hand (GEN-4 cash between hands, GEN-5 configuration) are in the
daily report of the day of their event.

They carry no hand id, and the report placed alerts by their hands, so section 5 said
"None: no alert ... concerns this day's hands" of a day with a CASH_IN_PLAY alert, with
``--alerts FILE`` holding it (QA). The log: one simulated High Card Flush table of six
hands, 2026-01-05 18:00-18:12 UTC, with cash put in play by seat 4 between hands 3 and 4
(the event inserted before hand 4's ``hand_started``, at index 230 of the 470 events, so
its seq is 231); that event and every later one moved one day on, so hands 4 to 6 and
the cash are of 2026-01-06.
"""

from __future__ import annotations

import datetime as dt
import re
from itertools import count
from pathlib import Path
from typing import Any

import orjson
from msgspec import json as msgspec_json

from services.events.contract import Alert
from tests.unit.archive.support import simulated_log
from tests.unit.cli.helpers import pitwatch
from tests.unit.reports.logs import rechain

STAMP = "2026-01-20T09:00:00Z"
CASH_SEQ = 231


def _next_day(ts: str) -> str:
    stamp = dt.datetime.fromisoformat(ts.replace("Z", "+00:00")) + dt.timedelta(days=1)
    return stamp.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _log(tmp_path: Path, later_day: bool) -> Path:
    events: list[dict[str, Any]] = [
        orjson.loads(line) for line in simulated_log(tables=1, hands=6, faults=False).lines]
    fourth = [i for i, e in enumerate(events) if e["type"] == "hand_started"][3]
    assert fourth == CASH_SEQ - 1
    cash = {**events[fourth - 1], "event_id": "00000000-0000-4000-8000-00000000cafe",
            "hand_id": None, "type": "chips_changed",
            "data": {"seat": 4, "amount": 50, "kind": "cash_in_play"}}
    events.insert(fourth, cash)
    seqs = count(1)
    moved = {e["event_id"] for e in events[fourth:]} if later_day else set()

    def edit(event: dict[str, Any]) -> None:
        event["seq"] = next(seqs)
        if event["event_id"] in moved:
            event["ts"] = _next_day(event["ts"])

    path = tmp_path / "day.jsonl"
    path.write_bytes(b"".join(orjson.dumps(e) + b"\n" for e in rechain(events, edit)))
    return path


def _section5(path: Path) -> str:
    html = path.read_text()
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))
    return text[text.index("5. Surveillance alerts"):text.index("6. Reconciliation")]


def _daily(tmp_path: Path, url: str, day: str, *more: str) -> str:
    folder = tmp_path / day
    folder.mkdir()
    ran = pitwatch("report", "daily", "--date", day, "--ledger", url, "--generated-at",
                   STAMP, *more, "-o", str(folder / "daily.html"))
    assert ran.code == 0, ran.stderr
    return _section5(folder / "daily.html")


def test_cash_between_hands_is_in_the_report_of_its_day(tmp_path: Path) -> None:
    """The archived GEN-4 alert (``adjudicate --ledger`` archives it), no file given."""
    url = f"sqlite:///{tmp_path}/day.sqlite"
    adjudicated = pitwatch("adjudicate", str(_log(tmp_path, False)), "--ledger", url)
    assert adjudicated.code == 0, adjudicated.stderr
    section = _daily(tmp_path, url, "2026-01-05")
    assert "1 alert(s), one box each" in section
    assert (f"Alert GEN-4 CASH_IN_PLAY Severity warning Table T001 Raised on hand none: "
            f"the table's event seq {CASH_SEQ}") in section
    assert "by an event of this day" in section


def test_an_alert_on_no_hand_is_on_the_day_of_its_event_only(tmp_path: Path) -> None:
    """The cash (seq 231) is of 2026-01-06: in that day's report, not in 2026-01-05's.
    A GEN-5 alert of a file naming the table's first event (seq 1, 2026-01-05) is in
    2026-01-05's; one naming seq 9999, an event the archive does not hold, in neither,
    and the section counts it."""
    log = _log(tmp_path, True)
    url = f"sqlite:///{tmp_path}/day.sqlite"
    assert pitwatch("adjudicate", str(log), "--ledger", url).code == 0
    first = orjson.loads(log.read_bytes().splitlines()[0])
    config = Alert(table_id="T001", code="UNAUTHORISED_CONFIGURATION", rule="GEN-5",
                   severity="critical", message="configured without authorisation",
                   seq=1, event_id=first["event_id"])
    lost = Alert(table_id="T001", code="UNAUTHORISED_CONFIGURATION", rule="GEN-5",
                 severity="critical", message="an event the archive lacks", seq=9999)
    alerts = tmp_path / "alerts.jsonl"
    alerts.write_bytes(b"".join(msgspec_json.encode(a) + b"\n" for a in (config, lost)))

    fifth = _daily(tmp_path, url, "2026-01-05", "--alerts", str(alerts))
    assert "CASH_IN_PLAY" not in fifth
    assert ("Alert GEN-5 UNAUTHORISED_CONFIGURATION Severity critical Table T001 Raised on "
            "hand none: the table's event seq 1") in fifth
    assert "an event the archive lacks" not in fifth
    assert "1 alert(s) given that were raised on no hand are in no day's report" in fifth

    sixth = _daily(tmp_path, url, "2026-01-06", "--alerts", str(alerts))
    assert f"CASH_IN_PLAY Severity warning Table T001 Raised on hand none: the table's " \
           f"event seq {CASH_SEQ}" in sixth
    assert "UNAUTHORISED_CONFIGURATION" not in sixth
