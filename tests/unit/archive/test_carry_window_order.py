"""A kept state whose duplicate window is out of seq order is refused, alike by both
engines, and the run says so in one line with what to do.

Why it matters: the window's lookups binary-search it by seq, so a state read back out of
order (hand-edited, or damaged with a hash to match) would let a repeated or conflicting
event pass unseen. ``services.adjudicator.state_check`` and ``native/src/state_check.rs``
refuse it on import; ``services.archive.carry`` turns the refusal into the run's line.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import msgspec
import orjson
import pytest
from sqlalchemy import text

from services.adjudicator.native_runner import NativeRunner
from services.adjudicator.python_runner import ReferenceRunner
from services.adjudicator.table import TableState, encode_state
from services.adjudicator.window import CHAIN_WIDTH, FP_WIDTH, ID_WIDTH
from services.ledger.db import open_ledger, write_transaction
from services.simulator.run import simulate
from tests.profiles import HOUSE, PROFILES
from tests.unit.cli.helpers import pitwatch

ENGINES = ("native", "python")
CUT = 40  # the first day's events: some hands closed, one open
REFUSAL = "table state's duplicate window is out of seq order (seq {low} after seq {high})"


def clean_lines() -> list[bytes]:
    log = simulate(["hcf"], 1, 10, seed=5, profile=HOUSE)
    return [orjson.dumps(event) for event in log.events]


def _varint(raw: bytes, at: int) -> tuple[int, int]:
    n, shift = 0, 0
    while True:
        b = raw[at]
        at += 1
        n |= (b & 0x7F) << shift
        if b < 0x80:
            return n, at
        shift += 7


def native_window_swapped(raw: bytes) -> tuple[bytes, int, int]:
    """A native state (format 3) with its first two remembered events swapped, and their
    seqs (the lower first). The layout: format byte, table id, head seq, head hash, then
    the remembered events (seq, event id, hash) — ``native/src/state.rs``, ``export``."""
    length, at = _varint(raw, 1)
    _, at = _varint(raw, at + length)  # the head seq
    count, at = _varint(raw, at + 32)
    assert count >= 2
    spans, seqs = [], []
    for _ in range(2):
        start = at
        zigzag, at = _varint(raw, at)
        seqs.append(zigzag >> 1)
        tag = raw[at]
        assert tag in (0, 1)  # a UUID's bytes (1: with its upper-case digits' mask)
        at += 1 + 16 + (5 if tag == 1 else 0) + 32
        spans.append((start, at))
    (a0, a1), (b0, b1) = spans
    return raw[:a0] + raw[b0:b1] + raw[a0:a1] + raw[b1:], seqs[0], seqs[1]


def python_window_swapped(raw: bytes) -> tuple[bytes, int, int]:
    """A reference state with its first two remembered events swapped, and their seqs."""
    state = msgspec.msgpack.decode(raw, type=TableState)  # unchecked, as written
    window = state.window
    for buffer, width in ((window.ids, ID_WIDTH), (window.fps, FP_WIDTH),
                          (window.chain, CHAIN_WIDTH)):
        buffer[:2 * width] = buffer[width:2 * width] + buffer[:width]
    seqs = [int.from_bytes(window.chain[k * CHAIN_WIDTH:k * CHAIN_WIDTH + 8], "big")
            for k in (1, 0)]
    return encode_state(state), seqs[0], seqs[1]


SWAP = {"native": native_window_swapped, "python": python_window_swapped}


def exported(engine: str) -> tuple[str, bytes]:
    runner = (NativeRunner(PROFILES, archive=True) if engine == "native"
              else ReferenceRunner(PROFILES))
    lines = clean_lines()[:CUT]
    if isinstance(runner, NativeRunner):
        list(runner.feed_lines(lines))
    else:
        for n, line in enumerate(lines, start=1):
            runner.feed(line, f"line {n}")
    (table_id,) = runner.table_ids()
    state = runner.export_table(table_id)
    assert state is not None
    return table_id, state


def test_both_engines_refuse_the_same_window_out_of_order_with_the_same_words() -> None:
    said = {}
    for engine in ENGINES:
        table_id, state = exported(engine)
        fresh = (NativeRunner(PROFILES) if engine == "native" else ReferenceRunner(PROFILES))
        assert fresh.import_table(state) == table_id  # the state as written is taken
        swapped, low, high = SWAP[engine](state)
        assert low < high
        with pytest.raises(ValueError) as refused:
            fresh.import_table(swapped)
        said[engine] = str(refused.value)
        assert said[engine] == REFUSAL.format(low=low, high=high)
    assert said["native"] == said["python"]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_kept_state_out_of_order_is_said_in_one_line_and_the_table_starts_new(
        tmp_path: Path, engine: str) -> None:
    """Day one kept with --leave-open; its state then rewritten out of order with a
    SHA-256 to match (the append-only trigger dropped): day two's run refuses it, says so
    in one line with what to do, and judges the table as new."""
    lines = clean_lines()
    (tmp_path / "d1.jsonl").write_bytes(b"\n".join(lines[:CUT]) + b"\n")
    (tmp_path / "d2.jsonl").write_bytes(b"\n".join(lines[CUT:]) + b"\n")
    url = f"sqlite:///{tmp_path}/ledger.sqlite"
    first = pitwatch("adjudicate", str(tmp_path / "d1.jsonl"), "--leave-open", "--ledger",
                     url, "--engine", engine, columns=400)
    assert first.code == 0, first.stderr
    db = open_ledger(url)
    with db.connect() as conn:
        table_id, last_seq, state = conn.execute(
            text("SELECT table_id, last_seq, state FROM table_carries")).one()
    swapped, low, high = SWAP[engine](bytes(state))
    with write_transaction(db) as conn:
        conn.execute(text("DROP TRIGGER table_carries_no_update"))
        conn.execute(text("UPDATE table_carries SET state = :s, state_sha256 = :h"),
                     {"s": swapped, "h": hashlib.sha256(swapped).hexdigest()})
    db.dispose()
    second = pitwatch("adjudicate", str(tmp_path / "d2.jsonl"), "--ledger", url,
                      "--engine", engine, columns=400)
    said = [line for line in second.stderr.splitlines() if f"table {table_id}:" in line]
    assert said == [
        f"table {table_id}: the state kept after its seq {last_seq:,} is not a state this "
        f"pitwatch reads ({REFUSAL.format(low=low, high=high)}); the table starts new here, "
        "as if this log were its first (to judge it as part of its chain, give this log "
        "together with the ones before it, from the table's first, in one run)"]
    assert "Traceback" not in second.stderr
