"""What the tests of runs refused before writing share (``adjudicate --ledger`` in
test_refused_before_booking.py, ``surveil --db`` in test_surveil_refused.py): the engines,
a whole database to compare before and after, a run fed from a pipe, two days of a log."""

from __future__ import annotations

import gzip
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from services.ledger.db import open_ledger
from tests.unit.archive.test_carry import cut_inside_hands, simulated_clean_log
from tests.unit.cli.helpers import Ran
from tests.unit.ledger.dbread import whole_database

ENGINES = ("native", "python")
REPO = Path(__file__).resolve().parents[3]


def database(url: str) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of the database (ledger, archive, cases, kept and surveillance states)."""
    db = open_ledger(url)
    try:
        return whole_database(db)
    finally:
        db.dispose()


def piped(command: str, data: bytes, *args: str, engine: str | None = None) -> Ran:
    """``... | pitwatch COMMAND - ARGS``, as a process (``-`` is the process's own standard
    input, read once)."""
    env = {**os.environ, "COLUMNS": "1000"}
    if engine is not None:
        env["PITWATCH_ENGINE"] = engine
    ran = subprocess.run([sys.executable, "-m", "services.cli", command, "-", *args],
                         cwd=REPO, input=data, capture_output=True, check=False, env=env)
    return Ran(ran.returncode, ran.stdout.decode(), ran.stderr.decode())


def two_days(folder: Path) -> tuple[Path, Path]:
    """Two days of two HCF tables, a hand across the midnight, written gzip."""
    paths = []
    for n, day in enumerate(cut_inside_hands(simulated_clean_log(), 2), start=1):
        path = folder / f"2026-01-0{4 + n}.jsonl.gz"
        path.write_bytes(gzip.compress(day))
        paths.append(path)
    return paths[0], paths[1]
