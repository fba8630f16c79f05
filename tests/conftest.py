"""Fixtures every test directory shares: the databases (``tests/databases.py``).

- ``pg_url`` (session): a PostgreSQL database made for this test session, dropped after.
- ``db_url``: a fresh, empty database URL, once on SQLite and once on PostgreSQL
  (the PostgreSQL run is marked ``integration``).
- ``engine``: the pitwatch database at ``db_url``, migrated (``open_ledger``).
- ``pg_engine``: the same on PostgreSQL only, for what only PostgreSQL has (partitions,
  TRUNCATE); a test using it is marked ``integration``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine

from services.ledger.db import open_ledger
from tests.databases import BACKENDS, fresh_schema, session_database


@pytest.fixture(scope="session")
def pg_url() -> Iterator[str]:
    """URL of a fresh PostgreSQL database for this session, dropped afterwards."""
    with session_database() as url:
        yield url


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A database that holds nothing yet: a SQLite file in a folder that does not exist
    yet (``open_ledger`` makes it), or a fresh PostgreSQL schema."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path}/var/ledger.sqlite"
        return
    with fresh_schema(request.getfixturevalue("pg_url")) as url:
        yield url


@pytest.fixture
def engine(db_url: str) -> Iterator[Engine]:
    """The pitwatch database at ``db_url``, migrated to the latest schema."""
    ledger = open_ledger(db_url)
    yield ledger
    ledger.dispose()


@pytest.fixture
def pg_engine(pg_url: str) -> Iterator[Engine]:
    """A migrated pitwatch database in a fresh PostgreSQL schema."""
    with fresh_schema(pg_url) as url:
        ledger = open_ledger(url)
        yield ledger
        ledger.dispose()
