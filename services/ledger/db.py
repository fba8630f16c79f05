"""Opening the ledger database: the only place an engine is made and the schema migrated.

Why migrate on open: Alembic is the only way the schema is created or changed, so every
process that opens a ledger (the CLI, the embedded runner, the Kafka consumer, the tests)
brings it to ``head`` first, the same way, on SQLite or PostgreSQL.

Why two ways to open: a command that books hands (``open_ledger``) creates the ledger it
is given; a command that only reads (``open_existing_ledger``) must not, or a typo in a
URL shows an empty ledger as if it were the real one. Either way, a URL that cannot be
opened raises ``LedgerUnavailable`` with one sentence saying why and what to do.
"""

from __future__ import annotations

import atexit
import os
import sqlite3
import time
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, Engine, create_engine, event, inspect, text
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import (
    ArgumentError,
    DataError,
    DBAPIError,
    IntegrityError,
    NoSuchModuleError,
)
from sqlalchemy.pool import StaticPool

from services.ledger.sqlite_file import sqlite_tables

if TYPE_CHECKING:
    from alembic.config import Config

DEFAULT_URL = "sqlite:///var/pitwatch.sqlite"
WRITE_OPTION = "pitwatch_ledger_write"
MIGRATION_LOCK = 0x7069_7477  # "pitw": the advisory lock key that serialises migrations
DB_ENV_VAR = "PITWATCH_DB"
URL_FORMS = "sqlite:///path/to/ledger.sqlite or postgresql+psycopg://user:password@host/db"
BACKENDS = ("sqlite", "postgresql")  # the dialects the migrations' triggers are written for


class LedgerUnavailable(RuntimeError):
    """The ledger at a URL cannot be used; the message says why and what to do."""


def default_url() -> str:
    """``PITWATCH_DB`` if set, else the embedded SQLite file under ``var/``."""
    return os.environ.get(DB_ENV_VAR) or DEFAULT_URL


# Every migration's revision, oldest first; the last is the head. Written out so that
# opening a ledger already at head reads one row and loads no Alembic (Alembic and its
# reading of the migration scripts were 0.1-0.2 s of every database command's start-up);
# tests/unit/ledger/test_migrations.py holds this list to the scripts' own chain.
REVISIONS = (
    "0001", "0002_archive_and_cases", "0003_surveillance_profiles",
    "0004_console_users", "0005_postings_account_check", "0006_archive_body_storage",
    "0007_hand_rows_pending", "0008_pending_sums", "0009_archive_last_seq_index",
    "0010_hand_record_lz4", "0011_text_keys_collate_c", "0012_archive_catalog_guard",
    "0013_case_changes_with_audit", "0014_archive_detached_boundaries",
    "0015_archive_checkpoints", "0016_table_carries", "0017_hand_ends",
    "0018_table_carries_by_taken", "0019_console_login_lockout",
    "0020_case_tags_of_named_hands",
)
HEAD_REVISION = REVISIONS[-1]


def alembic_config() -> Config:
    """The packaged ``alembic.ini`` (it ships inside ``services/ledger``)."""
    from alembic.config import Config

    ini = resources.files("services.ledger").joinpath("alembic.ini")
    return Config(str(ini))


def head_revision() -> str | None:
    """The head of the migration scripts, as Alembic reads them."""
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(alembic_config()).get_current_head()


def open_ledger(url: str = DEFAULT_URL) -> Engine:
    """An engine on the ledger at ``url``, migrated to the latest schema (created if new).

    SQLite: the file's directory is created; foreign keys are switched on (SQLite leaves
    them off per connection) and WAL journaling is used (readers never block the writer).
    Raises ``LedgerUnavailable`` when the URL cannot be opened.
    """
    return open_ledger_created(url)[0]


