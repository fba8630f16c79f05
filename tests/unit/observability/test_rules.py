"""The alert rules and every dashboard query, checked by promtool (no server needed)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import yaml

from services.observability.dashboards import all_queries, concrete_expr
from tests.unit.observability.promtool import (
    ALERT_TEST_FILES,
    ALERT_TESTS,
    ALERTS,
    PROMETHEUS_CONFIG,
    promtool,
)


def _alert_rules() -> list[dict[str, Any]]:
    groups = yaml.safe_load(ALERTS.read_text())["groups"]
    return [rule for group in groups for rule in group["rules"]]


def test_promtool_check_rules() -> None:
    result = promtool("check", "rules", ALERTS)
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"SUCCESS: {len(_alert_rules())} rules found" in result.stdout


def test_promtool_check_config() -> None:
    result = promtool("check", "config", PROMETHEUS_CONFIG)
    assert result.returncode == 0, result.stdout + result.stderr


def test_every_alert_fires_in_the_promtool_unit_tests() -> None:
    """Each alert has a test where it fires (a non-empty exp_alerts) in alerts_test.yml,
    and every promtool test file of the rules passes."""
    assert ALERT_TESTS in ALERT_TEST_FILES and len(ALERT_TEST_FILES) >= 2
    result = promtool("test", "rules", *ALERT_TEST_FILES)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.count("SUCCESS") == len(ALERT_TEST_FILES), result.stdout
    tests = yaml.safe_load(ALERT_TESTS.read_text())["tests"]
    fired = {case["alertname"] for test in tests for case in test["alert_rule_test"]
             if case["exp_alerts"]}
    assert fired == {rule["alert"] for rule in _alert_rules()}


def test_counting_alerts_see_a_series_born_above_zero() -> None:
    """born_above_zero_test.yml (QA problem 1): the first chain failure of a table whose
    series is born at 1 pages, and so do 3 critical findings at a table and 5 of a rule
    whose series are born at the first; an old count seen anew (a failed scrape, a
    Prometheus with no history) does not. Each alert it covers fires in it."""
    born = ALERTS.parent / "tests" / "born_above_zero_test.yml"
    result = promtool("test", "rules", born)
    assert result.returncode == 0, result.stdout + result.stderr
    tests = yaml.safe_load(born.read_text())["tests"]
    fired = {case["alertname"] for test in tests for case in test["alert_rule_test"]
             if case["exp_alerts"]}
    assert fired == {"PitwatchHashChainFailure", "PitwatchTableCriticalFindings",
                     "PitwatchCriticalFindings"}


def _rules_file(tmp_path: Path, exprs: list[str]) -> Path:
    """The expressions as recording rules: promtool parses each one."""
    rules = [{"record": f"pitwatch:check_{i}", "expr": expr} for i, expr in enumerate(exprs)]
    path = tmp_path / "panels.yml"
    path.write_text(yaml.safe_dump({"groups": [{"name": "panels", "rules": rules}]}))
    return path


def test_every_dashboard_query_parses(tmp_path: Path) -> None:
    exprs = [concrete_expr(q.expr) for _, _, q in all_queries()]
    assert not [e for e in exprs if "$" in e], "a Grafana variable was left unsubstituted"
    result = promtool("check", "rules", _rules_file(tmp_path, exprs))
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"SUCCESS: {len(exprs)} rules found" in result.stdout


def test_a_broken_query_is_caught(tmp_path: Path) -> None:
    """The parse check above can fail: an unbalanced parenthesis does."""
    result = promtool("check", "rules", _rules_file(tmp_path, ["sum(rate(up[1m])"]))
    assert result.returncode != 0


METRIC_NAME = re.compile(r"\b(pitwatch_[a-z_]+|process_[a-z_]+|up)\b(?=\s*[{\[)])")


def test_queries_and_alerts_name_only_exported_metrics(exported_names: set[str]) -> None:
    """A typo in a metric name parses fine and returns nothing: catch it here."""
    exprs = [q.expr for _, _, q in all_queries()] + [r["expr"] for r in _alert_rules()]
    used = {name for expr in exprs for name in METRIC_NAME.findall(expr)}
    assert used, "the pattern found no metric names"
    assert used - exported_names == set()


def _panel_expr(title: str) -> str:
    [expr] = [q.expr for _, panel, q in all_queries() if panel == title]
    return concrete_expr(expr)


def test_range_panels_count_a_series_born_above_zero(tmp_path: Path) -> None:
    """QA problem 1, the dashboard: 3 mispays at T1 by D1 in the range, the series born at
    the first (minute 20, then 2 at 23, 3 at 26). The panel reads 3 at minute 30 over its
    15 minutes (increase() alone read about 2.1), 4 chips mispaid in one hand read 4,
    and a dealer's mispays older than the range (D2's series at 5 all along) read 0."""
    series = {
        'up{job="pitwatch-adjudicator",instance="a:9401"}': "1x40",
        'pitwatch_mispays_total{job="pitwatch-adjudicator",instance="a:9401",table="T1",'
        'dealer="D1",game="hcf"}': "_x20 1 1 1 2 2 2 3x14",
        'pitwatch_mispays_total{job="pitwatch-adjudicator",instance="a:9401",table="T1",'
        'dealer="D2",game="hcf"}': "5x40",
        'pitwatch_mispaid_chips_total{job="pitwatch-adjudicator",instance="a:9401",'
        'table="T1",dealer="D1",game="hcf"}': "_x24 4x16",
    }
    cases = [
        (_panel_expr("Mispays by table and dealer"),
         [('{table="T1", dealer="D1"}', 3), ('{table="T1", dealer="D2"}', 0)]),
        (_panel_expr("Mispaid chips by dealer"), [('{dealer="D1"}', 4)]),
    ]
    spec = {"evaluation_interval": "1m", "tests": [{
        "interval": "1m",
        "input_series": [{"series": s, "values": v} for s, v in series.items()],
        "promql_expr_test": [
            {"expr": expr, "eval_time": "30m",
             "exp_samples": [{"labels": labels, "value": value} for labels, value in samples]}
            for expr, samples in cases],
    }]}
    path = tmp_path / "panels_test.yml"
    path.write_text(yaml.safe_dump(spec))
    result = promtool("test", "rules", path)
    assert result.returncode == 0, result.stdout + result.stderr


def _promtool_cases(tmp_path: Path, interval: str,
                    cases: list[tuple[dict[str, str], str, str, Sequence[tuple[str, float]]]]
                    ) -> str:
    """Run promtool on ``cases`` (input series -> values, expression, eval time, expected
    samples), each its own promtool test; '' when all pass, else promtool's output."""
    tests = [{
        "interval": interval,
        "input_series": [{"series": s, "values": v} for s, v in series.items()],
        "promql_expr_test": [{"expr": expr, "eval_time": at, "exp_samples": [
            {"labels": labels, "value": value} for labels, value in samples]}],
    } for series, expr, at, samples in cases]
    path = tmp_path / "panels_test.yml"
    path.write_text(yaml.safe_dump({"evaluation_interval": interval, "tests": tests}))
    result = promtool("test", "rules", path)
    return "" if result.returncode == 0 else result.stdout + result.stderr


