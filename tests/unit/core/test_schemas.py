"""The published JSON Schemas, the code models and docs/events.md agree on every type."""

from __future__ import annotations

import copy
import functools
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import msgspec
import pytest

from services.events.contract import EVENT_TYPES, decode_event
from services.events.schemas import all_schemas, drift

ROOT = Path(__file__).resolve().parents[3]
SCHEMAS = ROOT / "schemas"


def _doc_examples() -> list[dict[str, Any]]:
    text = (ROOT / "docs" / "events.md").read_text("utf-8")
    blocks = re.findall(r"```json\n(.*?)\n```", text, flags=re.S)
    return [json.loads(b) for b in blocks if '"event_id"' in b]


@functools.cache
def _validator(name: str) -> jsonschema.Draft202012Validator:
    schema = json.loads((SCHEMAS / name).read_text("utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def test_checked_in_schemas_match_the_code() -> None:
    assert drift(SCHEMAS) == []


def test_every_event_type_has_a_schema_file_and_a_doc_example() -> None:
    documented = {e["type"] for e in _doc_examples()}
    assert documented == set(EVENT_TYPES)
    for type_name in EVENT_TYPES:
        assert (SCHEMAS / "events" / f"{type_name}.json").is_file()
    assert set(all_schemas()) == {str(p.relative_to(SCHEMAS)) for p in SCHEMAS.rglob("*.json")}


@pytest.mark.parametrize("example", _doc_examples(), ids=lambda e: e["type"])
def test_doc_example_valid_for_schema_file_and_model(example: dict[str, Any]) -> None:
    _validator(f"events/{example['type']}.json").validate(example)
    _validator("envelope.json").validate(example)
    decoded = msgspec.to_builtins(decode_event(json.dumps(example)))
    # Fields left out of the builtins are those equal to their default (omit_defaults).
    assert all(decoded["data"].get(k, v) == v for k, v in example["data"].items())
    assert {k: decoded[k] for k in example if k != "data"} == {
        k: v for k, v in example.items() if k != "data"
    }


MUTATIONS = [
    ("missing field", lambda e: e.pop("seq")),
    ("wrong type", lambda e: e.__setitem__("seq", "7")),
    ("fractional", lambda e: e.__setitem__("seq", 1.5)),
    ("zero seq", lambda e: e.__setitem__("seq", 0)),
    ("unknown type", lambda e: e.__setitem__("type", "teleport")),
    ("unknown field", lambda e: e.__setitem__("colour", "red")),
    ("bad hash", lambda e: e.__setitem__("prev_hash", "xyz")),
    ("bad uuid", lambda e: e.__setitem__("event_id", "not-a-uuid")),
    ("bad ts", lambda e: e.__setitem__("ts", "yesterday")),
]


@pytest.mark.parametrize("name,mutate", MUTATIONS, ids=[m[0] for m in MUTATIONS])
@pytest.mark.parametrize("example", _doc_examples()[:8], ids=lambda e: e["type"])
def test_schema_file_and_model_reject_the_same_mutations(
        example: dict[str, Any], name: str, mutate: Callable[[dict[str, Any]], object]) -> None:
    bad = copy.deepcopy(example)
    mutate(bad)
    schema_ok = _validator("envelope.json").is_valid(bad)
    try:
        decode_event(json.dumps(bad))
        model_ok = True
    except msgspec.ValidationError:
        model_ok = False
    assert schema_ok is False and model_ok is False, name


@pytest.mark.parametrize(
    "type_name,field,value",
    [
        ("wager", "amount", -5),
        ("wager", "amount", 2.5),
        ("wager", "amount", 0),
        ("card_dealt", "card", "1x"),
        ("card_dealt", "card", "as"),
        ("payout", "source", "casino"),
        ("hand_started", "deck", 40),
    ],
)
def test_body_constraints_agree(type_name: str, field: str, value: object) -> None:
    example = next(e for e in _doc_examples() if e["type"] == type_name)
    bad = copy.deepcopy(example)
    bad["data"][field] = value
    assert not _validator(f"events/{type_name}.json").is_valid(bad)
    with pytest.raises(msgspec.ValidationError):
        decode_event(json.dumps(bad))
