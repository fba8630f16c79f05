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


def validated_event_hash(event_obj: dict[str, Any], free_form_keys: bool) -> str:
    """``event_hash`` of an event that already passed the v1 contract.

    The contract admits only integers inside the safe range and fixed ASCII field names,
    so orjson's sorted output *is* the RFC 8785 form and the per-value safety walk can be
    skipped — except for bodies with free-form map keys (``table_configured.paytables``),
    which take the checked path. This is the intake hot path (one call per event).
    """
    if free_form_keys:
        return event_hash(event_obj)
    return hashlib.sha256(orjson.dumps(event_obj, option=orjson.OPT_SORT_KEYS)).hexdigest()
