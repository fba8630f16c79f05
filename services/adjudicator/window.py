"""The duplicate window: what a table remembers of its recent events, compactly.

Why it exists: delivery is at-least-once, so an event may arrive again at any time, and a
late copy must be told from a forgery without re-reading the log. The chain check
(``services.adjudicator.table``) asks this window three questions: have I seen this
event id; what came at this seq; is this seq one a gap skipped. The rules that answer them
are in docs/events.md ("Duplicates, late and stale events"); this module only stores.

What is kept (bounds in ``services.events.bounds``):

- every event applied since the start of the table's previous hand, as (seq, event id,
  SHA-256 of its canonical JSON), at most MAX_REMEMBERED_EVENTS, in ascending seq. The
  table forgets below the previous hand's start when a new hand starts
  (``forget_below``), and the lowest seqs first when the bound is reached;
- the seqs a gap skipped that have not arrived yet, as ranges ``(first, last)``: a gap is
  one range whatever its length, so a forged jump to seq 2**53 - 1 cannot make the table
  forget the genuine seqs it skipped (they arrive REORDERED, not STALE). At most
  MAX_MISSING_RANGES ranges are kept (the highest): a log of many jumps costs bounded
  memory. Each missing seq whose successor has arrived (the top of its range) keeps the
  ``prev_hash`` that successor carried, so that a late arrival can be checked against both
  neighbours.

Why packed bytes and not objects: this is per-table memory (architecture.md: 10,000 open
tables). Per entry ``ids`` holds the event id's 36 ASCII bytes, ``fps`` its CRC-32 (a
4-byte prefilter: searching 4 bytes in a few hundred is ~10x faster than 36 hex characters
in a few thousand, and the usual event is new), ``chain`` the seq (8 bytes big-endian)
and the binary hash (32): 80 bytes an event, entry k at k * width in each buffer.
"""

from __future__ import annotations

import bisect
import zlib

import msgspec

from services.events.bounds import MAX_MISSING_RANGES, MAX_REMEMBERED_EVENTS

ID_WIDTH = 36  # a v1 event_id is a UUID in its 36-character text form (the contract)
FP_WIDTH = 4
SEQ_WIDTH = 8
HASH_WIDTH = 32
CHAIN_WIDTH = SEQ_WIDTH + HASH_WIDTH


def fingerprint(event_id: bytes) -> bytes:
    """The CRC-32 of an event id's bytes: a prefilter for the "new id?" test."""
    return zlib.crc32(event_id).to_bytes(FP_WIDTH, "big")


class Remembered(msgspec.Struct, array_like=True, gc=False):
    """One remembered event, unpacked."""

    seq: int
    event_id: str
    hash: str  # hex, as ``ParsedEvent.hash``


