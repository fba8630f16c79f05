"""Embedded adjudication throughput per game, native core against the Python reference.

For each game a log is simulated (``simulate([game], tables, hands, seed)``, clean play),
encoded as JSONL lines, and the embedded runner (``adjudicate_lines``: intake validation
and hashing, chain check, hand assembly, recorded side, GEN checks, the game's rules,
comparison) is run over it ``--repeat`` times with each engine (``--engines``, default
both: the native core, the peer being the Python reference in the same run); the best run
is reported (the machine is shared, so the minimum is the least noisy estimate of the
code's own cost; the time is this process's CPU time, the "per core" of the targets). The
two engines' records are compared byte for byte before anything is printed. With
``--pluribus`` the hold'em import + embedded adjudication of the Pluribus hands is compared
with pokerkit replaying them, reusing ``bench_holdem``'s code.

    python benchmarks/bench_embedded.py [--games hcf,holdem] [--hands 500] [--repeat 3]
                                        [--engines native,python] [--pluribus N_SESSIONS]
                                        [--file]

``--file`` is issue #23's measure: the log written to a JSONL file and ``pitwatch
adjudicate FILE`` run as a child process per engine, its whole CPU time (start-up,
imports, profiles, reading, adjudicating, writing the records) per hand, beside
``adjudicate_file`` timed in this process. With the native engine, High Card Flush,
Chinese Poker, Five Card Draw 7-A, Russian Poker and Texas Hold'em hands are adjudicated by
the core's rules.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import BinaryIO

import orjson

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from services.adjudicator.embedded import adjudicate_file, adjudicate_lines  # noqa: E402
from services.events.contract import encode_record  # noqa: E402
from services.games.profiles import BUILTIN_PROFILE, read_profiles  # noqa: E402
from services.simulator.run import simulate  # noqa: E402

PROFILES = read_profiles()  # once, as every entry point does
HOUSE = PROFILES.get(BUILTIN_PROFILE)

GAMES = ("hcf", "draw7a", "holdem", "chinese", "russian")
# Issue #23's targets per core for the games the core adjudicates (hands per second).
TARGETS = {"hcf": 20_000, "chinese": 10_000, "draw7a": 10_000, "russian": 10_000}


def target_words(game: str, rate: float) -> str:
    target = TARGETS.get(game)
    if target is None:
        return ""
    return f"; target {target:,} hands/s per core: {'met' if rate >= target else 'MISSED'}"


def best_time(lines: list[bytes], repeat: int, engine: str) -> tuple[float, list[bytes]]:
    """Fastest of ``repeat`` full runs, and the records one run produces."""
    best = float("inf")
    records: list[bytes] = []
    for _ in range(repeat):
        started = time.process_time()
        run = [r for step in adjudicate_lines(lines, PROFILES, engine, closed_hands=False)
               for r in step.records]
        best = min(best, time.process_time() - started)
        records = [encode_record(r) for r in run]
    return best, records


def bench_game(game: str, tables: int, hands: int, repeat: int, engines: list[str]) -> None:
    log = simulate([game], tables, hands, seed=1, profile=HOUSE)
    lines = [orjson.dumps(event) for event in log.events]
    rates: dict[str, float] = {}
    outputs: dict[str, list[bytes]] = {}
    for engine in engines:
        seconds, records = best_time(lines, repeat, engine)
        rates[engine] = len(records) / seconds
        outputs[engine] = records
        print(f"{game:8s} {engine:6s} {len(records):7d} hands {len(lines):8d} events "
              f"{len(lines) / len(records):6.1f} ev/hand  {len(records) / seconds:9.0f} hands/s  "
              f"{len(lines) / seconds:10.0f} events/s")
    if len(set(map(tuple, outputs.values()))) > 1:
        raise SystemExit(f"{game}: the engines' records differ")
    if "native" in rates and "python" in rates:
        print(f"{game:8s} native / reference: {rates['native'] / rates['python']:.1f}x "
              f"(records byte-identical){target_words(game, rates['native'])}")


def child_cpu(argv: list[str], stdout: BinaryIO | int = subprocess.DEVNULL,
              env: dict[str, str] | None = None) -> float:
    """CPU seconds (user + system) of one child process run to completion (its output to
    ``stdout``, discarded by default; ``env``: its environment, this one's by default)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, cwd=REPO, stdout=stdout, stderr=subprocess.DEVNULL, check=False,
                   env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def bench_file(game: str, tables: int, hands: int, repeat: int, engines: list[str]) -> None:
    """The issue's measure: ``pitwatch adjudicate FILE`` on a JSONL file, the whole
    process (interpreter start, imports, profiles, reading, adjudicating, writing every
    record), its CPU time per hand; and, in this process, ``adjudicate_file`` alone."""
    log = simulate([game], tables, hands, seed=1, profile=HOUSE)
    with tempfile.TemporaryDirectory(prefix="bench-embedded-") as tmp:
        path = Path(tmp) / f"{game}.jsonl"
        path.write_bytes(b"".join(orjson.dumps(e) + b"\n" for e in log.events))
        count = sum(1 for e in log.events if e["type"] == "hand_ended")
        rates: dict[str, tuple[float, float]] = {}
        outputs: dict[str, list[bytes]] = {}
        for engine in engines:
            whole = min(child_cpu([sys.executable, "-m", "services.cli", "adjudicate", str(path),
                                   "--engine", engine]) for _ in range(repeat))
            best = float("inf")
            for _ in range(repeat):
                started = time.process_time()
                with path.open("rb") as fh:
                    run = [r for step in adjudicate_file(fh, PROFILES, engine, closed_hands=False)
                           for r in step.records]
                best = min(best, time.process_time() - started)
            outputs[engine] = [encode_record(r) for r in run]
            rates[engine] = (count / whole, count / best)
            print(f"{game:8s} {engine:6s} {count:7d} hands from {path.name}: whole process "
                  f"{count / whole:8.0f} hands/s per core, adjudicate_file {count / best:8.0f}")
        if len(set(map(tuple, outputs.values()))) > 1:
            raise SystemExit(f"{game}: the engines' records differ")
        if "native" in rates and "python" in rates:
            n, p = rates["native"], rates["python"]
            print(f"{game:8s} native / reference: whole process {n[0] / p[0]:.1f}x, "
                  f"adjudicate_file {n[1] / p[1]:.1f}x{target_words(game, n[0])}")


def bench_pluribus(sessions: int, repeat: int) -> None:
    import bench_holdem

    from tests.e2e.phh_support import unpack

    with tempfile.TemporaryDirectory(prefix="phh-bench-") as tmp:
        data = unpack(Path(tmp))
        chosen = sorted(p for p in (data / "pluribus").iterdir() if p.is_dir())[:sessions]
        best = None
        for _ in range(repeat):
            timings = bench_holdem.Timings()
            for session in chosen:
                bench_holdem.run_session(sorted(session.glob("*.phh")), timings)
            if best is None or timings.embedded + timings.imported < best.embedded + best.imported:
                best = timings
    assert best is not None
    print(f"--- Pluribus, {sessions} session(s), best of {repeat}")
    bench_holdem.report(best)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--tables", type=int, default=4)
    parser.add_argument("--hands", type=int, default=250, help="hands per table")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--engines", default="native,python")
    parser.add_argument("--pluribus", type=int, default=0,
                        help="also compare with pokerkit on the first N Pluribus sessions")
    parser.add_argument("--file", action="store_true",
                        help="from a JSONL file: `pitwatch adjudicate FILE` as a whole "
                             "process, and adjudicate_file in this one")
    args = parser.parse_args()
    for game in args.games.split(","):
        if args.file:
            bench_file(game, args.tables, args.hands, args.repeat, args.engines.split(","))
        else:
            bench_game(game, args.tables, args.hands, args.repeat, args.engines.split(","))
    if args.pluribus:
        sys.path.insert(0, str(REPO / "benchmarks"))
        bench_pluribus(args.pluribus, args.repeat)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
