"""Running promtool (Debian package ``prometheus``; ``scripts/prometheus.sh install``)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
ALERTS = REPO / "deploy" / "prometheus" / "alerts.yml"
ALERT_TESTS = REPO / "deploy" / "prometheus" / "tests" / "alerts_test.yml"
# Every promtool unit-test file of the rules (alerts_test.yml, born_above_zero_test.yml ...).
ALERT_TEST_FILES = sorted((REPO / "deploy" / "prometheus" / "tests").glob("*_test.yml"))
PROMETHEUS_CONFIG = REPO / "deploy" / "prometheus" / "prometheus.yml"


def promtool(*args: str | Path) -> subprocess.CompletedProcess[str]:
    """Run promtool; a missing promtool fails the test (never skips) with the fix."""
    binary = shutil.which("promtool")
    if binary is None:
        pytest.fail("promtool is not installed: run scripts/prometheus.sh install", pytrace=False)
    return subprocess.run([binary, *map(str, args)], capture_output=True, text=True,
                          timeout=120, check=False)
