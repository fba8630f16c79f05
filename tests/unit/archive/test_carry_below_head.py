"""A day's log whose first event of a table comes below the table's chain head
(``services.archive.carry``): a late event that opens the next day's file, and the genuine
events after a forged seq 2**53 - 1. Each day goes on from the state the day before left,
as one run of the days together does, on both engines and both databases.

QA (variant C): the state was kept under its chain head and a run took the one kept at
the highest head below the table's first seq in its log. After a forged event at seq
2**53 - 1 in day one, table T002's head stayed there, and day two's log (which goes on at
the next genuine seq) found no state below it: T002 started new, its hands were rejected
for want of their configuration (NO_CONFIGURATION) and the events of the hand open at
midnight went to the DLQ as orphans. The same for an honest log whose late event came in
the next day's file.

The oracle is one run of the days' logs joined, which reads no kept state.
"""

from __future__ import annotations

import itertools
import uuid
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import orjson
import pytest
from sqlalchemy import Engine

from services.adjudicator.carry import StateRead, TableCarry
from services.adjudicator.embedded import EmbeddedRunner
from services.archive.carry import CarryResult, KeptStates, keep_carries
from services.archive.verify import verify_archive
from services.ledger.db import open_ledger
from services.log_run import run_file
from services.recording import RunKeeper
from services.simulator.run import simulate
from tests.profiles import HOUSE, PROFILES

ENGINES = ("native", "python")
TOP = 2**53 - 1  # the highest seq the contract allows (an exact integer in JSON)
HANDS = 60  # 2 tables x 30 hands


@cache
def clean_events() -> tuple[dict[str, Any], ...]:
    """Two HCF tables (T001, T002), 30 hands each, no fault."""
    return tuple(simulate(["hcf"], 2, 30, seed=11, profile=HOUSE).events)


def lines_of(events: list[dict[str, Any]]) -> bytes:
    return b"".join(orjson.dumps(e) + b"\n" for e in events)


@dataclass
class Day:
    records: list[dict[str, Any]]
    dead_letters: int
    carried: CarryResult


def run_day(log: bytes, path: Path, db: Engine, engine: str, leave_open: bool) -> Day:
    """``pitwatch adjudicate PATH --ledger --engine ENGINE [--leave-open]`` in-process."""
    path.write_bytes(log)
    out = path.with_suffix(".out")
    keeper = RunKeeper(db, archive=True, hands=7)
    with out.open("wb") as fh, path.with_suffix(".dlq").open("wb") as dlq:
        run = run_file(path, PROFILES, fh, engine, keeper, dlq=dlq, leave_open=leave_open)
    carried = keeper.finish().carried
    assert carried is not None
    return Day([orjson.loads(line) for line in out.read_bytes().splitlines()],
               run.dead_letters.count, carried)


def run_days(days: list[bytes], folder: Path, db: Engine, engine: str) -> list[Day]:
    """Each day's log in a run of its own, all but the last with ``--leave-open``."""
    return [run_day(day, folder / f"day{n}.jsonl", db, engine, leave_open=n < len(days))
            for n, day in enumerate(days, start=1)]


def run_whole(days: list[bytes], folder: Path, engine: str) -> Day:
    """One run of the days' logs joined, in a database of its own."""
    db = open_ledger(f"sqlite:///{folder}/whole.sqlite")
    try:
        return run_day(b"".join(days), folder / "whole.jsonl", db, engine, leave_open=False)
    finally:
        db.dispose()


def codes(records: list[dict[str, Any]], table_id: str) -> list[str]:
    return [f["code"] for r in records if r["table_id"] == table_id for f in r["findings"]]


def hands_ended(log: bytes) -> int:
    return log.count(b'"type":"hand_ended"')


def max_seq(log: bytes, table_id: str) -> int:
    return max(int(e["seq"]) for e in map(orjson.loads, log.splitlines())
               if e["table_id"] == table_id)


