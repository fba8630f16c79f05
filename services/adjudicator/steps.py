"""What feeding one record to a runner gives back, whichever engine runs it.

Why a module of its own: the reference runner (``python_runner``) and the native one
(``native_runner``) return the same types, and neither may import the other.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from services.adjudicator.segments import Segment
from services.events.contract import AdjudicationRecord, Alert, Finding
from services.games.model import HandInput


@dataclass(frozen=True)
class DeadLetter:
    """A record that could not be accepted, unchanged, with the reason."""

    where: str
    reason: str
    raw: bytes
    table_id: str | None = None


@dataclass(slots=True)
class StepResult:
    records: list[AdjudicationRecord] = field(default_factory=list)
    alerts: list[Alert] = field(default_factory=list)
    dead_letters: list[DeadLetter] = field(default_factory=list)
    closed_hand: HandInput | None = None  # the hand adjudicated by this record, if any
    # Critical chain findings no hand could take: rejected input (docs/events.md).
    outside_hand: list[Finding] = field(default_factory=list)
    # Event archive segments this record completed (services.adjudicator.segments; the
    # reference runner cuts them, the native core does not yet).
    archive: list[Segment] = field(default_factory=list)
