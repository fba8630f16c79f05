"""Days are ``YYYY-MM-DD`` and nothing else: Python 3.11's ``date.fromisoformat`` also
takes ``20260105`` and ``2026-W02-1``, and ``verify``, ``replay``, ``report daily`` and
``cases list`` ran over the day so named, though their help and messages say YYYY-MM-DD
(QA). Each is a one-line usage error naming the option."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from services.events.days import parse_day
from tests.unit.cli.helpers import assert_one_line_usage_error, pitwatch


@pytest.mark.parametrize("text", ["20260105", "2026-W02-1", "2026-005", "2026-1-5",
                                  "2026-01-05T00:00", " 2026-01-05", "２０２６-01-05",
                                  "2026-02-30"])
def test_only_the_one_form(text: str) -> None:
    with pytest.raises(ValueError):
        parse_day(text)


def test_the_one_form() -> None:
    assert parse_day("2026-01-05") == dt.date(2026, 1, 5)
    assert parse_day("2024-02-29") == dt.date(2024, 2, 29)


@pytest.mark.parametrize("command", [
    ["verify", "--from", "{day}"],
    ["replay", "--from", "{day}", "--to", "2026-01-06"],
    ["report", "daily", "--date", "{day}"],
    ["cases", "list", "--date", "{day}"],
])
@pytest.mark.parametrize("day", ["20260105", "2026-W02-1"])
def test_each_command_refuses_other_forms(command: list[str], day: str,
                                          tmp_path: Path) -> None:
    db = "--ledger" if command[:2] == ["report", "daily"] else "--db"
    ran = pitwatch(*[part.format(day=day) for part in command], db,
                   f"sqlite:///{tmp_path}/x.sqlite")
    option = command[command.index("{day}") - 1]
    assert_one_line_usage_error(ran, option)
    assert "YYYY-MM-DD" in ran.stderr
