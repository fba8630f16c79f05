"""Arguments whose bytes are not UTF-8 (Python holds them as lone surrogates): a note, a
name, a filter or a database address of such bytes ended in a traceback deep in the
database or JSON layer, exit 1 (QA: ``cases note 9 $'caf\\xe9'``, ``cases list --db``,
``users disable``). Each is one line naming the argument, exit 2, nothing written. A file
that exists may have any name, as Linux allows, and is read."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.unit.cli.helpers import assert_one_line_usage_error, pitwatch

LATIN1_E = "caf\udce9"  # b"caf\xe9" as Python decodes a command line


@pytest.mark.parametrize("command", [
    ["cases", "note", "9", LATIN1_E],
    ["cases", "assign", "9", LATIN1_E],
    ["cases", "close", "9", "--outcome", "confirmed", "--reason", LATIN1_E],
    ["cases", "list", "--player", LATIN1_E],
    ["users", "disable", LATIN1_E],
])
def test_a_note_name_or_filter_that_is_not_utf8_is_one_line(command: list[str],
                                                            tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path}/x.sqlite"
    ran = pitwatch(*command, "--db", db)
    assert_one_line_usage_error(ran, r"the argument 'caf\xe9' is not UTF-8 text")
    assert not (tmp_path / "x.sqlite").exists()


def test_a_database_address_that_is_not_utf8_is_one_line(tmp_path: Path) -> None:
    ran = pitwatch("cases", "list", "--db", f"sqlite:///{tmp_path}/{LATIN1_E}.db")
    assert_one_line_usage_error(ran, r"caf\xe9.db' is not UTF-8 text")


def test_a_file_with_such_a_name_is_read(tmp_path: Path) -> None:
    log = Path(os.fsdecode(os.fsencode(tmp_path) + b"/day\xe9.jsonl"))
    log.write_bytes(b"")
    ran = pitwatch("adjudicate", str(log))
    assert ran.code == 0, ran.stderr
    assert "not UTF-8" not in ran.stderr
