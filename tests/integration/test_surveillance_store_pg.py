"""Surveillance that persists, on a real PostgreSQL server: the cases of
tests/unit/surveillance/store_cases.py, each on a database of its own (created and
dropped here), so the rewritten profile tables never meet another test's."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from sqlalchemy import Engine

from services.ledger.db import open_ledger
from tests.databases import base_pg_url
from tests.integration.pipeline_support import create_database, drop_database
from tests.unit.surveillance import store_cases


@pytest.fixture
def pg_db() -> Iterator[Engine]:
    url = create_database(base_pg_url(), "surv_store")
    engine = open_ledger(url)
    try:
        yield engine
    finally:
        engine.dispose()
        drop_database(url)


@pytest.mark.parametrize("case", [
    store_cases.a_pattern_spread_over_two_days_is_seen,
    store_cases.a_hand_offered_again_is_not_counted_twice,
    store_cases.profiles_are_stored_as_rows,
])
def test_on_postgresql(pg_db: Engine, case: Callable[[Engine], None]) -> None:
    assert pg_db.dialect.name == "postgresql"
    case(pg_db)
