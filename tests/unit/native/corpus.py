"""Inputs for the native-vs-reference differential tests.

``valid_examples``: one valid record of every v1 event type (the simulators do not emit
all 26). ``mutations``: a seeded mutator over valid records: a field deleted, a type
changed, a value perturbed (bounds, patterns, calendar), bytes flipped, the record
truncated, non-UTF-8 inserted, huge numbers, deep nesting, unknown fields, and the
harmless variations (whitespace, key order, escapes) a valid record may also take.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator
from typing import Any

import orjson

from services.events.contract import EVENT_TYPES

ENVELOPE: dict[str, Any] = {
    "v": 1,
    "event_id": "ccc25d82-38ce-47a9-89a9-9f0caf88a8ac",
    "table_id": "T001",
    "seq": 13,
    "ts": "2026-01-05T18:00:57.728Z",
    "prev_hash": "183c3f3b4dc20863d6ea07926a6921d1b5dff71e37518e81fb1ba80f69a9263b",
    "hand_id": "T001-000001",
    "source": "dealer-terminal",
}

BODIES: dict[str, dict[str, Any]] = {
    "table_configured": {
        "game": "hcf", "limits": {"min_wager": 5, "max_wager": 500, "ante": 5},
        "rake": {"mode": "all", "fee": 1}, "rule_profile": "house-v1",
        "structure": None, "paytables": {"flush": {"7": 3, "é": 1}}, "authorized_by": "sup-1"},
    "player_seated": {"seat": 1, "player_id": "P1", "stack": 1000},
    "player_left": {"seat": 64, "player_id": "P1", "stack": 0},
    "chips_changed": {"seat": 2, "amount": -25, "kind": "remove"},
    "dealer_changed": {"dealer_id": "D7"},
    "designated_player_offer": {"seat": 3, "accepted": True},
    "hand_started": {"button": 1, "designated_player": None, "dealer_id": "D7",
                     "seats": [{"seat": 1, "player_id": "P1", "stack": 100}], "deck": 52},
    "wager": {"seat": 1, "kind": "ante", "amount": 5},
    "card_dealt": {"to": "seat", "seat": 2, "card": "8d", "face_up": False},
    "card_exposed": {"seat": None, "card": "As", "cause": "dealer_error"},
    "action": {"seat": 4, "action": "raise", "amount": 10},
    "draw": {"seat": 1, "discarded": ["2c", "3d"], "received": ["Ah", "Kh"]},
    "card_moved": {"card": "Td", "from": "seat:12", "to": "set_aside"},
    "stub_reshuffled": {"cards": ["2c"], "reason": "discards back"},
    "hand_set": {"seat": 1, "front": ["2c", "3c", "4c"], "middle": ["5c"] * 5,
                 "back": ["6d"] * 5},
    "auto_win_declared": {"seat": 2, "kind": "dragon"},
    "dealer_replaced_card": {"removed": "2c", "received": "3c", "burned": []},
    "shuffler_alarm": {"detail": "jam"},
    "misdeal": {"reason": "two cards face up"},
    "hand_dead": {"reason": "misdeal"},
    "showdown": {"seat": "dealer", "cards": ["As", "Kd", "Qh"], "mucked": False},
    "wager_collected": {"seat": 1, "kind": "raise", "amount": 10, "to": "house"},
    "payout": {"seat": 1, "amount": 12, "source": "seat:3", "kind": "win"},
    "collection": {"seat": 1, "amount": 3, "to": "designated", "kind": "points"},
    "rake_collected": {"seat": None, "amount": 2, "from": "pot"},
    "hand_ended": {},
}


def valid_examples() -> list[dict[str, Any]]:
    """One valid record of every event type (table-level ones with ``hand_id`` null)."""
    assert set(BODIES) == set(EVENT_TYPES), "a new event type needs an example here"
    out = []
    for tag, body in BODIES.items():
        event = {**ENVELOPE, "type": tag, "data": copy.deepcopy(body)}
        if tag in ("table_configured", "player_seated", "player_left", "chips_changed",
                   "dealer_changed", "designated_player_offer"):
            event["hand_id"] = None
        out.append(event)
    return out


# ---------------------------------------------------------------- the mutator

REPLACEMENTS: list[Any] = [
    None, True, False, 0, -1, 1, 64, 65, 2**53 - 1, 2**53, -(2**53), 2**63, 2**64,
    1.0, 0.5, "", "x", "1", "As", "As\n", "As\n\n", "seat:1", "seat:0", "seat:100", "house",
    "pot", "board", "x" * 200, "x" * 201, "é" * 200, "é" * 201, [], ["As"], {}, {"a": 1},
    "2026-02-29T00:00:00Z", "2024-02-29T00:00:00Z", "2026-01-05T18:00:57.728Z\n",
    "2026-01-05T24:00:00Z", "2026-01-05T18:60:00Z", "2026-01-05T18:00:60Z",
    "0000-01-01T00:00:00Z", "2026-04-31T00:00:00+00:00", "2026-01-05T18:00:57.1234567890Z",
    "\u0662\u0660\u0662\u0666-01-05T18:00:57Z", "CCC25D82-38CE-47A9-89A9-9F0CAF88A8AC",
    "ccc25d82-38ce-47a9-89a9-9f0caf88a8ac\n", "0" * 64, "A" * 64, "0" * 63,
]

RAW_NUMBERS = [b"1e400", b"123456789012345678901234567890", b"-0", b"1.0", b"1E2", b"-1e-2",
               b"9007199254740991", b"9007199254740992", b"00", b"+1", b".5", b"NaN",
               b"Infinity"]


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield (*prefix, key)
            yield from _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield (*prefix, index)
            yield from _paths(item, (*prefix, index))


def _parent(obj: Any, path: tuple[Any, ...]) -> Any:
    for step in path[:-1]:
        obj = obj[step]
    return obj


def _deep(depth: int) -> Any:
    value: Any = 1
    for i in range(depth):
        value = [value] if i % 2 else {"k": value}
    return value


def _perturb(value: Any, rng: random.Random) -> Any:
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return rng.choice([value + 1, value - 1, -value, 0, 2**53 - 1, 2**53, 65, 64])
    if isinstance(value, str):
        choices = [value + "\n", value.upper(), value.lower(), value[:-1], value + "x",
                   value.replace("-", "_"), "é" + value, value * 2]
        return rng.choice(choices)
    return rng.choice(REPLACEMENTS)


def mutate(event: dict[str, Any], rng: random.Random) -> bytes:
    """One mutated record of ``event`` (valid or not: the engines must agree)."""
    obj = copy.deepcopy(event)
    paths = list(_paths(obj))
    kind = rng.randrange(14)
    if kind <= 4 and paths:  # structural: delete, replace, perturb, add, nest
        path = rng.choice(paths)
        parent = _parent(obj, path)
        key = path[-1]
        if kind == 0:
            del parent[key]
        elif kind == 1:
            parent[key] = rng.choice(REPLACEMENTS)
        elif kind == 2:
            parent[key] = _perturb(parent[key], rng)
        elif kind == 3 and isinstance(parent, dict):
            parent[rng.choice(["extra", "Seat", "data", "type", "v"]) + "_x"] = 1
        else:
            parent[key] = _deep(rng.choice([2, 5, 9, 40, 300]))
        raw = json.dumps(obj, separators=(",", ":"), ensure_ascii=False).encode()
    else:
        raw = _byte_level(orjson.dumps(obj), kind, rng)
    return raw


def _byte_level(raw: bytes, kind: int, rng: random.Random) -> bytes:
    at = rng.randrange(len(raw))
    if kind == 5:  # flip a byte
        flipped = bytearray(raw)
        flipped[at] ^= 1 << rng.randrange(8)
        return bytes(flipped)
    if kind == 6:  # truncate
        return raw[:at]
    if kind == 7:  # non-UTF-8 / odd bytes inside a string
        quote = raw.find(b'"', at)
        if quote < 0:
            quote = raw.find(b'"')
        bad = rng.choice([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x00", b"\x1f", b"\x7f",
                          b"\xe2\x80\xa8", b"\\ud800", b"\\udc00", b"\\u00e9", b"\\/"])
        return raw[:quote + 1] + bad + raw[quote + 1:]
    if kind == 8:  # a number written another way
        colon = raw.find(b":", at)
        if colon < 0:
            return raw
        end = colon + 1
        while end < len(raw) and raw[end:end + 1] not in (b",", b"}", b"]"):
            end += 1
        return raw[:colon + 1] + rng.choice(RAW_NUMBERS) + raw[end:]
    if kind == 9:  # whitespace, escapes, indentation (a valid record stays the same event)
        return json.dumps(orjson.loads(raw), ensure_ascii=rng.random() < 0.5,
                          indent=rng.choice([None, 1, "\t", " \r"]),
                          separators=rng.choice([(",", ":"), (", ", ": "), (" ,", " :")]),
                          ).encode()
    if kind == 10:  # key order shuffled (same event, same hash)
        obj = orjson.loads(raw)
        items = list(obj.items())
        rng.shuffle(items)
        return orjson.dumps(dict(items))
    if kind == 11:  # an ASCII character of a string written as an escape
        quote = raw.find(b'":"', at)
        if quote < 0:
            return raw
        c = raw[quote + 3:quote + 4]
        if not c or c in b'"\\':
            return raw
        return raw[:quote + 3] + b"\\u%04x" % c[0] + raw[quote + 4:]
    if kind == 12:  # surrounding whitespace and junk after the value
        return rng.choice([b" " + raw + b" ", raw + b"x", raw + b"{}", b"\xef\xbb\xbf" + raw,
                           raw + b"\x00", b"[" + raw + b"]", raw[: len(raw) // 2]])
    return raw.replace(b'"', b"'", 1)  # not JSON
