"""Render time of the console's two heaviest pages (issue #26: "the queue with 10,000
cases and the floor with 500 tables render under a second"), through the whole HTTP path
in process (Starlette's TestClient: session lookup, queries, template, response).

- **floor**: 500 HCF tables simulated, adjudicated and kept as ``pitwatch adjudicate
  --ledger`` keeps them (``--hands`` per table, faults injected so hands need review);
  the peer, in the same run, is the same day's daily compliance report (its HTML), what
  ``pitwatch report daily`` computes for the same hands.
- **queue**: 10,000 cases opened through the case intake (one hand subject each, the
  severities mixed); measured: the queue's first page (100 cases; every case counted,
  filtered and sorted), the same filtered by POST, and all 10,000 rows on one page; the
  peer is the case listing alone (``list_cases``, what ``pitwatch cases list`` reads).

Best and median of ``--rounds`` runs each. A benchmark, not a test: it asserts nothing
about time.

    python benchmarks/bench_console.py [--tables 500] [--hands 6] [--cases 10000] [--pg]

``--pg``: on the local PostgreSQL (``scripts/postgres.sh url``; two databases made for
the run and dropped after) instead of SQLite files.
"""

from __future__ import annotations

import argparse
import datetime as dt
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import orjson  # noqa: E402
from sqlalchemy import Engine  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from services.adjudicator.embedded import EmbeddedRunner  # noqa: E402
from services.cases.intake import Evidence, take_evidence  # noqa: E402
from services.cases.queries import CaseFilter, list_cases  # noqa: E402
from services.cases.subjects import Subject  # noqa: E402
from services.console.app import create_app  # noqa: E402
from services.console.cases_pages import queue_view  # noqa: E402
from services.console.users import add_user  # noqa: E402
from services.console.web import Console, render  # noqa: E402
from services.games.profiles import BUILTIN_PROFILE, read_profiles  # noqa: E402
from services.ledger.db import open_ledger, write_transaction  # noqa: E402
from services.recording import ArchiveCollector, keep_run  # noqa: E402
from services.reports.daily import daily_from_ledger  # noqa: E402
from services.reports.render import render_html  # noqa: E402
from services.simulator.run import available_faults, simulate  # noqa: E402

PROFILES = read_profiles()
PASSWORD = "benchmark password"


def timed(what: Callable[[], object], rounds: int) -> tuple[float, float]:
    """(best, median) seconds of ``rounds`` calls, after one warm-up call."""
    what()
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        what()
        times.append(time.perf_counter() - started)
    return min(times), statistics.median(times)


def build_floor(url: str, tables: int, hands: int) -> tuple[int, dt.date]:
    log = simulate(["hcf"], tables, hands, 11, frozenset(available_faults("hcf")),
                   fault_rate=0.02, profile=PROFILES.get(BUILTIN_PROFILE))
    runner, collector = EmbeddedRunner(PROFILES, archive=True), ArchiveCollector()
    records, alerts = [], []
    steps = [runner.feed(orjson.dumps(e), f"line {n}") for n, e in enumerate(log.events)]
    for step in [*steps, runner.finish()]:
        records += step.records
        alerts += step.alerts
        collector.add(step.archive)
    engine = open_ledger(url)
    keep_run(engine, records, alerts, collector.packed)
    day = max(dt.date.fromisoformat(r.ended_at[:10]) for r in records if r.ended_at)
    engine.dispose()
    return len(records), day


def build_queue(url: str, cases: int) -> None:
    severities = ("warning", "critical")
    items = [Evidence(f"finding:Q{n:06d}", "finding", Subject("hand", (f"Q{n:06d}",)),
                      f"Q{n % 200:03d}", f"Q{n:06d}", "HCF-7", "MISPAY", severities[n % 2],
                      f"seat {n % 7 + 1}: overpaid by {n % 9 + 1}",
                      ((f"Q{n % 200:03d}", f"Q{n:06d}"),),
                      (("table", f"Q{n % 200:03d}"), ("dealer", f"D{n % 50}"),
                       ("player", f"P{n % 997}"), ("game", "hcf")))
             for n in range(cases)]
    engine = open_ledger(url)
    with write_transaction(engine) as conn:
        take_evidence(conn, items, "2026-01-05T12:00:00.000Z")
    engine.dispose()


OPEN: list[Engine] = []  # disposed at the end (PostgreSQL drops only unused databases)


