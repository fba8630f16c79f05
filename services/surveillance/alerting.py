"""Building SURV alerts in the ``alerts`` topic format, with their evidence."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from typing import Any

from services.events.contract import Alert, Severity
from services.surveillance.facts import HandRef


class Evidence:
    """The most recent hands behind an instance (at most ``keep``); counts cover all."""

    def __init__(self, keep: int) -> None:
        self.hands: deque[HandRef] = deque(maxlen=max(keep, 0))

    def add(self, ref: HandRef) -> None:
        self.hands.append(ref)

    def cited(self) -> list[dict[str, str | int]]:
        return [ref.as_evidence() for ref in self.hands]


def surv_alert(where: HandRef, code: str, rule: str, severity: Severity, message: str,
               evidence: dict[str, Any], refs: Iterable[HandRef] = ()) -> Alert:
    """An alert raised on the hand ``where`` (the hand that made the pattern cross);
    ``refs``: the evidence hands, whose counted findings the alert lists by id (the engine
    adds the id, subject, parties and related alerts: ``services.surveillance.links``)."""
    findings = [fid for ref in refs for fid in ref.finding_ids()]
    return Alert(table_id=where.table_id, hand_id=where.hand_id, code=code, rule=rule,
                 severity=severity, message=message, evidence=evidence,
                 findings=findings or None)


def sorted_tables(refs: Iterable[HandRef]) -> list[str]:
    return sorted({r.table_id for r in refs})
