"""The event archive's cost in the embedded run, and its storage choice measured.

    python benchmarks/bench_archive.py [--tables 8] [--hands 100] [--pg]

In one run, on one log (HCF, clean play):

* embedded adjudication alone (``adjudicate_lines``) against the same with every segment
  packed for the archive (zstd), in CPU seconds of this process, best of ``--repeat``,
  on the native engine (the default) and on the Python reference;
* keeping the run in a fresh SQLite database (and PostgreSQL with ``--pg``), step by step
  as ``services.recording.keep_run`` does (ledger, archive, cases), wall time; and the
  whole embedded run with ``--ledger``, archiving on against off;
* the storage choice: one row per event (table, seq, hash, prev_hash, canonical JSON;
  one bulk insert per 500 hands) against one row per segment (the archive as built), on
  the same backend, events per second.

Ratios are printed next to each figure; absolute times on a shared machine are noisy.
"""

from __future__ import annotations

import argparse
import hashlib
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import orjson
import sqlalchemy as sa

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from services.adjudicator.embedded import adjudicate_lines  # noqa: E402
from services.archive.segment import PackedSegment, pack_parts  # noqa: E402
from services.events.contract import AdjudicationRecord, Alert  # noqa: E402
from services.games.profiles import BUILTIN_PROFILE, read_profiles  # noqa: E402
from services.ledger.db import open_ledger  # noqa: E402
from services.ledger.posting import post_many  # noqa: E402
from services.simulator.run import simulate  # noqa: E402

PROFILES = read_profiles()


def best(repeat: int, *runs: Callable[[], object]) -> list[float]:
    """Fastest CPU time of each run over ``repeat`` rounds, the runs taking turns (so a
    neighbour's load on the shared machine falls on both alike)."""
    times: list[list[float]] = [[] for _ in runs]
    for _ in range(repeat):
        for run, spent in zip(runs, times, strict=True):
            started = time.process_time()
            run()
            spent.append(time.process_time() - started)
    return [min(spent) for spent in times]


PACKING = [0.0]  # CPU seconds spent packing segments in the last archiving run


def adjudicated(lines: list[bytes], archive: bool, engine: str | None = None
                ) -> tuple[list[AdjudicationRecord], list[Alert], list[PackedSegment]]:
    records: list[AdjudicationRecord] = []
    alerts: list[Alert] = []
    packed: list[PackedSegment] = []
    PACKING[0] = 0.0
    clock = time.process_time
    for step in adjudicate_lines(lines, PROFILES, engine, archive):
        records += step.records
        alerts += step.alerts
        if archive and step.archive:
            started = clock()
            for segment in step.archive:
                packed += pack_parts(segment)
            PACKING[0] += clock() - started
    return records, alerts, packed


def keep_times(url: str, lines: list[bytes]) -> tuple[float, float, float]:
    """Wall seconds to book the run's hands, to archive its segments and alerts, and to
    open its cases, in a fresh database (each step as ``keep_run`` does it)."""
    from services.archive.writer import archive_run
    from services.cases.intake import open_cases

    records, alerts, packed = adjudicated(lines, archive=True)
    engine = open_ledger(url)
    started = time.perf_counter()
    post_many(engine, records)
    booked = time.perf_counter()
    archive_run(engine, packed, alerts)
    archived = time.perf_counter()
    open_cases(engine, records, alerts)
    opened = time.perf_counter()
    engine.dispose()
    return booked - started, archived - booked, opened - archived


