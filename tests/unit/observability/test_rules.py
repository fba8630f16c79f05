"""The alert rules and every dashboard query, checked by promtool (no server needed)."""

from __future__ import annotations

import re
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
