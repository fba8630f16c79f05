"""One batch of ``table-events`` records in, output records and new table states out.

This is the Kafka pipeline's processing step with the Kafka taken out, so it can be
tested record by record: the Faust app (``faust_app``) feeds it the records of a batch,
sends what it returns, and only then stores the states it returns. It drives exactly the
functions the embedded runner drives — ``parse_record`` and ``apply_event`` on a
``TableState`` — and encodes records with ``encode_record``, so the adjudications are
byte-identical to ``pitwatch adjudicate``.

Why each stored state carries the input position (partition, offset) of the last event
applied to it: delivery is at-least-once. After a crash the worker restarts from the last
committed offset, which can be behind the state it had already stored in the changelog.
Re-applying those events would make the chain check see old sequence numbers (duplicate
or stale events, SURV-9: alerts for what is only a replay). With the position stored in
the same value as the state, a replayed record is recognised exactly and skipped; its
outputs were already delivered before the state was stored (``faust_app`` sends and
awaits the outputs first), so nothing is lost either.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import msgspec

from services.adjudicator.intake import Rejection, parse_record
from services.adjudicator.table import TableState, apply_event, decode_state, encode_state
from services.adjudicator.topics import TopicNames
from services.events.contract import encode_record

REASON_HEADER = "pitwatch-reason"  # why a record is in the DLQ (UTF-8 text)
SOURCE_HEADER = "pitwatch-source"  # "<topic>/<partition>/<offset>" of the input record

Headers = list[tuple[str, bytes]]


class StoredState(msgspec.Struct, array_like=True):
    """The value stored per table in the Faust table (msgpack, raw serializer)."""

    partition: int
    offset: int  # of the last ``table-events`` record applied to ``state``
    state: bytes  # ``encode_state(TableState)``


_stored_encoder = msgspec.msgpack.Encoder()
_stored_decoder = msgspec.msgpack.Decoder(StoredState)


def encode_stored(stored: StoredState) -> bytes:
    return _stored_encoder.encode(stored)


def decode_stored(raw: bytes) -> StoredState:
    return _stored_decoder.decode(raw)


@dataclass(frozen=True)
class InputRecord:
    """A consumed ``table-events`` record, as Kafka delivered it."""

    topic: str
    partition: int
    offset: int
    key: bytes | None
    value: bytes | None
    headers: Headers = field(default_factory=list)

    @property
    def source(self) -> str:
        return f"{self.topic}/{self.partition}/{self.offset}"

    @property
    def where(self) -> str:
        """Position in the words intake uses in its reasons (``line 12`` in files)."""
        return f"{self.topic} partition {self.partition} offset {self.offset}"


@dataclass(frozen=True)
class Outgoing:
    """A record to produce. ``topic`` is a name from ``TopicNames``."""

    topic: str
    key: bytes | None
    value: bytes | None
    headers: Headers


@dataclass
class _Slot:
    """A table's state while a batch is being processed."""

    state: TableState
    partition: int | None
    offset: int | None
    changed: bool = False

    def already_applied(self, record: InputRecord) -> bool:
        return (self.partition == record.partition and self.offset is not None
                and record.offset <= self.offset)


@dataclass
class BatchResult:
    outgoing: list[Outgoing] = field(default_factory=list)
    states: dict[bytes, tuple[int, bytes]] = field(default_factory=dict)  # key -> (p, value)
    replayed: int = 0  # records skipped because their table's state already had them
    hands: int = 0
    dead_letters: int = 0


StateLoader = Callable[[bytes], bytes | None]


class BatchStep:
    """Processes one batch; ``load(key)`` returns the stored value of a table or None."""

    def __init__(self, topics: TopicNames, load: StateLoader) -> None:
        self.topics = topics
        self.load = load
        self.slots: dict[str, _Slot] = {}
        self.result = BatchResult()

    def run(self, records: Sequence[InputRecord]) -> BatchResult:
        for record in records:
            self._one(record)
        for table_id, slot in self.slots.items():
            if slot.changed and slot.partition is not None and slot.offset is not None:
                stored = StoredState(slot.partition, slot.offset, encode_state(slot.state))
                self.result.states[table_id.encode()] = (slot.partition, encode_stored(stored))
        return self.result

    def _one(self, record: InputRecord) -> None:
        if record.value is None:
            self._dead(record, "empty record (no value)")
            return
        parsed = parse_record(record.value, record.where)
        if isinstance(parsed, Rejection):
            self._dead(record, parsed.reason)
            return
        table_id = parsed.event.table_id
        if record.key != table_id.encode():
            self._dead(record, f"record key {record.key!r} is not its table_id {table_id!r}: "
                               "table-events must be keyed by table_id so that each "
                               "table's events stay in order on one partition")
            return
        slot = self._slot(table_id)
        if slot.already_applied(record):
            self.result.replayed += 1
            return
        out = apply_event(slot.state, parsed)
        slot.partition, slot.offset, slot.changed = record.partition, record.offset, True
        key = table_id.encode()
        for adjudication in out.records:
            self._emit(self.topics.adjudications, key, encode_record(adjudication), record)
            self.result.hands += 1
        for alert in out.alerts:
            self._emit(self.topics.alerts, key, msgspec.json.encode(alert), record)
        for reason in out.dlq:
            self._dead(record, reason)

    def _slot(self, table_id: str) -> _Slot:
        slot = self.slots.get(table_id)
        if slot is None:
            raw = self.load(table_id.encode())
            if raw is None:
                slot = _Slot(TableState(table_id=table_id), None, None)
            else:
                stored = decode_stored(raw)
                slot = _Slot(decode_state(stored.state), stored.partition, stored.offset)
            self.slots[table_id] = slot
        return slot

    def _emit(self, topic: str, key: bytes, value: bytes, source: InputRecord) -> None:
        headers = [(SOURCE_HEADER, source.source.encode())]
        self.result.outgoing.append(Outgoing(topic, key, value, headers))

    def _dead(self, record: InputRecord, reason: str) -> None:
        """The input record unchanged (key, value, headers) plus the reason and source."""
        headers = [*record.headers, (REASON_HEADER, reason.encode()),
                   (SOURCE_HEADER, record.source.encode())]
        self.result.outgoing.append(
            Outgoing(self.topics.dlq, record.key, record.value, headers))
        self.result.dead_letters += 1


def step_batch(topics: TopicNames, load: StateLoader,
               records: Sequence[InputRecord]) -> BatchResult:
    """Process ``records`` in order against the stored states ``load`` returns."""
    return BatchStep(topics, load).run(records)
