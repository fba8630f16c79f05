"""A real Prometheus for the monitoring tests, and the checks they run against it.

``PrometheusServer`` starts the Debian package's server through ``scripts/prometheus.sh
run`` on a free loopback port, with a config made from the deployed one
(``deploy/prometheus/prometheus.yml``: same job names, same alert rules) whose targets are
the services the test started, scraped every second. ``panel_problems`` and
``alert_problems`` run every dashboard query and every alert expression against it.
"""

from __future__ import annotations

import json
import math
import os
import socket
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson
import yaml

from services.adjudicator.embedded import adjudicate_lines
from services.events.contract import AdjudicationRecord
from services.observability.dashboards import all_queries, concrete_expr
from services.simulator.registry import simulator_for
from services.simulator.run import simulate
from tests.profiles import HOUSE, PROFILES
from tests.unit.observability.logs import EventDict, rewrite, stamp, tamper_one_per_table

REPO = Path(__file__).resolve().parents[2]
DEPLOY_CONFIG = REPO / "deploy" / "prometheus" / "prometheus.yml"
ALERTS = REPO / "deploy" / "prometheus" / "alerts.yml"
SCRIPT = REPO / "scripts" / "prometheus.sh"
SCRAPE_INTERVAL = "1s"
READY_TIMEOUT_S = 60.0

# What Grafana would substitute, with windows wide enough to cover a whole test run (the
# rates then reflect the run, not the idle seconds after it). ``$__range_s`` before
# ``$__range``, its prefix.
TEST_VARIABLES = {"$__rate_interval": "5m", "$__range_s": "900", "$__range": "15m",
                  "$game": ".*", "$table": ".*"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def wait_for(what: str, check: Callable[[], bool], timeout_s: float,
             interval_s: float = 0.5) -> None:
    """Poll ``check`` until it is true; fail with ``what`` after ``timeout_s``."""
    deadline = time.monotonic() + timeout_s
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout_s:.0f}s waiting for {what}")
        time.sleep(interval_s)


def scrape_config(targets: dict[str, list[str]]) -> dict[str, Any]:
    """The deployed config with ``targets`` per job (jobs not named are dropped)."""
    config: dict[str, Any] = yaml.safe_load(DEPLOY_CONFIG.read_text())
    jobs = {job["job_name"] for job in config["scrape_configs"]}
    unknown = set(targets) - jobs
    assert not unknown, f"jobs {unknown} are not in {DEPLOY_CONFIG}"
    config["global"]["scrape_interval"] = SCRAPE_INTERVAL
    config["global"]["evaluation_interval"] = SCRAPE_INTERVAL
    config["rule_files"] = [str(ALERTS)]
    config["scrape_configs"] = [
        {**job, "static_configs": [{"targets": targets[job["job_name"]]}]}
        for job in config["scrape_configs"] if job["job_name"] in targets
    ]
    return config


class PrometheusServer:
    def __init__(self, url: str, process: subprocess.Popen[bytes], log: Path) -> None:
        self.url = url
        self.process = process
        self.log = log

    def api(self, path: str, **params: str) -> dict[str, Any]:
        query = urllib.parse.urlencode(params)
        try:
            with urllib.request.urlopen(f"{self.url}{path}?{query}", timeout=30) as reply:
                body: dict[str, Any] = json.loads(reply.read())
        except urllib.error.HTTPError as exc:  # 400/422: the body says why
            body = json.loads(exc.read())
        return body

    def query(self, expr: str) -> dict[str, Any]:
        """``/api/v1/query`` at the current time: ``{"status", "data" | "error"}``."""
        return self.api("/api/v1/query", query=expr)

    def values(self, expr: str) -> list[float]:
        reply = self.query(expr)
        assert reply["status"] == "success", (expr, reply)
        return [float(item["value"][1]) for item in reply["data"]["result"]]

    def scalar(self, expr: str) -> float | None:
        found = self.values(expr)
        return found[0] if found else None

    def ready(self) -> bool:
        if self.process.poll() is not None:
            raise AssertionError(f"prometheus exited: {self.log.read_text()[-2000:]}")
        try:
            with urllib.request.urlopen(f"{self.url}/-/ready", timeout=5) as reply:
                return bool(reply.status == 200)
        except OSError:
            return False


@contextmanager
def prometheus(targets: dict[str, list[str]], workdir: Path) -> Iterator[PrometheusServer]:
    """A Prometheus scraping ``targets`` (job name -> host:port list), stopped after use."""
    workdir.mkdir(parents=True, exist_ok=True)
    config = workdir / "prometheus.yml"
    config.write_text(yaml.safe_dump(scrape_config(targets)))
    port = free_port()
    log = workdir / "prometheus.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            ["bash", str(SCRIPT), "run", str(config), str(workdir / "data"), str(port)],
            stdout=out, stderr=subprocess.STDOUT)
    server = PrometheusServer(f"http://127.0.0.1:{port}", process, log)
    try:
        wait_for("prometheus to be ready", server.ready, READY_TIMEOUT_S)
        yield server
    finally:
        process.terminate()
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def settled(server: PrometheusServer, metric: str = "pitwatch_events_consumed_total") -> bool:
    """True once the last three scrapes of ``metric`` saw the same value: every rate
    window then holds samples from after the last change."""
    expr = f"count_over_time({metric}[3500ms]) >= 3 and changes({metric}[3500ms]) == 0"
    return bool(server.values(expr))


