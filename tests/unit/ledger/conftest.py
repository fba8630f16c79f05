from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine

from services.ledger.db import open_ledger


@pytest.fixture
def engine(tmp_path: Path) -> Iterator[Engine]:
    """A fresh, migrated SQLite ledger file (in a subdirectory open_ledger must create)."""
    ledger = open_ledger(f"sqlite:///{tmp_path}/var/ledger.sqlite")
    yield ledger
    ledger.dispose()
