"""Issue #23's table in one run: every native-engine target beside its peer, measured now.

| what | peer in the same run | target |
|---|---|---|
| embedded HCF, from a JSONL file, whole process | the Python reference engine | >= 20,000 hands/s per core |
| hold'em: re-derive the Pluribus hands | pokerkit replaying the same hands | >= 20x |
| draw7a, chinese, russian, embedded | the Python reference engine | >= 10,000 hands/s per core each |
| 7-card evaluation, one call | phevaluator (C) | >= 1x |

How each row is measured (CPU time of the process doing the work: "per core"):

* **the four table games**: a simulated log (``--tables`` x ``--hands``, clean play) is
  written to a JSONL file and ``pitwatch adjudicate FILE --engine native|python`` run as
  a child process, best of ``--repeat``: its whole CPU time (interpreter start, imports,
  profiles, reading, adjudicating, writing every record) per hand. The verdict is on that
  whole-process rate. Beside it: the same command on an empty file (the start-up, which a
  bigger file spreads thinner), and the rate with the start-up taken out. The children
  run with pitwatch's bytecode cached, as an installed copy runs (a first, uncounted
  run writes it even where ``PYTHONDONTWRITEBYTECODE`` is set). The two
  engines' outputs must be byte-identical or the run fails.
* **hold'em**: ``bench_holdem.run_session`` over the first ``--sessions`` Pluribus
  sessions (wall clock, the two sides alternating per session). pitwatch's side is the
  PHH import (parse the files, build the hash-chained v1 events) plus the embedded
  adjudication of those events (intake, chain, hand assembly, rules, comparison with the
  recorded side: records only, as ``pitwatch adjudicate`` makes them); pokerkit's is
  ``HandHistory.load`` of each file plus a full state replay. Every hand must come out
  ``ok``. A second row reads the target with pitwatch's own record of the hands as its
  input: ``pitwatch adjudicate`` over the same hands' imported events (one JSONL file,
  whole process, best of ``--repeat``) against the same pokerkit rate.
* **7-card evaluation**: ``bench_evaluator``'s interleaved rounds, one call per hand from
  Python on both sides (``CardRanking.eval7`` of the native core against phevaluator's
  ``evaluate_cards``).

    python benchmarks/bench_targets.py [--hands 2500] [--tables 4] [--repeat 3]
                                       [--sessions 10] [--games hcf,draw7a,chinese,russian]

Needs the shared PHH data for the hold'em row (``../shared/data/phh/``, or
``PITWATCH_SHARED``); without it that row says so and the others still run.
"""

from __future__ import annotations

import argparse
import filecmp
import os
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import orjson

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

import bench_evaluator  # noqa: E402
import bench_holdem  # noqa: E402
from bench_embedded import child_cpu  # noqa: E402

from services.games.profiles import BUILTIN_PROFILE, read_profiles  # noqa: E402
from services.importers.phh import import_phh  # noqa: E402
from services.simulator.run import simulate  # noqa: E402

HOUSE = read_profiles().get(BUILTIN_PROFILE)
TARGET_RATES = {"hcf": 20_000, "draw7a": 10_000, "chinese": 10_000, "russian": 10_000}
HOLDEM_TARGET = 20.0  # x pokerkit
EVALUATION_TARGET = 1.0  # x phevaluator


@dataclass(frozen=True)
class Row:
    what: str
    ours: str
    peer: str
    ratio: str
    target: str
    met: bool | None  # None: not measured


def verdict(met: bool | None) -> str:
    return {True: "met", False: "MISSED", None: "not measured"}[met]


# The children run as an installed pitwatch does: with its modules' bytecode cached. A
# shell that sets PYTHONDONTWRITEBYTECODE (some CI images do) would have every run compile
# pitwatch's ~120 modules from source again, about 0.13 s of a 0.3 s start-up here; the
# first, uncounted run writes the cache, and the start-up is printed on its own.
CHILD_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def adjudicate_cpu(path: Path, engine: str, output: Path) -> float:
    """CPU seconds of ``pitwatch adjudicate`` over ``path``, its records (stdout) written
    to ``output``."""
    with output.open("wb") as out:
        return child_cpu([sys.executable, "-m", "services.cli", "adjudicate", str(path),
                          "--engine", engine], stdout=out, env=CHILD_ENV)


def table_game_row(game: str, tables: int, hands: int, repeat: int, tmp: Path) -> Row:
    log = simulate([game], tables, hands, seed=1, profile=HOUSE)
    path = tmp / f"{game}.jsonl"
    write_events(path, log.events)
    count = sum(1 for e in log.events if e["type"] == "hand_ended")
    empty = tmp / "empty.jsonl"
    empty.write_bytes(b"")
    whole: dict[str, float] = {}
    start_up: dict[str, float] = {}
    for engine in ("native", "python"):
        adjudicate_cpu(empty, engine, tmp / "empty.out")  # uncounted: the bytecode cache
        output = tmp / f"{game}-{engine}.out"
        whole[engine] = min(adjudicate_cpu(path, engine, output) for _ in range(repeat))
        start_up[engine] = min(adjudicate_cpu(empty, engine, tmp / "empty.out")
                               for _ in range(repeat))
    if not filecmp.cmp(tmp / f"{game}-native.out", tmp / f"{game}-python.out", shallow=False):
        raise SystemExit(f"{game}: the engines' records differ")
    native, python = count / whole["native"], count / whole["python"]
    steady = count / max(whole["native"] - start_up["native"], 1e-9)
    print(f"{game:8s} {count:6d} hands: native {native:8,.0f} hands/s per core whole process "
          f"(start-up {start_up['native']:.2f} s; without it {steady:,.0f}), "
          f"reference {python:6,.0f} (start-up {start_up['python']:.2f} s)")
    target = TARGET_RATES[game]
    return Row(f"{game}, embedded from a JSONL file, whole process ({count:,} hands)",
               f"{native:,.0f} hands/s", f"reference {python:,.0f} hands/s",
               f"{native / python:.1f}x", f">= {target:,} hands/s per core", native >= target)


