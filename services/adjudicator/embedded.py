"""The embedded runner: adjudicate a JSONL event log with no broker.

It drives exactly the functions the Kafka worker drives (``parse_record``, ``apply_event``),
keeping the per-table states in a dict instead of a changelogged table, so
``pitwatch adjudicate FILE`` and the Kafka pipeline give byte-identical records.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from services.adjudicator.intake import Rejection, parse_record
from services.adjudicator.segments import Segment
from services.adjudicator.table import (
    Outputs,
    TableState,
    apply_event,
    close_open_hand_at_end,
)
from services.events.contract import AdjudicationRecord, Alert, Finding
from services.games.model import HandInput
from services.games.profile import Profiles


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
    # Event archive segments this record completed (services.adjudicator.segments).
    archive: list[Segment] = field(default_factory=list)


class EmbeddedRunner:
    """Feeds records one at a time; per-table state lives in ``states``. ``profiles``:
    the rule profiles the tables may post (read once by the caller's bootstrap)."""

    def __init__(self, profiles: Profiles) -> None:
        self.profiles = profiles
        self.states: dict[str, TableState] = {}

    def feed(self, raw: bytes, where: str) -> StepResult:
        parsed = parse_record(raw, where)
        if isinstance(parsed, Rejection):
            return StepResult(dead_letters=[DeadLetter(where, parsed.reason, raw,
                                                       parsed.table_id)])
        table_id = parsed.event.table_id
        state = self.states.get(table_id)
        if state is None:
            state = self.states[table_id] = TableState(table_id=table_id)
        out = apply_event(state, parsed, self.profiles)
        if not out.dlq:  # the usual case: nothing for the DLQ
            return StepResult(out.records, out.alerts, [], out.closed_hand, out.outside_hand,
                              out.archive)
        return _step(out, raw, where, table_id)

    def finish(self) -> StepResult:
        """Close hands left open at end of input (reported as rejected, never dropped);
        the archive gets every table's last segments."""
        result = StepResult()
        for table_id in sorted(self.states):
            out = close_open_hand_at_end(self.states[table_id])
            result.records += out.records
            result.archive += out.archive
        return result


def _step(out: Outputs, raw: bytes, where: str, table_id: str) -> StepResult:
    return StepResult(
        records=out.records,
        alerts=out.alerts,
        dead_letters=[DeadLetter(where, reason, raw, table_id) for reason in out.dlq],
        closed_hand=out.closed_hand,
        outside_hand=out.outside_hand,
        archive=out.archive,
    )


def iter_lines(lines: Iterable[bytes]) -> Iterator[tuple[bytes, str]]:
    """Non-blank lines with their 1-based line number as the position."""
    for number, line in enumerate(lines, start=1):
        stripped = line.strip()
        if stripped:
            yield stripped, f"line {number}"


def adjudicate_lines(lines: Iterable[bytes], profiles: Profiles) -> Iterator[StepResult]:
    """Every result of a whole log, then the end-of-input closing."""
    runner = EmbeddedRunner(profiles)
    feed = runner.feed
    for number, line in enumerate(lines, start=1):  # as ``iter_lines``, inlined (hot loop)
        stripped = line.strip()
        if stripped:
            yield feed(stripped, f"line {number}")
    yield runner.finish()
