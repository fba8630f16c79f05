"""A day whose only hand is a rejected one, booked from a ledger: section 6 says there was
nothing to reconcile, not that the report "was not built from a ledger" (QA: it was).

The log: three seats, a hand with one Ante and no ``table_configured`` (GEN-5
NO_CONFIGURATION, rejected). A rejected record carries no end time, so the ledger books
it without a day; the daily report lists it on the day of its last archived events."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import orjson

from tests.unit.cli.helpers import pitwatch
from tests.unit.reports.logs import rechain

DAY = "2026-01-07"


def rejected_log() -> list[dict[str, Any]]:
    seats = [{"seat": s, "player_id": f"TR-P{s}", "stack": 500} for s in (1, 2, 3)]
    raw: list[tuple[str, dict[str, Any], str, str | None]] = [
        *(("player_seated", seat, f"{DAY}T10:00:00.000Z", None) for seat in seats),
        ("hand_started", {"button": 1, "designated_player": 1, "dealer_id": "D-QA",
                          "seats": seats, "deck": 52}, f"{DAY}T10:00:01.000Z", "TR-000001"),
        ("wager", {"seat": 2, "kind": "ante", "amount": 10}, f"{DAY}T10:00:02.000Z",
         "TR-000001"),
        ("hand_ended", {}, f"{DAY}T10:00:03.000Z", "TR-000001"),
    ]
    events = [{"v": 1, "event_id": f"00000000-0000-4000-8000-{n:012d}", "table_id": "TR",
               "seq": n, "ts": ts, "prev_hash": "", "hand_id": hand, "type": kind,
               "source": "qa", "data": data}
              for n, (kind, data, ts, hand) in enumerate(raw, 1)]
    return rechain(events, lambda e: None)


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_a_day_of_one_rejected_hand_has_nothing_to_reconcile(tmp_path: Path) -> None:
    log = tmp_path / "rej.jsonl"
    log.write_bytes(b"".join(orjson.dumps(e) + b"\n" for e in rejected_log()))
    url = f"sqlite:///{tmp_path}/rej.db"
    assert pitwatch("adjudicate", str(log), "--ledger", url).code == 1  # a critical finding
    out = tmp_path / "d" / "daily.html"
    out.parent.mkdir()
    ran = pitwatch("report", "daily", "--date", DAY, "--ledger", url, "--events", str(log),
                   "-o", str(out), "--generated-at", "2026-01-08T08:00:00Z")
    assert ran.code == 0, ran.stderr
    text = text_of(out.read_text("utf-8"))
    assert "not built from a ledger" not in text
    section6 = text[text.index("6. Reconciliation with the ledger"):]
    assert ("Nothing to reconcile: the ledger holds no hand booked with chips on "
            "2026-01-07, so there are no totals to compare. The 1 hand(s) booked without "
            "a day (section 4) are in no day's totals.") in section6
    assert ("Nothing to reconcile with the ledger: it booked no hand with chips on this "
            "day (section 6).") in text
    section4 = text[text.index("4. Hands needing review"):text.index("5. Surveillance")]
    assert "TR-000001 TR" in section4 and "rejected, " not in section4
    assert "NO_CONFIGURATION (GEN-5)" in section4
    assert 'class="verdict ok"' in out.read_text("utf-8")
