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
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import orjson

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from services.adjudicator.embedded import adjudicate_lines  # noqa: E402
from services.events.contract import encode_record  # noqa: E402
from services.games.profiles import BUILTIN_PROFILE, read_profiles  # noqa: E402
from services.simulator.run import simulate  # noqa: E402

PROFILES = read_profiles()  # once, as every entry point does
HOUSE = PROFILES.get(BUILTIN_PROFILE)

GAMES = ("hcf", "draw7a", "holdem", "chinese", "russian")


def best_time(lines: list[bytes], repeat: int, engine: str) -> tuple[float, list[bytes]]:
    """Fastest of ``repeat`` full runs, and the records one run produces."""
    best = float("inf")
    records: list[bytes] = []
    for _ in range(repeat):
        started = time.process_time()
        run = [r for step in adjudicate_lines(lines, PROFILES, engine) for r in step.records]
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
              "(records byte-identical)")


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
    args = parser.parse_args()
    for game in args.games.split(","):
        bench_game(game, args.tables, args.hands, args.repeat, args.engines.split(","))
    if args.pluribus:
        sys.path.insert(0, str(REPO / "benchmarks"))
        bench_pluribus(args.pluribus, args.repeat)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