def per_event_rate(url: str, lines: list[bytes], hands: int) -> float:
    """Events/s of the alternative: one row per event, bulk inserted 500 hands at a time."""
    engine = sa.create_engine(url)
    meta = sa.MetaData()
    table = sa.Table("bench_event_rows", meta, sa.Column("table_id", sa.String(200)),
                     sa.Column("seq", sa.BigInteger), sa.Column("hash", sa.String(64)),
                     sa.Column("prev_hash", sa.String(64)), sa.Column("body", sa.LargeBinary),
                     sa.PrimaryKeyConstraint("table_id", "seq"))
    meta.create_all(engine)
    rows = []
    for line in lines:
        obj = orjson.loads(line)
        rows.append({"table_id": obj["table_id"], "seq": obj["seq"],
                     "hash": hashlib.sha256(line).hexdigest(), "prev_hash": obj["prev_hash"],
                     "body": line})
    chunk = max(1, len(rows) * 500 // hands)
    started = time.perf_counter()
    for start in range(0, len(rows), chunk):
        with engine.begin() as conn:
            conn.execute(table.insert(), rows[start:start + chunk])
    elapsed = time.perf_counter() - started
    meta.drop_all(engine)
    engine.dispose()
    return len(rows) / elapsed


def pg_database() -> tuple[str, Callable[[], None]]:
    sys.path.insert(0, str(REPO))
    from tests.integration.pipeline_support import create_database, drop_database

    base = subprocess.run(["bash", str(REPO / "scripts" / "postgres.sh"), "url"], check=True,
                          capture_output=True, text=True).stdout.strip()
    url = create_database(base, "pw_bench_archive")
    return url, lambda: drop_database(url)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--hands", type=int, default=100, help="hands per table")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--pg", action="store_true", help="also keep into PostgreSQL")
    args = parser.parse_args()
    log = simulate(["hcf"], args.tables, args.hands, seed=7,
                   profile=PROFILES.get(BUILTIN_PROFILE))
    lines = [orjson.dumps(e) for e in log.events]
    hands = args.tables * args.hands
    print(f"log: {args.tables} tables x {args.hands} HCF hands = {hands} hands, "
          f"{len(lines):,} events")
    alone, packing, python, python_packing = best(
        args.repeat, lambda: adjudicated(lines, archive=False, engine="native"),
        lambda: adjudicated(lines, archive=True, engine="native"),
        lambda: adjudicated(lines, archive=False, engine="python"),
        lambda: adjudicated(lines, archive=True, engine="python"))
    print(f"{'embedded adjudication (native)':44} {hands / alone:8.0f} hands/s")
    print(f"{'embedded adjudication + segments packed':44} {hands / packing:8.0f} hands/s  "
          f"{alone / packing:5.2f}x without")
    print(f"{'the same on the python engine':44} {hands / python:8.0f} hands/s, "
          f"{hands / python_packing:6.0f} packed  {python / python_packing:5.2f}x without")
    shares = []
    for _ in range(args.repeat):
        started = time.process_time()
        adjudicated(lines, archive=True)
        shares.append(PACKING[0] / (time.process_time() - started))
    print(f"packing's share of an archiving run's CPU time (measured inside the run, "
          f"least of {args.repeat}): {min(shares):.1%} ({1e6 * min(shares) * packing / hands:.0f} "
          "µs a hand)")
    _, _, packed = adjudicated(lines, archive=True)
    raw = sum(len(line) for line in lines)
    stored = sum(len(p.body) for p in packed)
    print(f"archive: {len(packed)} segments, {stored / hands:,.0f} bytes a hand stored "
          f"({raw / stored:.1f}x smaller than the log's lines)")
    backends: list[tuple[str, str | None]] = [("SQLite", None)]
    cleanups: list[Callable[[], None]] = []
    if args.pg:
        url, drop = pg_database()
        backends.append(("PostgreSQL", url))
        cleanups.append(drop)
    with tempfile.TemporaryDirectory(prefix="bench-archive-") as tmp:
        try:
            for name, given in backends:
                url = given or f"sqlite:///{tmp}/{name}.sqlite"
                ledger, archive, cases = keep_times(url, lines)
                print(f"{name}: keeping the run: ledger {hands / ledger:6.0f} hands/s, "
                      f"archive {len(lines) / archive:9,.0f} events/s, cases "
                      f"{hands / cases:6.0f} hands/s")
                embedded_off = alone + ledger
                embedded_on = packing + ledger + archive + cases
                print(f"{name}: embedded run with --ledger, archiving off "
                      f"{hands / embedded_off:6.0f} hands/s, on {hands / embedded_on:6.0f} "
                      f"hands/s ({embedded_off / embedded_on:4.2f}x)")
                rows = per_event_rate(given or f"sqlite:///{tmp}/{name}-rows.sqlite", lines,
                                      hands)
                print(f"{name}: storage choice: one row per event {rows:9,.0f} events/s; "
                      f"one row per segment {len(lines) / archive:9,.0f} events/s "
                      f"({len(lines) / archive / rows:4.1f}x)")
        finally:
            for cleanup in cleanups:
                cleanup()


if __name__ == "__main__":
    main()
