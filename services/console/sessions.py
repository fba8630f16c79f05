"""Server-side sessions: the browser holds a random token, the database the rest.

A session is found by the SHA-256 of its token (the token itself is stored nowhere), has
its own CSRF token (every form carries it back), and ends at a fixed time after login or
at logout, whichever comes first. A disabled user's sessions end with it.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import secrets
from dataclasses import dataclass

from sqlalchemy import Engine, delete, insert, select

from services.console.clock import Clock, stamp, utc_now
from services.ledger.console_tables import ConsoleSession, ConsoleUser
from services.ledger.db import write_transaction

LIFETIME = dt.timedelta(hours=8)  # one shift


@dataclass(frozen=True)
class Session:
    username: str
    role: str
    csrf_token: str


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def start_session(engine: Engine, username: str, clock: Clock = utc_now,
                  lifetime: dt.timedelta = LIFETIME) -> str:
    """A new session for ``username``; returns the token for the cookie."""
    token = secrets.token_urlsafe(32)
    now = clock()
    with write_transaction(engine) as conn:
        conn.execute(delete(ConsoleSession).where(ConsoleSession.expires_at < stamp(now)))
        conn.execute(insert(ConsoleSession).values(
            token_sha256=_digest(token), username=username,
            csrf_token=secrets.token_urlsafe(32), created_at=stamp(now),
            expires_at=stamp(now + lifetime)))
    return token


def find_session(engine: Engine, token: str | None, clock: Clock = utc_now) -> Session | None:
    """The live session of a cookie's token (None: no token, unknown, ended, disabled)."""
    if not token or len(token) > 200:
        return None
    query = (select(ConsoleSession.username, ConsoleUser.role, ConsoleSession.csrf_token)
             .join(ConsoleUser, ConsoleUser.username == ConsoleSession.username)
             .where(ConsoleSession.token_sha256 == _digest(token),
                    ConsoleSession.expires_at > stamp(clock()),
                    ConsoleUser.disabled.is_(False)))
    with engine.connect() as conn:
        row = conn.execute(query).first()
    return None if row is None else Session(row.username, row.role, row.csrf_token)


def end_session(engine: Engine, token: str | None) -> None:
    if token:
        with write_transaction(engine) as conn:
            conn.execute(delete(ConsoleSession)
                         .where(ConsoleSession.token_sha256 == _digest(token)))
