"""The engine's counters as JSON and back, so a run can stop and another go on from them.

Why JSON with type tags, not pickle: the state is read back from a database, and a
pickle runs whatever code its bytes name; here only the surveillance dataclasses listed
in ``TYPES`` can be made, field by field. Why a generic codec: the watches keep their
counters in plain dataclasses, dicts (some keyed by tuples), sets, deques of evidence;
writing one encoder per watch would be the same code eight times.

Encoding (deterministic: insertion order kept, sets sorted):

- a dataclass: ``{"$": "<name>", "<field>": ...}``;
- a dict: ``{"$dict": [[key, value], ...]}`` (keys may be tuples);
- a tuple ``{"$tuple": [...]}``, a set ``{"$set": [...]}``, ``Evidence``
  ``{"$evidence": [keep, [hand refs ...]]}``; lists, str, int, float, bool, None as is.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from services.surveillance import (
    alerting,
    chip_dumping,
    collusion,
    concentration,
    drift,
    facts,
    improbable,
    player_profiles,
    soft_play,
    stratified,
)

_MODULES = (alerting, chip_dumping, collusion, concentration, drift, facts, improbable,
            player_profiles, soft_play, stratified)


def _dataclasses() -> dict[str, type]:
    found: dict[str, type] = {}
    for module in _MODULES:
        for value in vars(module).values():
            if (isinstance(value, type) and dataclasses.is_dataclass(value)
                    and value.__module__ == module.__name__):
                found[f"{module.__name__.rsplit('.', 1)[-1]}.{value.__qualname__}"] = value
    return found


TYPES = _dataclasses()
_NAMES = {cls: name for name, cls in TYPES.items()}


class StateError(ValueError):
    """Stored state that this code cannot read back (another version wrote it)."""


def dump(value: Any) -> Any:
    if isinstance(value, alerting.Evidence):
        return {"$evidence": [value.hands.maxlen, [dump(r) for r in value.hands]]}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        name = _NAMES.get(type(value))
        if name is None:
            raise StateError(f"{type(value).__name__} is not a surveillance state type")
        body = {f.name: dump(getattr(value, f.name)) for f in dataclasses.fields(value)}
        return {"$": name, **body}
    if isinstance(value, dict):
        return {"$dict": [[dump(k), dump(v)] for k, v in value.items()]}
    if isinstance(value, tuple):
        return {"$tuple": [dump(v) for v in value]}
    if isinstance(value, set | frozenset):
        return {"$set": sorted((dump(v) for v in value), key=repr)}
    if isinstance(value, list):
        return [dump(v) for v in value]
    if value is None or isinstance(value, str | int | float | bool):
        return value
    raise StateError(f"cannot store a {type(value).__name__}")


def load(value: Any) -> Any:
    if isinstance(value, list):
        return [load(v) for v in value]
    if not isinstance(value, dict):
        return value
    if "$evidence" in value:
        keep, refs = value["$evidence"]
        evidence = alerting.Evidence(keep or 0)
        for ref in refs:
            evidence.add(load(ref))
        return evidence
    if "$dict" in value:
        return {_hashable(load(k)): load(v) for k, v in value["$dict"]}
    if "$tuple" in value:
        return tuple(load(v) for v in value["$tuple"])
    if "$set" in value:
        return {_hashable(load(v)) for v in value["$set"]}
    name = value.get("$")
    cls = TYPES.get(name) if isinstance(name, str) else None
    if cls is None:
        raise StateError(f"unknown stored type {name!r}")
    fields = {f.name for f in dataclasses.fields(cls)}
    return cls(**{k: load(v) for k, v in value.items() if k in fields})


def _hashable(value: Any) -> Any:
    return tuple(_hashable(v) for v in value) if isinstance(value, list) else value
