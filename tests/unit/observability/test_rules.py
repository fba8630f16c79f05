"""The alert rules and every dashboard query, checked by promtool (no server needed)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from services.observability.dashboards import all_queries, concrete_expr
from tests.unit.observability.promtool import (
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
    """Each alert has a test where it fires (a non-empty exp_alerts) and they all pass."""
    result = promtool("test", "rules", ALERT_TESTS)
    assert result.returncode == 0, result.stdout + result.stderr
    tests = yaml.safe_load(ALERT_TESTS.read_text())["tests"]
    fired = {case["alertname"] for test in tests for case in test["alert_rule_test"]
             if case["exp_alerts"]}
    assert fired == {rule["alert"] for rule in _alert_rules()}


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
