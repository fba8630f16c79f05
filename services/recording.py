"""What an embedded run keeps in the database: the hands booked in the ledger, every event
and alert in the archive, and the cases its findings and alerts open.

``pitwatch adjudicate --ledger URL`` and ``pitwatch demo`` keep a run this way; the Kafka
pipeline does the same through its services (the ledger service books, the archive
service archives and opens cases). Order: the ledger first (a case's evidence hands are
found by their booked day), then the archive, then the cases; each step is idempotent, so
a run kept twice keeps nothing twice.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from sqlalchemy import Engine

from services.adjudicator.segments import Segment
from services.archive.segment import PackedSegment, pack_parts
from services.archive.writer import ArchiveResult, archive_run
from services.cases.intake import IntakeResult, open_cases
from services.events.contract import AdjudicationRecord, Alert
from services.ledger.posting import PostResult, post_many


@dataclass
class ArchiveCollector:
    """Packs each segment as the run hands it out (compressed, about a quarter of the
    canonical bytes), so a long run does not hold every event's JSON in memory."""

    packed: list[PackedSegment] = field(default_factory=list)

    def add(self, segments: Iterable[Segment]) -> None:
        for segment in segments:
            self.packed += pack_parts(segment)


@dataclass(frozen=True)
class Kept:
    posted: list[PostResult]
    archived: ArchiveResult | None
    cases: IntakeResult | None


def keep_run(engine: Engine, records: Sequence[AdjudicationRecord], alerts: Sequence[Alert],
             segments: Sequence[PackedSegment] | None) -> Kept:
    """Book ``records``; with ``segments`` (None: archiving off), archive them and the
    alerts, and open the cases."""
    posted = post_many(engine, records)
    if segments is None:
        return Kept(posted, None, None)
    archived = archive_run(engine, segments, alerts)
    return Kept(posted, archived, open_cases(engine, records, alerts))


def archive_summary(url: str, kept: Kept) -> list[str]:
    """What archiving did, in words (stderr of the commands)."""
    if kept.archived is None or kept.cases is None:
        return []
    a, c = kept.archived, kept.cases
    lines = [f"archive {url}: {a.segments + a.trimmed:,} segment(s) archived"
             + (f" ({a.trimmed:,} without events already held)" if a.trimmed else "")
             + (f", {a.repeats:,} already archived" if a.repeats else "")
             + f"; {a.alerts:,} alert(s)"
             + (f", {a.alert_repeats:,} already archived" if a.alert_repeats else "")]
    if a.conflicts:
        lines.append(f"  {a.conflicts:,} event(s) offered again with other bytes: the "
                     "archived ones are kept, the others are in archive_conflicts (SURV-9)")
    lines.append(f"cases: {c.opened:,} opened, {c.joined:,} joined an open case"
                 + (f", {c.repeats:,} already taken" if c.repeats else "")
                 + " (pitwatch cases list)")
    return lines
