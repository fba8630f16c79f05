"""Hold'em: import + adjudication of the Pluribus hands, next to pokerkit replaying them.

For every Pluribus session (one directory, ~100 hands) in turn, in the same process:

- **pokerkit**: ``HandHistory.load`` of each file and a full state replay (iterating the
  hand history builds the game state after every action);
- **pitwatch**: ``import_phh`` of the session's files (PHH -> hash-chained v1 events, as
  JSON lines: the native importer, which must take every Pluribus session; the Python
  importer is timed too, on the same files) and the embedded runner over those events as
  one JSONL buffer (split into lines by the core, as a file is) (intake validation and hashing,
  chain check, hand assembly, hold'em adjudication, comparison with the recorded side;
  records only, as ``pitwatch adjudicate`` makes them: no closed hands for Python),
  timed as two stages; ``adjudicate_hand`` (rules + recorded side + comparison, no
  intake) and the hold'em rule module alone are timed too, on the same hands;
- the same embedded run with the hold'em hands kept in the Python rules (the registry's
  hold'em rules wrapped, which gates the core's off: the state before issue #23's port),
  so the native rules' gain is read in the same run.

Sessions alternate between the two so that load on a shared machine hits both alike;
the report prints hands/s and the ratio to pokerkit (absolute times are noisy; the ratio
is what to read). Every adjudication must come out ``ok`` or the run fails.

    python benchmarks/bench_holdem.py [--sessions N] [--data DIR]
"""

from __future__ import annotations

import argparse
import io
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import orjson
from pokerkit import HandHistory

import services.adjudicator.adjudicate as adjudicate_module

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from services.adjudicator.adjudicate import adjudicate_hand  # noqa: E402
from services.adjudicator.embedded import adjudicate_file, adjudicate_lines  # noqa: E402
from services.events.contract import AdjudicationRecord  # noqa: E402
from services.games import registry  # noqa: E402
from services.games.holdem import adjudicate as holdem  # noqa: E402
from services.games.model import HandInput  # noqa: E402
from services.games.profiles import BUILTIN_PROFILE, read_profiles  # noqa: E402
from services.importers.phh import import_phh  # noqa: E402
from tests.e2e.phh_support import hand_inputs, unpack  # noqa: E402

PROFILES = read_profiles()  # once, as every entry point does
HOUSE = PROFILES.get(BUILTIN_PROFILE)


@dataclass
class Timings:
    hands: int = 0
    pokerkit: float = 0.0
    imported: float = 0.0
    imported_python: float = 0.0
    embedded: float = 0.0
    embedded_python: float = 0.0
    rules: float = 0.0
    game: float = 0.0
    statuses: dict[str, int] = field(default_factory=dict)

    def rate(self, seconds: float) -> float:
        return self.hands / seconds if seconds else float("inf")


PROFILE = HOUSE


def replay_with_pokerkit(files: list[Path]) -> None:
    for path in files:
        with path.open("rb") as source:
            history = HandHistory.load(source)
        for _state in history:
            pass


class python_holdem_rules:
    """The registry's hold'em rules replaced by a wrapper of the same rules: the native
    runner then leaves hold'em hands to Python (``registry_native_games``)."""

    def __enter__(self) -> None:
        self.saved = getattr(adjudicate_module, "GAMES")  # noqa: B009 (replaced for the run)
        games = dict(self.saved)
        game = games["holdem"]
        games["holdem"] = registry.Game("holdem", lambda h, p: game.adjudicate(h, p),
                                        game.rake_rule)
        setattr(adjudicate_module, "GAMES", games)  # noqa: B010

    def __exit__(self, *_: object) -> None:
        setattr(adjudicate_module, "GAMES", self.saved)  # noqa: B010


