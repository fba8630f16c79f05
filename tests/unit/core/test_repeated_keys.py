"""A record with a repeated key is refused (docs/events.md; issue #19, "Repeated keys")."""

from __future__ import annotations

import json

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from services.adjudicator.intake import ParsedEvent, Rejection, parse_record
from services.events.wire import repeated_key
from tests.unit.core.streams import hcf_stream, lines


def seated() -> bytes:
    return lines(hcf_stream())[1]  # player_seated, seat 1, stack 100


def test_the_issue_example_stack_999_then_600_is_refused() -> None:
    """pitwatch read 600 and hashed the object with 600; a first-value parser reads 999."""
    raw = seated().replace(b'"stack":100', b'"stack":999,"stack":600')
    result = parse_record(raw, "line 2")
    assert isinstance(result, Rejection)
    assert result.reason == ("repeated key: key 'stack' appears more than once in the object "
                             "at `$.data` (keys must be unique: RFC 8785, I-JSON)")
    assert result.table_id == "T1" and result.raw == raw


@pytest.mark.parametrize(("raw", "expected"), [
    (b'{"a":1,"a":1}', "key 'a' appears more than once in the object at `$`"),
    (b'{"a":[{"b":1},{"c":2,"c":3}]}', "key 'c' appears more than once in the object at `$.a[1]`"),
    # the outer object opens first: it is named, although its repeat comes later
    (b'{"x":{"y":1,"y":2},"z":1,"z":2}', "key 'z' appears more than once in the object at `$`"),
    (b'{"k":"a:b","k2":"\\":"}', None),  # colons inside strings are not members
    (b'{"a":{},"b":[[],{}]}', None),
    (b'{"\\u0061":1,"a":2}', "key 'a' appears more than once in the object at `$`"),  # escaped
])
def test_repeated_key_names_the_first_object_that_has_one(raw: bytes, expected: str | None) -> None:
    assert repeated_key(raw, orjson.loads(raw)) == expected


def test_a_repeated_envelope_key_is_refused_even_with_the_same_value() -> None:
    raw = seated().replace(b'"v":1,', b'"v":1,"v":1,')
    result = parse_record(raw, "x")
    assert isinstance(result, Rejection) and result.reason.startswith("repeated key: key 'v'")


def test_whitespace_and_key_order_are_not_repeats() -> None:
    event = orjson.loads(seated())
    pretty = json.dumps(dict(reversed(list(event.items()))), indent=2).encode()
    result = parse_record(pretty, "x")
    assert isinstance(result, ParsedEvent)


@settings(max_examples=200, deadline=None)
@given(st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.text(alphabet=':"\\{}[],ab', max_size=5),
    lambda children: st.lists(children, max_size=3)
    | st.lists(st.tuples(st.sampled_from(["a", "b", ":", '"']), children), max_size=4),
    max_leaves=12))
def test_detected_exactly_when_some_object_repeats_a_key(value: object) -> None:
    """Lists of pairs are written as objects, keys possibly repeated; the check must say
    so exactly when one is (hand-computed truth: the pairs themselves)."""
    def write(v: object) -> str:
        if isinstance(v, list) and v and all(isinstance(p, tuple) for p in v):
            return "{" + ",".join(json.dumps(k) + ":" + write(x) for k, x in v) + "}"
        if isinstance(v, list):
            return "[" + ",".join(write(x) for x in v) + "]"
        return json.dumps(v)

    def repeats(v: object) -> bool:
        if isinstance(v, list) and v and all(isinstance(p, tuple) for p in v):
            keys = [k for k, _ in v]
            return len(set(keys)) != len(keys) or any(repeats(x) for _, x in v)
        return isinstance(v, list) and any(repeats(x) for x in v)

    raw = write(value).encode()
    assert (repeated_key(raw, orjson.loads(raw)) is not None) == repeats(value)
