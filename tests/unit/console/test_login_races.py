"""The login rate limit against tries made at once, on SQLite and PostgreSQL.

QA: 30 wrong passwords for one name, posted in parallel from 30 addresses (so only the
limit by name applied), each had its password checked and read 401, where the limit lets
5 be checked and refuses the rest (429). (Since QA's lockout problem the limit by name is
5 from one address and 30 from all: the tests post 40.) The limit was read, then the try logged, as two
steps: every parallel try read the count before any had added to it. The tests count the
password checks by replacing the check with one that counts and takes a while, as argon2
does, so that the tries overlap as they did for the tester.
"""

from __future__ import annotations

import datetime as dt
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from sqlalchemy import Engine
from starlette.testclient import TestClient

from services.console import users
from services.console.app import create_app
from services.console.users import RateLimit
from services.console.web import Console
from tests.profiles import PROFILES
from tests.unit.console.support import PASSWORD, Clock, add_users, log_in, login_csrf

TRIES = 40
# docs/console.md: 5 failures for one name from one address, 30 for one name from all,
# 20 from one address
PER_USER_REMOTE, PER_USER, PER_REMOTE = 5, 30, 20
CHECK_SECONDS = 0.1  # about what one argon2 verification takes: the tries overlap


class CountingCheck:
    """Stands in for the password check: counts the passwords checked, answers "wrong"."""

    def __init__(self) -> None:
        self.checked = 0
        self._lock = threading.Lock()

    def __call__(self, hashed: str, password: str) -> bool:
        with self._lock:
            self.checked += 1
        time.sleep(CHECK_SECONDS)
        return False


def _client(engine: Engine, clock: Clock, address: str) -> TestClient:
    console = Console(engine, "sqlite:///test", PROFILES, rate_limit=RateLimit(), clock=clock)
    return TestClient(create_app(console), base_url="https://testserver",
                      follow_redirects=False, client=(address, 50000))


def _all_at_once(clients: list[TestClient], names: list[str]) -> list[int]:
    """Every client posts a wrong password for its name, all released together; the
    statuses in the clients' order."""
    tokens = [login_csrf(client) for client in clients]
    start = threading.Barrier(len(clients))

    def post(i: int) -> int:
        start.wait()
        response = clients[i].post("/login", data={"csrf": tokens[i], "username": names[i],
                                                   "password": "not the password"})
        status: int = response.status_code
        return status

    with ThreadPoolExecutor(max_workers=len(clients)) as pool:
        return list(pool.map(post, range(len(clients))))


def _counted(monkeypatch: pytest.MonkeyPatch) -> CountingCheck:
    check = CountingCheck()
    monkeypatch.setattr(users, "_verified", check)
    return check


def _fail_up_to(client: TestClient, names: list[str], limit: int, checked: int) -> None:
    """Wrong passwords (the real check) up to the limit, when the tries at once left
    some of it: a try refused then is no failure, so fewer than the limit may have been
    checked when some were refused while others were still being checked."""
    assert [log_in(client, names[i % len(names)], "not the password")
            for i in range(limit - checked)] == [401] * (limit - checked)


def test_parallel_tries_for_one_name_check_at_most_thirty_passwords(
        engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    add_users(engine)
    clock = Clock(dt.datetime(2033, 3, 1, 9, tzinfo=dt.UTC))
    clients = [_client(engine, clock, f"10.1.0.{i}") for i in range(TRIES)]
    check = _counted(monkeypatch)
    statuses = _all_at_once(clients, ["dan"] * TRIES)
    assert check.checked <= PER_USER
    assert sorted(statuses) == [401] * check.checked + [429] * (TRIES - check.checked)
    monkeypatch.undo()  # the real check: the right password, from a new address, refused
    _fail_up_to(_client(engine, clock, "10.1.2.1"), ["dan"], PER_USER, check.checked)
    assert log_in(_client(engine, clock, "10.1.1.1"), "dan", PASSWORD) == 429


def test_parallel_tries_for_one_name_from_one_address_check_at_most_five_passwords(
        engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    """The name at that address is locked; the user logs in from another."""
    add_users(engine)
    clock = Clock(dt.datetime(2033, 3, 4, 9, tzinfo=dt.UTC))
    clients = [_client(engine, clock, "10.4.0.1") for _ in range(TRIES)]
    check = _counted(monkeypatch)
    statuses = _all_at_once(clients, ["dan"] * TRIES)
    assert check.checked <= PER_USER_REMOTE
    assert sorted(statuses) == [401] * check.checked + [429] * (TRIES - check.checked)
    monkeypatch.undo()
    _fail_up_to(clients[0], ["dan"], PER_USER_REMOTE, check.checked)
    assert log_in(clients[0], "dan", PASSWORD) == 429
    assert log_in(_client(engine, clock, "10.4.0.2"), "dan", PASSWORD) == 303


def test_parallel_tries_from_one_address_check_at_most_twenty_passwords(
        engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    add_users(engine)
    clock = Clock(dt.datetime(2033, 3, 2, 9, tzinfo=dt.UTC))
    clients = [_client(engine, clock, "10.2.0.1") for _ in range(TRIES)]
    check = _counted(monkeypatch)  # names no user has: checked against a dummy hash
    statuses = _all_at_once(clients, [f"guess{i}" for i in range(TRIES)])
    assert check.checked <= PER_REMOTE
    assert sorted(statuses) == [401] * check.checked + [429] * (TRIES - check.checked)
    monkeypatch.undo()
    _fail_up_to(clients[0], [f"more{i}" for i in range(PER_REMOTE)], PER_REMOTE,
                check.checked)
    assert log_in(_client(engine, clock, "10.2.0.1"), "cora", PASSWORD) == 429


def test_tries_one_after_another_five_wrong_then_refused(engine: Engine) -> None:
    """The limit as it was for tries in turn: five wrong passwords are checked (401), the
    sixth try is refused (429) even with the right password; logins that work count as no
    failure however many (a user logging in all day is not locked out), and do not wipe
    out the failures before them."""
    add_users(engine)
    clock = Clock(dt.datetime(2033, 3, 3, 9, tzinfo=dt.UTC))
    client = _client(engine, clock, "10.3.0.1")
    assert [log_in(client, "cora") for _ in range(7)] == [303] * 7
    assert [log_in(client, "cora", "not the password") for _ in range(4)] == [401] * 4
    assert log_in(client, "cora") == 303
    assert log_in(client, "cora", "not the password") == 401  # the fifth failure
    assert log_in(client, "cora") == 429
    clock.now += dt.timedelta(minutes=16)  # the window has moved on
    assert log_in(client, "cora") == 303
