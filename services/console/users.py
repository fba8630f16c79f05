"""Local users: argon2 password hashes, one role each, and the login with its rate limit.

Why argon2 (argon2-cffi's ``PasswordHasher``, its defaults): a memory-hard hash, salted
per user, whose parameters travel in the hash itself, so they can be raised later and old
hashes still verify (``check_needs_rehash`` upgrades them at the next login).

Why the rate limit counts failures in the database (``console_logins``): it then holds for
every console process and across restarts. A name or an address with too many recent
failures is refused before its password is even checked, so guessing gains nothing by
trying faster; the refusal is itself logged.

Why a try is logged before its password is checked: tries made at once then count each
other. Reading the count, then logging the try, were two steps any number of parallel
tries passed together (QA: 30 at once, 30 passwords checked, where the limit allows 5).
Logged first, each in its own committed transaction, the try committed k-th counts at
least k tries, so no more than the limit are checked, in one process or many, on SQLite
and PostgreSQL alike, and no lock is held while argon2 works. The log is append-only, so
the row of a try that logs in cannot be changed afterwards: such a try adds a second row,
``ok`` true, at the same moment, and the limit counts the rows not ``ok`` less those.

Why a refused try takes itself back out too (its second row, ``limited`` true): it had its
password unchecked, so it is no failure, and counted as one it kept the lock on: one try
every few minutes locked a name for good (QA). Why the failures for a name count only
since its password was last set (``password_set_at``): a reset, which the 429 page
advises, then lifts the lock at once. Why a name has two limits (5 failures from one
address, 30 from all): one address cannot lock a user out of the others, and guessing a
name's password from many addresses is still bounded (docs/console.md).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import Engine, case, delete, func, insert, select, update

from services.cases.lifecycle import SYSTEM_ACTOR, reads_as_system, same_name
from services.console.clock import Clock, stamp, utc_now
from services.events.characters import CONTROL_OR_SURROGATE, holds_any
from services.ledger.console_tables import (
    CONSOLE_ROLES,
    ConsoleLogin,
    ConsoleSession,
    ConsoleUser,
)
from services.ledger.db import write_transaction

HASHER = PasswordHasher()
# A hash nobody's password matches: an unknown name costs one verification too, so the
# time taken does not tell which names exist.
_DUMMY_HASH = HASHER.hash("pitwatch: no such user")
USERNAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789._-")
MIN_PASSWORD = 10
MAX_PASSWORD = 1000  # auth.py reads this much of the login form's password


class UserRefused(ValueError):
    """A user that cannot be added as given; the message says what to change."""


@dataclass(frozen=True)
class RateLimit:
    """At most ``per_user_remote`` failed logins for one name from one address,
    ``per_user`` for one name from all, ``per_remote`` from one address for all names,
    within ``window`` (a name's since its password was last set); past that, logins are
    refused until the window has moved on. Refused tries are not failures."""

    per_user: int = 30
    per_remote: int = 20
    per_user_remote: int = 5
    window: dt.timedelta = dt.timedelta(minutes=15)


@dataclass(frozen=True)
class LoginResult:
    username: str | None  # who logged in (None: refused)
    role: str | None
    # refused by the rate limit, the password not checked: "name" (too many failures for
    # the name, a new password lifts it) or "address" (from the address, for any name)
    limited: str | None = None


def check_user(username: str, password: str, role: str) -> str:
    """The user name as stored (lower case), or ``UserRefused`` saying what to change."""
    name = username.strip().lower()
    if same_name(name, SYSTEM_ACTOR):  # the trails' name for what pitwatch does by itself
        # (QA), in any of its look-alikes the case rules refuse too ("ＰＩＴＷＡＴＣＨ")
        raise UserRefused(f"{SYSTEM_ACTOR!r} is the name of what pitwatch does by itself in "
                          "the cases' trails, not a person's: choose another user name")
    if reads_as_system(name):
        raise UserRefused(f"{name!r} reads as {SYSTEM_ACTOR!r} (punctuation, capitals and "
                          "widths aside), the name of what pitwatch does by itself in the "
                          "cases' trails: choose a user name that does not")
    if not name or not set(name) <= USERNAME_CHARS or len(name) > 100:
        raise UserRefused("a user name is 1 to 100 of a-z, 0-9, '.', '_' and '-'")
    if role not in CONSOLE_ROLES:
        raise UserRefused(f"unknown role {role!r}: one of {', '.join(CONSOLE_ROLES)}")
    if len(password) < MIN_PASSWORD:
        raise UserRefused(f"a password has at least {MIN_PASSWORD} characters")
    if len(password) > MAX_PASSWORD:  # the login form reads no more than this
        raise UserRefused(f"a password has at most {MAX_PASSWORD} characters")
    if holds_any(password, CONTROL_OR_SURROGATE):
        # NUL bytes, or bytes that are not UTF-8 (read as surrogates, which stopped the
        # hashing with a traceback): nothing a person types at the login.
        raise UserRefused("a password is printable text: no control characters, and UTF-8")
    if password != password.strip():
        # The login form drops blanks around what is typed (``text_field``), as it does in
        # every field: a password kept with them could never log in (QA: "  spacey-
        # password  " was added, and refused at every login). Refused here rather than
        # kept at the login: a blank at either end is invisible as typed or pasted, and
        # the login keeps forgiving one picked up by a copy. Spaces alone, or one letter
        # and nine spaces, were let through the minimum this way too.
        raise UserRefused("a password may not start or end with a space (the login drops "
                          "them): give it without them")
    return name


def add_user(engine: Engine, username: str, password: str, role: str,
             clock: Clock = utc_now) -> bool:
    """Add a user (or replace the password and role of one that exists); whether the user
    existed (the command says which: the same words for both hid a replaced password).

    Replacing the password ends the user's sessions, in the same transaction: a password
    is reset because the old one may be known to someone else, who would otherwise stay
    logged in with it (QA: the old session's cookie still worked after a reset)."""
    name = check_user(username, password, role)
    hashed = HASHER.hash(password)
    with write_transaction(engine) as conn:
        exists = conn.execute(select(ConsoleUser.username)
                              .where(ConsoleUser.username == name)).first()
        if exists:
            conn.execute(update(ConsoleUser).where(ConsoleUser.username == name)
                         .values(password_hash=hashed, role=role, disabled=False,
                                 password_set_at=stamp(clock())))
            conn.execute(delete(ConsoleSession).where(ConsoleSession.username == name))
        else:
            conn.execute(insert(ConsoleUser).values(username=name, password_hash=hashed,
                                                    role=role, created_at=stamp(clock()),
                                                    disabled=False,
                                                    password_set_at=stamp(clock())))
    return exists is not None


def disable_user(engine: Engine, username: str) -> bool:
    """Refuse the user's logins and end their sessions now; False: no such user.
    (``add_user`` again enables them, with a new password.)"""
    name = username.strip().lower()
    with write_transaction(engine) as conn:
        changed = conn.execute(update(ConsoleUser).where(ConsoleUser.username == name)
                               .values(disabled=True)).rowcount
        conn.execute(delete(ConsoleSession).where(ConsoleSession.username == name))
    return bool(changed)


def list_users(engine: Engine) -> list[tuple[str, str, bool]]:
    """(name, role, disabled) of every user, by name."""
    with engine.connect() as conn:
        return [(u, r, bool(d)) for u, r, d in conn.execute(
            select(ConsoleUser.username, ConsoleUser.role, ConsoleUser.disabled)
            .order_by(ConsoleUser.username))]


def log_in(engine: Engine, username: str, password: str, remote: str,
           limit: RateLimit = RateLimit(), clock: Clock = utc_now) -> LoginResult:
    """Log the try, then check it against the rate limit and the stored hash (the module
    says why in that order)."""
    name, remote = username.strip().lower()[:100], remote[:100]
    now = clock()
    _record(engine, name, remote, now, ok=False)  # not let in (yet): counted from now on
    limited = _limited(engine, name, remote, now - limit.window, limit)
    if limited is not None:
        _record(engine, name, remote, now, ok=False, limited=True)  # no failure: unchecked
        return LoginResult(None, None, limited=limited)
    with engine.connect() as conn:
        row = conn.execute(select(ConsoleUser.password_hash, ConsoleUser.role,
                                  ConsoleUser.disabled)
                           .where(ConsoleUser.username == name)).first()
    ok = _verified(row.password_hash if row else _DUMMY_HASH, password)
    if not ok or row is None or row.disabled:
        return LoginResult(None, None)
    _record(engine, name, remote, now, ok=True)  # the same moment: in the same window
    if HASHER.check_needs_rehash(row.password_hash):
        with write_transaction(engine) as conn:
            conn.execute(update(ConsoleUser).where(ConsoleUser.username == name)
                         .values(password_hash=HASHER.hash(password)))
    return LoginResult(name, row.role)


def _verified(hashed: str, password: str) -> bool:
    try:
        return HASHER.verify(hashed, password)
    except (VerificationError, InvalidHashError):
        return False


def _limited(engine: Engine, name: str, remote: str, since: dt.datetime,
             limit: RateLimit) -> str | None:
    """Which limit the tries since ``since`` that did not log in, this one among them,
    are over: "name" (for the name from this address, or from all, counted since its
    password was last set) or "address" (for any name from the address); None: neither.
    Each try's row counts one; a login's second row, or a refused try's, takes it back."""
    not_let_in = func.coalesce(func.sum(case((ConsoleLogin.ok.is_(True), -1),
                                             (ConsoleLogin.limited.is_(True), -1),
                                             else_=1)), 0)
    recent = select(not_let_in).where(ConsoleLogin.at >= stamp(since))
    with engine.connect() as conn:
        set_at = conn.execute(select(ConsoleUser.password_set_at)
                              .where(ConsoleUser.username == name)).scalar()
        named = recent.where(ConsoleLogin.username == name)
        if set_at is not None:  # failures before the password was set are forgiven
            named = named.where(ConsoleLogin.at > set_at)
        by_pair = conn.execute(named.where(ConsoleLogin.remote == remote)).scalar_one()
        by_name = conn.execute(named).scalar_one()
        by_remote = conn.execute(recent.where(ConsoleLogin.remote == remote)).scalar_one()
    if int(by_remote) > limit.per_remote:
        return "address"
    if int(by_pair) > limit.per_user_remote or int(by_name) > limit.per_user:
        return "name"
    return None


def _record(engine: Engine, name: str, remote: str, at: dt.datetime, ok: bool,
            limited: bool = False) -> None:
    with write_transaction(engine) as conn:
        conn.execute(insert(ConsoleLogin).values(at=stamp(at), username=name,
                                                 remote=remote, ok=ok, limited=limited))
