"""What a SQLite file holds, read without changing it.

Why not through SQLAlchemy: pitwatch's engine sets its pragmas on connecting, and
``journal_mode = WAL`` rewrites the file's header; a file that turns out not to be a
ledger must be left exactly as it was. A read-only connection (``mode=ro``) writes
nothing, and a file that is not a database is reported as such by the caller's own
check (``sqlite3.DatabaseError`` here gives no tables: the engine then says what it is).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path


def sqlite_tables(path: Path) -> set[str]:
    """The names of the tables of the SQLite database at ``path`` (empty when it holds
    none, or cannot be read as one)."""
    try:
        with sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True) as conn:
            rows = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            return {name for (name,) in rows}
    except sqlite3.Error:
        return set()
