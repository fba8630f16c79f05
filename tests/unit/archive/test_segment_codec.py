"""A segment body's compression: a standard zstd frame that the reader (cramjam) opens to
the same bytes, byte for byte the frame a one-shot call of the other library writes, and
correct when several threads compress at once (each has its own kept context). Reading:
every body read as cramjam's one-shot call reads it, the kept context's fast way or not
(several frames, no stated size, bytes after the frame, damage).

The expected values are the input bytes themselves and what cramjam does on its own;
neither comes from ``services.archive.segment``.
"""

from __future__ import annotations

import threading

import cramjam
import orjson
import pytest
import zstandard
from hypothesis import given, settings
from hypothesis import strategies as st

from services.archive.segment import LEVEL, UnreadableBody, compress, decompress, event_lines

BODIES = st.one_of(
    st.binary(max_size=4096),
    # canonical-JSON-like lines, the bodies the archive really holds (they compress)
    st.lists(st.dictionaries(st.sampled_from(["seq", "ts", "type", "data"]),
                             st.integers(0, 10**9), max_size=4),
             max_size=300).map(lambda events: b"\n".join(orjson.dumps(e) for e in events)),
)


@settings(max_examples=200, deadline=None)
@given(BODIES)
def test_a_body_round_trips_through_an_independent_zstd_reader(body: bytes) -> None:
    assert bytes(cramjam.zstd.decompress(compress(body))) == body


@settings(max_examples=200, deadline=None)
@given(BODIES)
def test_the_frame_is_the_one_a_one_shot_call_writes(body: bytes) -> None:
    """A segment compressed by a version before the kept context and the same segment
    compressed now are the same bytes (the archive then sees a plain repeat)."""
    assert compress(body) == bytes(cramjam.zstd.compress(body, level=LEVEL))


def test_threads_compressing_at_once_each_get_their_own_bodies_back() -> None:
    bodies = {n: b"\n".join(orjson.dumps({"seq": i, "thread": n}) for i in range(2000))
              for n in range(4)}
    results: dict[int, list[bytes]] = {n: [] for n in bodies}
    start = threading.Barrier(len(bodies))

    def work(n: int) -> None:
        start.wait()
        results[n] = [compress(bodies[n]) for _ in range(50)]

    threads = [threading.Thread(target=work, args=(n,)) for n in bodies]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for n, frames in results.items():
        assert len(frames) == 50
        assert {b"\n".join(event_lines("zstd", frame)) for frame in frames} == {bodies[n]}


def _one_shot(body: bytes) -> bytes | None:
    """What cramjam alone reads from a stored body (None: it cannot)."""
    try:
        return bytes(cramjam.zstd.decompress(body))
    except cramjam.DecompressionError:
        return None


def _read(body: bytes) -> bytes | None:
    try:
        return decompress("zstd", body)
    except UnreadableBody:
        return None


@settings(max_examples=200, deadline=None)
@given(BODIES, BODIES)
def test_every_body_reads_as_the_one_shot_call_reads_it(first: bytes, second: bytes) -> None:
    frame = bytes(cramjam.zstd.compress(first, level=LEVEL))
    unsized = zstandard.ZstdCompressor(level=LEVEL, write_content_size=False).compress(first)
    for body in (frame, unsized, frame + bytes(cramjam.zstd.compress(second, level=LEVEL)),
                 frame + b"\x00", frame[:-1], frame[:4] + b"\xff" + frame[5:]):
        assert _read(body) == _one_shot(body)
    assert _read(frame) == _read(unsized) == first


@settings(max_examples=300, deadline=None)
@given(BODIES, st.data())
def test_a_damaged_body_reads_as_the_one_shot_call_reads_it(body: bytes,
                                                           data: st.DataObject) -> None:
    frame = bytearray(compress(body))
    at = data.draw(st.integers(0, len(frame) - 1))
    frame[at] ^= data.draw(st.integers(1, 255))
    assert _read(bytes(frame)) == _one_shot(bytes(frame))


def test_a_body_that_is_no_frame_is_unreadable() -> None:
    with pytest.raises(UnreadableBody):
        decompress("zstd", b"not a zstd frame")
