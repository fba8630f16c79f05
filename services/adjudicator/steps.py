"""What feeding one record to a runner gives back, whichever engine runs it.

Why a module of its own: the reference runner (``python_runner``) and the native one
(``native_runner``) return the same types, and neither may import the other.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from services.adjudicator.segments import Segment
from services.events.contract import AdjudicationRecord, Alert, Finding, encode_record

if TYPE_CHECKING:
    from services.games.model import HandInput


@dataclass(frozen=True)
class DeadLetter:
    """A record that could not be accepted, unchanged, with the reason."""

    where: str
    reason: str
    raw: bytes
    table_id: str | None = None


def finding_key(finding: Finding) -> tuple[str, str, str]:
    """What summaries count a finding by: its rule, code and severity."""
    return finding.rule, finding.code, finding.severity


@dataclass(frozen=True, slots=True)
class EncodedRecord:
    """A hand's adjudication record as the bytes ``encode_record`` gives (``json``), with
    what a summary counts of it.

    Why: a caller that only writes records out and counts them (``pitwatch adjudicate``
    without a ledger, the Kafka worker) needs no struct; building one per hand in Python
    and encoding it again cost more than the native core's rules took to decide the hand.
    """

    hand_id: str
    status: str
    findings: list[tuple[str, str, str]]  # (rule, code, severity) of each finding
    json: bytes

    @classmethod
    def of(cls, record: AdjudicationRecord) -> EncodedRecord:
        return cls(record.hand_id, record.status,
                   [finding_key(f) for f in record.findings],
                   encode_record(record))


@dataclass(frozen=True, slots=True)
class EncodedRun:
    """Records of consecutive hands as ``encode_record`` gives them, one a line
    (``json``), with what a summary counts of them: hands, hands by status, findings by
    (rule, code, severity).

    Why: ``pitwatch adjudicate FILE`` only writes the records and counts them; the native
    core hands over a buffer's worth of records at once (``NativeRunner.feed_path`` with
    ``runs``) instead of a step and an ``EncodedRecord`` a hand (about 4% of a run).
    """

    json: bytes
    hands: int
    status: list[tuple[str, int]]
    findings: list[tuple[tuple[str, str, str], int]]


@dataclass(slots=True)
class StepResult:
    records: list[AdjudicationRecord] = field(default_factory=list)
    alerts: list[Alert] = field(default_factory=list)
    dead_letters: list[DeadLetter] = field(default_factory=list)
    closed_hand: HandInput | None = None  # the hand adjudicated by this record, if any
    # Critical chain findings no hand could take: rejected input (docs/events.md).
    outside_hand: list[Finding] = field(default_factory=list)
    # Event archive segments this record completed (services.adjudicator.segments; both
    # engines cut the same ones, docs/archive.md).
    archive: list[Segment] = field(default_factory=list)
    # The records, encoded, in place of ``records`` when the runner was asked for them so
    # (``NativeRunner.encode_records``): every record of the step is in one list or the
    # other, in the order the hands ended.
    encoded: list[EncodedRecord] = field(default_factory=list)
    # Records of hands that ended before this step's, as one run (``EncodedRun``): only
    # from ``feed_path`` with ``runs``, and then they come before ``encoded``.
    encoded_run: EncodedRun | None = None
