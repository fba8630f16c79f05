"""Replay an event log through the embedded runner with live ``/metrics``, no broker.

For watching pitwatch's dashboards on a laptop without Kafka, and for checking the
adjudicator's metrics against a real Prometheus cheaply: the records are fed to exactly
the runner ``pitwatch adjudicate`` uses, every step is observed by the adjudicator's
metrics, and the process keeps serving after the end of the log until it is stopped (so
Prometheus can scrape the final counts).

    python -m services.observability.replay LOG.jsonl [--events-per-second N] [--exit]
                                            [--ledger URL]

Metrics port and address: ``PITWATCH_METRICS_PORT`` (default 9404), ``PITWATCH_METRICS_ADDR``.

The booked-money metrics (``pitwatch_ledger_*_chips_total``: the money the ledger
booked, by the daily report's definitions, which the dashboards' money panels show) are
exported too: the replayed records are booked, a batch at a time, by the ledger's own
write (``Booking``), into a new SQLite ledger in a temporary directory, or into the one
``--ledger URL`` names. A hand the ledger refuses (``LEDGER_REFUSED``) books no chips and
is not in them; into a ledger that already holds the log's hands every hand is a
duplicate and nothing is booked again (use a new ledger to compare with a report).
"""

from __future__ import annotations

import argparse
import signal
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from sqlalchemy import Engine

from services.adjudicator.embedded import EmbeddedRunner, iter_lines
from services.events.contract import AdjudicationRecord
from services.events.logfile import open_log
from services.games.profile import Profiles
from services.games.profiles import read_profiles
from services.ledger.db import LedgerUnavailable, open_ledger
from services.ledger.posting import post_prepared, prepare_entries
from services.observability.metrics import (
    AdjudicatorMetrics,
    LedgerMetrics,
    adjudicator_metrics,
    ledger_metrics,
)
from services.observability.server import SettingError, serve_metrics

BOOKING_BATCH = 500  # records posted in one transaction
BOOKING_SECONDS = 1.0  # a paced replay books at least this often


class Booking:
    """What the ledger books of the replayed records: they are posted, a batch at a time,
    to a ledger (``engine``; ``main``: a new SQLite file unless ``--ledger`` names one),
    by the ledger service's own write (``post_prepared``), so a hand is refused, or a
    duplicate, for exactly the ledger's reasons; the money of the hands posted is
    observed (``LedgerMetrics.observe_booked``) and every hand by its status."""

    def __init__(self, metrics: LedgerMetrics, engine: Engine, batch: int = BOOKING_BATCH,
                 seconds: float = BOOKING_SECONDS) -> None:
        self.metrics, self.engine = metrics, engine
        self.batch, self.seconds = batch, seconds
        self.pending: list[AdjudicationRecord] = []
        self.since = time.monotonic()

    def add(self, records: Iterable[AdjudicationRecord]) -> None:
        """Records just adjudicated; posted once ``batch`` wait or ``seconds`` passed."""
        self.pending.extend(records)
        if self.pending and (len(self.pending) >= self.batch
                             or time.monotonic() - self.since >= self.seconds):
            self.flush()

    def flush(self) -> None:
        records, self.pending, self.since = self.pending, [], time.monotonic()
        if not records:
            return
        entries = prepare_entries(records)
        results = post_prepared(self.engine, entries)
        self.metrics.observe_statuses(Counter(result.status for result in results))
        self.metrics.observe_booked(
            entry.record for entry, result in zip(entries, results, strict=True)
            if result.status == "posted" and result.hand_id == entry.hand_id)


def replay(lines: Iterable[bytes], metrics: AdjudicatorMetrics, profiles: Profiles,
           events_per_second: float | None = None,
           booking: Booking | None = None) -> int:
    """Feed every record, observing each step (and, with ``booking``, booking its
    records); returns the number of hands adjudicated.

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
        if booking is not None:
            booking.add(step.records)
        hands += len(step.records)
    final = runner.finish()
    metrics.observe_step(final, consumed=0)
    if booking is not None:
        booking.add(final.records)
        booking.flush()
    return hands + len(final.records)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("log", type=Path, help="JSONL event log")
    parser.add_argument("--events-per-second", type=float, default=None,
                        help="pace the replay (default: as fast as possible)")
    parser.add_argument("--exit", action="store_true",
                        help="exit at the end of the log instead of serving until stopped")
    parser.add_argument("--ledger", metavar="URL", default=None,
                        help="book the replayed hands into this ledger (default: a new "
                             "SQLite ledger in a temporary directory)")
    args = parser.parse_args(argv)
    try:
        port = serve_metrics("replay")
    except SettingError as exc:
        parser.error(str(exc))
    print(f"metrics on port {port}" if port is not None else "metrics switched off",
          file=sys.stderr, flush=True)
    with tempfile.TemporaryDirectory(prefix="pitwatch-replay-") as scratch:
        url = args.ledger or f"sqlite:///{Path(scratch) / 'ledger.sqlite'}"
        try:
            engine = open_ledger(url)
        except LedgerUnavailable as exc:
            parser.error(str(exc))
        try:
            with open_log(args.log) as fh:
                hands = replay(fh, adjudicator_metrics(), read_profiles(),
                               args.events_per_second, Booking(ledger_metrics(), engine))
        finally:
            engine.dispose()
    print(f"replayed: {hands} hands adjudicated", file=sys.stderr, flush=True)
    if not args.exit:
        stop = threading.Event()
        signal.signal(signal.SIGTERM, lambda *_: stop.set())
        signal.signal(signal.SIGINT, lambda *_: stop.set())
        stop.wait()
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
