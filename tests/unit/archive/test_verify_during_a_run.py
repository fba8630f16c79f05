"""``pitwatch verify`` while a run books into the same database finds it whole.

A run books a batch's hands and keeps their events in one transaction, so no moment of
the database is broken; but verify read a table's archive first and the ledger's hands
after, and a batch committed between the two reads showed hands booked past the
archive's end: hundreds of false ``anchor`` breaks, exit 1 (QA helper 101). Here that
moment is made, not waited for: the first of verify's two reads of the table takes its
first row, then the rest of the table's log is booked (the run that goes on), then the
other read runs. SQLite and PostgreSQL.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine

from services.archive.anchors import booked_anchors
from services.archive.reader import stored_segments
from services.archive.verify import verify_archive
from tests.unit.archive.support import simulated_log
from tests.unit.cli.helpers import pitwatch


def _halves(tmp_path: Path) -> tuple[Path, Path]:
    lines = list(simulated_log(tables=1, hands=40, faults=False).lines)
    cut = [i for i, line in enumerate(lines) if b'"hand_started"' in line][20]
    first, rest = tmp_path / "first.jsonl", tmp_path / "rest.jsonl"
    first.write_bytes(b"\n".join(lines[:cut]) + b"\n")
    rest.write_bytes(b"\n".join(lines[cut:]) + b"\n")
    return first, rest


@pytest.mark.parametrize("when", ["as the ledger is read", "after the first read"])
def test_a_batch_booked_while_verify_reads_is_no_break(
        engine: Engine, db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        when: str) -> None:
    """The rest of the log is booked just before the ledger's hands are read, or once the
    first of the two reads took its first row. Either way the hands verify holds to the
    archive are ones whose events it read."""
    first, rest = _halves(tmp_path)
    assert pitwatch("adjudicate", str(first), "--leave-open", "--ledger", db_url).code == 0
    booked: list[int] = []

    def book() -> None:
        if not booked:
            booked.append(pitwatch("adjudicate", str(rest), "--ledger", db_url).code)

    def then_book(read: Callable[..., Iterator[Any]], before: bool
                  ) -> Callable[..., Iterator[Any]]:
        def reading(*args: Any, **kwargs: Any) -> Iterator[Any]:
            if before:
                book()
            for n, item in enumerate(read(*args, **kwargs)):
                yield item
                if n == 0 and when == "after the first read":
                    book()
        return reading

    ledger_first = when == "as the ledger is read"
    monkeypatch.setattr("services.archive.verify.booked_anchors",
                        then_book(booked_anchors, ledger_first))
    monkeypatch.setattr("services.archive.verify.stored_segments",
                        then_book(stored_segments, False))
    report = verify_archive(engine)
    assert booked == [0]
    assert report.archive_breaks == [], report.archive_breaks