def open_ledger_created(url: str = DEFAULT_URL) -> tuple[Engine, bool]:
    """``open_ledger``, and whether the database held no pitwatch schema before (its
    tables were created now): a PostgreSQL URL whose database or schema was mistyped
    opens as an empty one, and the user is told a new ledger was made there."""
    parsed = ledger_url(url)
    _refuse_foreign_sqlite(parsed)
    engine = _make_engine(parsed)
    with _explained(parsed):
        revision = stamped_revision(engine)
        if revision != HEAD_REVISION:
            _refuse_unknown(engine, revision)
            upgrade_to_head(engine)
    return engine, revision is None


def open_existing_ledger(url: str) -> Engine:
    """An engine on a ledger that already exists, for commands that only read it.

    Refuses (``LedgerUnavailable``) a SQLite file that does not exist, a database with no
    pitwatch schema, and one written by a newer pitwatch; nothing is created. A ledger of
    an older schema is migrated to the latest, as every ledger user does.
    """
    parsed = ledger_url(url)
    shown = parsed.render_as_string(hide_password=True)
    if parsed.get_backend_name() == "sqlite" and not sqlite_file_exists(parsed):
        raise LedgerUnavailable(
            f"no ledger at {shown}: the file does not exist (book hands first with "
            "`pitwatch adjudicate LOG --ledger URL`, or give the URL of the ledger that "
            "booked them: `pitwatch demo` prints its own)")
    if parsed.get_backend_name() == "sqlite" and _empty_file(parsed):
        # Not opened: SQLite would write its header (WAL) into it, and a read changed it.
        raise LedgerUnavailable(f"{shown} is not a pitwatch ledger (an empty file, an empty "
                                "database to SQLite): give the URL of a ledger pitwatch wrote")
    _refuse_foreign_sqlite(parsed)
    engine = _make_engine(parsed)
    with _explained(parsed):
        revision, tables = _schema_of(engine)
        if revision is None:
            what = "an empty database" if not tables else "a database without pitwatch's tables"
            raise LedgerUnavailable(f"{shown} is not a pitwatch ledger ({what}): give the "
                                    "URL of a ledger pitwatch wrote")
        if revision != HEAD_REVISION:
            _refuse_unknown(engine, revision)
            upgrade_to_head(engine)
    return engine


def ledger_url(url: str) -> URL:
    """The parsed URL of a ledger pitwatch can open (``LedgerUnavailable`` otherwise)."""
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise LedgerUnavailable(f"{url!r} is not a database URL: write {URL_FORMS}") from None
    backend = parsed.get_backend_name()
    if backend not in BACKENDS:
        raise LedgerUnavailable(f"a pitwatch ledger is SQLite or PostgreSQL, not {backend}: "
                                f"write {URL_FORMS}")
    return parsed


def shown_url(url: str) -> str:
    """A database URL as pitwatch shows it (messages, reports, the console's pages): the
    password, if it has one, as ``***``. A report leaves the building, and a message ends
    up in logs; the user who typed the URL knows the password already."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:  # not a URL: nothing in it is a URL's password
        return url


def _refuse_foreign_sqlite(url: URL) -> None:
    """Refuse (``LedgerUnavailable``) a SQLite file that holds another application's
    tables, read without writing a byte: the engine's first connection switches a file to
    WAL journaling (its header changed for good) and a writing command went on to add
    pitwatch's tables beside the other application's ("created a new ledger", QA)."""
    if url.get_backend_name() != "sqlite" or not sqlite_file_exists(url) or _empty_file(url):
        return
    tables = sqlite_tables(Path(str(url.database)).expanduser())
    if tables and "alembic_version" not in tables:
        shown = url.render_as_string(hide_password=True)
        raise LedgerUnavailable(
            f"{shown} is not a pitwatch ledger (a database of other tables: "
            f"{', '.join(sorted(tables)[:3])}{' ...' if len(tables) > 3 else ''}): give the "
            "URL of a ledger pitwatch wrote, or a new file for a new one")


def _empty_file(url: URL) -> bool:
    database = url.database
    return bool(database) and database != ":memory:" and \
        Path(str(database)).expanduser().stat().st_size == 0


def sqlite_file_exists(url: URL) -> bool:
    """Whether a SQLite URL names a file that is there (an in-memory database never is)."""
    database = url.database
    if database in (None, "", ":memory:"):
        return False
    return Path(database).expanduser().is_file()


def ledger_exists(url: str) -> bool:
    """Whether the ledger's database is already there (SQLite: the file; else assumed)."""
    parsed = ledger_url(url)
    return parsed.get_backend_name() != "sqlite" or sqlite_file_exists(parsed)


