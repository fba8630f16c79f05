"""Intake of one wire record: parse, validate, hash — stateless.

A record that cannot be parsed or does not satisfy the v1 contract becomes a ``Rejection``
carrying the reason in words a table-systems engineer can act on (where: line or Kafka
offset; what: the field path; why: msgspec's message). Valid records become
``ParsedEvent`` with the canonical hash the per-table chain check needs. Nothing here
raises on bad input: every record ends as one or the other.
"""

from __future__ import annotations

from dataclasses import dataclass

import msgspec
import orjson

from services.events.canonical import validated_event_hash
from services.events.contract import Event, TableConfiguredEvent, decode_event

MAX_RECORD_BYTES = 1_000_000


@dataclass(frozen=True)
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
    if len(raw) > MAX_RECORD_BYTES:
        return Rejection(raw, f"record of {len(raw)} bytes exceeds {MAX_RECORD_BYTES}", where)
    try:
        obj = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        return Rejection(raw, f"malformed JSON: {exc}", where)
    table_id = obj.get("table_id") if isinstance(obj, dict) else None
    table_id = table_id if isinstance(table_id, str) else None
    if not isinstance(obj, dict):
        return Rejection(raw, "schema: a record must be a JSON object", where, table_id)
    try:
        event = decode_event(raw)
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        return Rejection(raw, f"schema: {exc}", where, table_id)
    try:
        digest = validated_event_hash(obj, isinstance(event, TableConfiguredEvent))
    except (TypeError, ValueError) as exc:  # e.g. a float the contract forbade slipped past
        return Rejection(raw, f"cannot canonicalise record: {exc}", where, table_id)
    return ParsedEvent(event, digest)
