"""Getting many rows into the database in few round trips, per backend.

Why not plain ``executemany``: on PostgreSQL psycopg runs it as one INSERT per row, so
per-row statement overhead dominates, and every statement-level trigger of the ledger
(see the initial migration) fires once per row. Instead each table's rows of a batch go
in with ONE ``COPY ... FROM STDIN`` on the transaction's own connection: one statement,
one trigger firing, and measured here about 2.5x faster than a single INSERT over
unnested arrays. On SQLite (in process, no round trips) ``executemany`` is already the
fast path; rows are sent as plain tuples so SQLAlchemy does no per-row parameter
processing.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from sqlalchemy import BigInteger, Connection, Date, Integer, LargeBinary, String, Table, Text
from sqlalchemy.exc import DBAPIError

Row = Sequence[Any]


# The binary COPY wire type of each column type the models use (most specific first:
# BigInteger is an Integer, Text a String; varchar and text share a wire format).
_PG_WIRE_TYPES = ((BigInteger, "int8"), (Integer, "int4"), (Date, "date"),
                  (LargeBinary, "bytea"), (Text, "text"), (String, "text"))


def bulk_insert(
    conn: Connection, table: Table, columns: Sequence[str], rows: Sequence[Row],
    binary: bool = False,
) -> None:
    """Insert ``rows`` (values in ``columns`` order) into ``table`` in one go.

    ``binary``: on PostgreSQL, COPY in binary format (the wire types from the table's
    columns). Worth it for rows with large ``bytea`` values (the archive's segment
    bodies), which text COPY sends as hex twice their size for the server to parse back."""
    if not rows:
        return
    names = ", ".join(columns)
    if conn.dialect.name == "postgresql":
        _copy_into(conn, table.name, names, rows,
                   [_pg_wire_type(table, name) for name in columns] if binary else None)
        return
    if conn.dialect.name != "sqlite":
        raise NotImplementedError(
            f"the ledger supports SQLite and PostgreSQL, not {conn.dialect.name}"
        )
    markers = ", ".join("?" * len(columns))
    conn.exec_driver_sql(
        f"INSERT INTO {table.name} ({names}) VALUES ({markers})", _sqlite_rows(table, columns, rows)
    )


def _sqlite_rows(table: Table, columns: Sequence[str], rows: Sequence[Row]) -> Sequence[Row]:
    """Dates as SQLAlchemy's SQLite ``Date`` stores them (ISO text); other values as they
    are, and rows of tables without a date column untouched."""
    dated = [i for i, name in enumerate(columns) if isinstance(table.c[name].type, Date)]
    if not dated:
        return rows
    converted = []
    for row in rows:
        values = list(row)
        for i in dated:
            if isinstance(values[i], dt.date):
                values[i] = values[i].isoformat()
        converted.append(tuple(values))
    return converted


def _pg_wire_type(table: Table, column: str) -> str:
    kind = table.c[column].type
    for python_type, wire in _PG_WIRE_TYPES:
        if isinstance(kind, python_type):
            return wire
    raise NotImplementedError(f"no binary COPY type for {table.name}.{column} ({kind})")


def _copy_into(conn: Connection, table_name: str, names: str, rows: Sequence[Row],
               pg_types: Sequence[str] | None = None) -> None:
    """COPY on the psycopg connection under ``conn`` (same transaction). Driver errors are
    wrapped as SQLAlchemy's, as for any statement, so an integrity violation raised by a
    constraint or trigger is a ``sqlalchemy.exc.IntegrityError`` here too."""
    statement = f"COPY {table_name} ({names}) FROM STDIN"
    if pg_types is not None:
        statement += " (FORMAT BINARY)"
    driver_connection: Any = conn.connection.driver_connection
    try:
        with driver_connection.cursor() as cursor, cursor.copy(statement) as copy:
            if pg_types is not None:
                copy.set_types(list(pg_types))
            for row in rows:
                copy.write_row(row)
    except conn.dialect.loaded_dbapi.Error as exc:
        raise DBAPIError.instance(statement, None, exc, conn.dialect.loaded_dbapi.Error) from exc


def dict_rows(table: Table, rows: Sequence[dict[str, Any]]) -> tuple[list[str], list[Row]]:
    """Rows given as dicts, as (the table's columns, tuples in that order)."""
    columns = [column.name for column in table.columns]
    return columns, [tuple(row[name] for name in columns) for row in rows]
