"""The ``/metrics`` endpoint every pitwatch service serves to Prometheus.

One HTTP server per process, in a daemon thread (prometheus-client's own), so it answers
while the service's event loop is busy and dies with the process. Port and address come
from the environment, so the same code serves a developer's laptop (loopback, default
ports), the docker-compose stack (``PITWATCH_METRICS_ADDR=0.0.0.0``) and the integration
test (a free port per service).
"""

from __future__ import annotations

import logging
import os
from typing import Final

from prometheus_client import (
    REGISTRY,
    CollectorRegistry,
    disable_created_metrics,
    start_http_server,
)

from services.events.numerals import is_ascii_number

log = logging.getLogger("pitwatch.metrics")

PORT_ENV: Final = "PITWATCH_METRICS_PORT"
ADDR_ENV: Final = "PITWATCH_METRICS_ADDR"
DEFAULT_ADDR: Final = "127.0.0.1"  # metrics are not personal data, but exposure is opt-in
# replay (a laptop tool, services/observability/replay.py) is last so that the services
# keep stable ports whichever tools are running beside them.
DEFAULT_PORTS: Final = {"adjudicator": 9401, "ledger": 9402, "surveillance": 9403,
                        "replay": 9404}
DISABLED: Final = frozenset({"off", "none", "disabled", "-"})


class SettingError(ValueError):
    """An environment variable set to a value the service cannot run with (``variable``
    names it, for the one-line error the command line makes of it)."""

    def __init__(self, variable: str, message: str) -> None:
        super().__init__(message)
        self.variable = variable


def start_metrics_server(port: int, addr: str = DEFAULT_ADDR,
                         registry: CollectorRegistry = REGISTRY) -> int:
    """Serve ``registry`` on ``http://addr:port/metrics``; returns the bound port (``port``
    0 asks the system for a free one)."""
    # ``*_created`` samples double the series of every counter and Prometheus 2 ignores
    # them in the text format.
    disable_created_metrics()  # type: ignore[no-untyped-call]
    server, _thread = start_http_server(port, addr=addr, registry=registry)
    bound: int = server.server_port
    return bound


def metrics_port_from_env(service: str) -> int | None:
    """``PITWATCH_METRICS_PORT`` if set (``off`` disables), else the service's default."""
    value = os.environ.get(PORT_ENV, "").strip()
    if not value:
        return DEFAULT_PORTS[service]
    if value.lower() in DISABLED:
        return None
    if not is_ascii_number(value) or not 0 <= int(value) <= 65535:
        raise SettingError(PORT_ENV, f"{PORT_ENV}={value!r} is not a TCP port: give 0 to "
                                     f"65535, or off")
    return int(value)


def serve_metrics(service: str) -> int | None:
    """Start the endpoint of ``service`` (``adjudicator``, ``ledger``, ``surveillance``,
    ``replay``) as the environment says; returns the port, or None when metrics are off
    or cannot be served.

    A port already taken (a second worker on the same host with the default port) is
    logged and the service runs on without an endpoint: losing a worker's metrics is
    visible (its scrape target is down, alert PitwatchAdjudicatorDown or a missing
    instance), losing the worker itself would stop adjudication.
    """
    port = metrics_port_from_env(service)
    if port is None:
        return None
    addr = os.environ.get(ADDR_ENV) or DEFAULT_ADDR
    try:
        return start_metrics_server(port, addr)
    except OSError as exc:
        log.error("%s metrics not served: cannot listen on %s:%d (%s); set %s",
                  service, addr, port, exc, PORT_ENV)
        return None