def stamped_revision(engine: Engine) -> str | None:
    """The Alembic revision stamped in the database (None: none), read as Alembic keeps
    it (the one row of ``alembic_version``) without loading Alembic."""
    with engine.connect() as connection:
        if not inspect(connection).has_table("alembic_version"):
            return None
        return connection.execute(text("SELECT version_num FROM alembic_version")).scalar()


def _schema_of(engine: Engine) -> tuple[str | None, list[str]]:
    """The Alembic revision stamped in the database (None: none) and, without one, its
    table names (to say what the database is instead)."""
    revision = stamped_revision(engine)
    if revision is not None:
        return revision, []
    with engine.connect() as connection:
        return None, inspect(connection).get_table_names()


def _known_revision(revision: str) -> bool:
    return revision in REVISIONS


def _refuse_unknown(engine: Engine, revision: str | None) -> None:
    """Refuse (``LedgerUnavailable``) a database stamped with a revision this pitwatch's
    migrations do not hold, before anything is written to it. Alembic could not upgrade
    it (it would fail with a traceback, "Can't locate revision"), and it must not be
    made over: a newer pitwatch's ledger is still that pitwatch's to use."""
    if revision is None or _known_revision(revision):
        return
    shown = engine.url.render_as_string(hide_password=True)
    raise LedgerUnavailable(f"{shown} has schema revision {revision}, which this pitwatch "
                            "does not know: it is not a pitwatch ledger, or a newer "
                            "pitwatch wrote it (use that pitwatch, or upgrade this one)")


@contextmanager
def _explained(url: URL) -> Iterator[None]:
    """Turn the driver's errors on opening a database into ``LedgerUnavailable``."""
    shown = url.render_as_string(hide_password=True)
    try:
        yield
    except (IntegrityError, DataError):
        raise  # the data, not the database: a bug to see, not an environment to fix
    except DBAPIError as exc:
        reason = str(exc.orig).strip().splitlines()[0] if exc.orig is not None else str(exc)
        if url.get_backend_name() == "sqlite" and ("readonly" in reason or "locked" in reason):
            raise LedgerUnavailable(
                f"cannot open the SQLite ledger {shown}: {reason} (pitwatch writes to the "
                "file and its folder even to read it: its journal, and its schema when an "
                "older pitwatch wrote it; let it write there, or wait for the process "
                "holding it)") from None
        if url.get_backend_name() == "sqlite":
            raise LedgerUnavailable(f"cannot open the SQLite ledger {shown}: {reason} "
                                    f"({_sqlite_hint(url)})") from None
        raise LedgerUnavailable(f"cannot connect to the ledger at {shown}: {reason} (is the "
                                "server running and the URL right? `bash scripts/services.sh "
                                "up` starts the local PostgreSQL)") from None


def _sqlite_hint(url: URL) -> str:
    """What to do about a SQLite file that did not open. A ledger in a folder pitwatch may
    not write to (an auditor's read-only copy) cannot be opened even to read: SQLite keeps
    its write-ahead log and shared memory beside the file (QA: it was asked "is it a
    pitwatch ledger file?")."""
    path = Path(url.database) if url.database else None
    if path is not None and path.is_file() and not os.access(path.parent, os.W_OK):
        return (f"its folder {path.parent} is read-only, and SQLite writes the ledger's "
                "journal files (-wal, -shm) beside it even to read it: copy the file to a "
                "folder pitwatch can write to and read the copy")
    return "is it a pitwatch ledger file?"