def client_for(url: str) -> TestClient:
    engine = open_ledger(url)
    OPEN.append(engine)
    add_user(engine, "bench", PASSWORD, "compliance_officer")
    client = TestClient(create_app(Console(engine, url, PROFILES, secure_cookies=True)),
                        base_url="https://testserver", follow_redirects=False)
    page = client.get("/login").text
    token = re.search(r'name="csrf" value="([^"]+)"', page)
    assert token is not None
    assert client.post("/login", data={"csrf": token.group(1), "username": "bench",
                                       "password": PASSWORD}).status_code == 303
    return client


def csrf(client: TestClient) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', client.get("/floor").text)
    assert found is not None
    return found.group(1)


def line(name: str, best: float, median: float, peer: float | None = None) -> None:
    ratio = f"   {best / peer:5.2f}x the peer" if peer else ""
    print(f"  {name:<44} best {best * 1000:8.1f} ms   median {median * 1000:8.1f} ms{ratio}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--hands", type=int, default=6, help="hands per table")
    parser.add_argument("--cases", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--pg", action="store_true", help="on PostgreSQL, not SQLite")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bench_console_"))
    if args.pg:
        (floor_url, drop_floor), (queue_url, drop_queue) = (pg_database("pw_bench_floor"),
                                                            pg_database("pw_bench_queue"))
        try:
            measure(args, floor_url, queue_url)
        finally:
            drop_floor()
            drop_queue()
    else:
        measure(args, f"sqlite:///{folder / 'floor.sqlite'}",
                f"sqlite:///{folder / 'queue.sqlite'}")


def pg_database(name: str) -> tuple[str, Callable[[], None]]:
    from tests.integration.pipeline_support import create_database, drop_database

    base = subprocess.run(["bash", str(REPO / "scripts" / "postgres.sh"), "url"], check=True,
                          capture_output=True, text=True).stdout.strip()
    url = create_database(base, name)
    return url, lambda: drop_database(url)


def measure(args: argparse.Namespace, floor_url: str, queue_url: str) -> None:
    print(f"database: {floor_url.split(':')[0]}")

    started = time.perf_counter()
    hands, day = build_floor(floor_url, args.tables, args.hands)
    print(f"floor: {args.tables} tables, {hands:,} hands on {day} "
          f"(built in {time.perf_counter() - started:.0f} s)")
    client = client_for(floor_url)
    page = client.get(f"/floor?day={day}")
    assert page.status_code == 200 and page.text.count("<tr>") >= args.tables
    engine = open_ledger(floor_url)
    peer = timed(lambda: render_html("daily.html", d=daily_from_ledger(engine, day),
                                     generated_at="now", link=str), args.rounds)
    line("peer: the day's daily report (HTML)", *peer)
    line(f"GET /floor ({args.tables} tables)", *timed(lambda: client.get(f"/floor?day={day}"),
                                           args.rounds), peer[0])
    line("GET /floor/live (the refreshed panel)",
         *timed(lambda: client.get(f"/floor/live?day={day}"), args.rounds), peer[0])

    started = time.perf_counter()
    build_queue(queue_url, args.cases)
    print(f"queue: {args.cases:,} cases (built in {time.perf_counter() - started:.0f} s)")
    client = client_for(queue_url)
    token = csrf(client)
    queue_engine = open_ledger(queue_url)
    peer = timed(lambda: list_cases(queue_engine, CaseFilter()), args.rounds)
    line("peer: list_cases (pitwatch cases list)", *peer)
    line("GET /queue (first page of 100)", *timed(lambda: client.get("/queue"), args.rounds),
         peer[0])
    line("POST /queue (critical, by table, sorted)", *timed(lambda: client.post(
        "/queue", data={"csrf": token, "severity": "critical", "sort": "updated"}),
        args.rounds), peer[0])

    def everything() -> None:
        view = queue_view(queue_engine, {"state": "any"}, 1, "bench", page_size=args.cases)
        assert len(view.cases) == args.cases
        render(_FakeRequest(), "queue.html", _bench_session(), view=view,  # type: ignore[arg-type]
               states=(), sorts=[], notice="")

    line(f"all {args.cases:,} rows on one page (view + template)",
         *timed(everything, args.rounds), peer[0])
    for done in (engine, queue_engine, *OPEN):
        done.dispose()


class _FakeUrl:
    path = "/queue"


class _FakeRequest:
    url = _FakeUrl()


def _bench_session() -> object:
    from services.console.sessions import Session

    return Session("bench", "compliance_officer", "x" * 43)


if __name__ == "__main__":
    main()
