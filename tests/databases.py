"""The databases tests run against: SQLite files and the PostgreSQL server that
``scripts/services.sh up`` starts (``bash scripts/postgres.sh url``).

A test that takes the ``engine`` fixture (tests/conftest.py) runs twice, once per
database: ``BACKENDS`` parametrizes it, the PostgreSQL run marked ``integration`` (so
``make test-unit``, ``-m "not integration"``, needs no server; the whole suite runs both).
A PostgreSQL that is not up is a failure, never a skip.

Each PostgreSQL test works in its own schema (``search_path`` through the connection
options) of one database made for the test session, dropped afterwards, so tests never
see each other's rows and the append-only triggers never need bypassing.
"""

from __future__ import annotations

import os
import subprocess
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlalchemy.engine import URL, make_url

REPO_ROOT = Path(__file__).resolve().parents[1]
START_HINT = "start the services with `scripts/services.sh up`"

BACKENDS = ["sqlite", pytest.param("postgresql", marks=pytest.mark.integration)]


def base_pg_url() -> str:
    """The URL of the pitwatch database, from PITWATCH_PG_URL or scripts/postgres.sh url.

    Asking the script keeps its defaults (port, user, password) in one place.
    """
    explicit = os.environ.get("PITWATCH_PG_URL")
    if explicit:
        return explicit
    result = subprocess.run(
        ["bash", str(REPO_ROOT / "scripts" / "postgres.sh"), "url"],
        check=True,
        capture_output=True,
        text=True,
    )
    return result.stdout.strip()


def unique_name(prefix: str) -> str:
    """A name no other test or session uses, valid as a topic and a database name."""
    return f"{prefix}_{uuid.uuid4().hex[:12]}"


def _admin_engine(url: URL) -> sa.Engine:
    # CREATE/DROP DATABASE cannot run inside a transaction block.
    return sa.create_engine(url, isolation_level="AUTOCOMMIT", poolclass=sa.pool.NullPool)


@contextmanager
def session_database() -> Iterator[str]:
    """URL of a fresh PostgreSQL database, dropped afterwards; fails if none answers."""
    base = make_url(base_pg_url())
    admin = _admin_engine(base)
    database = unique_name("pitwatch_test")
    problem: sa.exc.OperationalError | None = None
    try:
        with admin.connect() as conn:
            conn.execute(sa.text(f'CREATE DATABASE "{database}"'))
    except sa.exc.OperationalError as exc:
        problem = exc
    if problem is not None:  # failed outside the except block: no chained traceback noise
        admin.dispose()
        pytest.fail(
            f"PostgreSQL at {base.render_as_string(hide_password=True)} does not accept "
            f"connections ({problem.orig!r}); {START_HINT}",
            pytrace=False,
        )
    try:
        yield base.set(database=database).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            # FORCE: a test that leaked a connection must not leave the database behind.
            conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)'))
        admin.dispose()


@contextmanager
def fresh_schema(pg_url: str) -> Iterator[str]:
    """A URL whose connections work in a fresh, empty schema, dropped afterwards."""
    schema = unique_name("t")
    admin = sa.create_engine(pg_url, poolclass=sa.pool.NullPool)
    with admin.begin() as conn:
        conn.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
    url = make_url(pg_url).update_query_dict({"options": f"-csearch_path={schema}"})
    try:
        yield url.render_as_string(hide_password=False)
    finally:
        with admin.begin() as conn:
            conn.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()
