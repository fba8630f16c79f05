"""The one-parse intake path gives exactly what the checked path gives, on any input.

``parse_record`` hashes a valid record from its decoded struct when that provably equals
the canonical JSON of the record (``decoded_event_canonical``) and otherwise falls back to
``_parse_checked`` (parse as JSON, validate, hash the parsed value). These tests feed both
the same records (valid ones written in every way JSON allows, and mutated ones) and
require equal results: the same event and hash, or the same rejection and wording.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from services.adjudicator.intake import ParsedEvent, Rejection, _parse_checked, parse_record
from services.events.canonical import canonical_json, decoded_event_canonical
from services.events.contract import decode_event
from services.events.stream import TableStream
from tests.unit.core.streams import hcf_stream


def _holdem_events() -> list[dict[str, Any]]:
    """Events whose bodies have optional fields, left out and given (hand-written)."""
    s = TableStream("H1", random.Random(11))
    s.emit("table_configured", {"game": "holdem", "limits": {"min_wager": 2, "max_wager": 500,
                                                             "small_blind": 1, "big_blind": 2},
                                "rake": {"mode": "none", "fee": 0}, "rule_profile": "house-v1",
                                "structure": "no", "authorized_by": "sup",
                                "paytables": {"main": {"pair": 1}}})
    hid = "H1-1"
    s.emit("card_dealt", {"to": "board", "card": "Ah", "face_up": True}, hid)
    s.emit("card_dealt", {"to": "burn", "card": None, "face_up": False, "seat": None}, hid)
    s.emit("action", {"seat": 2, "action": "fold"}, hid)
    s.emit("action", {"seat": 2, "action": "check", "amount": None}, hid)
    s.emit("showdown", {"seat": 3, "cards": ["As", "Kd"]}, hid)
    s.emit("showdown", {"seat": 4, "mucked": False}, hid)
    s.emit("payout", {"seat": 3, "amount": 40, "source": "pot", "kind": "pot"}, hid)
    s.emit("draw", {"seat": 1, "discarded": [], "received": ["2c"]}, hid)
    return s.events


EVENTS = hcf_stream("T1") + _holdem_events()


def _gives_a_default(event: dict[str, Any]) -> bool:
    """A body field written with its default value (``null``; ``mucked: false``)."""
    data = event["data"]
    return any(data.get(key, 0) is None for key in ("seat", "amount", "cards")) or (
        data.get("mucked", True) is False)


EXPLICIT_DEFAULTS = [e for e in EVENTS if _gives_a_default(e)]


def _same(raw: bytes) -> None:
    fast = parse_record(raw, "line 1")
    checked = _parse_checked(raw, "line 1")
    assert fast == checked


def _spaced(event: dict[str, Any]) -> bytes:
    return orjson.dumps(event, option=orjson.OPT_INDENT_2)


def _reordered(event: dict[str, Any]) -> bytes:
    return orjson.dumps(dict(reversed(list(event.items()))))


def _escaped(event: dict[str, Any]) -> bytes:
    return orjson.dumps(event).replace(b'"table_id"', b'"\\u0074able_id"', 1)


def _duplicate_type(event: dict[str, Any]) -> bytes:
    other = "wager" if event["type"] != "wager" else "action"
    return orjson.dumps(event)[:-1] + b',"type":"' + other.encode() + b'"}'


def _duplicate_seq(event: dict[str, Any]) -> bytes:
    return b'{"seq":99,' + orjson.dumps(event)[1:]


def _minus_zero(event: dict[str, Any]) -> bytes:
    return orjson.dumps(event).replace(b'"v":1', b'"v":1,"v":-0', 1)


def _non_ascii(event: dict[str, Any]) -> bytes:
    return orjson.dumps({**event, "source": "tëst"})


VARIANTS = [orjson.dumps, _spaced, _reordered, _escaped, _duplicate_type, _duplicate_seq,
            _minus_zero, _non_ascii]


@pytest.mark.parametrize("variant", VARIANTS, ids=[v.__name__ for v in VARIANTS])
def test_every_way_of_writing_an_event_gives_the_checked_result(variant: Any) -> None:
    for event in EVENTS:
        _same(variant(event))


def test_compact_records_take_the_fast_path_with_the_canonical_bytes() -> None:
    """orjson's compact output (what the simulators and importers write) is the usual case;
    its struct form is the RFC 8785 form of the parsed record."""
    for event in EVENTS:
        if event not in EXPLICIT_DEFAULTS:
            raw = orjson.dumps(event)
            assert decoded_event_canonical(decode_event(raw), raw) == canonical_json(event)


def test_explicit_defaults_fall_back_and_keep_the_record_hash() -> None:
    """``"seat": null`` is omitted when re-encoded, so the struct form is shorter than the
    record and the checked path hashes the record as written."""
    assert len(EXPLICIT_DEFAULTS) == 3  # burn with seat null, check with amount null, muck
    for event in EXPLICIT_DEFAULTS:
        raw = orjson.dumps(event)
        assert decoded_event_canonical(decode_event(raw), raw) is None
        parsed = parse_record(raw, "line 1")
        assert isinstance(parsed, ParsedEvent)
        assert parsed.hash == hashlib.sha256(canonical_json(event)).hexdigest()


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(range(len(EVENTS))), st.integers(0, 10_000),
       st.sampled_from([b"", b" ", b"0", b"-", b'"', b"\\", b",", b"}", b"{", b"e", b".", b"\xc3",
                        b"1", b"null", b"x"]),
       st.integers(0, 2))
def test_mutated_records_give_the_checked_result(index: int, position: int, byte: bytes,
                                                 how: int) -> None:
    raw = orjson.dumps(EVENTS[index])
    at = position % (len(raw) + 1)
    if how == 0:  # insert
        mutated = raw[:at] + byte + raw[at:]
    elif how == 1:  # replace
        mutated = raw[:at] + byte + raw[at + 1:]
    else:  # delete
        mutated = raw[:at] + raw[at + 1:]
    _same(mutated)


def test_a_rejection_keeps_its_wording() -> None:
    raw = orjson.dumps({**EVENTS[4], "seq": "one"})
    parsed = parse_record(raw, "line 3")
    assert isinstance(parsed, Rejection)
    assert parsed.reason == "schema: Expected `int`, got `str` - at `$.seq`"
    assert parsed.where == "line 3"
