"""Bad input of any shape gets a precise error; the rest of the stream is adjudicated."""

from __future__ import annotations

import json
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from services.adjudicator.embedded import DeadLetter, adjudicate_lines
from services.events.contract import AdjudicationRecord
from tests.profiles import PROFILES
from tests.unit.core.streams import hcf_stream, lines


def _with_bad_line(bad: bytes) -> tuple[list[AdjudicationRecord], list[DeadLetter]]:
    raw = lines(hcf_stream("T1")) + [bad] + lines(hcf_stream("T2", seed=5))
    records: list[AdjudicationRecord] = []
    dead: list[DeadLetter] = []
    for step in adjudicate_lines(raw, PROFILES):
        records += step.records
        dead += step.dead_letters
    return records, dead


def _event(**changes: object) -> dict[str, Any]:
    event = dict(hcf_stream("T9")[4])
    event["data"] = dict(event["data"])
    for key, value in changes.items():
        if key.startswith("data_"):
            event["data"][key[5:]] = value
        else:
            event[key] = value
    return event


CASES = [
    ("malformed JSON", b'{"v": 1, "type": "wager",', "malformed JSON"),
    ("not an object", b"[1, 2, 3]", "a record must be a JSON object"),
    ("unknown type", orjson.dumps(_event(type="teleport")), "Invalid value 'teleport' - at `$.type`"),
    ("missing field", orjson.dumps({k: v for k, v in _event().items() if k != "seq"}),
     "missing required field `seq`"),
    ("wrong type", orjson.dumps(_event(data_seat="one")), "Expected `int`, got `str` - at `$.data.seat`"),
    ("unknown card", orjson.dumps(_event(type="card_dealt", data={"to": "seat", "seat": 1,
                                                                   "card": "Zz", "face_up": False})),
     "at `$.data.card`"),
    ("negative amount", orjson.dumps(_event(data_amount=-5)), "Expected `int` >= 1 - at `$.data.amount`"),
    ("fractional amount", orjson.dumps(_event(data_amount=2.5)), "Expected `int`, got `float` - at `$.data.amount`"),
    ("invalid UTF-8", b'{"v": 1, "table_id": "\xff\xfe"}', "malformed JSON"),
    ("empty object", b"{}", "schema"),
]


@pytest.mark.parametrize("name,bad,expected", CASES, ids=[c[0] for c in CASES])
def test_bad_record_is_dead_lettered_with_reason_and_others_proceed(name: str, bad: bytes,
                                                                    expected: str) -> None:
    records, dead = _with_bad_line(bad)
    assert len(dead) == 1, name
    assert expected in dead[0].reason
    assert dead[0].where == "line 16"
    assert dead[0].raw == bad
    assert sorted(r.hand_id for r in records) == [
        "T1-000001", "T1-000002", "T2-000001", "T2-000002"]


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300) | st.text(max_size=300).map(str.encode))
def test_fuzzed_bytes_never_crash_or_stall(blob: bytes) -> None:
    records, dead = _with_bad_line(blob.replace(b"\n", b" ") or b"x")
    assert len(records) == 4
    assert all(d.reason for d in dead)


@settings(max_examples=200, deadline=None)
@given(st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.sampled_from(["v", "type", "data", "seq", "table_id", "amount", "x"]),
                      children, max_size=6),
    max_leaves=20))
def test_fuzzed_json_values_never_crash(value: object) -> None:
    records, _dead = _with_bad_line(json.dumps(value).encode())
    assert len(records) == 4