def label_values(server: PrometheusServer, metric: str, label: str) -> set[str]:
    reply = server.query(f"count by ({label}) ({metric})")
    return {item["metric"].get(label, "") for item in reply["data"]["result"]}


# ---------------------------------------------------------------- checks


def _result_problem(reply: dict[str, Any], need_data: bool) -> str | None:
    if reply.get("status") != "success":
        return f"{reply.get('errorType')}: {reply.get('error')}"
    if not need_data:
        return None
    result = reply["data"]["result"]
    if not result:
        return "no data"
    values = [float(item["value"][1]) for item in result]
    if not any(math.isfinite(v) for v in values):
        return f"no finite value ({values})"
    return None


def panel_problems(server: PrometheusServer,
                   include: Callable[[str], bool] = lambda expr: True) -> list[str]:
    """Every dashboard query that fails to parse, or returns no finite data."""
    problems = []
    for uid, title, query in all_queries():
        if not include(query.expr):
            continue
        expr = concrete_expr(query.expr, TEST_VARIABLES)
        problem = _result_problem(server.query(expr), need_data=True)
        if problem:
            problems.append(f"{uid} / {title}: {problem}\n    {expr}")
    return problems


def alert_expressions() -> list[tuple[str, str]]:
    groups = yaml.safe_load(ALERTS.read_text())["groups"]
    return [(rule["alert"], rule["expr"]) for group in groups for rule in group["rules"]]


def alert_problems(server: PrometheusServer) -> list[str]:
    """Alert expressions that do not parse, and rule groups the server did not load or
    could not evaluate."""
    problems = [f"{name}: {problem}" for name, expr in alert_expressions()
                if (problem := _result_problem(server.query(expr), need_data=False))]
    groups = server.api("/api/v1/rules")["data"]["groups"]
    loaded = {rule["name"]: rule for group in groups for rule in group["rules"]}
    for name, _ in alert_expressions():
        rule = loaded.get(name)
        if rule is None:
            problems.append(f"{name}: not loaded by the server")
        elif rule.get("health") != "ok":
            problems.append(f"{name}: health {rule.get('health')}: {rule.get('lastError')}")
    return problems


# ---------------------------------------------------------------- a live simulated log

MALFORMED_LINES = (b"{this is not json", b'{"v": 1, "type": "wager"}')  # malformed, schema


@dataclass(frozen=True)
class LiveLog:
    """A simulated log and what the embedded runner makes of it (independently of any
    metric): the expected values the monitoring must show."""

    events: list[EventDict]
    records: list[AdjudicationRecord]
    dead_letters: int  # records the runner refused with a DLQ reason
    chain_alerts: int  # SURV-9 CHAIN_BROKEN alerts
    tables: set[str]

    def lines_at(self, at: datetime) -> list[bytes]:
        """The log as produced at ``at``: every event stamped ``at`` (so the latency is
        live), one wager per table altered after hashing, the two unacceptable records
        in the middle."""
        events = rewrite(self.events, stamp(at))
        tamper_one_per_table(events)
        lines = [orjson.dumps(e) for e in events]
        middle = len(lines) // 2
        return lines[:middle] + list(MALFORMED_LINES) + lines[middle:]


def live_log(games: tuple[str, ...], tables: int, hands: int, seed: int) -> LiveLog:
    """Every fault the games' simulators know plus a tampered event per table (SURV-9),
    and two records that cannot be accepted (one malformed, one schema)."""
    faults = frozenset().union(*(simulator_for(g)[1] for g in games))
    log = simulate(list(games), tables=tables, hands=hands, seed=seed, faults=faults,
                   fault_rate=0.1, profile=HOUSE)
    probe = LiveLog(log.events, [], 0, 0, set())
    steps = list(adjudicate_lines(probe.lines_at(datetime.now(UTC)), PROFILES))
    return LiveLog(
        events=log.events,
        records=[r for step in steps for r in step.records],
        dead_letters=sum(len(step.dead_letters) for step in steps),
        chain_alerts=sum(a.code == "CHAIN_BROKEN" for step in steps for a in step.alerts),
        tables={e["table_id"] for e in log.events},
    )


def service_env(metrics_port: int, **extra: str) -> dict[str, str]:
    """Environment of a service subprocess: this repo importable, metrics on the port."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    env["PITWATCH_METRICS_PORT"] = str(metrics_port)
    env["PITWATCH_METRICS_ADDR"] = "127.0.0.1"
    env.update(extra)
    return env
