"""The hand being assembled, with its events kept packed until the hand closes.

Why a module of its own: per open table, the hand's events were the larger part of what
pitwatch held (architecture.md: 10,000 open tables < 300 MB RSS). Packing is a storage
concern only: ``pack_event`` then ``unpack_events`` gives back events equal field for
field to the ones packed, so adjudication never sees the difference.
"""

from __future__ import annotations

import functools
import operator
from typing import Any

import msgspec

from services.adjudicator.segments import HandCut
from services.events.contract import EVENT_TYPES, Envelope, Event, Finding


class OpenHand(msgspec.Struct):
    """The hand being assembled, its events packed (``pack_event``) until it closes.

    Why packed: as decoded structs an event cost ~900 bytes (every envelope string its
    own object); packed, the fields every event of the hand repeats (table, hand,
    source, ``v``) are left out and the hashes are binary, ~150 bytes an event. The
    events are unpacked once, when the hand is adjudicated.
    """

    table_id: str
    hand_id: str
    first_seq: int
    source: str  # the hand_started's source; the events' own is packed only if different
    last_seq: int = 0
    count: int = 0
    packed: bytearray = msgspec.field(default_factory=bytearray)
    findings: list[Finding] = msgspec.field(default_factory=list)
    # The archive's part of the hand (services.adjudicator.archiving): where the segment
    # starts, and what it needs beyond the packed events (usually nothing).
    cut: HandCut = msgspec.field(default_factory=lambda: HandCut(0, 0))

    @property
    def events(self) -> tuple[Event, ...]:
        """The events so far, unpacked (a fresh tuple on every call: read, don't loop)."""
        return tuple(unpack_events(self))


_TAG_OF: dict[type, str] = {cls: tag for tag, cls in EVENT_TYPES.items()}


def _packed_type(tag: str, cls: type[Envelope]) -> type[msgspec.Struct]:
    """The packed form of one event type: what ``pack_event`` writes, tag first."""
    body = next(f.type for f in msgspec.structs.fields(cls) if f.name == "data")
    return msgspec.defstruct(
        f"Packed_{tag}",
        [("seq", int), ("event_id", str), ("ts", str), ("prev_hash", bytes),
         ("table_id", str), ("hand_id", str | None), ("source", str), ("data", body)],
        array_like=True, tag=tag, gc=False)


_CLASS_OF: dict[type, type[Envelope]] = {
    _packed_type(tag, cls): cls for tag, cls in EVENT_TYPES.items()
}
# One decode for the whole hand, bodies included (a tagged union of array-like structs).
_packed_list: msgspec.msgpack.Decoder[list[Any]] = msgspec.msgpack.Decoder(
    list[functools.reduce(operator.or_, _CLASS_OF)]  # type: ignore[misc]
)
_packer = msgspec.msgpack.Encoder()


def pack_event(hand: OpenHand, event: Event) -> None:
    """Append ``event`` to the hand's packed events (one msgpack array per event).

    ``""`` stands for "the same as the hand's" (table id, hand id, source): the contract
    forbids the empty string in those fields, so the marker cannot be confused with a
    value. ``v`` is always 1 (the contract) and is not stored.
    """
    hand_id = "" if event.hand_id == hand.hand_id else event.hand_id
    # ``+=``, not ``encode_into(..., -1)``: the latter over-allocates the buffer (about
    # 60% of a hand's bytes were slack), ``bytearray`` grows by 1/8.
    hand.packed += _packer.encode(
        (_TAG_OF[type(event)], event.seq, event.event_id, event.ts,
         bytes.fromhex(event.prev_hash), "" if event.table_id == hand.table_id else event.table_id,
         hand_id, "" if event.source == hand.source else event.source, event.data))
    hand.count += 1
    hand.last_seq = event.seq


def unpack_events(hand: OpenHand) -> list[Event]:
    """The hand's events, equal field for field to the decoded ones ``pack_event`` got."""
    header = b"\xdd" + hand.count.to_bytes(4, "big")  # msgpack array32 of ``count`` items
    events: list[Event] = []
    table_id, hand_id, source = hand.table_id, hand.hand_id, hand.source
    for p in _packed_list.decode(header + hand.packed):
        events.append(_CLASS_OF[type(p)](  # type: ignore[call-arg, arg-type]
            v=1, event_id=p.event_id, table_id=p.table_id or table_id, seq=p.seq, ts=p.ts,
            prev_hash=p.prev_hash.hex(), hand_id=hand_id if p.hand_id == "" else p.hand_id,
            source=p.source or source, data=p.data))
    return events
