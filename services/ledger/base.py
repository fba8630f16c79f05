"""The declarative base every table of the pitwatch database is declared on (the ledger,
the event archive, the cases), with its constraint naming convention.

Why explicit constraint names: the same names on SQLite and PostgreSQL, and what Alembic's
batch mode needs to find a constraint again on SQLite.
"""

from __future__ import annotations

from sqlalchemy import MetaData
from sqlalchemy.orm import DeclarativeBase

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

# SQLite: rows keyed by their source key are stored in that key's B-tree alone, instead of
# a rowid table plus a separate unique index (one B-tree write per posting, not two).
WITHOUT_ROWID = {"sqlite_with_rowid": False}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)
