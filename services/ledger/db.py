"""Opening the ledger database: the only place an engine is made and the schema migrated.

Why migrate on open: Alembic is the only way the schema is created or changed, so every
process that opens a ledger (the CLI, the embedded runner, the Kafka consumer, the tests)
brings it to ``head`` first, the same way, on SQLite or PostgreSQL.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from importlib import resources
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, create_engine, event, text
from sqlalchemy.engine import make_url
from sqlalchemy.pool import StaticPool

DEFAULT_URL = "sqlite:///var/pitwatch.sqlite"
WRITE_OPTION = "pitwatch_ledger_write"
MIGRATION_LOCK = 0x7069_7477  # "pitw": the advisory lock key that serialises migrations
DB_ENV_VAR = "PITWATCH_DB"


def default_url() -> str:
    """``PITWATCH_DB`` if set, else the embedded SQLite file under ``var/``."""
    return os.environ.get(DB_ENV_VAR) or DEFAULT_URL


def alembic_config() -> Config:
    """The packaged ``alembic.ini`` (it ships inside ``services/ledger``)."""
    ini = resources.files("services.ledger").joinpath("alembic.ini")
    return Config(str(ini))


def head_revision() -> str | None:
    return ScriptDirectory.from_config(alembic_config()).get_current_head()


def open_ledger(url: str = DEFAULT_URL) -> Engine:
    """An engine on the ledger at ``url``, migrated to the latest schema.

    SQLite: the file's directory is created; foreign keys are switched on (SQLite leaves
    them off per connection) and WAL journaling is used (readers never block the writer).
    """
    engine = _make_engine(url)
    upgrade_to_head(engine)
    return engine


def upgrade_to_head(engine: Engine) -> None:
    """``alembic upgrade head`` in one write transaction.

    Several workers may open the same ledger at once: on PostgreSQL an advisory lock
    makes them migrate one after the other (the later ones then find the schema at
    head); on SQLite ``BEGIN IMMEDIATE`` (see ``_make_engine``) does the same.
    """
    config = alembic_config()
    with write_transaction(engine) as connection:
        if connection.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


@contextmanager
def write_transaction(engine: Engine) -> Iterator[Connection]:
    """A transaction that will write. On SQLite it starts with ``BEGIN IMMEDIATE``: the
    write lock is taken up front, so two writers queue (``busy_timeout``) instead of one
    failing when it upgrades a read lock after the other wrote."""
    with engine.connect() as connection:
        connection.execution_options(**{WRITE_OPTION: True})
        with connection.begin():
            yield connection


def current_revision(engine: Engine) -> str | None:
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def _make_engine(url: str) -> Engine:
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return create_engine(url, pool_pre_ping=True)
    database = parsed.database
    in_memory = database in (None, "", ":memory:")
    if not in_memory and database is not None:
        Path(database).expanduser().parent.mkdir(parents=True, exist_ok=True)
    options: dict[str, Any] = {}
    if in_memory:
        # One shared connection, else every checkout would see a new empty database.
        options = {"poolclass": StaticPool, "connect_args": {"check_same_thread": False}}
    engine = create_engine(url, **options)
    event.listen(engine, "connect", _sqlite_connect)
    event.listen(engine, "begin", _sqlite_begin)
    return engine


def _sqlite_connect(dbapi_connection: Any, _record: Any) -> None:
    """Hand transaction control to SQLAlchemy and set the ledger's pragmas.

    Python's sqlite3 driver otherwise opens transactions only before DML and never
    before DDL, so a migration would not be atomic; with ``isolation_level = None`` it
    emits nothing and ``_sqlite_begin`` emits BEGIN (the SQLAlchemy documented recipe).
    Foreign keys are off per connection in SQLite unless switched on. WAL: readers never
    block the writer. ``synchronous = NORMAL`` in WAL mode loses no committed transaction
    when a process is killed (only on power loss / OS crash may the last ones roll back).
    """
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.execute("PRAGMA journal_mode = WAL")
        cursor.execute("PRAGMA synchronous = NORMAL")
        cursor.execute("PRAGMA busy_timeout = 30000")
    finally:
        cursor.close()


def _sqlite_begin(connection: Connection) -> None:
    immediate = connection.get_execution_options().get(WRITE_OPTION, False)
    connection.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")
