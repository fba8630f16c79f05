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

One thing the parser cannot do: **a number no 64-bit float holds** (``1e400``, an
integer of 400 digits) is valid JSON, but orjson refuses it ("number is infinity when
parsed as double"), and the record was refused as malformed JSON naming neither its
field nor its table, where ``10**30`` in the same field is a ``schema:`` error naming
both. ``tame_huge_numbers`` writes such numbers as ones the parser reads and the schema
refuses just the same, so the record takes the path of every out-of-range number.

A log's lines (``record_of_line``): a JSONL log is split at ``\n`` only, and a line's
record is the line without the JSON whitespace around it (space, tab, CR, LF: RFC 8259,
section 2); a line of nothing else is blank and skipped. ``bytes.strip`` also took away a
vertical tab and a form feed, which are not JSON whitespace: a line starting with a form
feed, which no JSON parser reads, was adjudicated as an event. And the MAX_RECORD_BYTES
bound is on the line as read: checked after the strip, a line of a record and a million
spaces was taken.
"""

from __future__ import annotations

import json
import re
from typing import Any

from services.events.bounds import MAX_NESTING_DEPTH, MAX_RECORD_BYTES

# JSON's whitespace (RFC 8259, section 2): what may stand around a record in its line.
JSON_WHITESPACE = b" \t\r\n"


def record_of_line(line: bytes) -> bytes:
    """The record a line of a log holds (the line with its ``\n`` or without): the line
    stripped of JSON whitespace (empty for a blank line), or, when the line without its
    line ending (``\n`` or ``\r\n``) is longer than MAX_RECORD_BYTES, that line whole,
    which the intake refuses by the bound (docs/events.md, "Bounds": the bound is on the
    line as read, whatever it holds)."""
    if len(line) > MAX_RECORD_BYTES:  # rare: the usual line is far shorter
        body = line[:-1] if line.endswith(b"\n") else line
        body = body[:-1] if body.endswith(b"\r") else body
        if len(body) > MAX_RECORD_BYTES:
            return body
    return line.strip(JSON_WHITESPACE)


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


# A JSON string (as ``_STRING``) or a JSON number (RFC 8259, section 6): numbers are found
# outside strings only.
_STRING_OR_NUMBER = re.compile(rb'(' + _STRING.pattern + rb')|-?(?:0|[1-9][0-9]*)'
                               rb'(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?')

# Magnitudes from which a number is tamed: beyond 1.8e308 no double holds it (orjson
# refuses it); the margin below that spares deciding the edge exactly as orjson does. No
# field of the contract takes a number anywhere near it (integers end at 2^53 - 1).
HUGE = 1e300
# What a huge number is written as: an integer as one above the contract's integers (the
# schema's message is that of ``10**30`` in the same field), any other number as a float.
_TAMED_INTEGER = b"1" + b"0" * 30
_TAMED_OTHER = b"1e300"


def _tamed(found: re.Match[bytes]) -> bytes:
    literal = found.group()
    if found.group(1) is not None or len(literal) < 5 or abs(float(literal)) < HUGE:
        return literal
    negative = literal.startswith(b"-")
    integer = literal.lstrip(b"-").isdigit()
    tamed = (b"-" if negative else b"") + (_TAMED_INTEGER if integer else _TAMED_OTHER)
    # Never longer (a huge integer has 301 digits or more, any huge number 5 characters or
    # more): padded with whitespace, the record keeps its length and every position.
    return tamed + b" " * (len(literal) - len(tamed))


def tame_huge_numbers(raw: bytes) -> bytes:
    """``raw`` with every number of magnitude ``HUGE`` or more, outside strings, written as
    a number every parser reads and the contract still refuses (``_TAMED_INTEGER`` or
    ``_TAMED_OTHER``, its sign kept), padded with spaces to its length: whatever else is
    wrong with ``raw`` (its syntax, a repeated key, a control character, another field)
    stays wrong at the same position, and the huge number's own field is refused by the
    schema as any out-of-range number is. Any bytes: on bytes that are not JSON, whitespace
    after a number's text splits no token that was valid."""
    return _STRING_OR_NUMBER.sub(_tamed, raw)