class Window(msgspec.Struct, omit_defaults=True):
    """A table's remembered events and missing seqs (serialised with the table state)."""

    ids: bytearray = msgspec.field(default_factory=bytearray)
    fps: bytearray = msgspec.field(default_factory=bytearray)
    chain: bytearray = msgspec.field(default_factory=bytearray)
    # The missing seqs as (first, last) ranges: ascending, disjoint and never adjacent.
    ranges: list[tuple[int, int]] = msgspec.field(default_factory=list)
    # missing seq -> the prev_hash (binary) of the event at seq + 1, once that arrived
    successor_prev: dict[int, bytes] = msgspec.field(default_factory=dict)
    # A state written before the ranges kept single missing seqs here (ascending): it is
    # read into ``ranges`` on decoding and never written again (empty: omitted).
    missing: list[int] = msgspec.field(default_factory=list)

    def __post_init__(self) -> None:
        if self.missing:
            self._add_ranges([(s, s) for s in self.missing])
            self.missing = []

    def __len__(self) -> int:
        return len(self.fps) // FP_WIDTH

    # ------------------------------------------------------------ questions

    def may_know(self, fp: bytes) -> bool:
        """False when the id is certainly new (the fast path); True: ask ``find_id``."""
        return fp in self.fps

    def find_id(self, event_id: str) -> Remembered | None:
        index = _aligned_find(self.ids, event_id.encode(), ID_WIDTH)
        return None if index < 0 else self._entry(index)

    def find_seq(self, seq: int) -> Remembered | None:
        if seq < 1:
            return None
        index = _aligned_find(self.chain, seq.to_bytes(SEQ_WIDTH, "big"), CHAIN_WIDTH)
        return None if index < 0 else self._entry(index)

    def is_missing(self, seq: int) -> bool:
        """Whether a gap skipped ``seq`` and it has not arrived (a binary search)."""
        return self._range_at(seq) >= 0

    def lowest_seq(self) -> int | None:
        return int.from_bytes(self.chain[:SEQ_WIDTH], "big") if self.chain else None

    # ------------------------------------------------------------ changes

    def remember(self, seq: int, event_id: bytes, fp: bytes, digest: bytes) -> None:
        """Enter an applied event. The usual one is above every remembered seq and is
        appended; a late arrival (a seq a gap skipped) goes to its place in seq order."""
        entry = seq.to_bytes(SEQ_WIDTH, "big") + digest
        count = len(self)
        at = count if not count or self._seq_at(count - 1) < seq else self._position(seq)
        self.ids[at * ID_WIDTH:at * ID_WIDTH] = event_id
        self.fps[at * FP_WIDTH:at * FP_WIDTH] = fp
        self.chain[at * CHAIN_WIDTH:at * CHAIN_WIDTH] = entry
        if count + 1 > MAX_REMEMBERED_EVENTS:
            self.forget_below(self._seq_at(1))

    def skipped(self, first: int, last: int, successor_prev: bytes) -> None:
        """A gap: seqs ``first``..``last`` did not arrive; the event after ``last`` carried
        ``successor_prev``. The gap is one range whatever its length; only the highest
        MAX_MISSING_RANGES ranges are kept."""
        self.successor_prev[last] = successor_prev
        self._add_ranges([(first, last)])

    def arrived_late(self, seq: int, prev_hash: bytes) -> None:
        """A missing seq arrived (it is remembered by the caller): it is no longer
        missing (its range is split around it), and if its predecessor still is, this
        event's ``prev_hash`` is what that predecessor must hash to."""
        at = self._range_at(seq)
        if at >= 0:
            first, last = self.ranges[at]
            self.ranges[at:at + 1] = [r for r in ((first, seq - 1), (seq + 1, last))
                                      if r[0] <= r[1]]
        self.successor_prev.pop(seq, None)
        if self.is_missing(seq - 1):
            self.successor_prev[seq - 1] = prev_hash
        self._bound_ranges()

    def missing_count(self) -> int:
        """How many seqs are missing (the ranges' lengths summed)."""
        return sum(last - first + 1 for first, last in self.ranges)

    def successor_prev_hash(self, seq: int) -> str | None:
        """The prev_hash (hex) the event after missing ``seq`` carried, if it arrived."""
        value = self.successor_prev.get(seq)
        return None if value is None else value.hex()

    def forget_below(self, seq: int) -> None:
        """Forget every remembered event and missing seq below ``seq``."""
        keep = self._position(seq)
        if keep:
            del self.ids[:keep * ID_WIDTH]
            del self.fps[:keep * FP_WIDTH]
            del self.chain[:keep * CHAIN_WIDTH]
        if self.ranges and self.ranges[0][0] < seq:
            kept = [(max(first, seq), last) for first, last in self.ranges if last >= seq]
            self.ranges = kept
            self._trim_successors()

    # ------------------------------------------------------------ internals

    def _range_at(self, seq: int) -> int:
        """Index of the range holding ``seq``, or -1 (ranges ascend: a binary search)."""
        at = bisect.bisect_right(self.ranges, seq, key=_first) - 1
        return at if at >= 0 and self.ranges[at][1] >= seq else -1

    def _add_ranges(self, added: list[tuple[int, int]]) -> None:
        """Enter ranges, merging any that overlap or touch, then keep the bound."""
        merged: list[tuple[int, int]] = []
        for first, last in sorted(self.ranges + added):
            if merged and first <= merged[-1][1] + 1:
                merged[-1] = (merged[-1][0], max(merged[-1][1], last))
            else:
                merged.append((first, last))
        self.ranges = merged
        self._bound_ranges()
        self._trim_successors()

    def _bound_ranges(self) -> None:
        if len(self.ranges) > MAX_MISSING_RANGES:
            del self.ranges[:len(self.ranges) - MAX_MISSING_RANGES]
            self._trim_successors()

    def _trim_successors(self) -> None:
        if any(not self.is_missing(s) for s in self.successor_prev):
            self.successor_prev = {s: h for s, h in self.successor_prev.items()
                                   if self.is_missing(s)}

    def _seq_at(self, index: int) -> int:
        at = index * CHAIN_WIDTH
        return int.from_bytes(self.chain[at:at + SEQ_WIDTH], "big")

    def _position(self, seq: int) -> int:
        """How many remembered entries have a seq below ``seq`` (entries ascend)."""
        low, high = 0, len(self)
        while low < high:
            middle = (low + high) // 2
            if self._seq_at(middle) < seq:
                low = middle + 1
            else:
                high = middle
        return low

    def _entry(self, index: int) -> Remembered:
        at = index * CHAIN_WIDTH
        return Remembered(
            int.from_bytes(self.chain[at:at + SEQ_WIDTH], "big"),
            self.ids[index * ID_WIDTH:(index + 1) * ID_WIDTH].decode(),
            self.chain[at + SEQ_WIDTH:at + CHAIN_WIDTH].hex())


def _first(r: tuple[int, int]) -> int:
    return r[0]


def _aligned_find(buffer: bytearray, needle: bytes, width: int) -> int:
    """Index of the entry of ``width`` bytes that starts with ``needle``, or -1."""
    start = buffer.find(needle)
    while start >= 0 and start % width:
        start = buffer.find(needle, start + 1)
    return -1 if start < 0 else start // width
