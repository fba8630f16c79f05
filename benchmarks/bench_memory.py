"""Memory held by the embedded runner for many open tables (architecture.md: "bounded per
open hand; 10,000 open tables < 100 MB RSS"), for the native core and the Python reference.

Every table is configured, seated and stopped in the middle of a hand (its first
``hand_ended`` and everything after it are cut off), so each one holds an open hand.

1. a child process simulates the tables (HCF, one hand each, no faults) and writes the
   cut streams to a JSONL file — so that generating them costs the measured process
   nothing;
2. this process imports everything, warms the runner up on one other table, notes its
   resident set size, feeds every line, notes the resident set size again.

The peer, measured in the same run, is the size of those same events as JSONL: the ratio
says how many bytes of state the runner keeps per byte of open-hand input. Each engine is
measured in a process of its own (``--engine native`` is the default; ``--engine both``
runs the two one after the other and prints the ratio).

    python benchmarks/bench_memory.py [--tables 10000] [--engine native|python|both]
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

import orjson

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from services.adjudicator.embedded import EmbeddedRunner, iter_lines  # noqa: E402
from services.games.profiles import BUILTIN_PROFILE, read_profiles  # noqa: E402

PROFILES = read_profiles()  # once, as every entry point does
HOUSE = PROFILES.get(BUILTIN_PROFILE)
from services.adjudicator.native_runner import NativeRunner  # noqa: E402

TARGET_MB = 100
TARGET_TABLES = 10_000


def rss_bytes() -> int:
    """Current resident set size (Linux /proc), not the peak."""
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE")


def open_hand_lines(table_id: str, index: int, seed: int) -> list[bytes]:
    """One simulated HCF table up to, not including, its first ``hand_ended``."""
    from services.events.stream import TableStream
    from services.simulator.registry import simulator_for

    simulate_table, _faults = simulator_for("hcf")
    rng = random.Random(f"{seed}:{index}")
    stream = TableStream(table_id, rng)
    simulate_table(stream, 1, rng, frozenset(), 0.0, index, HOUSE)
    cut = next(i for i, e in enumerate(stream.events) if e["type"] == "hand_ended")
    return [orjson.dumps(e) for e in stream.events[:cut]]


def generate(path: Path, tables: int, seed: int) -> None:
    with path.open("wb") as out:
        for index in range(tables):
            for line in open_hand_lines(f"M{index + 1:05d}", index, seed):
                out.write(line + b"\n")


def measure(path: Path, seed: int, engine: str) -> tuple[int, int, int, int]:
    """(open hands held, bytes of input, RSS before, RSS after)."""
    runner = EmbeddedRunner(PROFILES, engine)
    for raw, where in iter_lines(open_hand_lines("WARMUP", 0, seed + 1)):
        runner.feed(raw, where)
    gc.collect()
    before = rss_bytes()
    size = 0
    with path.open("rb") as lines:
        for raw, where in iter_lines(lines):
            size += len(raw)
            step = runner.feed(raw.rstrip(b"\n"), where)
            if step.records or step.dead_letters:
                raise SystemExit(f"{where}: an open hand produced output: {step}")
    gc.collect()
    after = rss_bytes()
    impl = runner.impl
    if isinstance(impl, NativeRunner):
        open_hands = impl.open_hands()
    else:
        open_hands = sum(1 for state in impl.states.values() if state.open_hand is not None)
    return open_hands, size, before, after


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=TARGET_TABLES)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--engine", choices=("native", "python", "both"), default="native")
    parser.add_argument("--generate", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--measure", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.generate:
        generate(args.generate, args.tables, args.seed)
        return
    if args.measure:
        held, size, before, after = measure(args.measure, args.seed, args.engine)
        print(orjson.dumps([held, size, before, after]).decode())
        return
    engines = ("native", "python") if args.engine == "both" else (args.engine,)
    grown_by: dict[str, int] = {}
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "open-hands.jsonl"
        subprocess.run([sys.executable, __file__, "--tables", str(args.tables),
                        "--seed", str(args.seed), "--generate", str(path)], check=True)
        for engine in engines:
            out = subprocess.run([sys.executable, __file__, "--seed", str(args.seed),
                                  "--engine", engine, "--measure", str(path)],
                                 check=True, capture_output=True, text=True).stdout
            held, size, before, after = orjson.loads(out.splitlines()[-1])
            grown_by[engine] = report(engine, args.tables, held, size, before, after)
    if len(grown_by) == 2:
        print(f"native keeps {grown_by['python'] / max(grown_by['native'], 1):.1f}x less per "
              "open table than the Python reference")


def report(engine: str, tables: int, held: int, size: int, before: int, after: int) -> int:
    grown = after - before
    mb = 1024 * 1024
    print(f"--- {engine}: {tables:,} open HCF tables (one open hand each), "
          f"{size / mb:.1f} MB of events")
    print(f"open hands held by the runner: {held:,}")
    if held < tables:  # (the warm-up table holds one more)
        raise SystemExit("not every table holds an open hand: the measurement is void")
    print(f"RSS before feeding {before / mb:.1f} MB, after {after / mb:.1f} MB, "
          f"grown {grown / mb:.1f} MB = {grown / tables / 1024:.1f} KB per open table")
    print(f"state kept per byte of open-hand input (peer: the input itself): "
          f"{grown / size:.2f}x")
    scaled = before + grown * TARGET_TABLES // tables
    verdict = "within" if scaled < TARGET_MB * mb else "OVER"
    print(f"target: {TARGET_TABLES:,} open tables < {TARGET_MB} MB RSS -> "
          f"{'measured' if tables >= TARGET_TABLES else 'scaled'} "
          f"{scaled / mb:.0f} MB ({verdict})")
    return grown


if __name__ == "__main__":
    main()