def upgrade_to_head(engine: Engine) -> None:
    """``alembic upgrade head`` in one write transaction.

    Several workers may open the same ledger at once: on PostgreSQL an advisory lock
    makes them migrate one after the other (the later ones then find the schema at
    head); on SQLite ``BEGIN IMMEDIATE`` (see ``_make_engine``) does the same.
    """
    from alembic import command

    config = alembic_config()
    with write_transaction(engine) as connection:
        if connection.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        # Read again under the lock: a newer pitwatch may have migrated it meanwhile.
        if inspect(connection).has_table("alembic_version"):
            _refuse_unknown(engine, connection.execute(
                text("SELECT version_num FROM alembic_version")).scalar())
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
    """The revision stamped in the database, as Alembic reads it."""
    from alembic.runtime.migration import MigrationContext

    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def _make_engine(url: str | URL) -> Engine:
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        try:
            return create_engine(parsed, pool_pre_ping=True)
        except (ModuleNotFoundError, NoSuchModuleError):
            raise LedgerUnavailable(
                f"no database driver for {parsed.drivername}:// is installed: write "
                f"{URL_FORMS}") from None
    database = parsed.database
    in_memory = database in (None, "", ":memory:")
    if not in_memory and database is not None:
        Path(database).expanduser().parent.mkdir(parents=True, exist_ok=True)
    options: dict[str, Any] = {}
    if in_memory:
        # One shared connection, else every checkout would see a new empty database.
        options = {"poolclass": StaticPool, "connect_args": {"check_same_thread": False}}
    engine = create_engine(parsed, **options)
    event.listen(engine, "connect", _sqlite_connect)
    event.listen(engine, "begin", _sqlite_begin)
    if not in_memory:
        atexit.register(_dispose_if_alive, weakref.ref(engine))
    return engine


def _dispose_if_alive(engine: weakref.ref[Engine]) -> None:
    """Close an engine's connections when the process ends. The last connection closed
    on a SQLite file folds its write-ahead log into the file and removes it; without it a
    command left the ledger's pages in ``FILE-wal``, and a copy of FILE alone (``keep
    the file``) was an empty database. A weak reference: the tests make thousands of
    engines, and this must not keep them alive."""
    alive = engine()
    if alive is not None:
        alive.dispose()


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
        cursor.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    finally:
        cursor.close()


def _sqlite_begin(connection: Connection) -> None:
    if connection.get_execution_options().get(WRITE_OPTION, False):
        _begin_immediate(connection)
    else:
        connection.exec_driver_sql("BEGIN")


# How long a writer waits for another's lock in all, and in one step of that wait.
BUSY_TIMEOUT_MS = 30_000
LOCK_STEP_MS = 200


def _begin_immediate(connection: Connection) -> None:
    """``BEGIN IMMEDIATE``, waiting up to ``BUSY_TIMEOUT_MS`` for another writer's lock
    in steps of ``LOCK_STEP_MS``. Why steps: SQLite waits inside one C call, and Python
    runs a signal's handler only when it returns, so a SIGTERM or Ctrl-C sent to a run
    waiting for the lock acted only when the 30 s wait ended (QA). The last try goes
    through SQLAlchemy, so a lock held past the wait (or any other refusal) is said as
    before (``services.exits.database_refusal``)."""
    raw = connection.connection.driver_connection
    assert isinstance(raw, sqlite3.Connection)
    raw.execute(f"PRAGMA busy_timeout = {LOCK_STEP_MS}")
    try:
        deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
        while time.monotonic() < deadline:
            try:
                raw.execute("BEGIN IMMEDIATE")
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc):
                    break
        connection.exec_driver_sql("BEGIN IMMEDIATE")
    finally:
        raw.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
