"""Hypothesis over every event type: what the contract allows is accepted, whatever is
damaged is refused with a documented code or accepted consistently (issue #19).

Independent references: the ``rfc8785`` package for the canonical hash, the published
JSON Schemas (``schemas/``, checked with ``jsonschema``) for what is valid, and the rules
docs/events.md adds to them (a real instant, no control characters, the bounds).
"""

from __future__ import annotations

import functools
import hashlib
import json
from typing import Any

import jsonschema
import orjson
import rfc8785
from hypothesis import given, settings
from hypothesis import strategies as st

from services.adjudicator.embedded import adjudicate_lines
from services.adjudicator.intake import ParsedEvent, Rejection, _parse_checked, parse_record
from services.events.bounds import MAX_RECORD_BYTES
from services.events.timestamps import timestamp_problem
from tests.fuzz.strategies import (
    EVENT_TYPE_NAMES,
    ROOT,
    damaged_events,
    doc_stream,
    valid_events,
    writings,
)
from tests.fuzz.test_fuzz_adjudicate import REASON_CODES
from tests.unit.core.streams import hcf_stream, lines


@functools.cache
def schema(type_name: str) -> jsonschema.Draft202012Validator:
    path = ROOT / "schemas" / "events" / f"{type_name}.json"
    return jsonschema.Draft202012Validator(json.loads(path.read_text("utf-8")))


def canonical_hash(value: Any) -> str:
    return hashlib.sha256(rfc8785.dumps(value)).hexdigest()


def test_every_event_type_is_covered() -> None:
    assert sorted(e["type"] for e in doc_stream()) == EVENT_TYPE_NAMES


@settings(max_examples=600, deadline=None)
@given(st.data())
def test_every_event_the_contract_allows_is_accepted_however_written(data: st.DataObject) -> None:
    event = data.draw(valid_events())
    schema(event["type"]).validate(event)  # the strategy stays inside the published schema
    expected = canonical_hash(event)
    for raw in (orjson.dumps(event), data.draw(writings(event))):
        result = parse_record(raw, "x")
        assert isinstance(result, ParsedEvent), (result, raw[:300])
        assert result.hash == expected


def _has_control(value: Any) -> bool:
    if isinstance(value, str):
        return any(ord(c) < 0x20 or 0x7F <= ord(c) <= 0x9F for c in value)
    if isinstance(value, dict):
        return any(_has_control(k) or _has_control(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_has_control(v) for v in value)
    return False


def _contract_allows(raw: bytes) -> bool | None:
    """Whether the contract, read from the published schema and the rules docs/events.md
    adds, allows ``raw``; None when the schema alone cannot tell (repeated keys)."""
    if len(raw) > MAX_RECORD_BYTES:
        return False
    try:
        value = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return False
    if not isinstance(value, dict) or value.get("type") not in EVENT_TYPE_NAMES:
        return False
    if not schema(value["type"]).is_valid(value) or _has_control(value):
        return False
    return timestamp_problem(value["ts"]) is None


@settings(max_examples=1500, deadline=None)
@given(damaged_events())
def test_damage_is_refused_with_a_code_or_accepted_as_the_contract_says(
        damaged: tuple[str, str, bytes]) -> None:
    _type, kind, raw = damaged
    result = parse_record(raw, "x")
    again = parse_record(raw, "x")
    assert result == again  # deterministic
    allowed = _contract_allows(raw)
    if isinstance(result, Rejection):
        assert result.reason.startswith(REASON_CODES), result.reason
        assert result.raw == raw
        if allowed and kind not in ("key_repeated", "nesting"):
            raise AssertionError(f"refused what the contract allows: {result.reason}")
        return
    assert allowed, f"{kind}: accepted what the contract refuses: {raw[:300]!r}"
    assert result == _parse_checked(raw, "x")  # the fast path agrees with the checked one
    assert result.hash == canonical_hash(orjson.loads(raw))


@settings(max_examples=150, deadline=None)
@given(damaged_events(), st.integers(0, 25))
def test_a_damaged_event_in_a_stream_leaves_the_other_table_alone(
        damaged: tuple[str, str, bytes], position: int) -> None:
    """The docs' stream of table T1 with one event replaced, interleaved with a clean
    HCF table T2: T2's records are those of T2 alone."""
    _type, _kind, raw = damaged
    t1 = [orjson.dumps(e) for e in doc_stream()]
    t1[position] = raw
    t2 = lines(hcf_stream("T2"))
    alone = [r for step in adjudicate_lines(t2) for r in step.records]
    mixed = [x for pair in zip(t1, t2 + [b""] * len(t1), strict=False) for x in pair if x]
    records = [r for step in adjudicate_lines(mixed) for r in step.records]
    assert [r for r in records if r.table_id == "T2"] == alone
