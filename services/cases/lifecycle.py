"""A case's life: its states and what each action may do, as a pure function.

    open ──assign──► in_review ──escalate──► escalated
      │                 │  ▲ assign (reassign)   │ assign (to a senior reviewer)
      └────escalate─────┼──┘                     │
      └──────────────close (outcome, reason)─────┴──► closed

A note can be added in any state (a closed case keeps collecting remarks; its decision
stays). Evidence joins only a case that is not closed: new evidence on a closed subject
opens a new case (``services.cases.intake``). Closing needs an outcome (confirmed, no
issue, procedural, referred) and a reason; a closed case changes no more.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from services.events.characters import LINE_OR_FORMAT, holds_any
from services.ledger.case_tables import CASE_OUTCOMES

Action = Literal["open", "evidence", "assign", "note", "escalate", "close"]
ACTIONS: tuple[str, ...] = ("open", "evidence", "assign", "note", "escalate", "close")
SEVERITY_RANK = {"info": 0, "warning": 1, "critical": 2}


class CaseRefused(ValueError):
    """An action the case's state does not allow, or given without what it needs; the
    message says why in one line."""


@dataclass(frozen=True)
class CaseStatus:
    """The part of a case an action can change."""

    state: str
    severity: str
    assignee: str | None = None
    outcome: str | None = None
    reason: str | None = None

    def as_dict(self) -> dict[str, str | None]:
        return {"state": self.state, "severity": self.severity, "assignee": self.assignee,
                "outcome": self.outcome, "reason": self.reason}


def higher(a: str, b: str) -> str:
    """The more serious of two severities."""
    return a if SEVERITY_RANK.get(a, -1) >= SEVERITY_RANK.get(b, -1) else b


def opened(severity: str) -> CaseStatus:
    return CaseStatus(state="open", severity=severity)


def check_name(name: str, what: str) -> None:
    """A person's name in the trail is one line of visible characters: a newline in an
    assignee once drew a forged header line under ``cases show``'s, and a right-to-left
    override shows a name other than the one stored."""
    if holds_any(name, LINE_OR_FORMAT):
        raise CaseRefused(f"{what} holds a control or formatting character (a line break, "
                          "a tab, a direction override): write it on one line, plainly")


def apply(case_id: int, status: CaseStatus, action: Action, *, assignee: str | None = None,
          text: str | None = None, outcome: str | None = None,
          severity: str | None = None) -> CaseStatus:
    """The case's status after ``action``, or ``CaseRefused``."""
    closed = status.state == "closed"
    if action == "note":
        if not (text and text.strip()):
            raise CaseRefused("a note needs its text")
        return status
    if closed:
        raise CaseRefused(f"case {case_id} is closed ({status.outcome}): it changes no more; "
                          "add a note, or let new evidence open a new case")
    if action == "evidence":
        return replace(status, severity=higher(status.severity, severity or status.severity))
    if action == "assign":
        if not (assignee and assignee.strip()):
            raise CaseRefused("assign needs the reviewer's name")
        check_name(assignee, "the reviewer's name")
        state = "in_review" if status.state == "open" else status.state
        return replace(status, state=state, assignee=assignee.strip())
    if action == "escalate":
        if status.state == "escalated":
            raise CaseRefused(f"case {case_id} is already escalated")
        return replace(status, state="escalated")
    if action == "close":
        if outcome not in CASE_OUTCOMES:
            raise CaseRefused(f"closing needs an outcome: one of {', '.join(CASE_OUTCOMES)}")
        if not (text and text.strip()):
            raise CaseRefused("closing needs a reason")
        return replace(status, state="closed", outcome=outcome, reason=text.strip())
    raise CaseRefused(f"unknown action {action!r}: one of {', '.join(ACTIONS[2:])}")

