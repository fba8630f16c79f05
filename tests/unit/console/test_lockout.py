"""The login limit by name cannot be used to lock a user out for good (QA problem 1).

QA: eight wrong passwords for ``victim``, each from another address (401 five times, then
429), then the right password from a new address: 429; a password reset, as the 429
message advises, changed nothing, and a try every few minutes kept the name locked for
ever: each refused (429) try was logged as a failure and counted in the next window.
"""

from __future__ import annotations

import datetime as dt

import pytest
from alembic import command
from sqlalchemy import Engine, select, text
from sqlalchemy.exc import DBAPIError

from services.console.users import RateLimit, add_user, log_in
from services.ledger.console_tables import ConsoleLogin
from services.ledger.db import alembic_config
from tests.unit.console.support import PASSWORD, Clock, add_users
from tests.unit.ledger.test_migrations import schema_drift

NEW_PASSWORD = "another long password"


def _tries(engine: Engine, clock: Clock, name: str, password: str,
           addresses: list[str], limit: RateLimit = RateLimit(per_user=5)) -> list[str]:
    """One try per address: "ok", "wrong" (checked, refused) or "limited" (429)."""
    out = []
    for address in addresses:
        result = log_in(engine, name, password, address, limit, clock)
        out.append("limited" if result.limited else "ok" if result.username else "wrong")
    return out


def test_refused_tries_do_not_keep_a_name_locked(engine: Engine) -> None:
    """Five failures lock the name (a ceiling of 5 here); tries refused while it is locked
    are logged, but not as failures: a quarter of an hour after the failures the right
    password logs in, however many refused tries came since."""
    add_users(engine)
    clock = Clock(dt.datetime(2034, 1, 1, 9, tzinfo=dt.UTC))
    addresses = [f"10.9.0.{i}" for i in range(5)]
    assert _tries(engine, clock, "dan", "wrong guess!", addresses) == ["wrong"] * 5
    for _ in range(4):  # a refused try every 3 minutes: it no longer extends the lock
        clock.now += dt.timedelta(minutes=3)
        assert _tries(engine, clock, "dan", "wrong guess!", ["10.9.1.1"]) == ["limited"]
    clock.now += dt.timedelta(minutes=4)  # 16 minutes after the failures
    assert _tries(engine, clock, "dan", PASSWORD, ["10.9.2.1"]) == ["ok"]
    with engine.connect() as conn:  # every try is on the record, the refused ones said so
        rows = conn.execute(select(ConsoleLogin.remote, ConsoleLogin.ok,
                                   ConsoleLogin.limited)
                            .where(ConsoleLogin.username == "dan",
                                   ConsoleLogin.remote == "10.9.1.1")).all()
    assert sorted(map(tuple, rows)) == [("10.9.1.1", False, False)] * 4 + [
        ("10.9.1.1", False, True)] * 4


def test_a_password_reset_lifts_the_lock_on_the_name(engine: Engine) -> None:
    """QA's repro: eight wrong passwords from eight addresses, then the right one from a
    ninth: refused; the officer sets a new password (``users add`` again): it logs in at
    once, as the 429 page says. The failures after the reset count again."""
    add_user(engine, "victim", PASSWORD, "surveillance_operator")
    clock = Clock(dt.datetime(2034, 1, 2, 9, tzinfo=dt.UTC))
    limit = RateLimit(per_user=5)  # a ceiling for the name of 5, as it was
    assert _tries(engine, clock, "victim", "wrong guess!", [f"10.8.0.{i}" for i in range(8)],
                  limit) == ["wrong"] * 5 + ["limited"] * 3
    assert _tries(engine, clock, "victim", PASSWORD, ["10.8.1.1"], limit) == ["limited"]
    clock.now += dt.timedelta(seconds=1)
    add_user(engine, "victim", NEW_PASSWORD, "surveillance_operator", clock)
    clock.now += dt.timedelta(seconds=1)
    assert _tries(engine, clock, "victim", NEW_PASSWORD, ["10.8.1.2"], limit) == ["ok"]
    assert _tries(engine, clock, "victim", "wrong guess!", [f"10.8.2.{i}" for i in range(6)],
                  limit) == ["wrong"] * 5 + ["limited"]


def test_failures_from_one_address_do_not_lock_the_name_for_the_others(
        engine: Engine) -> None:
    """Five failures for a name from one address lock that name at that address only;
    the user logs in from their own. The name's ceiling over every address (30) still
    bounds the guesses made at it from many."""
    add_users(engine)
    clock = Clock(dt.datetime(2034, 1, 3, 9, tzinfo=dt.UTC))
    assert _tries(engine, clock, "cora", "wrong guess!", ["10.7.0.1"] * 7, RateLimit()) == [
        "wrong"] * 5 + ["limited"] * 2
    assert _tries(engine, clock, "cora", PASSWORD, ["10.7.0.1"], RateLimit()) == ["limited"]
    assert _tries(engine, clock, "cora", PASSWORD, ["10.7.0.2"], RateLimit()) == ["ok"]
    many = [f"10.7.1.{i}" for i in range(40)]
    tried = _tries(engine, clock, "cora", "wrong guess!", many, RateLimit())
    assert tried == ["wrong"] * 25 + ["limited"] * 15  # 5 + 25: the ceiling of 30
    assert _tries(engine, clock, "cora", PASSWORD, ["10.7.2.1"], RateLimit()) == ["limited"]


def test_the_lockout_migration_keeps_the_logins_and_their_guard(engine: Engine) -> None:
    """0019 down and up on a database holding a user and login tries: the tries are all
    there (none refused), the user's password counts as set when the user was made, the
    log still refuses UPDATE and DELETE, and the schema is the models'."""
    config = alembic_config()
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.downgrade(config, "0018_table_carries_by_taken")
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO console_users (username, password_hash, role, "
                          "created_at, disabled) VALUES ('old', 'x', 'auditor', "
                          "'2026-01-01T00:00:00.000Z', false)"))
        conn.execute(text("INSERT INTO console_logins (at, username, remote, ok) VALUES "
                          "('2026-01-02T00:00:00.000Z', 'old', '10.0.0.1', false)"))
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.upgrade(config, "head")
    assert schema_drift(engine) == []
    with engine.connect() as conn:
        assert conn.execute(text("SELECT password_set_at FROM console_users")).all() == [
            ("2026-01-01T00:00:00.000Z",)]
        assert conn.execute(text("SELECT username, ok, limited FROM console_logins")).all(
            ) == [("old", False, False)]
    for statement in ("UPDATE console_logins SET limited = true",
                      "DELETE FROM console_logins"):
        with pytest.raises(DBAPIError, match="append-only"), engine.begin() as conn:
            conn.execute(text(statement))
