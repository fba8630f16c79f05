"""The dispute report of a rejected hand (its log ends before the hand does) says what
happened to its chips, in words (QA: section 5 said "No chips moved in this hand" beside
a timeline of Antes, an exchange and Bets; section 8 said the ledger "booked the record
and its chips", though it booked none; section 1 read "input ended before its the hand's
end")."""

from __future__ import annotations

from pathlib import Path

from tests.unit.cli.helpers import pitwatch


def test_a_rejected_hand_reports_no_settlement_and_no_booked_chips(tmp_path: Path) -> None:
    whole, cut = tmp_path / "rs.jsonl", tmp_path / "rs_cut.jsonl"
    ran = pitwatch("simulate", "--game", "russian", "--tables", "1", "--hands", "3",
                   "--seed", "5", "-o", str(whole))
    assert ran.code == 0, ran.stderr
    lines = whole.read_bytes().splitlines(keepends=True)
    last_start = max(n for n, line in enumerate(lines) if b'"hand_started"' in line)
    cut.write_bytes(b"".join(lines[:last_start + 12]))  # the last hand, begun, never ended
    url = f"sqlite:///{tmp_path}/l.sqlite"
    assert pitwatch("adjudicate", str(cut), "--ledger", url).code == 1  # a rejected hand
    page_path = tmp_path / "rej.html"
    ran = pitwatch("report", "hand", "T001-000003", "--ledger", url, "--events", str(cut),
                   "-o", str(page_path))
    assert ran.code == 0, ran.stderr
    page = " ".join(page_path.read_text("utf-8").split())
    assert "The hand was rejected, not settled" in page
    assert "No chips moved in this hand" not in page
    assert "booked the rejected record, with no chips" in page
    assert "input ended before the hand&#39;s end" in page
