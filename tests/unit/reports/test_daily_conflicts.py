"""The daily report lists a hand the ledger refused a changed re-post of (SURV-9
LEDGER_CONFLICT), with what differed; on SQLite and PostgreSQL.

The day's hands (tests/unit/reports/test_daily.py ``records``): A and B at T1 (B a
discrepancy with a critical MISPAY, RP-7), C at T2, on 2026-01-05; D at T1 the next day.
Here A is posted again with its payout of 20 made 25: the ledger keeps the booked A,
refuses the re-post and writes it to its ``conflicts`` table. Before the fix A was in no
review list, counted nowhere (QA).
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import msgspec
from sqlalchemy import Engine
from typer.testing import CliRunner

from services.cli import app
from services.events.contract import AdjudicationRecord, encode_record
from services.ledger.posting import post_many
from services.reports.cli import safe_name
from services.reports.daily import daily_from_ledger
from services.reports.render import render_html
from tests.unit.reports.test_daily import DAY, records


def _with_payout(record: AdjudicationRecord, amount: int) -> AdjudicationRecord:
    """``record`` with its one payout of another amount, everything else the same."""
    movements = [msgspec.structs.replace(m, amount=amount) if m.kind == "payout" else m
                 for m in record.movements or []]
    return msgspec.structs.replace(record, movements=movements)


def _sha(record: AdjudicationRecord) -> str:
    return hashlib.sha256(encode_record(record)).hexdigest()


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_a_refused_re_post_is_listed_and_counted(engine: Engine) -> None:
    """Expected by hand: A and B to review (2 of 3 hands; T1 both, T2 none); A's worst
    is critical, its finding LEDGER_CONFLICT (SURV-9), its conflict the fields that
    differ (only ``movements``: the payout) and the two records' hashes; the day's
    findings: one LEDGER_CONFLICT and one MISPAY at T1; dealer d1 (A, C) 1 to review.
    The booking is A's first record: the money totals are as without the re-post (drop
    140, win -5) and still reconcile."""
    day_records = records()
    a = day_records[0]
    assert [r.status for r in post_many(engine, day_records)] == ["posted"] * 4
    changed = _with_payout(a, 25)
    assert [r.status for r in post_many(engine, [changed])] == ["conflict"]

    report = daily_from_ledger(engine, DAY, None, "test")

    assert report.review_hand_ids == ["A", "B"]
    line = report.review[0]
    assert (line.worst, line.codes, line.booked) == ("critical", "LEDGER_CONFLICT (SURV-9)",
                                                      True)
    assert [(c.detail, c.stored_sha256, c.offered_sha256) for c in line.conflicts] == [
        ("fields differ: movements", _sha(a), _sha(changed))]
    assert report.review[1].conflicts == ()
    assert (report.totals.review, report.totals.findings) == (2, 2)
    t1, t2 = report.tables
    assert (t1.totals.review, t2.totals.review) == (2, 0)
    assert [(f.rule, f.severity, f.code, f.count) for f in t1.findings] == [
        ("RP-7", "critical", "MISPAY", 1), ("SURV-9", "critical", "LEDGER_CONFLICT", 1)]
    assert (report.dealers["d1"].review, report.dealers["d2"].review) == (1, 1)
    assert (report.totals.drop, report.totals.win) == (140, -5)
    assert report.reconciled

    html = _text(render_html("daily.html", d=report, generated_at="2026-01-06T00:00:00Z",
                             link=safe_name))
    assert "3 hand(s) at 2 table(s); 2 need review." in html
    assert (f"LEDGER_CONFLICT (SURV-9) Re-posted with other content, refused (the booking "
            f"is unchanged): fields differ: movements; booked record {_sha(a)[:12]} , "
            f"offered {_sha(changed)[:12]}") in html
    assert "It does not record when the re-post was offered." in html


def test_two_refused_re_posts_of_one_hand_are_both_listed(engine: Engine) -> None:
    """Two different changed re-posts of A are two conflicts of one hand to review: one
    line, both re-posts on it (ordered by the offered record's hash), two findings."""
    day_records = records()
    a = day_records[0]
    post_many(engine, day_records)
    twice = [_with_payout(a, 25), _with_payout(a, 30)]
    assert [r.status for r in post_many(engine, twice)] == ["conflict", "conflict"]

    report = daily_from_ledger(engine, DAY, None, "test")

    assert report.review_hand_ids == ["A", "B"]
    assert [c.offered_sha256 for c in report.review[0].conflicts] == sorted(
        _sha(r) for r in twice)
    assert [(f.code, f.count) for f in report.tables[0].findings] == [
        ("MISPAY", 1), ("LEDGER_CONFLICT", 2)]


def test_the_repro_ledger_post_twice_then_report_daily(tmp_path: Path) -> None:
    """The tester's steps: ``ledger post`` a file of records, post it again with one
    movement amount changed (exit 1, SURV-9 LEDGER_CONFLICT), then ``report daily`` of
    the day lists that hand among the hands to review."""
    url = f"sqlite:///{tmp_path / 'x.sqlite'}"
    day_records = records()
    first, second = tmp_path / "adj.jsonl", tmp_path / "adj2.jsonl"
    first.write_bytes(b"\n".join(encode_record(r) for r in day_records) + b"\n")
    changed = [_with_payout(day_records[0], 25), *day_records[1:]]
    second.write_bytes(b"\n".join(encode_record(r) for r in changed) + b"\n")
    runner = CliRunner()

    assert runner.invoke(app, ["ledger", "post", str(first), "--db", url]).exit_code == 0
    again = runner.invoke(app, ["ledger", "post", str(second), "--db", url])
    assert again.exit_code == 1 and "LEDGER_CONFLICT" in again.output
    daily = runner.invoke(app, ["report", "daily", "--date", DAY.isoformat(), "--ledger",
                                url, "--generated-at", "2026-01-06T00:00:00Z"])

    assert daily.exit_code == 0, daily.output
    html = _text(daily.stdout)
    assert "2 need review" in html
    review = html[html.index("4. Hands needing review"):html.index("5. Surveillance")]
    assert " A T1 2026-01-05T10:00:00Z d1 ok critical LEDGER_CONFLICT (SURV-9) " in review
    assert "fields differ: movements" in review