def run_session(files: list[Path], timings: Timings) -> None:
    started = time.perf_counter()
    replay_with_pokerkit(files)
    timings.pokerkit += time.perf_counter() - started

    started = time.perf_counter()
    result = import_phh(files)
    encoded = result.jsonl()
    timings.imported += time.perf_counter() - started
    if result.engine != "native":
        raise SystemExit(f"the native importer did not take {files[0].parent}")
    started = time.perf_counter()
    import_phh(files, engine="python")
    timings.imported_python += time.perf_counter() - started

    started = time.perf_counter()
    records: list[AdjudicationRecord] = [
        record for step in adjudicate_file(io.BytesIO(encoded), PROFILES, closed_hands=False)
        for record in step.records]
    timings.embedded += time.perf_counter() - started

    lines = encoded.splitlines()
    started = time.perf_counter()
    with python_holdem_rules():
        python_records = [record for step in adjudicate_lines(lines, PROFILES, closed_hands=False)
                          for record in step.records]
    timings.embedded_python += time.perf_counter() - started
    if [r.status for r in python_records] != [r.status for r in records]:
        raise SystemExit("the native and the Python hold'em rules disagree")

    inputs: list[HandInput] = list(hand_inputs([orjson.loads(line) for line in lines]))
    started = time.perf_counter()
    for hand in inputs:
        adjudicate_hand(hand, PROFILES)
    timings.rules += time.perf_counter() - started
    started = time.perf_counter()
    for hand in inputs:
        holdem.adjudicate(hand, PROFILE)
    timings.game += time.perf_counter() - started

    timings.hands += result.hands
    for record in records:
        timings.statuses[record.status] = timings.statuses.get(record.status, 0) + 1


def measure(data: Path, sessions: int = 0) -> Timings:
    """Every Pluribus session of the unpacked ``data`` folder (the first ``sessions``; 0:
    all) through ``run_session``, after one uncounted run of the first (imports, tables)."""
    chosen = sorted(p for p in (data / "pluribus").iterdir() if p.is_dir())
    if sessions:
        chosen = chosen[:sessions]
    run_session(sorted(chosen[0].glob("*.phh")), Timings())  # warm-up: imports, tables
    timings = Timings()
    for session in chosen:
        run_session(sorted(session.glob("*.phh")), timings)
    return timings


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=0, help="only the first N sessions")
    parser.add_argument("--data", type=Path, default=None,
                        help="an unpacked data/ folder (default: unpack the shared archive)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="phh-bench-") as tmp:
        data = args.data if args.data is not None else unpack(Path(tmp))
        if not (data / "pluribus").is_dir():
            parser.error(f"--data {data}: no pluribus/ folder in it (give the unpacked "
                         "data/ folder, the one holding pluribus/)")
        timings = measure(data, args.sessions)
    report(timings)
    return 0 if set(timings.statuses) == {"ok"} else 1


def report(t: Timings) -> None:
    pokerkit = t.rate(t.pokerkit)
    pipeline = t.rate(t.imported + t.embedded)
    print(f"Pluribus hands: {t.hands}; adjudications: {t.statuses}")
    print(f"pokerkit HandHistory load + state replay : {pokerkit:10.0f} hands/s")
    print(f"pitwatch import (PHH -> v1 events)       : {t.rate(t.imported):10.0f} hands/s  "
          f"(the Python importer {t.rate(t.imported_python):.0f})")
    print(f"pitwatch embedded adjudication (JSONL)   : {t.rate(t.embedded):10.0f} hands/s")
    print(f"pitwatch import + embedded adjudication  : {pipeline:10.0f} hands/s  "
          f"= {pipeline / pokerkit:5.1f}x pokerkit (target >= 20x)")
    embedded_python = t.rate(t.embedded_python)
    python_import = t.rate(t.imported_python + t.embedded)
    print(f"  the same, the Python importer          : {python_import:10.0f} hands/s  "
          f"= {python_import / pokerkit:5.1f}x pokerkit")
    before = t.rate(t.imported_python + t.embedded_python)
    print(f"  the same, both in Python               : {before:10.0f} hands/s  "
          f"= {before / pokerkit:5.1f}x pokerkit")
    print(f"pitwatch embedded, hold'em rules Python  : {embedded_python:10.0f} hands/s  "
          f"(native rules {t.rate(t.embedded) / embedded_python:4.1f}x)")
    rules = t.rate(t.rules)
    print(f"pitwatch adjudicate_hand (no intake)     : {rules:10.0f} hands/s  "
          f"= {rules / pokerkit:5.1f}x pokerkit")
    game = t.rate(t.game)
    print(f"pitwatch hold'em rules alone              : {game:10.0f} hands/s  "
          f"= {game / pokerkit:5.1f}x pokerkit")


if __name__ == "__main__":
    raise SystemExit(main())
