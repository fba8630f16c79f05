"""Raw SQL reads for the ledger tests: independent of services.ledger.queries, so a bug
there cannot hide a bug in the write path. Dates read back as ISO text on both databases
(SQLite stores them as text, PostgreSQL returns ``date``), so one expectation fits both."""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import Engine, inspect, text


def rows(engine: Engine, sql: str, **params: Any) -> list[tuple[Any, ...]]:
    with engine.connect() as conn:
        return [tuple(_plain(value) for value in row) for row in conn.execute(text(sql), params)]


def _plain(value: Any) -> Any:
    return value.isoformat() if isinstance(value, dt.date) else value


def account_balances(engine: Engine) -> dict[str, int]:
    return dict(
        rows(engine, "SELECT account, CAST(SUM(amount) AS BIGINT) FROM postings GROUP BY account")
    )


def count(engine: Engine, table: str) -> int:
    return int(rows(engine, f"SELECT COUNT(*) FROM {table}")[0][0])


def snapshot(engine: Engine) -> dict[str, list[tuple[Any, ...]]]:
    """Every ledger table's rows in key order: two equal snapshots are the same ledger."""
    keys = {
        "hands": "hand_id",
        "accounts": "name",
        "postings": "hand_id, event_id, leg",
        "rake": "hand_id, event_id, leg",
        "findings": "hand_id, ordinal",
        "conflicts": "hand_id, offered_sha256",
    }
    return {
        table: rows(engine, f"SELECT * FROM {table} ORDER BY {order}")
        for table, order in keys.items()
    }


# Columns that say when a row was written, not what it holds.
WRITTEN_AT = {"at", "made_at", "opened_at", "updated_at", "created_at", "detached_at",
              "kept_at"}


def whole_database(engine: Engine) -> dict[str, list[tuple[Any, ...]]]:
    """Every table's rows (the ledger, the archive, the cases, ...), sorted, without the
    columns that say when they were written: two equal results are the same database
    but for when it was written (``snapshot``: the ledger's tables only)."""
    found: dict[str, list[tuple[Any, ...]]] = {}
    for table in sorted(inspect(engine).get_table_names()):
        if table == "alembic_version":
            continue
        columns = [c["name"] for c in inspect(engine).get_columns(table)
                   if c["name"] not in WRITTEN_AT]
        listed = ", ".join(f'"{c}"' for c in columns)
        found[table] = sorted(rows(engine, f'SELECT {listed} FROM "{table}"'), key=repr)
    return found


def book_as_before_0017(monkeypatch: Any) -> None:
    """Book as the ledger did before migration 0017 (a database downgraded below it has
    no ``hand_ends``): no look-up of copies, no hand ends written. ``monkeypatch``: the
    test's ``pytest.MonkeyPatch``."""
    from services.ledger import posting

    monkeypatch.setattr(posting, "_refuse_copied_hands", lambda *args: None)
    monkeypatch.setattr(posting, "_insert_hand_ends", lambda *args: None)
