"""Intake of one wire record: parse, validate, hash — stateless.

A record that cannot be parsed or does not satisfy the v1 contract becomes a ``Rejection``
carrying the reason in words a table-systems engineer can act on (where: line or Kafka
offset; what: the field path; why: msgspec's message). Valid records become
``ParsedEvent`` with the canonical hash the per-table chain check needs. Nothing here
raises on bad input: every record ends as one or the other.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import msgspec
import orjson

from services.events.bounds import MAX_RECORD_BYTES
from services.events.canonical import decoded_event_canonical, validated_event_hash
from services.events.contract import Event, TableConfiguredEvent
from services.events.timestamps import timestamp_problem
from services.events.wire import control_character, may_hold_control, repeated_key, too_deep

# The same decoder ``contract.decode_event`` wraps, called without the wrapper's frame.
_decode = msgspec.json.Decoder(Event).decode


@dataclass(frozen=True, slots=True)
class ParsedEvent:
    event: Event
    hash: str  # SHA-256 of the canonical JSON of this event (the next event's prev_hash)


@dataclass(frozen=True)
class Rejection:
    """A record that could not be accepted; goes to the DLQ unchanged with ``reason``."""

    raw: bytes
    reason: str
    where: str
    table_id: str | None = None


def parse_record(raw: bytes, where: str) -> ParsedEvent | Rejection:
    """Validate one record (``where`` names its position: ``line 12``, ``partition 0 offset 7``)."""
    if len(raw) > MAX_RECORD_BYTES:  # before anything looks at the bytes
        return Rejection(raw, f"record of {len(raw)} bytes exceeds {MAX_RECORD_BYTES}", where)
    # Fast path: one parse. A valid record whose canonical form follows from its decoded
    # struct (the usual case: compact ASCII, see ``decoded_event_canonical``) is done
    # here; everything else, every invalid record included, takes the checked path,
    # which alone decides rejections and their wording.
    try:
        event = _decode(raw)
    except (msgspec.ValidationError, msgspec.DecodeError, RecursionError):
        # RecursionError: msgspec skips an unknown value before the tag ("type")
        # recursively; the checked path refuses such a record before parsing it.
        return _parse_checked(raw, where)
    canonical = decoded_event_canonical(event, raw)
    if canonical is None or b"\x7f" in raw or timestamp_problem(event.ts) is not None:
        return _parse_checked(raw, where)
    return ParsedEvent(event, hashlib.sha256(canonical).hexdigest())


def _parse_checked(raw: bytes, where: str) -> ParsedEvent | Rejection:
    """The contract's rules in their order (docs/events.md, "Why a record is refused"):
    the bytes (size, nesting) before any parser runs, then JSON, then what a parse tree
    shows (an object, unique keys, no control characters), then the schema, then the
    hash of the parsed value."""
    deep = too_deep(raw)
    if deep is not None:
        return Rejection(raw, f"nesting: {deep}", where)
    try:
        obj = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        return Rejection(raw, f"malformed JSON: {exc}", where)
    if type(obj) is not dict:
        return Rejection(raw, "schema: a record must be a JSON object", where, None)
    named = obj.get("table_id")
    table_id = named if isinstance(named, str) else None
    repeat = repeated_key(raw, obj)
    if repeat is not None:
        return Rejection(raw, f"repeated key: {repeat} (keys must be unique: RFC 8785, "
                              "I-JSON)", where, table_id)
    control = control_character(obj) if may_hold_control(raw) else None
    if control is not None:
        return Rejection(raw, f"control character: {control} (strings are one line of "
                              "text)", where, table_id)
    try:
        event = _decode(raw)
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        return Rejection(raw, f"schema: {exc}", where, table_id)
    ts_problem = timestamp_problem(event.ts)
    if ts_problem is not None:
        return Rejection(raw, f"schema: {ts_problem} - at `$.ts`", where, event.table_id)
    try:
        digest = validated_event_hash(obj, type(event) is TableConfiguredEvent)
    except (TypeError, ValueError) as exc:  # e.g. a float the contract forbade slipped past
        return Rejection(raw, f"cannot canonicalise record: {exc}", where, table_id)
    return ParsedEvent(event, digest)
