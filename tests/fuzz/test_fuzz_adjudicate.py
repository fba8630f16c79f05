"""The seeded hostile corpus through the embedded runner and ``pitwatch adjudicate``.

Issue #19: over at least 100,000 records per run, of every game and every kind of damage
(``tests/fuzz/corpus.py``): no exception and no traceback, the command exits 0 or 1, no
record stalls the run, every table the damage did not touch comes out byte-identical to
the clean run (records and alerts), every refusal has a reason with one of the contract's
codes (docs/events.md), and the ledger books what came out balanced.
"""

from __future__ import annotations

import functools
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

import msgspec
import orjson
import pytest
from sqlalchemy import text
from typer.testing import CliRunner

from services.adjudicator.embedded import DeadLetter, EmbeddedRunner, StepResult
from services.cli import app
from services.events.contract import decode_record, encode_record
from services.events.wire import record_of_line
from services.ledger.db import open_ledger
from services.ledger.entries import build_entry
from tests.fuzz.corpus import Corpus, build_corpus
from tests.profiles import PROFILES

SEEDS = range(1, 6)  # 5 corpora of ~22,450 records: 112,000 records a run
MIN_RECORDS = 100_000
# A liveness bound, not a performance check: a record takes tens of microseconds, the
# worst hostile one (1 MB of escapes) a fraction of a second; a stall (a list of 9e15
# numbers, a quadratic regex) takes minutes. pytest-timeout ends a true hang.
STALL_SECONDS = 10.0

# docs/events.md, "Why a record is refused", and hand assembly's orphan reason.
REASON_CODES = ("record of ", "nesting: ", "malformed JSON: ",
                "schema: ", "repeated key: ", "control character: ",
                "cannot canonicalise record: ", "event seq ")

PerTable = dict[str, list[bytes]]


@functools.cache
def corpus(seed: int) -> Corpus:
    return build_corpus(seed)


@functools.cache
def clean_run(seed: int) -> tuple[PerTable, PerTable]:
    """Records and alerts of the clean stream, by table."""
    records, alerts, _ = _drive(corpus(seed).clean)
    return records, alerts


def _drive(lines: list[bytes]) -> tuple[PerTable, PerTable, list[DeadLetter]]:
    """Feed every line as ``pitwatch adjudicate`` does; fail on a stalled record."""
    runner = EmbeddedRunner(PROFILES)
    records: PerTable = defaultdict(list)
    alerts: PerTable = defaultdict(list)
    dead: list[DeadLetter] = []
    steps: list[StepResult | None] = []
    for number, line in enumerate(lines, start=1):
        started = time.perf_counter()
        taken = record_of_line(line)
        steps.append(runner.feed(taken, f"line {number}") if taken else None)
        took = time.perf_counter() - started
        assert took < STALL_SECONDS, f"line {number} stalled the run ({took:.1f} s): {line[:200]!r}"
    steps.append(runner.finish())
    for step in steps:
        if step is None:
            continue
        for record in step.records:
            records[record.table_id].append(encode_record(record))
        for alert in step.alerts:
            alerts[alert.table_id].append(msgspec.json.encode(alert))
        dead += step.dead_letters
    return records, alerts, dead


def test_a_run_holds_at_least_100000_records() -> None:
    assert sum(len(corpus(seed).mutated) for seed in SEEDS) >= MIN_RECORDS


@pytest.mark.parametrize("seed", SEEDS)
def test_untouched_tables_are_byte_identical_and_refusals_have_codes(seed: int) -> None:
    c = corpus(seed)
    assert len(c.untouched) >= 4, "the corpus must leave tables untouched to compare"
    clean_records, clean_alerts = clean_run(seed)
    records, alerts, dead = _drive(c.mutated)
    for table in sorted(c.untouched):
        assert records[table] == clean_records[table], f"seed {seed}: table {table} records"
        assert alerts[table] == clean_alerts[table], f"seed {seed}: table {table} alerts"
    assert dead, "the corpus must be refused somewhere"
    for d in dead:
        assert d.reason.startswith(REASON_CODES), d.reason
    for table_records in records.values():
        for raw in table_records:  # the ledger's own arithmetic: booked or refused, never off
            entry = build_entry(decode_record(raw))
            assert entry.refusal is not None or sum(p.amount for p in entry.postings) == 0


@pytest.mark.parametrize("seed", SEEDS)
def test_the_command_finishes_exits_0_or_1_and_books_a_balanced_ledger(
        seed: int, tmp_path: Path) -> None:
    c = corpus(seed)
    log, dlq, alerts = tmp_path / "log.jsonl", tmp_path / "dlq.jsonl", tmp_path / "a.jsonl"
    log.write_bytes(b"\n".join(c.mutated) + b"\n")
    db = tmp_path / "ledger.sqlite"
    result = CliRunner().invoke(app, ["adjudicate", str(log), "--dlq", str(dlq), "--alerts",
                                      str(alerts), "--ledger", f"sqlite:///{db}"])
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"seed {seed}: {result.exception!r}")
    assert result.exit_code in (0, 1)
    assert result.exit_code == 1  # the corpus always holds refused records
    for line in dlq.read_bytes().splitlines():
        assert orjson.loads(line)["reason"].startswith(REASON_CODES)
    clean_records, _ = clean_run(seed)
    out: PerTable = defaultdict(list)
    for line in result.stdout_bytes.splitlines():
        if line.startswith(b'{"v":1,"table_id"'):  # a record (stderr holds the summary)
            out[orjson.loads(line)["table_id"]].append(line)
    for table in sorted(c.untouched):
        assert out[table] == clean_records[table], f"seed {seed}: table {table}"
    engine = open_ledger(f"sqlite:///{db}")
    with engine.connect() as conn:
        total = conn.execute(text("SELECT COALESCE(SUM(amount), 0) FROM postings")).scalar()
        unbalanced = conn.execute(text(
            "SELECT hand_id FROM postings GROUP BY hand_id HAVING SUM(amount) != 0")).all()
        hands = conn.execute(text("SELECT COUNT(*) FROM hands")).scalar()
    engine.dispose()
    assert total == 0 and unbalanced == []
    # every hand adjudicated is stored once (posted, refused or rejected; a second record
    # of a hand id with other content is a conflict, not a second row)
    assert hands == len({orjson.loads(r)["hand_id"] for v in out.values() for r in v})


def test_the_real_process_prints_no_traceback(tmp_path: Path) -> None:
    """One corpus through ``python -m services.cli adjudicate`` in its own process."""
    c = corpus(SEEDS[0])
    log = tmp_path / "log.jsonl"
    log.write_bytes(b"\n".join(c.mutated) + b"\n")
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-m", "services.cli", "adjudicate", str(log)],
                          cwd=root, capture_output=True, timeout=600, check=False)
    assert done.returncode in (0, 1)
    assert b"Traceback" not in done.stderr, done.stderr[-2000:]
    assert b"adjudication summary" in done.stderr
