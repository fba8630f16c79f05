"""Findings and decision path collected while a hold'em hand is replayed.

The deal, the board and the showdown checks each add to one ``Notes``: a finding names
the rule and says what should have happened; a trace step tells the dispute report which
rule decided what, in plain words.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from services.events.contract import Finding
from services.games.holdem.profile import HoldemSeverities, Sev
from services.games.model import TraceStep, finding


@dataclass
class Notes:
    severity: HoldemSeverities
    findings: list[Finding] = field(default_factory=list)
    trace: list[TraceStep] = field(default_factory=list)

    def add(self, code: str, rule: str, severity: Sev, message: str,
            seat: int | None = None, amount: int | None = None) -> None:
        self.findings.append(finding(code, rule, severity, message, seat=seat, amount=amount))

    def step(self, rule: str, message: str, seat: int | None = None) -> None:
        self.trace.append(TraceStep(rule, message, seat))
