"""The dispute reports ``report daily --events`` writes next to the daily report are the
reports ``report hand --events --ledger [--alerts]`` writes: the ledger section, the
ledger's refusal, and the alerts citing the hand included.

Before: the copies were built from the log alone, so a hand the ledger refused looked
booked-as-usual in its own report while the daily report listed it "not booked"."""

from __future__ import annotations

import io
from pathlib import Path

import msgspec
import orjson
import pytest
from rich.console import Console

from services.events.contract import Alert
from services.ledger.db import open_ledger
from services.ledger.posting import post_many
from services.reports import cli as report_cli
from services.reports.cli import safe_name
from tests.unit.cli.helpers import pitwatch
from tests.unit.reports.logs import first_hand, simulated

STAMP = "2026-01-06T08:00:00Z"


def test_copies_keep_the_ledger_section_refusal_and_alerts(tmp_path: Path) -> None:
    events, records = simulated("hcf", hands=60, seed=9)
    log = tmp_path / "events.jsonl"
    log.write_bytes(b"".join(orjson.dumps(e) + b"\n" for e in events))
    mispay = first_hand(records, code="MISPAY")
    day = (mispay.ended_at or "")[:10]
    # Another discrepancy of that day whose last movement was lost on the way to the
    # ledger: its chips no longer balance, so the ledger refuses it (GEN-8).
    victim = next(r for r in records if r.status == "discrepancy" and r is not mispay
                  and r.movements and (r.ended_at or "")[:10] == day)
    assert victim.movements is not None
    broken = msgspec.structs.replace(victim, movements=victim.movements[:-1])
    url = f"sqlite:///{tmp_path / 'ledger.sqlite'}"
    results = post_many(open_ledger(url),
                        [broken if r is victim else r for r in records])
    assert {r.hand_id: r.status for r in results}[victim.hand_id] == "refused"
    alert = Alert(table_id=mispay.table_id, code="SWEETHEARTING", rule="SURV-2",
                  severity="critical", message="dealer pays one player", hand_id="LATER",
                  evidence={"hands": [{"table_id": mispay.table_id,
                                       "hand_id": mispay.hand_id}]})
    alerts = tmp_path / "alerts.jsonl"
    alerts.write_bytes(msgspec.json.encode(alert) + b"\n")
    reports = tmp_path / "reports"
    reports.mkdir()
    ran = pitwatch("report", "daily", "--date", day, "--ledger", url, "--events", str(log),
                   "--alerts", str(alerts), "-o", str(reports / "daily.html"),
                   "--generated-at", STAMP)
    assert ran.code == 0, ran.stderr
    refused = (reports / safe_name(victim.hand_id)).read_text()
    assert "<h2>8. In the ledger</h2>" in refused
    assert ("<tr><th>Booking</th><td>refused: the ledger keeps the record on file, with "
            "its findings, but booked no chips for it</td></tr>") in refused
    assert "LEDGER_REFUSED" in refused and "The ledger refused this hand" in refused
    cited = (reports / safe_name(mispay.hand_id)).read_text()
    assert "<h2>8. In the ledger</h2>" in cited and "SWEETHEARTING" in cited
    standalone = pitwatch("report", "hand", victim.hand_id, "--events", str(log),
                          "--ledger", url, "--alerts", str(alerts), "--generated-at", STAMP)
    # The record on file is not the one the log re-derives (a movement was lost on its
    # way to the ledger): written, and said in one line, exit 1.
    assert standalone.code == 1
    assert "the record booked in the ledger differs from the one events.jsonl re-derives" \
        in " ".join(standalone.stderr.split())
    assert standalone.stdout == refused  # the copy is the standalone report


def test_writing_the_copies_shows_progress_in_hands(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """On a terminal, the copies' bar counts hands (all of the day's hands to review)."""
    events, records = simulated("hcf", hands=60, seed=9)
    log = tmp_path / "events.jsonl"
    log.write_bytes(b"".join(orjson.dumps(e) + b"\n" for e in events))
    url = f"sqlite:///{tmp_path / 'ledger.sqlite'}"
    post_many(open_ledger(url), list(records))
    day = next(r.ended_at for r in records if r.ended_at)[:10]
    to_review = [r for r in records if (r.ended_at or "").startswith(day)
                 and r.status in ("discrepancy", "rejected")]
    screen = io.StringIO()
    monkeypatch.setattr(report_cli, "err", Console(file=screen, force_terminal=True,
                                                   width=160, color_system=None))
    ran = pitwatch("report", "daily", "--date", day, "--ledger", url, "--events", str(log),
                   "-o", str(tmp_path / "daily.html"))
    assert ran.code == 0, ran.stderr
    shown = screen.getvalue()
    assert "dispute reports" in shown and "hands/s" in shown and "time left" in shown
    assert f"{len(to_review)}/{len(to_review)} hands" in shown
