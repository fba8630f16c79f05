"""Writing a case's row and its audit entry together: the one way a case changes.

Every change (a case opened, evidence joined, a reviewer's action) goes through
``open_case`` or ``change_case`` inside the caller's write transaction: the row is
updated only if its ``version`` is still the one the change was decided on (else
``CaseChanged``: someone else acted first), and the audit entry with the next version,
the actor, the time, the action and the state before and after is appended in the same
transaction. So the trail holds every change, in order, and no change is lost.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import orjson
from sqlalchemy import Connection, bindparam, insert, update

from services.cases.lifecycle import CaseStatus
from services.ledger.case_tables import Case, CaseAudit


class CaseChanged(RuntimeError):
    """The case changed since the action was decided on it (another reviewer acted)."""


def now_utc() -> str:
    """RFC 3339 UTC with milliseconds, the form of the event timestamps."""
    return dt.datetime.now(dt.UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


# The statements, built once with their values as parameters: built with the values in
# them (``.values(...)``), each execution made SQLAlchemy derive the statement's cache key
# from every value again, about half of a case's intake (2.7 ms a case on SQLite).
_OPEN = insert(Case).returning(Case.case_id)
_APPEND = insert(CaseAudit)
_STATUS = ("state", "severity", "assignee", "outcome", "reason")  # ``CaseStatus.as_dict``
_CHANGE = update(Case).where(Case.case_id == bindparam("b_case_id"),
                             Case.version == bindparam("b_version")).values(
    version=bindparam("b_next"), updated_at=bindparam("b_at"),
    **{name: bindparam(f"b_{name}") for name in _STATUS})


def open_case(conn: Connection, subject: str, subject_kind: str, title: str,
              status: CaseStatus, actor: str, at: str, detail: dict[str, Any]) -> int:
    """A new case (version 1) and its first audit entry; returns its id."""
    case_id: int = conn.execute(_OPEN, {
        "subject": subject, "subject_kind": subject_kind, "title": title, "opened_at": at,
        "updated_at": at, "version": 1, **status.as_dict()}).scalar_one()
    _append(conn, case_id, 1, at, actor, "open", None, status, detail)
    return case_id


def change_case(conn: Connection, case_id: int, version: int, before: CaseStatus,
                after: CaseStatus, action: str, actor: str, at: str,
                detail: dict[str, Any]) -> int:
    """Move the case from ``version`` to the next; returns the new version.

    The audit entry goes in first: the database lets a case row change only to the
    version and state of an audit entry already there (migration 0013), so no change of
    a case can skip the trail. The callers hold the case's row locked (``FOR UPDATE``;
    SQLite's write lock), and should the row have moved on anyway, the transaction ends
    in ``CaseChanged`` and takes the entry back with it."""
    _append(conn, case_id, version + 1, at, actor, action, before, after, detail)
    changed = conn.execute(_CHANGE, {
        "b_case_id": case_id, "b_version": version, "b_next": version + 1, "b_at": at,
        **{f"b_{name}": value for name, value in after.as_dict().items()}})
    if changed.rowcount != 1:
        raise CaseChanged(f"case {case_id} changed since version {version}: read it again "
                          "and decide on what it is now")
    return version + 1


def _append(conn: Connection, case_id: int, version: int, at: str, actor: str, action: str,
            before: CaseStatus | None, after: CaseStatus, detail: dict[str, Any]) -> None:
    changes = {k: v for k, v in after.as_dict().items()
               if before is None or before.as_dict()[k] != v}
    conn.execute(_APPEND, {
        "case_id": case_id, "version": version, "at": at, "actor": actor, "action": action,
        "state_before": None if before is None else before.state,
        "state_after": after.state,
        "detail": orjson.dumps({**detail, "changed": changes}).decode()})
