"""Canonical JSON (RFC 8785) and the per-table SHA-256 hash chain (events.md, ``prev_hash``).

Why two paths: the ``rfc8785`` package is the reference implementation but pure Python;
orjson with sorted keys produces the same bytes for every value the v1 contract allows
(integers only, ASCII keys, no floats), is ~20x faster and sits on the intake hot path.
``canonical_json`` takes the fast path only when it is provably equal (no floats, no
non-ASCII keys) and otherwise defers to ``rfc8785``; ``tests/unit/test_canonical.py``
checks both against each other on generated events.
"""

from __future__ import annotations

import hashlib
from typing import Any

import msgspec
import orjson
import rfc8785

GENESIS_HASH = "0" * 64


def _fast_path_safe(value: Any) -> bool:
    """True when orjson's sorted output equals RFC 8785 for this value."""
    if isinstance(value, dict):
        return all(k.isascii() and _fast_path_safe(v) for k, v in value.items())
    if isinstance(value, list):
        return all(_fast_path_safe(v) for v in value)
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return True
    # RFC 8785 limits integers to the IEEE-754 safe range; beyond it the forms differ.
    return isinstance(value, int) and -(2**53) < value < 2**53


def canonical_json(value: Any) -> bytes:
    """RFC 8785 canonical JSON of a JSON value."""
    if _fast_path_safe(value):
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
    return rfc8785.dumps(value)


def event_hash(event_obj: dict[str, Any]) -> str:
    """Hex SHA-256 of the canonical JSON of a whole event, as the next ``prev_hash``."""
    return hashlib.sha256(canonical_json(event_obj)).hexdigest()


def validated_event_canonical(event_obj: dict[str, Any], free_form_keys: bool) -> bytes:
    """``canonical_json`` of an event that already passed the v1 contract.

    The contract admits only integers inside the safe range and fixed ASCII field names,
    so orjson's sorted output *is* the RFC 8785 form and the per-value safety walk can be
    skipped — except for bodies with free-form map keys (``table_configured.paytables``),
    which take the checked path.
    """
    if free_form_keys:
        return canonical_json(event_obj)
    return orjson.dumps(event_obj, option=orjson.OPT_SORT_KEYS)


def validated_event_hash(event_obj: dict[str, Any], free_form_keys: bool) -> str:
    """``event_hash`` of an event that already passed the v1 contract (see
    ``validated_event_canonical``)."""
    return hashlib.sha256(validated_event_canonical(event_obj, free_form_keys)).hexdigest()


_sorted_encoder = msgspec.json.Encoder(order="sorted")


def sorted_encoding(event: msgspec.Struct) -> bytes:
    """A decoded event written back with sorted keys: its canonical JSON whenever intake
    found the two equal (``ParsedEvent.reencodes``), so a stored event need not keep its
    canonical bytes beside its decoded form (the event archive re-encodes it)."""
    return _sorted_encoder.encode(event)


def decoded_event_canonical(event: msgspec.Struct, raw: bytes) -> bytes | None:
    """The canonical JSON of ``raw`` taken from its decoded event, when provably equal.

    Why: parsing a record a second time (into a dict, only to sort and re-serialise it)
    cost more than the validation itself. The event struct that ``raw`` decoded to (with
    the v1 contract: integers in the safe range, no floats) is serialised with sorted
    keys, and that is ``canonical_json(orjson.loads(raw))`` whenever it is as long as
    ``raw`` and ``raw`` is ASCII without a backslash:

    - no backslash and ASCII only: every string, key or value, is written literally, and
      both encoders write printable ASCII literally (RFC 8785 does too), so a string
      comes out byte for byte as it came in; ASCII keys sort the same by byte and by
      UTF-16 code unit (RFC 8785's order);
    - every other difference between the raw member and its re-serialisation only
      *shortens* the output: insignificant whitespace, an integer written ``-0``, a
      repeated key (both decoders keep the last), a body field given explicitly with its
      default value (omitted when re-encoded). A struct never writes a member the
      record did not have (envelope fields have no defaults; body defaults are omitted).

    So equal lengths leave nothing but a reordering of the same members, which sorting
    removes. Anything else returns None and the caller takes the dict path
    (``validated_event_hash``); ``tests/unit/core/test_intake_fast_path.py`` checks both
    paths against each other on mutated records.
    """
    if not raw.isascii() or b"\\" in raw:
        return None
    canonical = _sorted_encoder.encode(event)
    return canonical if len(canonical) == len(raw) else None
