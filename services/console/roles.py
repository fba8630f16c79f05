"""Who may do what in the console: four roles, one capability per route.

Why capabilities rather than role checks in each page: every route names the one
capability it needs (``services.console.routes``), and this table is the whole policy,
read in one place and tested role by role against every route.

- surveillance operators watch the floor and the alerts, work cases (assign, note,
  escalate) and read the players' and dealers' profiles;
- dispute analysts work cases to a decision (close with an outcome) and read hands and
  the daily report;
- compliance officers do everything, and alone hand cases out to others in bulk;
- auditors read everything and change nothing.
"""

from __future__ import annotations

from typing import Literal

from services.ledger.console_tables import CONSOLE_ROLES

Capability = Literal["read", "work", "close", "bulk_assign", "daily", "people"]

OPERATOR, ANALYST, OFFICER, AUDITOR = CONSOLE_ROLES
ROLE_NAMES = {OPERATOR: "surveillance operator", ANALYST: "dispute analyst",
              OFFICER: "compliance officer", AUDITOR: "auditor (read-only)"}

GRANTS: dict[Capability, frozenset[str]] = {
    "read": frozenset(CONSOLE_ROLES),  # floor, queue, cases, hands, search
    "work": frozenset({OPERATOR, ANALYST, OFFICER}),  # assign to me, note, escalate
    "close": frozenset({ANALYST, OFFICER}),  # a decision: outcome and reason
    "bulk_assign": frozenset({OFFICER}),  # handing cases to other reviewers
    "daily": frozenset({ANALYST, OFFICER, AUDITOR}),  # the compliance report
    "people": frozenset({OPERATOR, OFFICER, AUDITOR}),  # players' and dealers' profiles
}


def with_article(name: str) -> str:
    """"an auditor", "a compliance officer": a role's name in a sentence."""
    return f"{'an' if name[:1] in 'aeiou' else 'a'} {name}"


def allowed(role: str, capability: Capability) -> bool:
    return role in GRANTS[capability]


def capabilities(role: str) -> frozenset[Capability]:
    """What a role may do (the templates show only the forms it may submit)."""
    return frozenset(c for c, roles in GRANTS.items() if role in roles)
