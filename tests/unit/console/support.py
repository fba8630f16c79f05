"""A console on a simulated, archived day, and clients logged in as each role.

The database is the archive tests' simulated HCF day (three tables, every fault kind
injected, so hands with findings open cases), kept as ``pitwatch adjudicate --ledger``
keeps it, plus one user per role. The clients talk HTTPS to Starlette's TestClient, so
the Secure session cookie is sent back as a browser would.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

import msgspec
from sqlalchemy import Engine
from starlette.testclient import TestClient

from services.cases.intake import open_cases
from services.console.app import create_app
from services.console.clock import utc_now
from services.console.users import RateLimit, add_user
from services.console.web import Console
from services.events.contract import Finding
from services.ledger.console_tables import CONSOLE_ROLES
from services.ledger.db import open_ledger
from services.ledger.posting import post_hand
from tests.profiles import PROFILES
from tests.unit.ledger.builders import hcf_seat1_wins

PASSWORD = "a long test password"
USERS = {"olga": "surveillance_operator", "dan": "dispute_analyst",
         "cora": "compliance_officer", "aud": "auditor"}
ROLE_USER = {role: name for name, role in USERS.items()}
assert set(ROLE_USER) == set(CONSOLE_ROLES)


@dataclass
class Clock:
    """A clock the test moves (sessions end, the rate limit's window passes)."""

    now: dt.datetime = field(default_factory=utc_now)

    def __call__(self) -> dt.datetime:
        return self.now


def add_users(engine: Engine) -> None:
    for name, role in USERS.items():
        add_user(engine, name, PASSWORD, role)


def console_client(engine: Engine, clock: Clock | None = None,
                   limit: RateLimit | None = None, url: str = "sqlite:///test",
                   busy_wait_ms: int | None = None) -> TestClient:
    console = Console(engine, url, PROFILES, secure_cookies=True,
                      rate_limit=limit or RateLimit(), clock=clock or utc_now,
                      busy_wait_ms=busy_wait_ms)
    return TestClient(create_app(console), base_url="https://testserver",
                      follow_redirects=False)


def login_csrf(client: TestClient) -> str:
    page = client.get("/login")
    found = re.search(r'name="csrf" value="([^"]+)"', page.text)
    assert found is not None
    return found.group(1)


def log_in(client: TestClient, name: str, password: str = PASSWORD) -> int:
    """Log in through the form; the status of the POST (303 when it worked)."""
    token = login_csrf(client)
    response = client.post("/login", data={"csrf": token, "username": name,
                                           "password": password, "next": "/floor"})
    status: int = response.status_code
    return status


def csrf_of(client: TestClient) -> str:
    """The session's CSRF token, as every page's forms carry it."""
    page = client.get("/floor")
    found = re.search(r'name="csrf" value="([^"]+)"', page.text)
    assert found is not None, page.text[:500]
    return found.group(1)


def case_version(engine: Engine, case_id: int) -> str:
    """The case's version as its page shows it (every action form carries it back)."""
    from services.cases.queries import get_case

    case = get_case(engine, case_id)
    assert case is not None, case_id
    return str(case.summary.version)


def one_case_database(path: str, hand_ids: Sequence[str] = ("T1-000001",),
                      table_id: str = "T1") -> Engine:
    """A SQLite ledger at ``path`` holding booked hands (one by default) with a critical
    mispay (HCF-7), their cases opened, and the console's users. ``hand_ids`` and
    ``table_id``: hostile or odd ids, as a table system may send them."""
    engine = open_ledger(f"sqlite:///{path}")
    for hand_id in hand_ids:
        hand = msgspec.structs.replace(
            hcf_seat1_wins(), hand_id=hand_id, table_id=table_id, status="discrepancy",
            findings=[Finding(code="MISPAY", rule="HCF-7", severity="critical", seat=1,
                              amount=5, message="overpaid by 5")])
        post_hand(engine, hand)
        open_cases(engine, [hand], [])
    add_users(engine)
    return engine
