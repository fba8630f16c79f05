"""The window's missing seqs are ranges (docs/events.md, "Duplicates, late and stale
events"): a gap is one range however long, a late arrival splits its range, forgetting
trims ranges, and past MAX_MISSING_RANGES the lowest ranges go. Before, a gap kept only
its 64 highest seqs, so a forged jump made the table forget the genuine events it skipped
(tests/unit/native/test_forged_seq_jump.py has QA's logs). Expected values by hand."""

from __future__ import annotations

import copy

import msgspec
import orjson

from services.adjudicator.embedded import EmbeddedRunner
from services.adjudicator.python_runner import ReferenceRunner
from services.adjudicator.table import TableState, decode_state, encode_state
from services.adjudicator.window import Window
from services.events.bounds import MAX_MISSING_RANGES
from tests.profiles import PROFILES
from tests.unit.core.streams import hcf_stream, lines

TOP = 2**53 - 1


def test_a_gap_is_one_range_and_a_late_arrival_splits_it() -> None:
    window = Window()
    window.skipped(14, TOP - 1, b"\x07" * 32)
    assert window.ranges == [(14, TOP - 1)]
    assert window.missing_count() == TOP - 14
    assert [window.is_missing(s) for s in (13, 14, 10**15, TOP - 1, TOP)] == [
        False, True, True, True, False]
    assert window.successor_prev_hash(TOP - 1) == "07" * 32
    window.arrived_late(20, b"\x01" * 32)
    assert window.ranges == [(14, 19), (21, TOP - 1)]
    assert window.successor_prev == {19: b"\x01" * 32, TOP - 1: b"\x07" * 32}
    window.arrived_late(14, b"\x02" * 32)  # the low end: the range shrinks
    window.arrived_late(TOP - 1, b"\x03" * 32)  # the top: its successor moves down
    assert window.ranges == [(15, 19), (21, TOP - 2)]
    assert window.successor_prev == {19: b"\x01" * 32, TOP - 2: b"\x03" * 32}
    window.arrived_late(15, b"\x04" * 32)
    window.arrived_late(16, b"\x05" * 32)
    assert window.ranges == [(17, 19), (21, TOP - 2)]


def test_forget_below_trims_a_range_and_drops_those_below() -> None:
    window = Window()
    window.skipped(3, 5, b"\x01" * 32)
    window.skipped(9, 20, b"\x02" * 32)
    window.forget_below(4)
    assert window.ranges == [(4, 5), (9, 20)]
    window.forget_below(12)
    assert window.ranges == [(12, 20)]
    assert window.successor_prev == {20: b"\x02" * 32}
    window.forget_below(21)
    assert window.ranges == [] and window.successor_prev == {}


def test_ranges_that_touch_or_overlap_merge() -> None:
    window = Window()
    window.skipped(10, 12, b"\x01" * 32)
    window.skipped(5, 9, b"\x02" * 32)  # touches 10..12 (only a carried state does this)
    window.skipped(20, 30, b"\x03" * 32)
    window.skipped(25, 40, b"\x04" * 32)
    assert window.ranges == [(5, 12), (20, 40)]
    assert set(window.successor_prev) == {9, 12, 30, 40}  # each a seq still missing


def test_the_bound_is_on_ranges_the_highest_kept() -> None:
    """70 gaps of one seq (1, 3, .., 139): the 64 highest stay, 13..139. A split past the
    bound forgets the lowest range."""
    assert MAX_MISSING_RANGES == 64
    window = Window()
    for k in range(70):
        window.skipped(2 * k + 1, 2 * k + 1, bytes([k]) * 32)
    assert len(window.ranges) == 64 and window.ranges[0] == (13, 13)
    assert len(window.successor_prev) == 64 and min(window.successor_prev) == 13
    window.skipped(200, 210, b"\x09" * 32)
    assert window.ranges[0] == (15, 15)
    window.arrived_late(205, b"\x08" * 32)
    assert len(window.ranges) == 64 and window.ranges[0] == (17, 17)
    assert window.ranges[-2:] == [(200, 204), (206, 210)]
    assert window.successor_prev[204] == b"\x08" * 32