HOUR_RANGE = {"$__rate_interval": "1m", "$__range_s": "3600", "$__range": "1h",
              "$game": ".*", "$table": ".*"}
LEDGER = 'job="pitwatch-ledger",instance="ledger:9402"'
RAKE = f'pitwatch_ledger_rake_chips_total{{{LEDGER},game="hcf",rake_mode="all"}}'


def test_money_in_range_is_the_exact_whole_chips(tmp_path: Path) -> None:
    """QA: "Money booked in range by game" read 319.33 chips of HCF rake where one hand
    had booked 318 (increase() extrapolates to the range's edges). Scraped every 15 s,
    the rake at 1,000 chips, one hand books 318 at 1h30m15s; the panel over the hour to
    2h0m7s (between two scrapes) reads 318, as the daily report. Also 318: the scrape at
    the range's start failed; the series is born at 318 in the range; Prometheus has
    nothing before the range. The ledger restarts at 1h40m (its counters from 0) and
    books 250 at 1h45m15s: 250, what it booked since (the 100 booked at 1h10m15s, before
    the restart, is not in it: documented); restarted without booking since: 100."""
    [rake] = [q.expr for _, panel, q in all_queries()
              if panel == "Money booked in range by game" and "rake" in q.expr]
    expr = concrete_expr(rake, HOUR_RANGE)
    up, start = f"up{{{LEDGER}}}", f"process_start_time_seconds{{{LEDGER}}}"
    hcf = [('{game="hcf"}', 318)]
    # 15 s samples: 240 is 1h, 360 is 1h30m, 400 is 1h40m; 'AxN' is N+1 samples of A.
    restarted = {up: "1x399 0x8 1x192", start: "-3e7x399 stale _x7 6120x192"}
    failures = _promtool_cases(tmp_path, "15s", [
        ({up: "1x600", start: "-3e7x600", RAKE: "1000x360 1318x240"}, expr, "2h0m7s", hcf),
        ({up: "1x239 0 1x360", start: "-3e7x239 stale -3e7x360",
          RAKE: "1000x239 stale 1000x120 1318x240"}, expr, "2h0m0s", hcf),
        ({up: "1x600", start: "-3e7x600", RAKE: "_x400 318x200"}, expr, "2h0m7s", hcf),
        ({up: "_x240 1x360", start: "_x240 -3e7x360", RAKE: "_x240 1000x120 1318x240"},
         expr, "2h0m7s", hcf),
        ({**restarted, RAKE: "900x280 1000x118 stale _x19 250x180"}, expr, "2h0m7s",
         [('{game="hcf"}', 250)]),
        ({**restarted, RAKE: "900x280 1000x118 stale _x199"}, expr, "2h0m7s",
         [('{game="hcf"}', 100)]),
    ])
    assert not failures, failures