def holdem_rows(sessions: int, repeat: int) -> list[Row]:
    """Two readings of the hold'em target, pokerkit measured once: pitwatch importing the
    PHH files and adjudicating the events (in process), and ``pitwatch adjudicate`` over
    the imported events (a JSONL file, whole process: the events are pitwatch's own
    record of the hands, as the PHH files are pokerkit's)."""
    from tests.e2e.phh_support import unpack

    what = f"hold'em: import + adjudicate the Pluribus hands ({sessions} sessions)"
    with tempfile.TemporaryDirectory(prefix="phh-targets-") as tmp:
        try:
            data = unpack(Path(tmp))
        except FileNotFoundError as missing:
            print(f"hold'em: {missing}")
            return [Row(what, "-", "pokerkit -", "-", f">= {HOLDEM_TARGET:.0f}x", None)]
        timings = bench_holdem.measure(data, sessions)
        log_rate = imported_log_rate(data, sessions, repeat, Path(tmp))
    bench_holdem.report(timings)
    if set(timings.statuses) != {"ok"}:
        raise SystemExit(f"hold'em: not every hand came out ok: {timings.statuses}")
    ours = timings.rate(timings.imported + timings.embedded)
    pokerkit = timings.rate(timings.pokerkit)
    return [
        Row(f"{what}, {timings.hands:,} hands", f"{ours:,.0f} hands/s",
            f"pokerkit {pokerkit:,.0f} hands/s", f"{ours / pokerkit:.1f}x",
            f">= {HOLDEM_TARGET:.0f}x", ours / pokerkit >= HOLDEM_TARGET),
        Row("hold'em: `pitwatch adjudicate` of the same hands' imported events (JSONL), "
            "whole process", f"{log_rate:,.0f} hands/s", f"pokerkit {pokerkit:,.0f} hands/s",
            f"{log_rate / pokerkit:.1f}x", f">= {HOLDEM_TARGET:.0f}x",
            log_rate / pokerkit >= HOLDEM_TARGET),
    ]


def imported_log_rate(data: Path, sessions: int, repeat: int, tmp: Path) -> float:
    """Hands per CPU second of ``pitwatch adjudicate`` over the first ``sessions``
    Pluribus sessions imported to one JSONL file (best of ``repeat``; every hand ``ok``)."""
    chosen = sorted(p for p in (data / "pluribus").iterdir() if p.is_dir())[:sessions or None]
    result = import_phh(chosen)
    path = tmp / "pluribus.jsonl"
    path.write_bytes(result.jsonl())
    output = tmp / "pluribus.out"
    adjudicate_cpu(path, "native", output)  # uncounted: the bytecode cache
    best = min(adjudicate_cpu(path, "native", output) for _ in range(repeat))
    statuses = {orjson.loads(line)["status"] for line in output.read_bytes().splitlines()}
    if statuses != {"ok"}:
        raise SystemExit(f"hold'em: not every hand of the log came out ok: {statuses}")
    return result.hands / best


def write_events(path: Path, events: list[dict[str, object]]) -> None:
    path.write_bytes(b"".join(orjson.dumps(e) + b"\n" for e in events))


def evaluation_row() -> Row:
    figures = bench_evaluator.measure_standard(7, 20_000, 1_000, np.random.default_rng(2024))
    ours = figures["pitwatch native single (int)"]
    peer = figures["phevaluator"]
    return Row("7-card evaluation, one call from Python", f"{ours:,.0f} evals/s",
               f"phevaluator {peer:,.0f} evals/s", f"{ours / peer:.2f}x",
               f">= {EVALUATION_TARGET:.0f}x", ours / peer >= EVALUATION_TARGET)


def print_table(rows: list[Row]) -> None:
    print("\n| what | native | peer in the same run | ratio | target | verdict |")
    print("|---|---|---|---|---|---|")
    for row in rows:
        print(f"| {row.what} | {row.ours} | {row.peer} | {row.ratio} | {row.target} | "
              f"{verdict(row.met)} |")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="hcf,draw7a,chinese,russian")
    parser.add_argument("--tables", type=int, default=4)
    parser.add_argument("--hands", type=int, default=2500, help="hands per table")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--sessions", type=int, default=10,
                        help="Pluribus sessions for the hold'em row (0: skip the row)")
    parser.add_argument("--no-evaluation", action="store_true")
    args = parser.parse_args()
    rows: list[Row] = []
    with tempfile.TemporaryDirectory(prefix="bench-targets-") as tmp:
        for game in filter(None, args.games.split(",")):
            rows.append(table_game_row(game, args.tables, args.hands, args.repeat, Path(tmp)))
    if args.sessions:
        rows += holdem_rows(args.sessions, args.repeat)
    if not args.no_evaluation:
        rows.append(evaluation_row())
    print_table(rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
