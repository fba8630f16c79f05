"""One deterministic order for the records of every partition of ``table-events``.

Surveillance is cross-table (dealers and players move between tables), so its state
depends on the order in which it sees hands of different tables. ``table-events`` is
partitioned by table, and Kafka gives no order across partitions: two consumers, or one
consumer before and after a restart, would see the partitions interleaved differently.
So the service does not take records in arrival order; it merges the partitions by the
events' own time, ``(ts, table_id)`` (a stable merge: a partition's records keep their
order), the order ``pitwatch simulate`` writes a multi-table log in, so ``pitwatch
surveil`` on that file sees the same sequence.

A record is released only when every partition either has a record buffered (so the
smallest head is known) or has been read to its end. Over the records present in the
log when a replay starts, the released order is therefore a pure function of the
partitions' contents, whatever the fetch timing. A record that arrives later on a
partition that had been read to its end, with a time earlier than records already
released from other partitions, is taken when it arrives (waiting for an idle partition
would stop surveillance whenever a table closes); a later replay puts it in its time
place instead (docs/surveillance.md, "On the Kafka pipeline").
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Collection, Iterable, Iterator
from typing import Generic, TypeVar

import msgspec

T = TypeVar("T")
OrderKey = tuple[str, str, str]  # (second, nanoseconds, table_id)

# The contract's Timestamp (UTC, "Z" or "+00:00", 0..9 fraction digits): normalised so
# that string comparison is time order whatever the precision a table writes.
_TS = re.compile(r"^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(?:Z|\+00:00)$")


class _Envelope(msgspec.Struct):
    ts: str
    table_id: str


_envelope = msgspec.json.Decoder(_Envelope)


def order_key(raw: bytes) -> OrderKey | None:
    """Where a record goes in the merged order; ``None``: not an event (no valid ``ts``
    or ``table_id``), which the adjudicator rejects too, so it changes no state."""
    try:
        envelope = _envelope.decode(raw)
    except (msgspec.DecodeError, msgspec.ValidationError):
        return None
    match = _TS.match(envelope.ts)
    if match is None or not envelope.table_id:
        return None
    second, fraction = match.groups()
    return second, (fraction or "").ljust(9, "0"), envelope.table_id


class PartitionMerge(Generic[T]):
    """Buffers each partition's records and releases them in merged key order."""

    def __init__(self, partitions: Iterable[int]) -> None:
        self.queues: dict[int, deque[tuple[OrderKey, T]]] = {p: deque() for p in partitions}

    def push(self, partition: int, key: OrderKey, item: T) -> None:
        self.queues[partition].append((key, item))

    def buffered(self, partition: int) -> int:
        return len(self.queues[partition])

    def release(self, read_to_end: Collection[int]) -> Iterator[T]:
        """The records that can go now, smallest key first. Stops at the first point
        where a partition not in ``read_to_end`` has nothing buffered: its next record
        may come before every head."""
        while True:
            best: tuple[OrderKey, int] | None = None
            for partition, queue in self.queues.items():
                if not queue:
                    if partition in read_to_end:
                        continue
                    return
                head = (queue[0][0], partition)
                if best is None or head < best:
                    best = head
            if best is None:
                return
            yield self.queues[best[1]].popleft()[1]
