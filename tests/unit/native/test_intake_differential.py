"""The native intake decides exactly as the Python reference (``parse_record``).

For every record: both accept with the same canonical hash, or both reject. The reason
a rejected record gets is the reference's own words (the native runner asks it), so the
decision and the hash are what can differ; they are compared here on one valid record
of every event type, every record the simulators write for the five games with every
fault kind, and 100,000+ seeded mutations of those (plus hypothesis-built ones).
"""

from __future__ import annotations

import random
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from services import _native
from services.adjudicator.intake import Rejection, parse_record
from services.events.contract import EVENT_TYPES
from services.simulator.run import available_faults, simulate
from tests.profiles import HOUSE
from tests.unit.native.corpus import mutate, valid_examples

GAMES = ("hcf", "chinese", "draw7a", "russian", "holdem")
MUTATIONS = 110_000


def reference(raw: bytes) -> str | None:
    """The reference's hash, or None for a rejected record."""
    parsed = parse_record(raw, "test")
    return None if isinstance(parsed, Rejection) else parsed.hash


def native(raw: bytes) -> str | None:
    result = _native.intake(raw)
    return None if result is None else result[0]


def simulated_events() -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    for game in GAMES:
        log = simulate([game], 2, 12, 3, frozenset(available_faults(game)), 0.5, profile=HOUSE)
        events += log.events
    return events


@pytest.fixture(scope="module")
def corpus() -> list[dict[str, Any]]:
    return valid_examples() + simulated_events()


def test_every_event_type_is_accepted_with_the_reference_hash() -> None:
    examples = valid_examples()
    assert sorted(e["type"] for e in examples) == sorted(EVENT_TYPES)
    for event in examples:
        raw = orjson.dumps(event)
        assert reference(raw) is not None, event["type"]
        assert native(raw) == reference(raw), event["type"]


def test_every_simulated_record_of_every_game_and_fault(corpus: list[dict[str, Any]]) -> None:
    types = set()
    for event in corpus:
        raw = orjson.dumps(event)
        assert native(raw) == reference(raw), raw
        types.add(event["type"])
    assert types == set(EVENT_TYPES)


def test_seeded_mutations_agree(corpus: list[dict[str, Any]]) -> None:
    """110,000 mutated records: the same decision and, when accepted, the same hash."""
    rng = random.Random(20261201)
    disagreements = []
    accepted = 0
    for _ in range(MUTATIONS):
        raw = mutate(rng.choice(corpus), rng)
        want, got = reference(raw), native(raw)
        accepted += want is not None
        if want != got:
            disagreements.append((raw, want, got))
    assert disagreements[:5] == []
    # The mutator makes both kinds: a test that only ever rejected would prove little.
    assert 0.1 < accepted / MUTATIONS < 0.9


@settings(max_examples=400, deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text() | st.floats(),
                    lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                    max_leaves=12),
       st.sampled_from(sorted(EVENT_TYPES)))
def test_hypothesis_bodies_agree(data: object, tag: str) -> None:
    """Arbitrary JSON as the body of every event type."""
    event = {**valid_examples()[0], "type": tag, "data": data}
    try:
        raw = orjson.dumps(event)
    except TypeError:  # e.g. an integer orjson cannot write
        return
    assert native(raw) == reference(raw)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300))
def test_hypothesis_bytes_agree(raw: bytes) -> None:
    assert native(raw) == reference(raw)


def test_oversized_records_are_rejected_by_both() -> None:
    event = valid_examples()[17]  # shuffler_alarm: free text
    event["data"]["detail"] = "x" * 1_000_001
    raw = orjson.dumps(event)
    assert reference(raw) is None and native(raw) is None
