"""A SQLite ledger in a folder pitwatch may not write to (an auditor's read-only copy):
SQLite cannot open it even to read, as it keeps the write-ahead log's files beside it.
The refusal said "is it a pitwatch ledger file?" of a real ledger (QA); it now names
the folder and what to do. (A read-only mount cannot be made in a test run as root,
who may write through permissions: the choice of words is tested where it is made.)"""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy.engine import make_url

from services.ledger import db


def test_a_ledger_in_a_read_only_folder_is_said_to_be_there(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    ledger = tmp_path / "copy.sqlite"
    ledger.write_bytes(b"")
    url = make_url(f"sqlite:///{ledger}")
    assert db._sqlite_hint(url) == "is it a pitwatch ledger file?"
    monkeypatch.setattr("services.ledger.db.os.access",
                        lambda path, mode: Path(path) != tmp_path)
    assert db._sqlite_hint(url) == (
        f"its folder {tmp_path} is read-only, and SQLite writes the ledger's journal files "
        "(-wal, -shm) beside it even to read it: copy the file to a folder pitwatch can "
        "write to and read the copy")
    assert db._sqlite_hint(make_url(f"sqlite:///{tmp_path / 'missing.sqlite'}")) == \
        "is it a pitwatch ledger file?"
