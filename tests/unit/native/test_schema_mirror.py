"""The native core's contract table (native/src/schema.rs) is the reference's, field for field.

msgspec describes the contract structs (``services/events/contract.py``, which also
generates ``schemas/``); the core describes its table (``_native.describe()``); both are
written in one notation and compared: every event type's class and body, every body
field's wire name, Python name, kind (bounds, pattern, literals) and whether it is
required. A field added to the contract and not to the core fails here.
"""

from __future__ import annotations

import json

import msgspec
from msgspec import inspect

from services import _native
from services.events import contract
from services.events.timestamps import TIMESTAMP_PATTERN

PATTERNS = {
    r"^[2-9TJQKA][cdhs]$": "Card",
    r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$": "Uuid",
    TIMESTAMP_PATTERN: "Timestamp",
    r"^[0-9a-f]{64}$": "Sha256",
    r"^(board|stub|burn|seat:[1-9][0-9]?)$": "CardPlace",
    r"^(designated|house|pot|seat:[1-9][0-9]?)$": "PayoutSource",
    r"^(designated|house|seat:[1-9][0-9]?)$": "CollectionTo",
}


def _literal_order(value: object) -> tuple[int, int, str]:
    """Ints in numeric order, strings in their own (a literal holds one kind or the other)."""
    return (0, value, "") if isinstance(value, int) else (1, 0, str(value))


def kind(t: inspect.Type) -> str:
    if isinstance(t, inspect.Metadata):
        return kind(t.type)
    if isinstance(t, inspect.StrType):
        pattern = PATTERNS[t.pattern] if t.pattern else "None"
        high = "-" if t.max_length is None else str(t.max_length)
        return f"str[{t.min_length or 0},{high},{pattern}]"
    if isinstance(t, inspect.IntType):
        return f"int[{t.ge},{t.le}]"
    if isinstance(t, inspect.BoolType):
        return "bool"
    if isinstance(t, inspect.LiteralType):
        values = sorted(t.values, key=_literal_order)
        prefix = "litint" if isinstance(values[0], int) else "lit"
        return prefix + json.dumps(values, separators=(", ", ": "))
    if isinstance(t, inspect.UnionType):
        others = [x for x in t.types if not isinstance(x, inspect.NoneType)]
        text = "|".join(kind(x) for x in others)
        return text + "|null" if len(others) < len(t.types) else text
    if isinstance(t, inspect.ListType):
        return f"list[{kind(t.item_type)}]<={t.max_length}"
    if isinstance(t, inspect.StructType):
        return t.cls.__name__
    if isinstance(t, inspect.DictType):
        return f"dict[{kind(t.key_type)},{kind(t.value_type)}]<={t.max_length}"
    raise AssertionError(f"no native notation for {t}")


def reference_structs() -> dict[str, list[tuple[str, str, str, bool]]]:
    out: dict[str, list[tuple[str, str, str, bool]]] = {}

    def visit(cls: type[msgspec.Struct]) -> None:
        info = inspect.type_info(cls)
        assert isinstance(info, inspect.StructType)
        if cls.__name__ in out:
            return
        out[cls.__name__] = [(f.encode_name, f.name, kind(f.type), f.required)
                             for f in info.fields]
        for f in info.fields:
            for t in walk(f.type):
                if isinstance(t, inspect.StructType):
                    visit(t.cls)

    def walk(t: inspect.Type) -> list[inspect.Type]:
        if isinstance(t, inspect.Metadata):
            return walk(t.type)
        if isinstance(t, inspect.UnionType):
            return [x for y in t.types for x in walk(y)]
        if isinstance(t, inspect.ListType):
            return walk(t.item_type)
        return [t]

    for cls in contract.EVENT_TYPES.values():
        body = next(f.type for f in msgspec.structs.fields(cls) if f.name == "data")
        visit(body)
    return out


def native_tables() -> tuple[dict[str, tuple[str, str]], dict[str, list[tuple[str, str, str, bool]]]]:
    events, structs = {}, {}
    for name, fields in _native.describe():
        what, _, rest = name.partition(":")
        if what == "event":
            tag, cls, body = rest.split(":")
            events[tag] = (cls, body)
        else:
            structs[rest] = [tuple(f) for f in fields]
    return events, structs


def test_every_event_type_has_the_reference_class_and_body() -> None:
    events, _ = native_tables()
    reference = {}
    for tag, cls in contract.EVENT_TYPES.items():
        body = next(f.type for f in msgspec.structs.fields(cls) if f.name == "data")
        reference[tag] = (cls.__name__, body.__name__)
    assert events == reference


def test_every_body_field_is_the_reference_field() -> None:
    """Compared by wire name: the core keeps each struct's fields in RFC 8785 order."""
    _, structs = native_tables()
    assert {name: sorted(fields) for name, fields in structs.items()} == {
        name: sorted(fields) for name, fields in reference_structs().items()}
