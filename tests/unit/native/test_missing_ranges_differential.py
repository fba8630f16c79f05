"""Native and reference windows agree on random arrival orders with seq jumps.

The missing seqs are ranges in both engines (``Window`` in Python, ``TableState.missing``
in the core). Whether a late event is REORDERED (its seq still missing), STALE_EVENT
(forgotten), a SEQ_CONFLICT or a DUPLICATE_EVENT, and whether it fits its neighbours
(CHAIN_BROKEN), depends on the ranges and the successor hashes: so the same alerts and
records from both engines, with every original line sent again at the end as a probe of
what each window still holds, say the two windows agree. Jumps go to nearby seqs, far
ones and 2**53 - 1; the events of a jump are re-ordered, dropped and sent twice.
"""

from __future__ import annotations

import random
from typing import Any

import orjson
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from services.events.stream import TableStream
from services.simulator.handbuilder import table_config
from tests.unit.core.streams import hcf_stream
from tests.unit.native.test_runs_differential import assert_same

TOP = 2**53 - 1

operation = st.tuples(
    st.sampled_from(["jump", "move", "drop", "again"]),
    st.integers(0, 10**6),  # which line
    st.sampled_from([1, 2, 3, 7, 40, 63, 64, 65, 200, 10**6, TOP]),  # how far
)


def arrived(events: list[dict[str, Any]], ops: list[tuple[str, int, int]]) -> list[bytes]:
    out = [orjson.dumps(e) for e in events]
    for kind, where, far in ops:
        i = where % len(out)
        if kind == "jump":
            event = orjson.loads(out[i])
            event["seq"] = min(TOP, event["seq"] + far) if far != TOP else TOP
            out[i] = orjson.dumps(event)
        elif kind == "move":
            line = out.pop(i)
            out.insert(min(len(out), i + far), line)
        elif kind == "drop":
            del out[i]
        else:
            out.insert(min(len(out), i + far), out[i])
    return out


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(operation, min_size=1, max_size=12), st.integers(2, 6))
def test_native_and_reference_windows_agree_on_jumps_and_late_arrivals(
        ops: list[tuple[str, int, int]], hands: int) -> None:
    events = hcf_stream(hands=hands) + hcf_stream("T2", hands=2)
    events.sort(key=lambda e: (e["seq"], e["table_id"]))  # two tables interleaved
    lines = arrived(events, ops)
    assert_same(lines + [orjson.dumps(e) for e in events])


def test_many_gaps_then_every_skipped_seq_late_in_reverse() -> None:
    """A table with no hand (nothing forgotten at a hand's start): seq 1..141, the even
    seqs held back (70 gaps of one seq), then sent from the highest down. The 64 highest
    ranges (seq 14..140) are REORDERED; seq 2..12 (6 ranges) were forgotten: STALE_EVENT."""
    s = TableStream("T1", random.Random(8))
    s.emit("table_configured", table_config("hcf"))
    for i in range(140):
        s.emit("dealer_changed", {"dealer_id": f"D{i}"})
    odd = [e for e in s.events if e["seq"] % 2]
    even = [e for e in s.events if not e["seq"] % 2]
    assert len(even) == 70
    result = assert_same([orjson.dumps(e) for e in odd + even[::-1]])
    late = [(a["code"], a["seq"]) for a in map(orjson.loads, result["alerts"])
            if a["code"] != "SEQ_GAP"]
    assert late == ([("REORDERED", q) for q in range(140, 13, -2)]
                    + [("STALE_EVENT", q) for q in range(12, 1, -2)])