def late_split() -> tuple[list[bytes], dict[str, Any], int]:
    """Two days cut eight lines into a hand of T002, one of that hand's events in day one
    (its second, not the last of T002 that day) moved to the start of day two: day two's
    first event of T002 is late, below T002's head. The days, the late event and T002's
    head at the end of day one."""
    events = list(clean_events())
    starts = [n for n, e in enumerate(events)
              if e["table_id"] == "T002" and e["type"] == "hand_started"]
    start = starts[len(starts) // 2]
    cut = start + 8
    hand = [n for n in range(start, cut) if events[n]["table_id"] == "T002"]
    assert len(hand) >= 3, hand  # the hand started, the late one, one after it
    late = events.pop(hand[1])
    cut -= 1
    head = max(e["seq"] for e in events[:cut] if e["table_id"] == "T002")
    assert late["seq"] < head
    return [lines_of(events[:cut]), lines_of([late, *events[cut:]])], late, head


@pytest.mark.parametrize("engine_name", ENGINES)
def test_a_late_event_opening_the_next_days_file_goes_on_from_the_kept_state(
        engine: Engine, tmp_path: Path, engine_name: str) -> None:
    """Day one ends with T002's seq ``late`` missing and its head above it; day two's file
    starts with ``late``. Day two goes on from day one's state of T002 (kept after its
    head), ``late`` is REORDERED into its gap (a finding of its hand, open at midnight),
    and the two days write the whole run's 60 records (28 and 32), byte for byte: no hand rejected for want of a configuration, nothing in the
    DLQ. Before, T002 started new on day two: 31 records where 32 hands end, 14 of them
    NO_CONFIGURATION, 76 records in the DLQ (on both engines)."""
    days, late, head = late_split()
    written = run_days(days, tmp_path, engine, engine_name)
    whole = run_whole(days, tmp_path, engine_name)
    assert [len(d.records) for d in written] == [hands_ended(d) for d in days] == [28, 32]
    assert len(whole.records) == HANDS
    assert [r for d in written for r in d.records] == whole.records
    assert [d.dead_letters for d in written] == [0, 0] and whole.dead_letters == 0
    assert sorted(written[1].carried.continued) == sorted(
        [("T002", head), ("T001", max_seq(days[0], "T001"))])
    assert written[1].carried.refused == [] and written[1].carried.unlinked == []
    day_two = written[1].records
    assert "NO_CONFIGURATION" not in codes(day_two, "T002")
    reordered = [(r["hand_id"], f["message"]) for r in day_two for f in r["findings"]
                 if f["code"] == "REORDERED"]  # on the hand open at midnight, its own
    assert reordered == [(late["hand_id"], f"seq {late['seq']} arrived after seq {head}: "
                          "events were re-ordered")]
    verified = verify_archive(engine, profiles=PROFILES)  # day one's states, derived again
    assert [b for b in verified.breaks if b.kind == "carry"] == []
    assert verified.kept_states == 2


def forged_split() -> list[bytes]:
    """Three days of the clean log, each cut inside a hand; in day one a forged copy of a
    T002 wager at seq 2**53 - 1 (a new event id) right after it. T002's head stays at
    2**53 - 1 from there on: each day's genuine events of T002 come below it, filling the
    gap the forgery opened."""
    events = list(clean_events())
    starts = [n for n, e in enumerate(events) if e["type"] == "hand_started"]
    cuts = [starts[len(starts) * k // 3] + 3 for k in (1, 2)]
    wager = next(n for n, e in enumerate(events[:cuts[0]])
                 if e["table_id"] == "T002" and e["type"] == "wager" and n > cuts[0] // 2)
    forged = dict(events[wager], seq=TOP, event_id=str(uuid.UUID(int=7, version=4)))
    events.insert(wager + 1, forged)
    bounds = [0, cuts[0] + 1, cuts[1] + 1, len(events)]
    return [lines_of(events[a:b]) for a, b in itertools.pairwise(bounds)]


@pytest.mark.parametrize("engine_name", ENGINES)
def test_a_forged_head_at_2_53_does_not_cut_the_table_from_its_kept_state(
        engine: Engine, tmp_path: Path, engine_name: str) -> None:
    """Days two and three go on from the state of T002 the day before left, its head
    still 2**53 - 1 (day two's state is kept anew: keyed by the head, it would be "kept
    already" as day one's, and day three would go on from day one's); the three days
    write the whole run's 60 records (19, 20 and 21), nothing in the DLQ, and no NO_CONFIGURATION. Run
    again after day three, day two goes on from day one's state again (day two's has
    taken its first event): the same records, its end states kept already. Before, T002
    started new on day two (10 hands NO_CONFIGURATION, 37 records in the DLQ) and day
    three went on from that (9 more NO_CONFIGURATION), on both engines."""
    days = forged_split()
    written = run_days(days, tmp_path, engine, engine_name)
    whole = run_whole(days, tmp_path, engine_name)
    assert len(whole.records) == HANDS and whole.dead_letters == 0
    assert [len(d.records) for d in written] == [hands_ended(d) for d in days] == [19, 20, 21]
    assert [r for d in written for r in d.records] == whole.records
    assert [d.dead_letters for d in written] == [0, 0, 0]
    for day in written[1:]:
        assert ("T002", TOP) in day.carried.continued and day.carried.refused == []
        assert "NO_CONFIGURATION" not in codes(day.records, "T002")
    assert [(d.carried.kept, d.carried.already) for d in written] == [(2, 0), (2, 0), (0, 0)]
    assert "SEQ_GAP" in codes(written[0].records, "T002")
    verified = verify_archive(engine, profiles=PROFILES)  # T002's two at one head too
    assert [b for b in verified.breaks if b.kind == "carry"] == []
    assert verified.kept_states == 4
    again = run_day(days[1], tmp_path / "again.jsonl", engine, engine_name, leave_open=True)
    assert again.records == written[1].records
    assert (again.carried.kept, again.carried.already) == (0, 2)


def test_the_engines_agree_when_a_day_starts_below_the_head(tmp_path: Path) -> None:
    """The native core's records of the days one by one are the reference's, for both
    splits."""
    for name, days in (("late", late_split()[0]), ("forged", forged_split())):
        written = {}
        for engine_name in ENGINES:
            folder = tmp_path / name / engine_name
            folder.mkdir(parents=True)
            db = open_ledger(f"sqlite:///{folder}/ledger.sqlite")
            written[engine_name] = [d.records for d in run_days(days, folder, db, engine_name)]
            db.dispose()
        assert written["native"] == written["python"], name


def test_the_latest_state_the_first_seq_goes_on_from_is_taken(engine: Engine) -> None:
    """The lookup on its own, on both databases: T1's states after 40, 80 and 120 events,
    heads 100, 2**53 - 1 and 2**53 - 1, the later two missing 101.. and 150.. below that
    head. A log starting at 150 or above goes on from the latest (above its head, or
    missing there); at 101..149 from the one after 80 events (the latest has taken those
    seqs: a day run again); above 100 of course not from the first, which is older; at
    100 or below from none (each has taken it). Only the states that need it are read."""
    states = {b"s40": StateRead("T1", 100, ()),
              b"s80": StateRead("T1", TOP, ((101, TOP - 1),)),
              b"s120": StateRead("T1", TOP, ((150, TOP - 1),))}
    keep_carries(engine, "python", [
        TableCarry("T1", state.last_seq, "a" * 64, int(raw[1:]), True, raw)
        for raw, state in states.items()], "2026-12-07T00:00:00+00:00")
    read: list[bytes] = []

    def reader(raw: bytes) -> StateRead:
        read.append(raw)
        return states[raw]

    result = CarryResult()
    source = KeptStates(engine, "python", reader, result)
    assert [source("T1", seq) for seq in (150, 5_000, 101, 149, 100, 1)] == [
        b"s120", b"s120", b"s80", b"s80", None, None]
    assert result.refused == [] and result.continued == [("T1", TOP)] * 4
    assert read == [b"s120", b"s120", b"s120", b"s80", b"s120", b"s80",
                    b"s120", b"s80", b"s40", b"s120", b"s80", b"s40"]


def test_both_engines_read_a_kept_state_alike() -> None:
    """What the lookup reads of a state (``EmbeddedRunner.read_state``), on each engine,
    after day one of the forged split: T002's head at 2**53 - 1 and one range missing,
    from the seq after its last genuine event of the day to 2**53 - 2; T001's head its
    last seq, nothing missing. A state that is not one is a ValueError on both."""
    day_one = forged_split()[0]
    genuine = max(e["seq"] for e in map(orjson.loads, day_one.splitlines())
                  if e["table_id"] == "T002" and e["seq"] != TOP)
    for engine_name in ENGINES:
        runner = EmbeddedRunner(PROFILES, engine_name)
        for _ in runner.feed_lines(day_one.splitlines()):
            pass
        reads = [runner.read_state(state) for state in
                 (runner.impl.export_table(t) for t in ("T001", "T002")) if state]
        assert reads == [StateRead("T001", max_seq(day_one, "T001"), ()),
                         StateRead("T002", TOP, ((genuine + 1, TOP - 1),))], engine_name
        assert runner.impl.table_ids() == ["T001", "T002"]  # read on a runner of its own
        with pytest.raises(ValueError):
            runner.read_state(b"\x02not a state")
