"""``report daily --table ''``: refused naming --table.

QA: an empty --table was taken as a table id, so the report found no hands and said
"Invalid value for --date: no hands ended on ...", blaming the date. ``cases list`` says
of an empty filter that it matches nothing; so does this, naming the option."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.cli.helpers import assert_one_line_usage_error, pitwatch


@pytest.mark.parametrize("empty", ["", "  "])
def test_an_empty_table_is_refused_naming_table(tmp_path: Path, empty: str) -> None:
    url = f"sqlite:///{tmp_path}/never-opened.sqlite"
    ran = pitwatch("report", "daily", "--date", "2026-01-05", "--table", empty, "--ledger",
                   url, "-o", str(tmp_path / "daily.html"))
    assert_one_line_usage_error(ran, "--table", "an empty value matches no table")
    assert "--date" not in ran.stderr
    assert not (tmp_path / "daily.html").exists()
