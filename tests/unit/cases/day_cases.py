"""A simulated day adjudicated into a ledger by the command, its cases opened with the
intake reading the booked hands some other way (``HandFacts``): how an older pitwatch, or
the pipeline's order of services, left them. And the queue as the command lists it."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from pathlib import Path

import orjson
import pytest
from sqlalchemy import Connection

from services.cases import intake
from tests.unit.archive.support import simulated_log
from tests.unit.cli.helpers import pitwatch

HandFacts = Callable[[Connection, set[str]],
                     tuple[dict[str, dt.date], dict[str, set[tuple[str, str]]]]]


def adjudicated_day(tmp_path: Path, db_url: str, monkeypatch: pytest.MonkeyPatch,
                    hand_facts: HandFacts) -> None:
    """Two HCF tables of 60 hands with every fault, booked into ``db_url``."""
    log = tmp_path / "day.jsonl"
    log.write_bytes(b"\n".join(simulated_log(tables=2, hands=60).lines) + b"\n")
    monkeypatch.setattr(intake, "hand_facts", hand_facts)
    ran = pitwatch("adjudicate", str(log), "--ledger", db_url)
    assert ran.code == 0, ran.stderr
    monkeypatch.undo()


def listed_cases(url: str, *filters: str) -> set[int]:
    """The case ids ``pitwatch cases list`` gives with ``filters``, in any state."""
    ran = pitwatch("cases", "list", *filters, "--state", "any", "--db", url,
                   "--format", "json")
    assert ran.code == 0, ran.stderr
    return {int(case["case"]) for case in orjson.loads(ran.stdout)}
