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
import socket
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
                        "replay": 9404, "archive": 9405}
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
    """``PITWATCH_METRICS_PORT`` if set (``off`` disables), else the service's default.

    The address is checked here too (``metrics_endpoint_from_env``): this is what every
    service's start check calls (``services.pipeline.monitoring.check_monitoring_settings``),
    so a bad ``PITWATCH_METRICS_ADDR`` is the same one line and exit 2 as a bad port,
    before anything connects."""
    endpoint = metrics_endpoint_from_env(service)
    return None if endpoint is None else endpoint[1]


def metrics_endpoint_from_env(service: str) -> tuple[str, int] | None:
    """(address, port) the service's endpoint is to listen on, both checked; None when
    metrics are off (the address is then not read: nothing listens)."""
    value = os.environ.get(PORT_ENV, "").strip()
    if not value:
        port = DEFAULT_PORTS[service]
    elif value.lower() in DISABLED:
        return None
    elif not is_ascii_number(value) or not 0 <= int(value) <= 65535:
        raise SettingError(PORT_ENV, f"{PORT_ENV}={value!r} is not a TCP port: give 0 to "
                                     f"65535, or off")
    else:
        port = int(value)
    return metrics_addr_from_env(), port


def metrics_addr_from_env() -> str:
    """``PITWATCH_METRICS_ADDR`` (default loopback), known to be an address this host can
    listen on.

    Why it is tried at once: an address that is none (``999.1.1.1``) or another host's
    failed only when the endpoint started, and was logged like a taken port ("set
    PITWATCH_METRICS_PORT") while the service ran on without metrics. A taken port can
    come and go with other processes; a wrong address is the setting's own mistake, so it
    is refused like a bad port (``SettingError``). The address is resolved as the endpoint
    resolves it (prometheus-client: the first of ``getaddrinfo``'s answers) and a socket
    bound to it on port 0, a free port, so the check never collides with the service's
    own port or another process's."""
    addr = os.environ.get(ADDR_ENV, "").strip() or DEFAULT_ADDR
    # Digits and dots can only be an IPv4 address, a colon only an IPv6 one: such a value
    # that is not one is refused without asking the resolver (which may be slow or away).
    numeric = ":" in addr or all(c in "0123456789." for c in addr)
    flags = socket.AI_PASSIVE | (socket.AI_NUMERICHOST if numeric else 0)
    try:
        infos = socket.getaddrinfo(addr, 0, type=socket.SOCK_STREAM, flags=flags)
        family, kind, proto, _name, sockaddr = infos[0]
        with socket.socket(family, kind, proto) as probe:
            probe.bind(sockaddr)
    except (OSError, ValueError) as exc:  # ValueError: a name label over 63 characters
        if numeric and isinstance(exc, socket.gaierror):
            reason = "not an IPv4 or IPv6 address"
        else:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise SettingError(ADDR_ENV, f"{ADDR_ENV}={addr!r} is not an address this host can "
                                     f"listen on ({reason}): give one of its own, e.g. "
                                     f"{DEFAULT_ADDR} (loopback) or 0.0.0.0 (every "
                                     "interface)") from None
    return addr


def serve_metrics(service: str) -> int | None:
    """Start the endpoint of ``service`` (``adjudicator``, ``ledger``, ``surveillance``,
    ``replay``) as the environment says; returns the port, or None when metrics are off
    or cannot be served.

    A port or address that is not one raises ``SettingError`` (the caller's one-line
    error, exit 2; the services check it before they connect). A port already taken (a
    second worker on the same host with the default port) is logged and the service runs
    on without an endpoint: losing a worker's metrics is visible (its scrape target is
    down, alert PitwatchAdjudicatorDown or a missing instance), losing the worker itself
    would stop adjudication.
    """
    endpoint = metrics_endpoint_from_env(service)
    if endpoint is None:
        return None
    addr, port = endpoint
    try:
        return start_metrics_server(port, addr)
    except OSError as exc:  # the address was just bound: the port is what failed
        log.error("%s metrics not served: cannot listen on %s:%d (%s); set %s",
                  service, addr, port, exc, PORT_ENV)
        return None