def test_no_panel_counts_a_range_with_increase() -> None:
    """Every query over the whole range (tables, bar gauges, stats: money, hands by
    status, mispays, findings, chain failures, surveillance alerts, reviews) counts
    exactly, by ``in_range``; none extrapolates with increase()."""
    ranged = [(title, q.expr) for _, title, q in all_queries() if "$__range" in q.expr]
    assert len(ranged) >= 12
    assert [title for title, expr in ranged if "increase(" in expr] == []


SURVEILLANCE = 'job="pitwatch-surveillance",instance="surveillance:9403"'
SURV2 = 'rule="SURV-2",code="SWEETHEARTING",severity="critical"'


def test_surveillance_panels_show_alerts_first_found_in_the_catch_up(tmp_path: Path) -> None:
    """QA: a critical SURV-2 alert first produced during the catch-up after downtime
    (phase="replay") was on no panel, which read phase="live" only. The service is down
    from minute 10, restarts at 12 (counters from 0, at 0 at minute 13) and produces the
    alert while catching up, at minute 15: the table over the hour reads 1 for replay and
    0 for live at minute 30, and the per-hour rate at minute 15 reads 60 for replay (one
    alert in the minute)."""
    up, start = f"up{{{SURVEILLANCE}}}", f"process_start_time_seconds{{{SURVEILLANCE}}}"
    replay = f'pitwatch_surveillance_alerts_total{{{SURVEILLANCE},{SURV2},phase="replay"}}'
    live = f'pitwatch_surveillance_alerts_total{{{SURVEILLANCE},{SURV2},phase="live"}}'
    series = {up: "1x9 0 0 0 1x30", start: "-3e7x9 stale _ _ 720x30",
              replay: "3x9 stale _ _ 0 0 1x28", live: "0x9 stale _ _ 0x30"}

    def panel(title: str) -> str:
        [expr] = [q.expr for _, p, q in all_queries() if p == title]
        return concrete_expr(expr, HOUR_RANGE)

    labels = '{rule="SURV-2", code="SWEETHEARTING", severity="critical", phase="%s"}'
    failures = _promtool_cases(tmp_path, "1m", [
        (series, panel("Surveillance alerts by rule and severity"), "30m",
         [(labels % "replay", 1), (labels % "live", 0)]),
        (series, panel("Surveillance alerts per hour by rule"), "15m",
         [('{rule="SURV-2", code="SWEETHEARTING", phase="replay"}', 60),
          ('{rule="SURV-2", code="SWEETHEARTING", phase="live"}', 0)]),
    ])
    assert not failures, failures
