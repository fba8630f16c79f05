"""The reference runner: the per-event path in Python (``PITWATCH_ENGINE=python``).

It drives ``parse_record`` and ``apply_event`` (the readable reference of intake, the
chain check and hand assembly), keeping the per-table states in a dict. The native
runner (``native_runner``) must give byte-identical results; the differential tests
(``tests/unit/native``) compare the two.
"""

from __future__ import annotations

from services.adjudicator.intake import Rejection, parse_record
from services.adjudicator.steps import DeadLetter, StepResult
from services.adjudicator.table import (
    Outputs,
    TableState,
    apply_event,
    close_open_hand_at_end,
)
from services.games.profile import Profiles


class ReferenceRunner:
    """Feeds records one at a time; per-table state lives in ``states``."""

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
