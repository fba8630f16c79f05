"""Replay an event log through the embedded runner with live ``/metrics``, no broker.

For watching pitwatch's dashboards on a laptop without Kafka, and for checking the
adjudicator's metrics against a real Prometheus cheaply: the records are fed to exactly
the runner ``pitwatch adjudicate`` uses, every step is observed by the adjudicator's
metrics, and the process keeps serving after the end of the log until it is stopped (so
Prometheus can scrape the final counts).

    python -m services.observability.replay LOG.jsonl [--events-per-second N] [--exit]

Metrics port and address: ``PITWATCH_METRICS_PORT`` (default 9404), ``PITWATCH_METRICS_ADDR``.
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
import time
from collections.abc import Iterable
from pathlib import Path

from services.adjudicator.embedded import EmbeddedRunner, iter_lines
from services.events.logfile import open_log
from services.games.profile import Profiles
from services.games.profiles import read_profiles
from services.observability.metrics import AdjudicatorMetrics, adjudicator_metrics
from services.observability.server import SettingError, serve_metrics


def replay(lines: Iterable[bytes], metrics: AdjudicatorMetrics, profiles: Profiles,
           events_per_second: float | None = None) -> int:
    """Feed every record, observing each step; returns the number of hands adjudicated.

    With ``events_per_second`` the records are spread out in time like a live floor;
    without, they go as fast as the runner takes them.
    """
    runner = EmbeddedRunner(profiles)
    hands = 0
    started = time.monotonic()
    for index, (raw, where) in enumerate(iter_lines(lines)):
        if events_per_second:
            delay = started + index / events_per_second - time.monotonic()
            if delay > 0:
                time.sleep(delay)
        step = runner.feed(raw, where)
        metrics.observe_step(step)
        hands += len(step.records)
    final = runner.finish()
    metrics.observe_step(final, consumed=0)
    return hands + len(final.records)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("log", type=Path, help="JSONL event log")
    parser.add_argument("--events-per-second", type=float, default=None,
                        help="pace the replay (default: as fast as possible)")
    parser.add_argument("--exit", action="store_true",
                        help="exit at the end of the log instead of serving until stopped")
    args = parser.parse_args(argv)
    try:
        port = serve_metrics("replay")
    except SettingError as exc:
        parser.error(str(exc))
    print(f"metrics on port {port}" if port is not None else "metrics switched off",
          file=sys.stderr, flush=True)
    with open_log(args.log) as fh:
        hands = replay(fh, adjudicator_metrics(), read_profiles(), args.events_per_second)
    print(f"replayed: {hands} hands adjudicated", file=sys.stderr, flush=True)
    if not args.exit:
        stop = threading.Event()
        signal.signal(signal.SIGTERM, lambda *_: stop.set())
        signal.signal(signal.SIGINT, lambda *_: stop.set())
        stop.wait()
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
