"""The fast canonical JSON path equals the RFC 8785 reference on contract-shaped values."""

from __future__ import annotations

import hashlib
from typing import Any

import rfc8785
from hypothesis import given, settings
from hypothesis import strategies as st

from services.events.canonical import GENESIS_HASH, canonical_json, event_hash

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53) + 1, 2**53 - 1)
    | st.text(alphabet=st.characters(codec="utf-8"), max_size=12),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.text(max_size=6), children, max_size=5),
    max_leaves=25,
)


@settings(max_examples=400, deadline=None)
@given(json_values)
def test_canonical_json_equals_rfc8785(value: Any) -> None:
    assert canonical_json(value) == rfc8785.dumps(value)


def test_known_vector() -> None:
    """RFC 8785 sorts keys and drops whitespace: {"b":1,"a":[true,null,"é"]}."""
    value = {"b": 1, "a": [True, None, "é"]}
    assert canonical_json(value) == '{"a":[true,null,"é"],"b":1}'.encode()
    assert event_hash(value) == hashlib.sha256('{"a":[true,null,"é"],"b":1}'.encode()).hexdigest()


def test_genesis_hash_is_64_zeros() -> None:
    assert GENESIS_HASH == "0" * 64
