"""One kind of damage to one record: the seeded mutator's operations (issue #19).

Each operation takes a clean record (its bytes and its parse) and a ``random.Random`` and
returns the damaged bytes, or None when the record offers nothing to damage that way
(the caller picks another). Operations never look at other records: moving, removing and
duplicating records is ``corpus``'s job.

The kinds, by the issue's list: a field deleted, a type changed, a value perturbed (which
includes valid tampering the hash chain must catch), a key repeated, deep nesting, Rich
markup, control characters, huge values, non-UTF-8, truncation, a flipped bit; and junk
lines that belong to no table.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import orjson

from services.events.bounds import MAX_NESTING_DEPTH, MAX_RECORD_BYTES

Path = tuple[str | int, ...]
Operation = Callable[[bytes, Any, random.Random], bytes | None]


# ---------------------------------------------------------------- paths


def _paths(value: Any, prefix: Path = ()) -> list[Path]:
    """Every node below the root, containers included, in document order."""
    out: list[Path] = []
    if isinstance(value, dict):
        for key, child in value.items():
            out.append((*prefix, key))
            out += _paths(child, (*prefix, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            out.append((*prefix, index))
            out += _paths(child, (*prefix, index))
    return out


def _get(value: Any, path: Path) -> Any:
    for step in path:
        value = value[step]
    return value


def _set(value: Any, path: Path, new: Any) -> None:
    _get(value, path[:-1])[path[-1]] = new


def _pick(obj: Any, rng: random.Random, accept: Callable[[Path, Any], bool]) -> Path | None:
    candidates = [p for p in _paths(obj) if accept(p, _get(obj, p))]
    return rng.choice(candidates) if candidates else None


def _copy(obj: Any) -> Any:
    return orjson.loads(orjson.dumps(obj))


# ---------------------------------------------------------------- structural


def field_deleted(raw: bytes, obj: Any, rng: random.Random) -> bytes | None:
    path = _pick(obj, rng, lambda p, _v: isinstance(p[-1], str))
    if path is None:
        return None
    damaged = _copy(obj)
    del _get(damaged, path[:-1])[path[-1]]
    return orjson.dumps(damaged)


_OTHER_TYPES: list[Any] = [None, True, False, 0, -1, 1.5, 1e300, "x", "", [], {}, [1, "a"],
                           {"k": 1}, "12", "true"]


def type_changed(raw: bytes, obj: Any, rng: random.Random) -> bytes | None:
    path = _pick(obj, rng, lambda _p, _v: True)
    if path is None:
        return None
    damaged = _copy(obj)
    old = _get(damaged, path)
    _set(damaged, path, rng.choice([v for v in _OTHER_TYPES if type(v) is not type(old)]))
    return orjson.dumps(damaged)


def _perturbed(value: Any, rng: random.Random) -> Any:
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return rng.choice([value + 1, value - 1, -value, value * 1_000_000, 0, 2**53 - 1,
                           2**53, -(2**53), 10**18])
    if isinstance(value, str):
        return rng.choice([value + "x", value[:-1], "", value.upper(), value * 3,
                           value[::-1], " " + value])
    return 0


def value_perturbed(raw: bytes, obj: Any, rng: random.Random) -> bytes | None:
    """A leaf changed to another plausible value: often still valid (then it is tampering,
    caught by the next event's prev_hash), often not (then the DLQ)."""
    path = _pick(obj, rng, lambda _p, v: not isinstance(v, dict | list))
    if path is None:
        return None
    damaged = _copy(obj)
    _set(damaged, path, _perturbed(_get(damaged, path), rng))
    return orjson.dumps(damaged)


def _dumps_with_repeat(value: Any, target: Path, key: str, extra: Any, first: bool,
                       here: Path = ()) -> bytes:
    """JSON of ``value`` with one more member ``key: extra`` in the object at ``target``
    (before or after the existing one)."""
    if isinstance(value, dict):
        members = [orjson.dumps(k) + b":" + _dumps_with_repeat(v, target, key, extra, first,
                                                                (*here, k))
                   for k, v in value.items()]
        if here == target:
            added = orjson.dumps(key) + b":" + orjson.dumps(extra)
            index = list(value).index(key)
            members.insert(index if first else index + 1, added)
        return b"{" + b",".join(members) + b"}"
    if isinstance(value, list):
        return b"[" + b",".join(_dumps_with_repeat(v, target, key, extra, first, (*here, i))
                                for i, v in enumerate(value)) + b"]"
    return orjson.dumps(value)


def key_repeated(raw: bytes, obj: Any, rng: random.Random) -> bytes | None:
    path = _pick(obj, rng, lambda p, _v: isinstance(p[-1], str))
    if path is None:
        return None
    old = _get(obj, path)
    extra = rng.choice([old, _perturbed(old, rng) if not isinstance(old, dict | list) else 1])
    return _dumps_with_repeat(obj, path[:-1], str(path[-1]), extra, rng.random() < 0.5)


def _deep(depth: int, rng: random.Random) -> Any:
    value: Any = rng.choice([1, "x", None])
    for _ in range(depth):
        value = [value] if rng.random() < 0.5 else {"a": value}
    return value


def nesting(raw: bytes, obj: Any, rng: random.Random) -> bytes | None:
    """A value nested just over the bound or far beyond it (the RecursionError lines), in
    place of a field or as a new field before ``type``."""
    depth = rng.choice([MAX_NESTING_DEPTH - 1, MAX_NESTING_DEPTH, MAX_NESTING_DEPTH + 1,
                        200, 1_000, 5_000])
    deep = _deep(depth, rng)
    if rng.random() < 0.4 or not isinstance(obj, dict):
        # before "type": msgspec skipped such a value recursively while finding the tag
        return b'{"x":' + _dumps_deep(deep) + b"," + orjson.dumps(obj)[1:]
    path = _pick(obj, rng, lambda _p, _v: True)
    if path is None:
        return None
    damaged = _copy(obj)
    marker = "\u0000deep\u0000"
    _set(damaged, path, marker)
    return orjson.dumps(damaged).replace(orjson.dumps(marker), _dumps_deep(deep), 1)


def _dumps_deep(value: Any) -> bytes:
    """JSON of a deeply nested value without recursion (orjson stops at 255 levels)."""
    opening, closing = [], []
    while isinstance(value, list | dict):
        if isinstance(value, list):
            opening.append(b"[")
            closing.append(b"]")
            value = value[0] if value else None
            if value is None:
                break
        else:
            opening.append(b'{"a":')
            closing.append(b"}")
            value = value["a"]
    return b"".join(opening) + orjson.dumps(value) + b"".join(reversed(closing))


MARKUP = ["[/]", "[/red]", "[bold]x[/bold]", "[link=file:///etc/passwd]x[/link]", "[",
          "]", "[red", "[/x]", "\\[/]", "[bold red]loud[/bold red]"]


def markup(raw: bytes, obj: Any, rng: random.Random) -> bytes | None:
    """Rich markup in a string value or a key (echoed in reasons: printed as text)."""
    damaged = _copy(obj)
    path = _pick(damaged, rng, lambda _p, v: isinstance(v, str))
    text = rng.choice(MARKUP)
    if path is None or rng.random() < 0.3:
        if not isinstance(damaged, dict):
            return None
        damaged[text] = 1
        return orjson.dumps(damaged)
    _set(damaged, path, text if rng.random() < 0.5 else _get(damaged, path) + text)
    return orjson.dumps(damaged)


CONTROLS = ["\n", "\r\n", "\t", "\x00", "\x1b[2J", "\x1b]0;owned\x07", "\x7f", "\x85",
            "\x9b", "\u2028", "\ufeff"]


def control_characters(raw: bytes, obj: Any, rng: random.Random) -> bytes | None:
    damaged = _copy(obj)
    path = _pick(damaged, rng, lambda _p, v: isinstance(v, str))
    if path is None:
        return None
    value = _get(damaged, path)
    at = rng.randrange(len(value) + 1)
    _set(damaged, path, value[:at] + rng.choice(CONTROLS) + value[at:])
    return orjson.dumps(damaged)


def huge(raw: bytes, obj: Any, rng: random.Random) -> bytes | None:
    """A long string (over the text bound, or over the record bound), a long list, or a
    number of hundreds of digits."""
    choice = rng.randrange(4)
    if choice == 3:
        return raw.replace(b":", b":" + b"9" * rng.choice([20, 400, 5_000]), 1)
    damaged = _copy(obj)
    path = _pick(damaged, rng, lambda _p, v: not isinstance(v, dict))
    if path is None:
        return None
    if choice == 0:
        _set(damaged, path, "x" * rng.choice([201, 1_001, 70_000]))
    elif choice == 1:
        _set(damaged, path, "y" * (MAX_RECORD_BYTES + rng.choice([1, 500_000])))
    else:
        _set(damaged, path, ["As"] * rng.choice([53, 10_000]))
    return orjson.dumps(damaged)


def non_utf8(raw: bytes, obj: Any, rng: random.Random) -> bytes | None:
    at = rng.randrange(len(raw))
    bad = rng.choice([b"\xff", b"\xfe\xff", b"\xc3\x28", b"\xed\xa0\x80", b"\xf4\x90\x80\x80",
                      b"\\ud800", b"\\udfff\\ud800"])
    if bad.startswith(b"\\u"):
        quote = raw.find(b'"', at)
        if quote < 0:
            return None
        at = quote + 1
    return raw[:at] + bad + raw[at:]


def truncation(raw: bytes, obj: Any, rng: random.Random) -> bytes | None:
    return raw[:rng.randrange(len(raw))] or b"{"


def bit_flip(raw: bytes, obj: Any, rng: random.Random) -> bytes | None:
    at = rng.randrange(len(raw))
    flipped = bytes([raw[at] ^ (1 << rng.randrange(8))])
    return raw[:at] + flipped + raw[at + 1:]


# Operations that replace one record with a damaged copy, by kind.
REPLACEMENTS: dict[str, Operation] = {
    "field_deleted": field_deleted,
    "type_changed": type_changed,
    "value_perturbed": value_perturbed,
    "key_repeated": key_repeated,
    "nesting": nesting,
    "markup": markup,
    "control_characters": control_characters,
    "huge": huge,
    "non_utf8": non_utf8,
    "truncation": truncation,
    "bit_flip": bit_flip,
}


def junk_line(rng: random.Random) -> bytes:
    """A line that belongs to no table: garbage, a JSON value that is no record, a record
    with markup where its type should be, the issue's deep lines."""
    kind = rng.randrange(11)
    if kind == 0:
        noise = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 80)))
        return noise.replace(b"\n", b" ").replace(b"\r", b" ").strip() or b"?"
    fixed: list[bytes] = [
        b"[1,2,3]",
        b"null",
        b"{}",
        b'"' * (1 + kind),
        b'{"v":1,"type":"' + rng.choice(MARKUP).encode() + b'"}',
        b'{"a":' + b"[" * 1000 + b"]" * 1000 + b"}",
        b'{"a":' * 1000 + b"1" + b"}" * 1000,
        b"[" * 100_000,
        b'["' + b'\\"' * 50_000,
        b'{"v":1}' * 1000,
    ]
    return fixed[kind - 1]
