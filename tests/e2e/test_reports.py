"""End to end: simulate a day, adjudicate, book it in a SQLite ledger, and report.

The daily report must reconcile with the ledger to the chip, and its totals must equal
sums taken straight from the raw events (independent of movements and the ledger).
The CLI writes dispute reports (HTML, PDF) and the daily report with its linked hands.
"""

from __future__ import annotations

import datetime as dt
import io
import re
from pathlib import Path
from typing import Any

import orjson
import pytest
from pypdf import PdfReader
from typer.testing import CliRunner

from services.ledger.db import open_ledger
from services.ledger.posting import post_many
from services.reports.cli import report_app, safe_name
from services.reports.daily import daily_from_ledger
from services.reports.rulebook import load_rulebook
from tests.unit.reports.logs import GAMES, first_hand, simulated

DAY = dt.date(2026, 1, 5)  # the simulator's clock starts 2026-01-05 18:00 UTC
STAMP = "2026-01-06T08:00:00Z"


def _raw_sums(events: tuple[dict[str, Any], ...], hands: set[str]) -> dict[str, int]:
    """Drop, payouts, rake straight from the events of the given hands."""
    sums = {"drop": 0, "payouts": 0, "rake": 0}
    for e in events:
        if e["hand_id"] not in hands:
            continue
        amount = e["data"].get("amount") or 0
        if e["type"] in ("wager", "action"):
            sums["drop"] += amount
        elif e["type"] == "payout":
            sums["payouts"] += amount
        elif e["type"] == "rake_collected":
            sums["rake"] += amount
    return sums


@pytest.mark.parametrize("game", GAMES)
def test_daily_report_reconciles_with_ledger_and_events(game: str, tmp_path: Path) -> None:
    events, records = simulated(game, hands=60, seed=9)
    url = f"sqlite:///{tmp_path / 'ledger.sqlite'}"
    engine = open_ledger(url)
    results = post_many(engine, records)
    booked = {r.hand_id for r in results if r.status == "posted"}
    report = daily_from_ledger(engine, DAY, None, url)
    assert report.reconciled, [r for r in report.reconciliation if not r.ok]
    assert report.totals.hands == len(records) == 120
    dead = {r.hand_id for r in records if r.status == "dead"} & booked
    raw, raw_dead = _raw_sums(events, booked - dead), _raw_sums(events, dead)
    assert (report.totals.drop, report.totals.payouts, report.totals.rake) == (
        raw["drop"], raw["payouts"], raw["rake"] + raw_dead["rake"])
    # A dead hand's wagers and refunds are kept apart, not in the drop and the payouts.
    assert (report.totals.returned, report.totals.returned_paid) == (
        raw_dead["drop"], raw_dead["payouts"])
    house = sum(r.recorded.net["house"] for r in records
                if r.hand_id in booked and r.recorded is not None)
    assert report.totals.win == house
    needing = sorted(r.hand_id for r in records
                     if r.status in ("discrepancy", "rejected") or r.hand_id not in booked)
    assert sorted(report.review_hand_ids) == needing


def test_cli_hand_html_pdf_and_daily(tmp_path: Path) -> None:
    events, records = simulated("russian", hands=60, seed=9)
    log = tmp_path / "events.jsonl"
    log.write_bytes(b"".join(orjson.dumps(e) + b"\n" for e in events))
    url = f"sqlite:///{tmp_path / 'ledger.sqlite'}"
    post_many(open_ledger(url), records)
    record = first_hand(records, code="MISPAY")
    runner = CliRunner()

    html_path = tmp_path / "hand.html"
    args = ["hand", record.hand_id, "--events", str(log), "-o", str(html_path),
            "--generated-at", STAMP]
    assert runner.invoke(report_app, args).exit_code == 0
    first = html_path.read_bytes()
    assert runner.invoke(report_app, args).exit_code == 0
    assert html_path.read_bytes() == first  # deterministic for the same inputs

    both = tmp_path / "both.html"
    result = runner.invoke(report_app, ["hand", record.hand_id, "--events", str(log),
                                        "--ledger", url, "-o", str(both),
                                        "--generated-at", STAMP])
    assert result.exit_code == 0, result.output
    assert "Same as re-derived from the log</th><td>yes" in both.read_text()

    ledger_only = tmp_path / "ledger-only.html"
    assert runner.invoke(report_app, ["hand", record.hand_id, "--ledger", url, "-o",
                                      str(ledger_only)]).exit_code == 0
    assert "The event log was not supplied" in ledger_only.read_text()

    pdf = tmp_path / "hand.pdf"
    result = runner.invoke(report_app, ["hand", record.hand_id, "--events", str(log),
                                        "--format", "pdf", "-o", str(pdf)])
    assert result.exit_code == 0, result.output
    text = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.read_bytes())).pages)
    mispay = next(f for f in record.findings if f.code == "MISPAY")
    assert f"Dispute report: hand {record.hand_id}" in text
    assert "MISPAY" in text and mispay.rule in text and "Hash-chain verification" in text
    rule_text = load_rulebook()[mispay.rule].plain()
    title = re.match(r"\*\*(.+?)\*\*", rule_text).group(1)  # type: ignore[union-attr]
    assert title in text  # the cited rule quoted from the rule book

    daily = tmp_path / "out" / "daily.html"
    daily.parent.mkdir()  # the report writes the file it is given, never a folder
    result = runner.invoke(report_app, ["daily", "--date", DAY.isoformat(), "--ledger", url,
                                        "--events", str(log), "-o", str(daily),
                                        "--generated-at", STAMP])
    assert result.exit_code == 0, result.output
    page = daily.read_text()
    flagged = [r.hand_id for r in records if r.status == "discrepancy"]
    assert flagged
    for hand_id in flagged:
        assert f'href="{safe_name(hand_id)}"' in page
        assert (daily.parent / safe_name(hand_id)).is_file()
    assert "Every total below reconciles with the ledger to the chip." in page

    daily_pdf = tmp_path / "daily.pdf"
    result = runner.invoke(report_app, ["daily", "--date", DAY.isoformat(), "--ledger", url,
                                        "--format", "pdf", "-o", str(daily_pdf)])
    assert result.exit_code == 0, result.output
    text = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(daily_pdf.read_bytes())).pages)
    assert "Daily table report: 2026-01-05" in text and "Reconciliation with the ledger" in text


def test_cli_unknown_hand_and_bad_options(tmp_path: Path) -> None:
    events, _ = simulated("russian", hands=6, faulty=False, tables=1)
    log = tmp_path / "events.jsonl"
    log.write_bytes(b"".join(orjson.dumps(e) + b"\n" for e in events))
    runner = CliRunner()
    assert runner.invoke(report_app, ["hand", "nope", "--events", str(log)]).exit_code == 2
    assert runner.invoke(report_app, ["hand", "T001-000001"]).exit_code != 0
    assert runner.invoke(report_app, ["hand", "T001-000001", "--events", str(log),
                                      "--format", "pdf"]).exit_code != 0
    assert runner.invoke(report_app, ["daily", "--date", "05/01/2026"]).exit_code != 0
