"""Intake of one wire record: parse, validate, hash — stateless.

A record that cannot be parsed or does not satisfy the v1 contract becomes a ``Rejection``
carrying the reason in words a table-systems engineer can act on (where: line or Kafka
offset; what: the field path; why: msgspec's message). Valid records become
``ParsedEvent`` with the canonical hash the per-table chain check needs. Nothing here
raises on bad input: every record ends as one or the other.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import msgspec
import orjson

from services.events.bounds import MAX_RECORD_BYTES
from services.events.canonical import (
    decoded_event_canonical,
    sorted_encoding,
    validated_event_canonical,
)
from services.events.contract import Event, TableConfiguredEvent
from services.events.timestamps import timestamp_problem
from services.events.wire import (
    control_character,
    may_hold_control,
    repeated_key,
    tame_huge_numbers,
    too_deep,
)


def _first_decode(raw: bytes) -> Event:
    """Make the decoder on the first record, then decode it. Why not at import: msgspec
    reads the annotations of the contract's 55 structs to make it (about 20 ms), which a
    run on the native engine, whose intake is the core's, never needs."""
    global _decode
    _decode = msgspec.json.Decoder(Event).decode
    return _decode(raw)


# The same decoder ``contract.decode_event`` wraps, called without the wrapper's frame.
_decode: Callable[[bytes], Event] = _first_decode

# How orjson's error for a number no double holds begins (``services.events.wire``;
# tests/unit/native/test_hostile_lines_differential.py fails if orjson words it otherwise).
_HUGE_NUMBER = "number is infinity"


@dataclass(frozen=True, slots=True)
class ParsedEvent:
    """A record that met the contract: the decoded event, its canonical JSON (RFC 8785:
    what the event archive keeps) and that JSON's SHA-256 (the next event's prev_hash).

    ``reencodes``: the decoded event written back with sorted keys gives ``canonical``
    again (``services.events.canonical.sorted_encoding``), as it does for every compact
    ASCII record; so whoever keeps the decoded event need not keep ``canonical`` too. It
    is False only for records the checked path took whose canonical form differs (a body
    field given explicitly with its default value, a non-ASCII paytable key ...)."""

    event: Event
    hash: str
    canonical: bytes
    reencodes: bool = True


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
    return ParsedEvent(event, hashlib.sha256(canonical).hexdigest(), canonical)


def _not_utf8(raw: bytes) -> str | None:
    """Where a record stops being UTF-8, or None. orjson said "str is not valid UTF-8:
    surrogates not allowed: line 1 column 1 (char 0)" of a lone 0xFF anywhere in the
    line: neither the cause nor the place (QA)."""
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return (f"not UTF-8 at byte {exc.start + 1} of the line (0x{raw[exc.start]:02x}: "
                f"{exc.reason})")
    return None


def _parse_checked(raw: bytes, where: str) -> ParsedEvent | Rejection:
    """The contract's rules in their order (docs/events.md, "Why a record is refused"):
    the bytes (size, nesting) before any parser runs, then JSON, then what a parse tree
    shows (an object, unique keys, no control characters), then the schema, then the
    hash of the parsed value."""
    deep = too_deep(raw)
    if deep is not None:
        return Rejection(raw, f"nesting: {deep}", where)
    text = raw  # what the checks read: ``raw``, or ``raw`` with its huge numbers tamed
    not_utf8 = _not_utf8(raw)
    if not_utf8 is not None:
        return Rejection(raw, f"malformed JSON: {not_utf8}", where)
    try:
        obj = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        # A number no double holds (``1e400``) is valid JSON orjson cannot read: the
        # record is read with such numbers tamed, so that the schema refuses the number
        # (naming its field, and the record's table) as it refuses ``10**30``.
        if not str(exc).startswith(_HUGE_NUMBER):
            return Rejection(raw, f"malformed JSON: {exc}", where)
        text = tame_huge_numbers(raw)
        try:
            obj = orjson.loads(text)
        except orjson.JSONDecodeError as again:  # wrong elsewhere too
            return Rejection(raw, f"malformed JSON: {again}", where)
    if type(obj) is not dict:
        return Rejection(raw, "schema: a record must be a JSON object", where, None)
    named = obj.get("table_id")
    table_id = named if isinstance(named, str) else None
    repeat = repeated_key(text, obj)
    if repeat is not None:
        return Rejection(raw, f"repeated key: {repeat} (keys must be unique: RFC 8785, "
                              "I-JSON)", where, table_id)
    control = control_character(obj) if may_hold_control(text) else None
    if control is not None:
        return Rejection(raw, f"control character: {control} (strings are one line of "
                              "text)", where, table_id)
    try:
        event = _decode(text)
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        return Rejection(raw, f"schema: {_said(exc, obj)}", where, table_id)
    if text is not raw:  # pragma: no cover - no field of the contract takes a tamed number
        return Rejection(raw, "cannot canonicalise record: a number beyond a 64-bit float",
                         where, table_id)
    ts_problem = timestamp_problem(event.ts)
    if ts_problem is not None:
        return Rejection(raw, f"schema: {ts_problem} - at `$.ts`", where, event.table_id)
    try:
        canonical = validated_event_canonical(obj, type(event) is TableConfiguredEvent)
    except (TypeError, ValueError) as exc:  # e.g. a float the contract forbade slipped past
        return Rejection(raw, f"cannot canonicalise record: {exc}", where, table_id)
    return ParsedEvent(event, hashlib.sha256(canonical).hexdigest(), canonical,
                       sorted_encoding(event) == canonical)


# msgspec's words for a ``ts`` string the contract's pattern refuses.
_TS_REFUSED = "Expected `str` matching regex"


def _said(exc: Exception, obj: dict[str, Any]) -> str:
    """The schema's refusal, in words where msgspec's are a regular expression: a ``ts``
    with another offset than UTC's read "Expected `str` matching regex '^[0-9]{4}-...'"
    (QA), which says neither what is wrong nor what to write."""
    said = str(exc)
    ts = obj.get("ts")
    if said.startswith(_TS_REFUSED) and said.endswith("at `$.ts`") and isinstance(ts, str):
        return (f"ts {ts[:60]!r} is not an RFC 3339 UTC timestamp of the contract (write "
                "it in UTC with Z or +00:00, 0 to 9 fraction digits, e.g. "
                "2026-01-05T18:00:01.567Z) - at `$.ts`")
    return said