def test_many_hostile_jumps_cost_a_bounded_window_and_the_lowest_go_stale() -> None:
    """Seq 3, then 70 events each jumping by 2 (5, 7, .., 143): 70 gaps of one seq (4, 6,
    .., 142). The 64 highest (16..142) are expected late; seq 14 is forgotten (STALE), seq
    16 is REORDERED."""
    events = hcf_stream(hands=1)
    raw = lines(events[:3])
    base = events[2]
    for k in range(70):
        raw.append(orjson.dumps({**base, "seq": 5 + 2 * k,
                                 "event_id": f"00000000-0000-4000-8000-{k:012d}"}))
    for engine in ("python", "native"):
        runner = EmbeddedRunner(PROFILES, engine)
        for line in raw:
            runner.feed(line, "x")
        if engine == "python":
            assert isinstance(runner.impl, ReferenceRunner)
            window = runner.impl.states["T1"].window
            assert window.ranges == [(s, s) for s in range(16, 143, 2)]
        late = [orjson.dumps({**base, "seq": s, "event_id": f"00000000-0000-4000-9000-{s:012d}"})
                for s in (14, 16)]
        assert [a.code for a in runner.feed(late[0], "late").alerts] == ["STALE_EVENT"]
        assert [a.code for a in runner.feed(late[1], "late").alerts] == [
            "REORDERED", "CHAIN_BROKEN"]  # its prev_hash is not seq 15's hash


def test_a_gap_up_to_2_53_minus_1_is_one_range_and_every_skipped_event_is_reordered() -> None:
    """Seq 4 (hand 1's hand_started) forged to 2**53 - 1: the gap 4..2**53 - 2 is one range
    (it was the 64 highest seqs), so the genuine seq 5..9 that follow are all REORDERED and
    applied; they split off the range's low end, leaving seq 4 and 10..2**53 - 2."""
    events = hcf_stream(hands=1)
    jump = copy.deepcopy(events[3])
    jump["seq"] = TOP
    for engine in ("python", "native"):
        runner = EmbeddedRunner(PROFILES, engine)
        for line in lines(events[:3]) + [orjson.dumps(jump)]:
            runner.feed(line, "x")
        late = [runner.feed(line, "x") for line in lines(events[4:])]
        assert [[a.code for a in step.alerts] for step in late] == [["REORDERED"]] * 5
        if engine == "python":
            assert isinstance(runner.impl, ReferenceRunner)
            window = runner.impl.states["T1"].window
            assert window.ranges == [(4, 4), (10, TOP - 1)]
            # seq 4 waits with the prev_hash seq 5 carried; TOP - 1 with the forged one's
            assert sorted(window.successor_prev) == [4, TOP - 1]


def test_a_state_written_with_single_missing_seqs_is_read_as_ranges() -> None:
    """The changelog and ``table_carries`` may hold a state from before the ranges: its
    window's ``missing`` lists single seqs (3, 4, 5, 9). It is read as ranges 3..5 and 9,
    keeping the successor hash of seq 5, and written back without ``missing``."""
    state = TableState(table_id="T1", last_seq=10)
    state.window.successor_prev = {5: b"\x04" * 32}
    tree = msgspec.msgpack.decode(encode_state(state))
    assert "ranges" not in tree["window"] and "missing" not in tree["window"]
    tree["window"]["missing"] = [3, 4, 5, 9]
    old = decode_state(msgspec.msgpack.encode(tree))
    assert old.window.ranges == [(3, 5), (9, 9)]
    assert old.window.successor_prev == {5: b"\x04" * 32}
    again = msgspec.msgpack.decode(encode_state(old))["window"]
    assert again["ranges"] == [[3, 5], [9, 9]] and "missing" not in again
    assert decode_state(encode_state(old)) == old
