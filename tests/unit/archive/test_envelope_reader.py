"""``verify``'s two readers of an archived line agree: where the native core's one pass
takes a line (``archived_envelopes``), it gives exactly what the Python reader
(``read_event``, orjson) gives; every other line is left to the Python reader. And a
segment decodes the same under both engines, damaged or not.

The expected values come from ``read_event`` (the readable reference, as the Python
rules are for the records), never from the core.
"""

from __future__ import annotations

import contextlib
import functools
import random
from typing import Any

import msgspec
import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from services import _native
from services.archive.segment import compress, event_lines
from services.archive.verify import decode_segment, read_event
from services.events.canonical import canonical_json
from services.simulator.run import available_faults, simulate
from tests.profiles import HOUSE
from tests.unit.archive.support import run, simulated_log
from tests.unit.native.corpus import mutate

GAMES = ("hcf", "chinese", "draw7a", "russian", "holdem")


def assert_agree(lines: list[bytes], refused: list[int]) -> int:
    """The core's envelope of each line it takes is the Python reader's; how many it took."""
    taken = 0
    for i, (line, quick) in enumerate(zip(lines, _native.archived_envelopes(lines, refused),
                                          strict=True)):
        if quick is not None:
            taken += 1
            assert tuple(quick) == tuple(read_event(line, i in refused) or ()), line
    return taken


@functools.cache
def game_events(game: str) -> list[dict[str, Any]]:
    log = simulate([game], 2, 30, 3, frozenset(available_faults(game)), 0.25, profile=HOUSE)
    return [orjson.loads(orjson.dumps(e)) for e in log.events]


@pytest.mark.parametrize("game", GAMES)
def test_the_core_reads_every_archived_event_as_python_does(game: str) -> None:
    events = game_events(game)
    canonical = [canonical_json(e) for e in events]
    refused = list(range(0, len(canonical), 7))
    assert assert_agree(canonical, refused) == len(canonical)  # an archive's lines: all
    original = [orjson.dumps(e) for e in events]
    assert assert_agree(original, []) > len(original) // 2


@pytest.mark.parametrize("game", GAMES)
def test_mutated_lines_are_read_alike_or_left_to_python(game: str) -> None:
    """Each record damaged (members deleted, replaced, perturbed, added, nested; bytes
    flipped), canonical or not: where the core takes one, its envelope is Python's."""
    rng = random.Random(f"envelopes:{game}")
    events = game_events(game)
    lines = []
    for _ in range(1500):
        line = mutate(rng.choice(events), rng)
        lines.append(line)
        with contextlib.suppress(orjson.JSONDecodeError, TypeError, ValueError):
            lines.append(canonical_json(orjson.loads(line)))  # when it is still JSON
    taken = assert_agree(lines, [])
    assert 0 < taken < len(lines)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=400), st.integers(0, 400), st.integers(0, 255))
def test_any_bytes_in_a_line_are_read_alike_or_left_to_python(noise: bytes, at: int,
                                                              byte: int) -> None:
    line = bytearray(canonical_json(game_events("hcf")[5]))
    line[at % len(line)] = byte
    assert_agree([noise, bytes(line), bytes(line) + noise], [0])


def test_a_segment_decodes_the_same_under_both_engines(monkeypatch: pytest.MonkeyPatch
                                                       ) -> None:
    """The clean day's segments and 300 with one byte of one event changed (a break to
    report): the same events and the same problems whichever engine reads them."""
    segments = run(simulated_log().lines).segments
    rng = random.Random(31)
    cases = list(segments)
    for _ in range(300):
        segment = rng.choice(segments)
        lines = event_lines(segment.codec, segment.body)
        index = rng.randrange(len(lines))
        line = bytearray(lines[index])
        line[rng.randrange(len(line))] = rng.randrange(32, 127)
        lines[index] = bytes(line)
        cases.append(msgspec.structs.replace(segment, body=compress(b"\n".join(lines))))
    for segment in cases:
        monkeypatch.setenv("PITWATCH_ENGINE", "python")
        python = decode_segment(segment)
        monkeypatch.setenv("PITWATCH_ENGINE", "native")
        native = decode_segment(segment)
        assert (native.events, native.problems) == (python.events, python.problems)


def test_an_event_of_another_table_in_a_body_is_found_under_both_engines() -> None:
    """A body the core reads whole but that holds one event of another table (put there
    by someone rewriting the archive): the core's whole-body path must not take it; both
    engines report that one event as not the table's and keep the others."""
    segments = run(simulated_log(faults=False).lines).segments
    mine = next(s for s in segments if s.table_id == "T001" and s.events > 3)
    other = next(s for s in segments if s.table_id == "T002" and s.events > 3)
    lines = event_lines(mine.codec, mine.body)
    lines[2] = event_lines(other.codec, other.body)[2]
    forged = msgspec.structs.replace(mine, body=compress(b"\n".join(lines)))
    native, python = decode_segment(forged, native=True), decode_segment(forged, native=False)
    assert (native.events, native.problems) == (python.events, python.problems)
    assert len(native.events) == len(lines) - 1
    assert [p.message for p in native.problems if p.kind == "unreadable"] == [
        f"event 3 of the segment at seq {mine.first_seq} is not an event of table T001"]
