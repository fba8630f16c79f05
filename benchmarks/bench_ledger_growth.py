"""The ledger on PostgreSQL as it grows: CPU per booked hand, first batch against last.

A ledger keeps years of hands, so what a batch costs must not grow with what the book
already holds. This books one simulated HCF log into an empty PostgreSQL database, a
batch a transaction (as the ledger service does), and prints for each batch the Python
CPU per hand and PostgreSQL's (the backend's and every other ``postgres`` process's),
then the last batch against the first (the peer, measured in the same run). With
``--compare`` the same log is booked again, in turns, into a database migrated only to
``0007_hand_rows_pending`` (the balance check and the booked-hand check before 0008,
which joined the new rows with the whole ``postings`` and ``hands`` tables).

Run (services up: ``scripts/services.sh up``)::

    python benchmarks/bench_ledger_growth.py                 # 8 tables x 800 hands, 800 a batch
    python benchmarks/bench_ledger_growth.py --compare       # head and 0007, in turns
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import orjson

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

from alembic import command  # noqa: E402
from bench_pipeline import backing_cpu_seconds, base_pg_url  # noqa: E402

from services.adjudicator.embedded import adjudicate_lines  # noqa: E402
from services.events.contract import decode_record, encode_record  # noqa: E402
from services.games.profiles import BUILTIN_PROFILE, read_profiles  # noqa: E402
from services.ledger.db import alembic_config, open_ledger  # noqa: E402
from services.ledger.gc_policy import tune_for_batches  # noqa: E402
from services.ledger.posting import prepare_entries  # noqa: E402
from services.pipeline.ledger_service import book_prepared  # noqa: E402
from services.simulator.run import simulate  # noqa: E402
from tests.integration.pipeline_support import create_database, drop_database  # noqa: E402

BEFORE = "0007_hand_rows_pending"


def records_of(tables: int, hands: int) -> list[bytes]:
    profiles = read_profiles()
    log = simulate(["hcf"], tables, hands, seed=7, profile=profiles.get(BUILTIN_PROFILE))
    lines = [orjson.dumps(e) for e in log.events]
    return [encode_record(r) for step in adjudicate_lines(lines, profiles) for r in step.records]


def run(records: list[bytes], batch: int, revision: str | None) -> list[tuple[float, float]]:
    """Book ``records`` into a fresh database at ``revision`` (None: head); per batch,
    (Python CPU ms a hand, PostgreSQL CPU ms a hand)."""
    url = create_database(base_pg_url(), "pw_growth")
    try:
        engine = open_ledger(url)
        if revision is not None:
            config = alembic_config()
            with engine.begin() as conn:
                config.attributes["connection"] = conn
                command.downgrade(config, revision)
        out = []
        for start in range(0, len(records), batch):
            decoded = [decode_record(r) for r in records[start:start + batch]]
            backing, cpu = backing_cpu_seconds(), time.process_time()
            book_prepared(engine, prepare_entries(decoded, decoded=True))  # the service's
            python = time.process_time() - cpu
            postgres = backing_cpu_seconds()["postgresql"] - backing["postgresql"]
            out.append((1000 * python / len(decoded), 1000 * postgres / len(decoded)))
        engine.dispose()
        return out
    finally:
        drop_database(url)


def report(name: str, batches: list[tuple[float, float]], batch: int) -> None:
    for n, (python, postgres) in enumerate(batches):
        print(f"{name:6} batch {n:2d} ({(n + 1) * batch:6d} hands booked)  "
              f"python {python:.3f} ms/hand  postgresql {postgres:.3f} ms/hand")
    pg = [p for _, p in batches]
    print(f"{name:6} postgresql over the run {sum(pg) / len(pg):.3f} ms/hand; last batch "
          f"{pg[-1]:.3f} = {pg[-1] / max(pg[0], 1e-9):.2f}x the first (the peer)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--hands", type=int, default=800, help="hands per table")
    parser.add_argument("--batch", type=int, default=800, help="hands a transaction")
    parser.add_argument("--compare", action="store_true",
                        help=f"also book into a database at {BEFORE}, in turns")
    args = parser.parse_args()
    records = records_of(args.tables, args.hands)
    tune_for_batches()  # as the ledger service does
    print(f"{len(records)} HCF records, {args.batch} a transaction")
    head = run(records, args.batch, None)
    report("head", head, args.batch)
    if args.compare:
        before = run(records, args.batch, BEFORE)
        report(BEFORE[:4], before, args.batch)
        mean = [sum(p for _, p in b) / len(b) for b in (head, before)]
        print(f"postgresql over the run: head {mean[0]:.3f} ms/hand, {BEFORE} {mean[1]:.3f} "
              f"ms/hand ({mean[1] / mean[0]:.2f}x head's)")


if __name__ == "__main__":
    main()
