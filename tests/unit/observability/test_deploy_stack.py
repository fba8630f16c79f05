"""The Docker stack runs every pipeline service, and Prometheus scrapes each one's
metrics port (QA: the compose file ran three of the four services, no archive; nothing
kept the events or opened a case, and no alert said so)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from services.observability.server import DEFAULT_PORTS

DEPLOY = Path(__file__).resolve().parents[3] / "deploy"
PIPELINE_SERVICES = ("adjudicator", "ledger", "surveillance", "archive")


def _yaml(name: str) -> Any:
    return yaml.safe_load((DEPLOY / name).read_text(encoding="utf-8"))


def test_the_compose_stack_runs_every_pipeline_service_on_its_metrics_port() -> None:
    services = _yaml("docker-compose.yml")["services"]
    served = {s["command"][1]: s for s in services.values()
              if s.get("command", [None])[0] == "serve"}
    assert sorted(served) == sorted(PIPELINE_SERVICES)
    for name, service in served.items():
        assert service["environment"]["PITWATCH_METRICS_PORT"] == str(DEFAULT_PORTS[name])


def test_prometheus_scrapes_each_service_as_the_alerts_name_its_job() -> None:
    jobs = {job["job_name"]: job["static_configs"][0]["targets"]
            for job in _yaml("prometheus/prometheus.yml")["scrape_configs"]}
    for name in PIPELINE_SERVICES:
        assert jobs[f"pitwatch-{name}"] == [f"{name}:{DEFAULT_PORTS[name]}"]
    alerts = (DEPLOY / "prometheus" / "alerts.yml").read_text(encoding="utf-8")
    for name in PIPELINE_SERVICES:
        assert f'absent(up{{job="pitwatch-{name}"}})' in alerts, name
