"""Publish the v1 contract as JSON Schema (draft 2020-12) files under ``schemas/``.

The files are generated from the msgspec structs and checked in; a test regenerates them
and fails on any difference, so the published contract and the code cannot drift apart.
Other systems consume the files; pitwatch validates with the structs.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec

from services.events.contract import EVENT_TYPES, AdjudicationRecord, Event

DRAFT = "https://json-schema.org/draft/2020-12/schema"
BASE_ID = "https://pitwatch.example/schemas/v1/"


def _schema(tp: Any, name: str, title: str) -> dict[str, Any]:
    body = msgspec.json.schema(tp)
    return {"$schema": DRAFT, "$id": BASE_ID + name, "title": title, **body}


def all_schemas() -> dict[str, dict[str, Any]]:
    """File name -> schema: the envelope (any event), each event type, the record."""
    out = {"envelope.json": _schema(Event, "envelope.json", "pitwatch table event v1 (any type)")}
    for type_name, cls in sorted(EVENT_TYPES.items()):
        out[f"events/{type_name}.json"] = _schema(
            cls, f"events/{type_name}.json", f"pitwatch table event v1: {type_name}"
        )
    out["adjudication_record.json"] = _schema(
        AdjudicationRecord, "adjudication_record.json", "pitwatch adjudication record v1"
    )
    return out


def render(schema: dict[str, Any]) -> str:
    return json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def export(root: Path) -> list[Path]:
    written = []
    for name, schema in all_schemas().items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(render(schema), encoding="utf-8")
        written.append(path)
    return written


def drift(root: Path) -> list[str]:
    """Names of schema files that are missing, stale or unexpected under ``root``."""
    expected = all_schemas()
    problems = [n for n, s in expected.items()
                if not (root / n).is_file() or (root / n).read_text("utf-8") != render(s)]
    present = {str(p.relative_to(root)) for p in root.rglob("*.json")}
    problems += sorted(present - set(expected))
    return problems
