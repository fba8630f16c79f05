"""Rules of the v1 contract about a record's bytes that a JSON Schema cannot state.

docs/events.md, "Why a record is refused", lists them with the schema's own rules; this
module holds the checks that need the raw record (or its parse tree) rather than the
decoded event:

- **nesting.** At most MAX_NESTING_DEPTH levels of objects and arrays, checked on the
  bytes before any parser runs: a parser recursing into 1,000 levels raised
  ``RecursionError`` and stopped a whole run (issue #19). The depth of a record is the
  largest number of ``[``/``{`` minus ``]``/``}`` over any prefix, brackets inside strings
  not counted (for valid JSON: the nesting depth, the record itself at depth 1).
- **unique keys.** ``{"stack": 999, "stack": 600}`` is valid RFC 8259 JSON, and every
  parser pitwatch uses keeps the last value (600), and its hash is of the object with 600,
  so pitwatch and a parser that keeps the first value read different data from the same
  signed bytes. RFC 8785 (the canonical form the hash chain signs) assumes unique keys and
  I-JSON (RFC 7493) requires them: a record with a repeated key is refused.
- **no control characters.** No string, key or value, contains a character of Unicode
  category Cc (U+0000-U+001F, U+007F-U+009F), raw or escaped. Every string of the
  contract is one line of text; a newline at the end of a value also slipped past the
  patterns (Python's ``$`` matches before a final newline, no other engine's does), and
  an escape character in a reason reached the operator's terminal.

Why the raw bytes at all: a parse tree (a ``dict``) has already dropped the repeat. The
check compares the number of members the bytes hold (a ``:`` outside strings is one
member) with the number the tree holds; only when they differ is the record parsed once
more, by the standard library with a hook, to name the key.
"""

from __future__ import annotations

import json
import re
from typing import Any

from services.events.bounds import MAX_NESTING_DEPTH

# A JSON string, escapes included. The closing quote is optional so that an unterminated
# string ends the match at the end of the record instead of being retried from every
# later quote (quadratic on hostile input; linear this way). On valid JSON it matches
# exactly the strings.
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"?')


def skeleton(raw: bytes) -> bytes:
    """``raw`` with the content of every string removed: what remains is structure."""
    return _STRING.sub(b'""', raw)


_OPENING = frozenset(b"[{")
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")


def too_deep(raw: bytes) -> str | None:
    """Why ``raw`` nests deeper than MAX_NESTING_DEPTH, or None (any bytes, valid or not)."""
    if raw.count(b"[") + raw.count(b"{") <= MAX_NESTING_DEPTH:
        return None
    depth = 0
    for byte in skeleton(raw).translate(None, _NOT_BRACKETS):
        if byte in _OPENING:
            depth += 1
            if depth > MAX_NESTING_DEPTH:
                return (f"objects and arrays nested deeper than {MAX_NESTING_DEPTH} levels "
                        "(the record itself is level 1)")
        else:
            depth -= 1
    return None


# Unicode category Cc. Raw C0 characters are not JSON (the parser refuses them); DEL and
# the C1 range may appear raw, and any of them escaped (``\n``, ``\u001b``).
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")


def may_hold_control(raw: bytes) -> bool:
    """False when no string of ``raw`` can hold a control character: ASCII with no
    escape and no DEL (the usual record, decided without looking at a string)."""
    return b"\\" in raw or b"\x7f" in raw or not raw.isascii()


def control_character(tree: Any, path: str = "$") -> str | None:
    """Where the first string (in document order) holding a control character is."""
    if type(tree) is str:
        found = _CONTROL.search(tree)
        return None if found is None else (
            f"U+{ord(found.group()):04X} in the string at `{path}`")
    if type(tree) is dict:
        for key, value in tree.items():
            found_key = _CONTROL.search(key)
            if found_key is not None:
                return f"U+{ord(found_key.group()):04X} in a key of the object at `{path}`"
            inner = control_character(value, f"{path}.{key}")
            if inner is not None:
                return inner
    elif type(tree) is list:
        for index, value in enumerate(tree):
            inner = control_character(value, f"{path}[{index}]")
            if inner is not None:
                return inner
    return None


def repeated_key(raw: bytes, tree: Any) -> str | None:
    """Where a key is repeated in one object of ``raw`` (``tree`` is its parse), or None.

    ``raw`` must be valid JSON (``tree`` is what it parsed to).
    """
    if skeleton(raw).count(b":") == _members(tree):
        return None
    repeats: list[tuple[dict[str, Any], str]] = []

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        obj = dict(items)
        if len(obj) != len(items):
            repeats.append((obj, _first_repeat(items)))
        return obj

    full = json.loads(raw.decode("utf-8"), object_pairs_hook=pairs)
    return _first_in_document_order(full, {id(obj): key for obj, key in repeats}, "$")


def _first_repeat(items: list[tuple[str, Any]]) -> str:
    seen: set[str] = set()
    for key, _ in items:
        if key in seen:
            return key
        seen.add(key)
    raise AssertionError("no repeated key")  # pragma: no cover - the caller counted one


def _members(value: Any) -> int:
    if type(value) is dict:
        return len(value) + sum(_members(v) for v in value.values())
    if type(value) is list:
        return sum(_members(v) for v in value)
    return 0


def _first_in_document_order(value: Any, repeated: dict[int, str], path: str) -> str | None:
    """The first object (by where it opens) with a repeated key, as ``key at path``."""
    if type(value) is dict:
        key = repeated.get(id(value))
        if key is not None:
            return f"key {key!r} appears more than once in the object at `{path}`"
        children: Any = ((f"{path}.{k}", v) for k, v in value.items())
    elif type(value) is list:
        children = ((f"{path}[{i}]", v) for i, v in enumerate(value))
    else:
        return None
    for child_path, child in children:
        found = _first_in_document_order(child, repeated, child_path)
        if found is not None:
            return found
    return None
