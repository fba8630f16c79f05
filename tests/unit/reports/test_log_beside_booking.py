"""``report hand --events LOG --ledger URL`` when the booking is not the log's record.

QA: with both sources the report mixed two records: the timeline from the log ("Seat 4
(P0-3) is paid 150 chips") above findings and "recorded" figures from the booking (seat
4 at +50, difference 0, no finding), while ``--events`` alone showed the MISPAY. The docs
promise "the full report from the log, plus the booking". Now sections 1 to 7 are the
log's derivation, and the booking is beside it in section 8 with the difference said.

The case: a log whose one payout is 100 chips more than the table paid (re-chained, as a
table system sending it would), booked; then its booking replaced by the record of the
payout as paid (the same events' identity: seq range and last_hash), as a booking
changed after the fact, or made under other rules, would be. The expected figures are
set here by hand from the raise: the log's seat gets 100 too much, the booking 100 less
than the log, the expectation the same."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import msgspec
import orjson
from sqlalchemy import create_engine

from services.events.contract import encode_record
from services.reports.dispute import dispute_from_ledger
from tests.profiles import PROFILES
from tests.unit.archive.support import simulated_log
from tests.unit.cli.helpers import pitwatch
from tests.unit.reports.logs import adjudicate, rechain

RAISE = 100


def _raised(tmp_path: Path) -> tuple[str, Path, str, int, int]:
    """The booked log with one win payout by the designated player (High Card Flush is
    player-banked) raised; the booking of its hand put back to the payout as paid.
    Returns the ledger URL, the log, the hand, the seat paid and the seat that paid."""
    events: list[dict[str, Any]] = [orjson.loads(line) for line in
                                    simulated_log(tables=1, hands=30, seed=7,
                                                  faults=False).lines]
    as_paid = {r.hand_id: r for r in adjudicate(events)}
    payout = next(e for e in events if e["type"] == "payout" and e["data"]["kind"] == "win"
                  and e["data"]["source"] == "designated"
                  and as_paid[e["hand_id"]].status == "ok")
    hand_id, seat = str(payout["hand_id"]), int(payout["data"]["seat"])
    payer = next(int(e["data"]["designated_player"]) for e in events
                 if e["type"] == "hand_started" and e["hand_id"] == hand_id)

    def raise_it(event: dict[str, Any]) -> None:
        if event["event_id"] == payout["event_id"]:
            event["data"]["amount"] += RAISE

    log = tmp_path / "evm.jsonl"
    log.write_bytes(b"".join(orjson.dumps(e) + b"\n" for e in rechain(events, raise_it)))
    url = f"sqlite:///{tmp_path}/a.sqlite"
    assert pitwatch("adjudicate", str(log), "--ledger", url).code in (0, 1)
    with sqlite3.connect(tmp_path / "a.sqlite") as db:
        booked = msgspec.json.decode(
            db.execute("SELECT record_json FROM hands WHERE hand_id = ?",
                       (hand_id,)).fetchone()[0])
        paid = msgspec.structs.replace(as_paid[hand_id], last_hash=booked["last_hash"])
        assert (paid.first_seq, paid.last_seq) == (booked["first_seq"], booked["last_seq"])
        for trigger in db.execute("SELECT name FROM sqlite_master WHERE type = 'trigger' "
                                  "AND tbl_name IN ('hands', 'findings')").fetchall():
            db.execute(f"DROP TRIGGER {trigger[0]}")  # whoever changes a booking can
        db.execute("UPDATE hands SET record_json = ? WHERE hand_id = ?",
                   (encode_record(paid).decode(), hand_id))
        db.execute("DELETE FROM findings WHERE hand_id = ?", (hand_id,))
    return url, log, hand_id, seat, payer


def test_both_sources_show_the_logs_derivation_and_the_booking_beside_it(
        tmp_path: Path) -> None:
    url, log, hand_id, seat, payer = _raised(tmp_path)
    report = dispute_from_ledger(create_engine(url), url, hand_id, PROFILES,
                                 log.read_bytes().splitlines(), log_name=log.name)
    # Sections 1 and 5: the log's record: the seat got 100 chips too many, from the
    # designated player, who paid 100 too many.
    assert report.record.status == "discrepancy"
    mispay = [f for f in report.findings if f.code == "MISPAY"]
    assert sorted((f.seat, f.amount) for f in mispay) == sorted([(seat, RAISE),
                                                                 (payer, -RAISE)])
    line = next(s for s in report.seat_lines if s.who == f"seat {seat}")
    assert line.difference == RAISE
    money = next(m for m in report.seat_money if m.seat == seat)
    assert money.stack_change == line.recorded_net  # the payments shown add up to it
    # Section 8: the booking as booked, beside it, 100 chips less for the seat.
    assert report.ledger is not None and report.ledger.matches_log is False
    assert report.booked is not None and report.booked.status == "ok"
    assert report.booked_findings == []
    beside = next(b for b in report.booked_beside if b.who == f"seat {seat}")
    assert beside.log_recorded is not None and beside.booked_recorded is not None
    assert beside.booked_recorded - beside.log_recorded == -RAISE
    assert beside.booked_expected == beside.log_expected
    assert sorted(b.who for b in report.booked_beside if b.differs) == sorted(
        [f"seat {seat}", f"seat {payer}"])

    out = tmp_path / "r.html"
    ran = pitwatch("report", "hand", hand_id, "--events", str(log), "--ledger", url,
                   "-o", str(out), "--generated-at", "2026-01-06T08:00:00Z")
    # Written, and exit 1 with one line saying why: a script must not pass it over.
    assert ran.code == 1, ran.stderr
    assert ("the record booked in the ledger differs from the one evm.jsonl re-derives "
            "(section 8 shows both)") in " ".join(ran.stderr.split())
    html = out.read_text()
    assert "sections 1 to 7 are the log&#39;s, the booking is beside it in section 8" in html
    assert "The booked record beside the log's" in html
    assert "the ledger booked another record (status ok, 0 finding(s))" in html
    findings = html[html.index("<h2>1. Findings"):html.index("<h2>2.")]
    assert "MISPAY" in findings and f"+{RAISE}" in findings
    assert f"−{RAISE}" in html[html.index("<h2>8. In the ledger"):]
