"""A segment of a table's events as the archive stores it: the events' canonical JSON,
one per line, compressed, and the columns that index it.

Why zstd (RFC 8878; written and read through python-zstandard's kept contexts, with
cramjam, the codec library aiokafka already uses, for any body those do not take): measured on
simulated HCF hands (72 events, 22.9 kB of canonical JSON a hand), zstd level 1 takes
about 110 µs a hand and shrinks it 4.3x; zlib level 1 takes 250 µs for 3.4x, level 6
480 µs for 3.8x; lz4 47 µs for 2.3x. The floor is the events' ids and hashes (about 100
hex characters an event that no codec can shrink much), so higher levels buy little. The
format is a published standard: a segment can be read without pitwatch (``zstd -d``,
then one canonical JSON event per line).

The columns are derived from the events when the segment is packed, and ``verify``
derives them again from the body and compares: a changed column is found like a changed
event. The same ``PackedSegment`` travels on the ``archive`` topic (msgpack) from the
adjudicator to the archive service (a record holds the segments of one batch of a
partition, ``encode_batches``), its body compressed already: the broker then carries a
seventh of the bytes. A body in ``RAW`` (not compressed) is compressed by the archive
service (``stored_form``): adjudicators before 2026-12-02 sent them so.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar

import cramjam
import msgspec
import zstandard

from services.adjudicator.segments import ArchivedEvent, RawPart, Segment

CODEC = "zstd"  # how the archive stores a body
RAW = "raw"  # a body not compressed (yet): the service compresses it before storing
LEVEL = 1
MAX_PART_BYTES = 900_000  # canonical bytes per stored part (a Kafka record allows 2 MB)
SEPARATOR = b"\n"  # canonical JSON never holds a raw newline (RFC 8785 escapes it)


class PackedSegment(msgspec.Struct, array_like=True, frozen=True):
    """A segment ready to store: the key, the index columns, the compressed body."""

    table_id: str
    head_seq: int
    ordinal: int
    day: str  # YYYY-MM-DD (UTC) of the last accepted event, else of the last event
    hand_id: str | None
    first_seq: int | None  # lowest seq among the events the chain check accepted
    last_seq: int | None  # highest
    events: int
    refused: list[int]  # positions (in arrival order) of the events it refused
    first_prev_hash: str | None  # prev_hash of the event at first_seq
    last_hash: str | None  # SHA-256 of the event at last_seq
    first_ts: str  # ts of the first event to arrive
    last_ts: str  # ts of the last
    codec: str
    body: bytes
    # SHA-256 of ``body`` as the archive stored it (read back from the database; None on
    # the way in): every stored byte counts, even one a codec would not notice.
    body_sha256: str | None = None

    @property
    def key(self) -> tuple[dt.date, str, int, int]:
        return (dt.date.fromisoformat(self.day), self.table_id, self.head_seq, self.ordinal)


def pack_parts(segment: Segment, codec: str = CODEC) -> list[PackedSegment]:
    """A table's segment packed, in consecutive parts of at most ``MAX_PART_BYTES`` (a
    hostile hand of thousands of large events; each part at least one event, its ordinal
    that of its first event). A segment the native core packed has its parts already."""
    if segment.parts is not None:
        return [prepacked(segment, part, codec) for part in segment.parts]
    events = segment.events
    parts: list[PackedSegment] = []
    start, size = 0, 0
    for i, archived in enumerate(events):
        if i > start and size + len(archived.canonical) > MAX_PART_BYTES:
            parts.append(pack(segment, events[start:i], start, codec))
            start, size = i, 0
        size += len(archived.canonical)
    parts.append(pack(segment, events[start:], start, codec))
    return parts


def pack(segment: Segment, events: list[ArchivedEvent] | None = None,
         offset: int = 0, codec: str = CODEC) -> PackedSegment:
    """Compress a segment's events (or a part of them starting at ``offset``; ``RAW``:
    leave them for the archive service to compress) and derive its columns from them."""
    events = segment.events if events is None else events
    lowest = highest = None
    for event in events:  # one pass: the accepted events with the lowest and highest seq
        if event.refused:
            continue
        if lowest is None or event.seq < lowest.seq:
            lowest = event
        if highest is None or event.seq > highest.seq:
            highest = event
    return PackedSegment(
        table_id=segment.table_id,
        head_seq=segment.head_seq,
        ordinal=segment.ordinal + offset,
        day=(highest or events[-1]).ts[:10],
        hand_id=segment.hand_id,
        first_seq=lowest.seq if lowest else None,
        last_seq=highest.seq if highest else None,
        events=len(events),
        refused=[i for i, e in enumerate(events) if e.refused],
        first_prev_hash=lowest.prev_hash if lowest else None,
        last_hash=hashlib.sha256(highest.canonical).hexdigest() if highest else None,
        first_ts=events[0].ts,
        last_ts=events[-1].ts,
        codec=codec,
        body=_encoded(codec, SEPARATOR.join(e.canonical for e in events)),
    )


def prepacked(segment: Segment, part: RawPart, codec: str = CODEC) -> PackedSegment:
    """A part the native core packed (the columns ``pack`` derives, the raw body), with
    its body in ``codec``."""
    return PackedSegment(
        table_id=segment.table_id, head_seq=segment.head_seq,
        ordinal=segment.ordinal + part.offset, day=part.day, hand_id=segment.hand_id,
        first_seq=part.first_seq, last_seq=part.last_seq, events=part.events,
        refused=part.refused, first_prev_hash=part.first_prev_hash, last_hash=part.last_hash,
        first_ts=part.first_ts, last_ts=part.last_ts, codec=codec,
        body=_encoded(codec, part.body))


def _encoded(codec: str, body: bytes) -> bytes:
    if codec == RAW:
        return body
    if codec != CODEC:
        raise UnknownCodec(f"pitwatch writes segment bodies in {CODEC} or {RAW}, not {codec}")
    return compress(body)


def stored_form(segment: PackedSegment) -> PackedSegment:
    """The segment as the archive stores it: a raw body compressed."""
    if segment.codec != RAW:
        return segment
    return msgspec.structs.replace(segment, codec=CODEC, body=compress(segment.body))


_contexts = threading.local()  # each thread's zstd contexts (``compress``, ``decompress``)
C = TypeVar("C")


def compress(body: bytes) -> bytes:
    """``body`` as one zstd frame at ``LEVEL``, through this thread's compression context.

    Why a kept context and not a one-shot call (cramjam's, before 2026-12-05): setting up
    zstd's context and its tables cost more than compressing a small segment. Measured on
    simulated HCF segments: a hand's events (22.7 kB) 52 -> 35 us, a run of events between
    hands (0.6 kB) 21 -> 4 us; the adjudicator compresses both for every hand. The frames
    are byte for byte the ones the one-shot call wrote (same level, same frame header;
    both libraries wrap the reference zstd C library), as a test checks. A context serves
    one thread at a time, hence one per thread."""
    return _kept("compressor", lambda: zstandard.ZstdCompressor(level=LEVEL)).compress(body)


def decompress(codec: str, body: bytes) -> bytes:
    """A stored body's canonical JSON lines. Read through this thread's kept zstd context
    when the body is one frame that names its size (as every body pitwatch writes):
    measured 25 -> 8.5 us a hand's segment, a third of what ``replay`` spent a hand. Any
    other body (several frames, bytes after the frame, no stated size or a size of 0, past
    ``_KEPT_CONTEXT_LIMIT``, damage) is read by cramjam's one-shot call, which decides it
    as before this context was kept."""
    if codec == RAW:
        return body
    if codec != CODEC:
        raise UnknownCodec(f"segment body in codec {codec!r}; this pitwatch reads {CODEC}")
    try:
        if 0 < zstandard.frame_content_size(body) <= _KEPT_CONTEXT_LIMIT:
            return _kept("decompressor", zstandard.ZstdDecompressor).decompress(
                body, allow_extra_data=False)
    except zstandard.ZstdError:
        pass  # the one-shot call below decides what the body is
    try:
        return bytes(cramjam.zstd.decompress(body))
    except cramjam.DecompressionError as exc:
        raise UnreadableBody(f"the body is not a zstd frame pitwatch wrote: {exc}") from None


# A frame's stated size past this is left to the one-shot call (the kept context would
# allocate what a damaged header claims at once); a stored part holds at most
# ``MAX_PART_BYTES`` of events, or one event of at most a few MB.
_KEPT_CONTEXT_LIMIT = 64 * 1024 * 1024


def _kept(name: str, make: Callable[[], C]) -> C:
    """This thread's context ``name``, made by ``make`` on the thread's first use."""
    context: C | None = getattr(_contexts, name, None)
    if context is None:
        context = make()
        setattr(_contexts, name, context)
    return context


class UnknownCodec(ValueError):
    """A body written in a codec this version cannot read."""


class UnreadableBody(ValueError):
    """A stored body that does not decompress (it was damaged or rewritten)."""


def event_lines(codec: str, body: bytes) -> list[bytes]:
    """The canonical JSON of each event of a stored body, in arrival order."""
    return decompress(codec, body).split(SEPARATOR)


def iter_event_lines(segments: list[PackedSegment]) -> Iterator[bytes]:
    for segment in segments:
        yield from event_lines(segment.codec, segment.body)


_encoder = msgspec.msgpack.Encoder()
_decoder = msgspec.msgpack.Decoder(PackedSegment)
MAX_BATCH_BYTES = 900_000  # bodies and columns per ``archive`` record (topic limit 2 MB)
SEGMENT_COLUMN_BYTES = 512  # what a segment's columns take beside its body, at most about


def encode_packed(segment: PackedSegment) -> bytes:
    return _encoder.encode(segment)


def decode_packed(raw: bytes) -> PackedSegment:
    return _decoder.decode(raw)


class ArchiveRecord(msgspec.Struct, frozen=True):
    """An ``archive`` topic record: segments, and the stream alerts (each the JSON the
    ``alerts`` topic carries) that the adjudicator raised in the batch that cut them.

    Why the alerts travel here too: the archive service reads ``archive`` and ``alerts``
    as two topics, in no order between them, and a tampered event archived before the
    alert that reported it reads, to ``verify``, as a change made to the archive ("at
    intake: no") until that alert comes. In the segments' own record, an alert is kept in
    the same transaction as the events it reports, or before them (a record of an earlier
    batch, earlier on the same partition). Its copy on ``alerts`` is recognised by id.
    A record of adjudicators before 2026-12-07 is a plain list of segments (no alerts)."""

    segments: list[PackedSegment]
    alerts: list[bytes]


_record_decoder = msgspec.msgpack.Decoder(ArchiveRecord | list[PackedSegment])


def encode_batches(segments: list[PackedSegment], alerts: Sequence[bytes] = ()
                   ) -> list[bytes]:
    """The values of ``archive`` topic records: the alerts, then the segments in order, as
    many to a record as fit in ``MAX_BATCH_BYTES`` (a record per segment cost the producer
    more than the segment: the adjudicator sends one or two records per batch instead).
    Alerts first: one always reaches the archive with or before the events it reports."""
    items: list[PackedSegment | bytes] = [*alerts, *segments]
    values: list[bytes] = []
    start, size = 0, 0
    for i, item in enumerate(items):
        weight = len(item) if isinstance(item, bytes) else len(item.body) + SEGMENT_COLUMN_BYTES
        if i > start and size + weight > MAX_BATCH_BYTES:
            values.append(_encoded_record(items[start:i]))
            start, size = i, 0
        size += weight
    if start < len(items):
        values.append(_encoded_record(items[start:]))
    return values


def _encoded_record(items: list[PackedSegment | bytes]) -> bytes:
    return _encoder.encode(ArchiveRecord(
        segments=[i for i in items if isinstance(i, PackedSegment)],
        alerts=[i for i in items if isinstance(i, bytes)]))


def decode_batch(raw: bytes) -> ArchiveRecord:
    """The segments and alerts of one ``archive`` topic record (either form)."""
    decoded = _record_decoder.decode(raw)
    return decoded if isinstance(decoded, ArchiveRecord) else ArchiveRecord(decoded, [])
