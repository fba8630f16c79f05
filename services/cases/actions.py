"""A reviewer's action on a case: assign, note, escalate, close.

Each action is one write transaction: the case row is read under a row lock
(``SELECT ... FOR UPDATE`` on PostgreSQL; on SQLite the write transaction takes the
database's write lock up front, ``BEGIN IMMEDIATE``), the lifecycle decides the new
status (``services.cases.lifecycle``), and the row and its audit entry are written
together, the row only if its version is unchanged (``services.cases.audit``). Two
reviewers acting on one case at once therefore act one after the other, each on what the
other left: both actions are in the trail, neither is lost.

``expected_version``: the version the reviewer saw (the console shows it with the case).
If the case changed since, the action is refused (``CaseChanged``) rather than applied to
a case the reviewer has not seen; without it, the action applies to the case as it is.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Engine, select

from services.cases.audit import CaseChanged, change_case, now_utc
from services.cases.lifecycle import (
    Action,
    CaseRefused,
    CaseStatus,
    apply,
    check_actor,
    same_name,
)
from services.ledger.case_tables import Case, is_case_id
from services.ledger.db import write_transaction

__all__ = ["ActionResult", "CaseChanged", "CaseNotFound", "CaseRefused", "act", "assign",
           "close", "escalate", "note"]


class CaseNotFound(LookupError):
    """No case has this id."""


@dataclass(frozen=True)
class ActionResult:
    case_id: int
    version: int  # the case's version after the action
    before: CaseStatus
    after: CaseStatus
    changed: bool = True  # False: an assign to whom the case has already, not recorded


def act(engine: Engine, case_id: int, action: Action, actor: str, *,
        assignee: str | None = None, text: str | None = None, outcome: str | None = None,
        expected_version: int | None = None, at: str | None = None) -> ActionResult:
    """Apply one action to one case (see the module docstring)."""
    check_actor(actor)
    if not is_case_id(case_id):
        raise CaseNotFound(f"no case {case_id}")
    with write_transaction(engine) as conn:
        row = conn.execute(select(Case.version, Case.state, Case.severity, Case.assignee,
                                  Case.outcome, Case.reason)
                           .where(Case.case_id == case_id).with_for_update()).first()
        if row is None:
            raise CaseNotFound(f"no case {case_id}")
        # The time is read holding the case: a writer that waited for another's lock once
        # stamped its entry before the other's, and the trail's times went backwards.
        when = at or now_utc()
        if expected_version is not None and row.version != expected_version:
            since = ("someone acted on it since" if expected_version < row.version
                     else "it has no such version yet")
            raise CaseChanged(f"case {case_id} is at version {row.version}, not "
                              f"{expected_version}: {since}; read it again "
                              f"(pitwatch cases show {case_id})")
        before = CaseStatus(row.state, row.severity, row.assignee, row.outcome, row.reason)
        after = apply(case_id, before, action, assignee=assignee, text=text, outcome=outcome)
        if (action == "assign" and after.state == before.state
                and same_name(before.assignee, after.assignee)):
            # Not recorded: an entry that changes nothing raised the version, and every
            # other reviewer's open form was then refused as stale (QA). The same reviewer
            # in other capitals too, by the name comparison the queue's filter uses: "ann"
            # after "Ann" was a new version and entry for a case nobody had passed on (QA).
            return ActionResult(case_id, row.version, before, before, changed=False)
        detail: dict[str, str] = {}
        if text is not None:
            detail["note" if action == "note" else "reason"] = text
        version = change_case(conn, case_id, row.version, before, after, action, actor, when,
                              detail)
    return ActionResult(case_id, version, before, after)


def assign(engine: Engine, case_id: int, assignee: str, actor: str,
           expected_version: int | None = None) -> ActionResult:
    return act(engine, case_id, "assign", actor, assignee=assignee,
               expected_version=expected_version)


def note(engine: Engine, case_id: int, text: str, actor: str,
         expected_version: int | None = None) -> ActionResult:
    return act(engine, case_id, "note", actor, text=text, expected_version=expected_version)


def escalate(engine: Engine, case_id: int, actor: str, reason: str | None = None,
             expected_version: int | None = None) -> ActionResult:
    return act(engine, case_id, "escalate", actor, text=reason,
               expected_version=expected_version)


def close(engine: Engine, case_id: int, outcome: str, reason: str, actor: str,
          expected_version: int | None = None) -> ActionResult:
    return act(engine, case_id, "close", actor, outcome=outcome, text=reason,
               expected_version=expected_version)
