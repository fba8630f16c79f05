"""Fixtures of the console tests: one simulated archived day per module (SQLite)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine

from services.ledger.db import open_ledger
from tests.unit.archive.support import keep, simulated_log
from tests.unit.console.support import add_users


@pytest.fixture(scope="module")
def day_engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Engine]:
    """A simulated day kept in a fresh database, with one user per role."""
    folder: Path = tmp_path_factory.mktemp("console")
    engine = open_ledger(f"sqlite:///{folder}/ledger.sqlite")
    keep(engine, simulated_log().lines)
    add_users(engine)
    yield engine
    engine.dispose()
