"""PHH import rate on ``.phhs`` files, next to pokerkit's ``HandHistory.load_all``.

For every ``.phhs`` file in turn, in the same process:

- **pokerkit**: ``HandHistory.load_all`` of the file (TOML parsing and one
  ``HandHistory`` per hand, the reference reader of the PHH format);
- **pitwatch read**: ``read_sources`` of the file (the same parsing, each hand checked
  into a ``PhhHand``), the part that does what ``load_all`` does;
- **pitwatch import**: ``import_phh`` of the file (read, then every hand replayed into
  hash-chained v1 events: much more work than ``load_all``), by the native importer where
  it takes the file, and by the Python importer alone (``engine="python"``).

Files alternate between the readers so that load on a shared machine hits all alike; the
report prints hands/s and the ratios to pokerkit (absolute times are noisy; the ratios
are what to read).

    python benchmarks/bench_phh_import.py [FOLDER] [--files N]

FOLDER holds ``.phhs`` files (a HandHQ sample, e.g. ``var/handhq``); without one the
shared Pluribus set is written as ``.phhs`` files (one per session, a ``table`` field
each) in a temporary folder and timed instead.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
import warnings
from dataclasses import dataclass
from pathlib import Path

from pokerkit import HandHistory

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from services.importers.phh import import_phh  # noqa: E402
from services.importers.phh_source import read_sources  # noqa: E402
from tests.e2e.phh_support import unpack  # noqa: E402


@dataclass
class Timings:
    files: int = 0
    hands: int = 0  # as pokerkit counts them (every hand of the files)
    imported: int = 0
    pokerkit: float = 0.0
    read: float = 0.0
    imports: float = 0.0
    imports_python: float = 0.0
    native_files: int = 0  # files the native importer took

    def rate(self, seconds: float, hands: int | None = None) -> float:
        count = self.hands if hands is None else hands
        return count / seconds if seconds else float("inf")


def pluribus_as_phhs(target: Path) -> list[Path]:
    """The shared Pluribus sessions, one ``.phhs`` file each (hand = its ``[n]``)."""
    data = unpack(target / "data")
    files = []
    for session in sorted(p for p in (data / "pluribus").iterdir() if p.is_dir()):
        parts = []
        for n, path in enumerate(sorted(session.glob("*.phh")), start=1):
            text = path.read_text("utf-8").rstrip("\n")
            parts.append(f"[{n}]\n{text}\ntable = 'pluribus-{session.name}'\n")
        out = target / f"pluribus-{session.name}.phhs"
        out.write_text("\n".join(parts), "utf-8")
        files.append(out)
    return files


def time_file(path: Path, t: Timings) -> None:
    started = time.perf_counter()
    with path.open("rb") as source, warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pokerkit warns about fields it does not know
        hands = list(HandHistory.load_all(source))
    t.pokerkit += time.perf_counter() - started
    started = time.perf_counter()
    read_sources([path])
    t.read += time.perf_counter() - started
    started = time.perf_counter()
    result = import_phh([path])
    t.imports += time.perf_counter() - started
    started = time.perf_counter()
    import_phh([path], engine="python")
    t.imports_python += time.perf_counter() - started
    t.native_files += result.engine == "native"
    t.files += 1
    t.hands += len(hands)
    t.imported += result.hands


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", type=Path, default=None,
                        help="a folder of .phhs files (default: the Pluribus set as .phhs)")
    parser.add_argument("--files", type=int, default=0, help="only the first N files")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="phhs-bench-") as tmp:
        if args.folder is not None:
            files = sorted(args.folder.rglob("*.phhs"))
            source = str(args.folder)
        else:
            files = pluribus_as_phhs(Path(tmp))
            source = "the shared Pluribus set written as .phhs"
        if args.files:
            files = files[: args.files]
        if not files:
            print(f"no .phhs files in {args.folder}", file=sys.stderr)
            return 2
        time_file(files[0], Timings())  # warm-up: imports, regular expressions
        timings = Timings()
        for path in files:
            time_file(path, timings)
    report(timings, source)
    return 0


def report(t: Timings, source: str) -> None:
    pokerkit = t.rate(t.pokerkit)
    read = t.rate(t.read)
    imports = t.rate(t.imports)
    print(f"{source}: {t.files} file(s), {t.hands} hands ({t.imported} imported)")
    print(f"pokerkit HandHistory.load_all          : {pokerkit:10.0f} hands/s")
    print(f"pitwatch read (parse + check each hand) : {read:10.0f} hands/s  "
          f"= {read / pokerkit:5.1f}x pokerkit")
    print(f"pitwatch import (read + v1 events)      : {imports:10.0f} hands/s  "
          f"= {imports / pokerkit:5.1f}x pokerkit ({t.native_files} of {t.files} file(s) "
          "by the native importer)")
    python = t.rate(t.imports_python)
    print(f"  the same, the Python importer         : {python:10.0f} hands/s  "
          f"= {python / pokerkit:5.1f}x pokerkit")


if __name__ == "__main__":
    raise SystemExit(main())
