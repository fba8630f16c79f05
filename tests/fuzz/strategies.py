"""Hypothesis strategies over every event type of the v1 contract (issue #19).

The 26 examples of docs/events.md (one consistent, hash-chained stream of table T1) are
the seeds: ``valid_events`` varies every field the contract lets vary, within the
contract (so intake must accept each one); ``damaged_events`` applies one of the seeded
mutator's operations (``tests.fuzz.mutations``) with a Hypothesis-drawn random source.
"""

from __future__ import annotations

import json
import random
import re
from datetime import datetime
from functools import cache
from pathlib import Path
from typing import Any

import orjson
from hypothesis import strategies as st

from services.events.bounds import MAX_NAME_LENGTH, MAX_SAFE_INTEGER, MAX_SEATS, MAX_TEXT_LENGTH
from services.events.contract import EVENT_TYPES
from tests.fuzz.mutations import REPLACEMENTS

ROOT = Path(__file__).resolve().parents[2]
EVENT_TYPE_NAMES = sorted(EVENT_TYPES)


@cache
def doc_examples() -> dict[str, dict[str, Any]]:
    """The example of each event type in docs/events.md, by type."""
    text = (ROOT / "docs" / "events.md").read_text("utf-8")
    blocks = re.findall(r"```json\n(.*?)\n```", text, flags=re.S)
    events = [json.loads(b) for b in blocks if '"event_id"' in b]
    return {e["type"]: e for e in events}


def doc_stream() -> list[dict[str, Any]]:
    """The examples in stream order (seq 1..26)."""
    return sorted(doc_examples().values(), key=lambda e: e["seq"])


# Text the contract allows: no control characters (Cc) and no lone surrogates (not UTF-8).
_chars = st.characters(blacklist_categories=("Cc", "Cs"))
names = st.text(_chars, min_size=1, max_size=MAX_NAME_LENGTH)
free_text = st.text(_chars, max_size=MAX_TEXT_LENGTH)
cards = st.builds(lambda r, s: r + s, st.sampled_from("23456789TJQKA"), st.sampled_from("cdhs"))
hex64 = st.text("0123456789abcdef", min_size=64, max_size=64)
uuids = st.uuids().map(str) | st.uuids().map(lambda u: str(u).upper())


@st.composite
def timestamps(draw: st.DrawFn) -> str:
    """Any real instant from 0001 to 9999, 0 to 9 fractional digits, Z or +00:00."""
    moment = draw(st.datetimes(datetime(1, 1, 1), datetime(9999, 12, 31, 23, 59, 59)))
    digits = draw(st.integers(0, 9))
    fraction = f"{moment.microsecond:06d}{draw(st.integers(0, 999)):03d}"[:digits]
    zone = draw(st.sampled_from(["Z", "+00:00"]))
    m = moment
    stamp = f"{m.year:04d}-{m.month:02d}-{m.day:02d}T{m.hour:02d}:{m.minute:02d}:{m.second:02d}"
    return stamp + (f".{fraction}" if digits else "") + zone


# What each field may be, by where it is: envelope fields by name; body fields by the name
# of the field holding them where that name means one thing in every body.
ENVELOPE: dict[str, st.SearchStrategy[Any]] = {
    "event_id": uuids,
    "table_id": names,
    "seq": st.integers(1, MAX_SAFE_INTEGER),
    "ts": timestamps(),
    "prev_hash": hex64,
    "source": names,
}
# (the type a value must have to be replaced: a ``seat`` may also be "dealer", a
# ``card`` null; those stay as they are or take a value of the type)
BODY: dict[str, tuple[type, st.SearchStrategy[Any]]] = {
    "seat": (int, st.integers(1, MAX_SEATS)),
    "amount": (int, st.integers(1, MAX_SAFE_INTEGER)),
    "stack": (int, st.integers(0, MAX_SAFE_INTEGER)),
    "card": (str, cards),
    "player_id": (str, names),
    "dealer_id": (str, names),
    "reason": (str, free_text),
    "detail": (str, free_text),
    "rule_profile": (str, names),
    "authorized_by": (str, names),
}


@st.composite
def valid_events(draw: st.DrawFn, type_name: str | None = None) -> dict[str, Any]:
    """An event of ``type_name`` (or any type) the contract must accept."""
    name = type_name or draw(st.sampled_from(EVENT_TYPE_NAMES))
    event: dict[str, Any] = orjson.loads(orjson.dumps(doc_examples()[name]))
    for key, strategy in ENVELOPE.items():
        if draw(st.booleans()):
            event[key] = draw(strategy)
    if event["hand_id"] is not None and draw(st.booleans()):
        event["hand_id"] = draw(names)
    _vary_body(draw, event["data"])
    return event


def _vary_body(draw: st.DrawFn, value: Any) -> None:
    if isinstance(value, dict):
        for key, child in value.items():
            kind, strategy = BODY.get(key, (None, None))
            if strategy is not None and (child is None or type(child) is kind) and draw(
                    st.booleans()):
                value[key] = draw(strategy)
            else:
                _vary_body(draw, child)
    elif isinstance(value, list):
        for child in value:
            _vary_body(draw, child)


@st.composite
def damaged_events(draw: st.DrawFn) -> tuple[str, str, bytes]:
    """(type, kind of damage, damaged bytes) of a valid event."""
    event = draw(valid_events())
    raw = orjson.dumps(event)
    kind = draw(st.sampled_from(sorted(REPLACEMENTS)))
    rng = random.Random(draw(st.integers(0, 2**32)))
    damaged = REPLACEMENTS[kind](raw, event, rng)
    return event["type"], kind, raw if damaged is None else damaged


def writings(event: dict[str, Any]) -> st.SearchStrategy[bytes]:
    """The same event written other ways: key order, whitespace, escaped non-ASCII."""
    return st.builds(
        lambda order, indent, ascii_only: json.dumps(
            dict(sorted(event.items(), reverse=order)), indent=indent,
            ensure_ascii=ascii_only).encode(),
        st.booleans(), st.sampled_from([None, 0, 2]), st.booleans())
