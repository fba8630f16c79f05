"""Locate the shared PHH data, unpack it once per test session, adjudicate imported events.

The data lives beside the repository (``<repo>/../shared/data/phh/``, or under
``$PITWATCH_SHARED/data/phh/``) and is never committed: the archive is unpacked into a
temporary directory at test time.
"""

from __future__ import annotations

import os
import tarfile
from collections.abc import Iterator, Sequence
from pathlib import Path, PurePosixPath
from typing import Any

import msgspec
import orjson

from services.adjudicator.adjudicate import adjudicate_hand
from services.adjudicator.embedded import adjudicate_lines
from services.events.contract import (
    AdjudicationRecord,
    Event,
    TableConfigured,
    event_from_builtins,
)
from services.games.model import HandInput, TableContext
from tests.profiles import PROFILES

REPO = Path(__file__).resolve().parents[2]
ARCHIVE = "pokerkit-d782667-data.tar.gz"


def shared_phh_dir() -> Path:
    """``$PITWATCH_SHARED/data/phh`` if set, else ``<repo>/../shared/data/phh``."""
    root = os.environ.get("PITWATCH_SHARED")
    base = Path(root) if root else REPO.parent / "shared"
    return base / "data" / "phh"


def unpack(target: Path) -> Path:
    """Unpack the archive into ``target``; returns the ``data`` folder."""
    archive = shared_phh_dir() / ARCHIVE
    if not archive.is_file():
        raise FileNotFoundError(f"the PHH data set is missing: {archive} (set PITWATCH_SHARED "
                                "to the folder holding data/phh/)")
    with tarfile.open(archive) as tar:
        if hasattr(tarfile, "data_filter"):  # Python >= 3.11.4
            tar.extractall(target, filter="data")
        else:  # Debian 12's 3.11.2: check the members by hand, as the "data" filter does
            tar.extractall(target, members=_plain_members(tar))
    return target / "data"


def _plain_members(tar: tarfile.TarFile) -> list[tarfile.TarInfo]:
    """The archive's files and folders, refusing links, devices and paths that leave
    the target folder."""
    members = tar.getmembers()
    for member in members:
        parts = PurePosixPath(member.name).parts
        if member.name.startswith("/") or ".." in parts or not (member.isfile()
                                                                or member.isdir()):
            raise ValueError(f"{ARCHIVE}: refusing to unpack {member.name!r}")
    return members


def adjudicate_stream(events: Sequence[dict[str, Any]]) -> list[AdjudicationRecord]:
    """The embedded runner over the events as JSONL (chain, intake, assembly, games)."""
    lines = [orjson.dumps(e) for e in events]
    return [r for step in adjudicate_lines(lines, PROFILES) for r in step.records]


def hand_inputs(events: Sequence[dict[str, Any]]) -> Iterator[HandInput]:
    """Each hand's ``HandInput`` (events decoded, hands assembled per table), without the
    intake's validation and chain checks: for timing the rules alone and for configs
    the contract cannot decode yet."""
    config: dict[str, TableConfigured] = {}
    open_hands: dict[str, list[Event]] = {}
    for raw in events:
        table = raw["table_id"]
        if raw["type"] == "table_configured":
            config[table] = _config(raw["data"])
            continue
        if raw["hand_id"] is None:
            continue
        hand = open_hands.setdefault(table, [])
        hand.append(event_from_builtins(raw))
        if raw["type"] == "hand_ended":
            context = TableContext(table_id=table, config=config[table],
                                   config_authorized=True, seated={})
            yield HandInput(table=context, hand_id=raw["hand_id"], events=tuple(hand))
            open_hands[table] = []


def _config(data: dict[str, Any]) -> TableConfigured:
    result: TableConfigured = msgspec.convert(data, TableConfigured, strict=True)
    return result


def hands_by_id(events: Sequence[dict[str, Any]]) -> dict[str, tuple[dict[str, Any], list[dict[str, Any]]]]:
    """Each hand's events (plain JSON objects) with the table configuration it was played
    under, for mutating one hand and adjudicating it alone."""
    config: dict[str, dict[str, Any]] = {}
    out: dict[str, tuple[dict[str, Any], list[dict[str, Any]]]] = {}
    for raw in events:
        table = raw["table_id"]
        if raw["type"] == "table_configured":
            config[table] = raw["data"]
        elif raw["hand_id"] is not None:
            out.setdefault(raw["hand_id"], (config[table], []))[1].append(raw)
    return out


def adjudicate_one(config: dict[str, Any], hand: Sequence[dict[str, Any]]) -> AdjudicationRecord:
    """Adjudicate one hand's (possibly altered) events under ``config``, chain aside."""
    first = hand[0]
    context = TableContext(table_id=first["table_id"], config=_config(config),
                           config_authorized=True, seated={})
    events = tuple(event_from_builtins(raw) for raw in hand)
    return adjudicate_hand(HandInput(table=context, hand_id=first["hand_id"], events=events), PROFILES)
