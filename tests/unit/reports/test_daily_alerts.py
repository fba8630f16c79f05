"""The daily report's "Surveillance alerts" section (``--alerts FILE``).

The day's hands (tests/unit/reports/test_daily.py ``records``): A and B at T1, C at T2 on
2026-01-05; D at T1 on the next day. B is a discrepancy (in the review list)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import msgspec
from typer.testing import CliRunner

from services.events.contract import Alert
from services.ledger.db import open_ledger
from services.ledger.posting import post_many
from services.reports.alerts import read_alerts, subject
from services.reports.cli import report_app, safe_name
from services.reports.daily import DailyReport, daily_report, records_of_day
from services.reports.render import render_html
from tests.unit.reports.test_daily import DAY, records


def _alert(table: str, hand: str | None, code: str, rule: str,
           evidence: dict[str, Any]) -> Alert:
    return Alert(table_id=table, hand_id=hand, code=code, rule=rule, severity="critical",
                 message=f"{code} message", evidence=evidence)


SWEET = _alert("T1", "B", "SWEETHEARTING", "SURV-2", {
    "dealer": "d2", "player": "T1-P2", "count": 7, "p_value": 3.5714e-7, "threshold": 1e-6,
    "statistic": "P(X >= count), X ~ Binomial(dealer_events, expected_share)",
    "hands": [{"table_id": "T1", "hand_id": "A", "seat": 2, "amount": 10},
              {"table_id": "T1", "hand_id": "B", "seat": 2, "amount": 25}]})
DRIFT = _alert("T2", "X", "PROCEDURE_DRIFT", "SURV-8", {  # raised on a hand of no day here
    "scope": "table", "table": "T2", "kind": "mispay", "count": 5, "p_value": 2e-9,
    "threshold": 1e-6, "statistic": "s", "hands": [{"table_id": "T2", "hand_id": "C"}]})
ELSEWHERE = _alert("T9", "Z", "SOFT_PLAY", "SURV-4", {  # another table's hands only
    "players": ["a", "b"], "p_value": 1e-8, "threshold": 1e-6,
    "hands": [{"table_id": "T9", "hand_id": "Z"}]})
NEXT_DAY = _alert("T1", "D", "SWEETHEARTING", "SURV-2", {  # the next day's hand only
    "dealer": "d1", "player": "p", "hands": [{"table_id": "T1", "hand_id": "D"}]})
ALL = [ELSEWHERE, NEXT_DAY, DRIFT, SWEET]


def _report(table: str | None = None) -> DailyReport:
    return daily_report(records_of_day(records(), DAY, table), DAY, table, "test")


def _section(report: DailyReport) -> str:
    html = render_html("daily.html", d=report, generated_at="2026-01-06T00:00:00Z",
                       link=safe_name)
    return html[html.index("5. Surveillance alerts"):html.index("6. Reconciliation")]


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_alerts_about_the_days_hands_are_kept_in_table_and_rule_order() -> None:
    report = _report()
    report.attach_alerts(ALL, "alerts.jsonl")
    assert [(a.table_id, a.code) for a in report.alerts] == [
        ("T1", "SWEETHEARTING"), ("T2", "PROCEDURE_DRIFT")]
    one_table = _report("T2")
    one_table.attach_alerts(ALL, "alerts.jsonl")
    assert [a.code for a in one_table.alerts] == ["PROCEDURE_DRIFT"]


def test_section_renders_rule_subject_statistic_threshold_and_evidence_hands() -> None:
    """SURV-2: subject "dealer d2, player T1-P2", count 7, p 3.5714e-7 -> "3.57e-07",
    threshold 1e-6 -> "1e-06"; evidence A (seat 2, +10) and B (seat 2, +25). B needs
    review, so it links to hand-B.html; A does not."""
    report = _report()
    report.attach_alerts(ALL, "alerts.jsonl")
    html = _section(report)
    text = _text(html)
    assert "Alert SURV-2 SWEETHEARTING Severity critical Table T1 Raised on hand B" in text
    assert "Subject dealer d2, player T1-P2 What SWEETHEARTING message Count 7" in text
    assert "p-value 3.57e-07 (threshold &le; 1e-06)" in text
    assert ("Statistic The probability of a count at least this high if each of the "
            "dealer&#39;s events (dealer_events)") in text
    assert "In symbols: P(X &gt;= count), X ~ Binomial" in text
    assert "Evidence hands (2) A (seat 2, +10) , B (seat 2, +25)" in text
    assert '<a href="hand-B.html">B</a>' in html and 'href="hand-A.html"' not in html
    assert "table T2, kind mispay" in text and "2.00e-09" in text
    assert "Evidence hands (1) C" in text
    assert "SOFT_PLAY" not in text and "d1" not in text


def test_no_alerts_file_and_no_alert_of_the_day_both_render_none() -> None:
    report = _report()
    assert "None: no alerts file was given" in _text(_section(report))
    report.attach_alerts([ELSEWHERE, NEXT_DAY], "alerts.jsonl")
    assert report.alerts == []
    assert ("None: no alert in alerts.jsonl concerns this day's hands or, raised between "
            "hands or about the table, an event of this day.") in _text(
        _section(report)).replace("&#39;", "'")


def test_alert_text_is_escaped() -> None:
    evil = _alert("T1", "A", "SWEETHEARTING", "SURV-2", {
        "dealer": "<script>x</script>", "player": "p", "hands": []})
    report = _report()
    report.attach_alerts([evil], "alerts.jsonl")
    html = _section(report)
    assert "<script>" not in html and "&lt;script&gt;" in html


def test_subject_names_what_the_pattern_is_about() -> None:
    assert subject({"from_player": "F", "to_player": "W"}) == "from F, to W"
    assert subject({"players": ["A", "B"]}) == "players A, B"
    assert subject({"scope": "dealer", "dealer": "D1", "kind": "misdeal"}) == (
        "dealer D1, kind misdeal")
    assert subject({}) == "–"


def test_cli_daily_with_alerts_file(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'ledger.sqlite'}"
    post_many(open_ledger(url), records())
    alerts = tmp_path / "alerts.jsonl"
    alerts.write_bytes(b"".join(msgspec.json.encode(a) + b"\n" for a in ALL))
    assert read_alerts(alerts) == ALL
    out = tmp_path / "daily.html"
    result = CliRunner().invoke(report_app, ["daily", "--date", DAY.isoformat(), "--ledger",
                                             url, "--alerts", str(alerts), "-o", str(out)])
    assert result.exit_code == 0, result.output
    text = _text(out.read_text())
    assert "dealer d2, player T1-P2" in text and "SOFT_PLAY" not in text
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"table_id": "T1"}\n')
    result = CliRunner().invoke(report_app, ["daily", "--date", DAY.isoformat(), "--ledger",
                                             url, "--alerts", str(bad), "-o", str(out)])
    assert result.exit_code != 0


def _archived_ledger(tmp_path: Path) -> str:
    """The day's records booked, and SWEET, DRIFT and NEXT_DAY archived as ``surveil
    --db`` archives its alerts."""
    from services.archive.writer import archive_run

    url = f"sqlite:///{tmp_path / 'ledger.sqlite'}"
    engine = open_ledger(url)
    post_many(engine, records())
    archive_run(engine, [], [SWEET, DRIFT, NEXT_DAY])
    return url


def _daily(url: str, out: Path, *extra: str) -> str:
    result = CliRunner().invoke(report_app, ["daily", "--date", DAY.isoformat(), "--ledger",
                                             url, "-o", str(out), *extra])
    assert result.exit_code == 0, result.output
    section = out.read_text()
    return _text(section[section.index("5. Surveillance alerts"):
                         section.index("6. Reconciliation")]).replace("&#39;", "'")


def test_daily_from_the_ledger_lists_the_alerts_the_database_archived(
        tmp_path: Path) -> None:
    """QA: ``surveil --db`` run again on a day wrote an empty alerts file, and the day's
    report given it said "no alert concerns this day's hands" though the database held
    the day's alerts. From ``--ledger`` alone: SWEET (raised on B) and DRIFT (citing C)
    are the day's; NEXT_DAY (hand D, the next day) is not."""
    url = _archived_ledger(tmp_path)
    text = _daily(url, tmp_path / "daily.html")
    assert "from the database's archived alerts that were raised on" in text
    assert "2 alert(s), one box each" in text
    assert "Raised on hand B" in text and "table T2, kind mispay" in text
    assert "dealer d1" not in text
    # An empty file (a re-run's) takes nothing away, and is named as a source too.
    empty = tmp_path / "rerun.jsonl"
    empty.write_text("")
    text = _daily(url, tmp_path / "daily2.html", "--alerts", str(empty))
    assert "from the database's archived alerts and rerun.jsonl" in text
    assert "2 alert(s), one box each" in text and "Raised on hand B" in text


def test_alerts_file_adds_to_the_archived_ones_each_alert_once(tmp_path: Path) -> None:
    """The file holds SWEET, which the database holds too (one box), and an alert the
    database lacks (SURV-4 on hand A); DRIFT is the database's only."""
    url = _archived_ledger(tmp_path)
    soft = _alert("T1", "A", "SOFT_PLAY", "SURV-4", {
        "players": ["a", "b"], "decisions": 9, "hands": [{"table_id": "T1", "hand_id": "A"}]})
    both = tmp_path / "day.jsonl"
    both.write_bytes(b"".join(msgspec.json.encode(a) + b"\n" for a in [SWEET, soft]))
    text = _daily(url, tmp_path / "daily.html", "--alerts", str(both))
    assert "3 alert(s), one box each" in text
    assert text.count("Raised on hand B") == 1 and "SOFT_PLAY" in text
    assert "table T2, kind mispay" in text
