"""The tables of the compliance console: its users, their sessions, and every login try.

Why in the ledger's database: the console reads the ledger, the archive and the cases from
one database, and its users act on cases in that database's transactions; one Alembic
history (revision ``0004_console_users``) creates all of them on SQLite and PostgreSQL.

Why server-side sessions: the cookie carries only a random token; the session (who, which
role, its CSRF token, when it ends) stays here, so a logout or a disabled user ends it at
once and nothing in the browser can be edited into more rights. Only the token's SHA-256
is stored: a copy of the database does not let anyone take over a live session.

``console_logins`` is append-only (a trigger refuses UPDATE and DELETE): every login try,
good or bad, is on the record, and the login rate limit counts the recent failures there
(so it holds across restarts and across several console processes). A try that logs in,
and one the limit refused without checking its password, adds a second row (``ok``, or
``limited``, revision 0019) that takes it back out of that count.
"""

from __future__ import annotations

from sqlalchemy import (
    Boolean,
    CheckConstraint,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    false,
)
from sqlalchemy.orm import Mapped, mapped_column

from services.ledger.base import Base

CONSOLE_ROLES = ("surveillance_operator", "dispute_analyst", "compliance_officer", "auditor")


class ConsoleUser(Base):
    """A local user: the argon2 hash of the password (never the password) and one role."""

    __tablename__ = "console_users"

    username: Mapped[str] = mapped_column(String(100), primary_key=True)
    password_hash: Mapped[str] = mapped_column(Text)
    role: Mapped[str] = mapped_column(String(32))
    created_at: Mapped[str] = mapped_column(String(40))
    disabled: Mapped[bool] = mapped_column(Boolean, default=False)
    # When ``pitwatch users add`` last set the password (0019; None: never since): the
    # login limit by name counts no failure before it, so a reset lifts a lockout.
    password_set_at: Mapped[str | None] = mapped_column(String(40))

    __table_args__ = (
        CheckConstraint("role IN ('surveillance_operator', 'dispute_analyst', "
                        "'compliance_officer', 'auditor')", name="role"),
    )


class ConsoleSession(Base):
    """A logged-in browser: the SHA-256 of its cookie's token, its CSRF token, its end."""

    __tablename__ = "console_sessions"

    token_sha256: Mapped[str] = mapped_column(String(64), primary_key=True)
    username: Mapped[str] = mapped_column(String(100), ForeignKey("console_users.username"))
    csrf_token: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[str] = mapped_column(String(40))
    expires_at: Mapped[str] = mapped_column(String(40))

    __table_args__ = (Index("ix_console_sessions_username", "username"),)


class ConsoleLogin(Base):
    """One login try: who was named, from where, when, and whether it succeeded."""

    __tablename__ = "console_logins"

    login_id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    at: Mapped[str] = mapped_column(String(40))
    username: Mapped[str] = mapped_column(String(100))
    remote: Mapped[str] = mapped_column(String(100))
    ok: Mapped[bool] = mapped_column(Boolean)
    # A try the rate limit refused, its password unchecked (0019): the second row such a
    # try adds, which takes it back out of the count as a login's ``ok`` row does.
    limited: Mapped[bool] = mapped_column(Boolean, server_default=false())

    __table_args__ = (
        Index("ix_console_logins_username_at", "username", "at"),
        Index("ix_console_logins_remote_at", "remote", "at"),
    )
