"""Alembic environment of the ledger.

Programmatic use (``services.ledger.db.open_ledger``) hands over an open connection in
``config.attributes["connection"]``; the ``alembic`` command line connects to
``-x url=...``, else ``PITWATCH_DB``, else the ini's ``sqlalchemy.url``.

``render_as_batch``: SQLite cannot ALTER most things in place; batch mode rebuilds the
table, so the same migration scripts run on SQLite and PostgreSQL.
"""

from __future__ import annotations

import os

from alembic import context
from sqlalchemy import Connection, create_engine

from services.ledger.schema import metadata

config = context.config
target_metadata = metadata


def _configure_and_run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=True,
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def _url() -> str:
    url = context.get_x_argument(as_dictionary=True).get("url") or os.environ.get("PITWATCH_DB")
    return url or config.get_main_option("sqlalchemy.url") or "sqlite:///var/pitwatch.sqlite"


def run_migrations_offline() -> None:
    context.configure(
        url=_url(), target_metadata=target_metadata, literal_binds=True, render_as_batch=True
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _configure_and_run(connection)
        return
    engine = create_engine(_url())
    try:
        with engine.connect() as fresh:
            _configure_and_run(fresh)
    finally:
        engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
