"""The reference runner: the per-event path in Python (``PITWATCH_ENGINE=python``).

It drives ``parse_record`` and ``apply_event`` (the readable reference of intake, the
chain check and hand assembly), keeping the per-table states in a dict. The native
runner (``native_runner``) must give byte-identical results; the differential tests
(``tests/unit/native``) compare the two.
"""

from __future__ import annotations

import msgspec

from services.adjudicator.carry import CarrySource
from services.adjudicator.intake import Rejection, parse_record
from services.adjudicator.steps import DeadLetter, StepResult
from services.adjudicator.table import (
    Outputs,
    TableState,
    apply_event,
    close_open_hand_at_end,
    decode_state,
    encode_state,
)
from services.games.profile import Profiles


class ReferenceRunner:
    """Feeds records one at a time; per-table state lives in ``states``."""

    def __init__(self, profiles: Profiles) -> None:
        self.profiles = profiles
        self.states: dict[str, TableState] = {}
        self.carry_source: CarrySource | None = None  # ``carry_from``

    def feed(self, raw: bytes, where: str) -> StepResult:
        parsed = parse_record(raw, where)
        if isinstance(parsed, Rejection):
            return StepResult(dead_letters=[DeadLetter(where, parsed.reason, raw,
                                                       parsed.table_id)])
        table_id = parsed.event.table_id
        state = self.states.get(table_id)
        if state is None:
            state = self.states[table_id] = self._new_table(table_id, parsed.event.seq)
        out = apply_event(state, parsed, self.profiles)
        if not out.dlq:  # the usual case: nothing for the DLQ
            return StepResult(out.records, out.alerts, [], out.closed_hand, out.outside_hand,
                              out.archive)
        return _step(out, raw, where, table_id)

    def _new_table(self, table_id: str, seq: int) -> TableState:
        """A table met for the first time, at ``seq``: new, or continued from the state
        ``carry_source`` gives for it (one of this table that decodes; any other: new)."""
        raw = self.carry_source(table_id, seq) if self.carry_source is not None else None
        if raw is not None:
            try:
                state = _decoded(raw)
            except ValueError:
                state = None
            if state is not None and state.table_id == table_id:
                return state
        return TableState(table_id=table_id)

    # ------------------------------------------------------------ state (NativeRunner's)

    def carry_from(self, source: CarrySource | None) -> None:
        """A table met for the first time continues from the state ``source(table_id,
        seq)`` returns (``export_table``'s bytes; None: the table is new)."""
        self.carry_source = source

    def export_table(self, table_id: str) -> bytes | None:
        state = self.states.get(table_id)
        return None if state is None else encode_state(state)

    def import_table(self, raw: bytes) -> str:
        """Restore a table from ``export_table``; ValueError: not a state of this engine."""
        state = _decoded(raw)
        self.states[state.table_id] = state
        return state.table_id

    def drop_table(self, table_id: str) -> None:
        self.states.pop(table_id, None)

    def table_ids(self) -> list[str]:
        return sorted(self.states)

    def chain_head(self, table_id: str) -> tuple[int, str, int] | None:
        state = self.states.get(table_id)
        return None if state is None else (state.last_seq, state.last_hash, state.taken)

    def missing_seqs(self, table_id: str) -> list[tuple[int, int]] | None:
        """The seqs a gap skipped that have not arrived, as (first, last) ranges (the
        window's); None: the table is unknown."""
        state = self.states.get(table_id)
        return None if state is None else list(state.window.ranges)

    def finish(self) -> StepResult:
        """Close hands left open at end of input (reported as rejected, never dropped);
        the archive gets every table's last segments."""
        result = StepResult()
        for table_id in sorted(self.states):
            out = close_open_hand_at_end(self.states[table_id])
            result.records += out.records
            result.archive += out.archive
        return result


def _decoded(raw: bytes) -> TableState:
    """A state ``export_table`` wrote; ValueError: not a table state of this engine."""
    try:
        return decode_state(raw)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise ValueError(f"not a table state of the reference engine: {exc}") from None


def _step(out: Outputs, raw: bytes, where: str, table_id: str) -> StepResult:
    return StepResult(
        records=out.records,
        alerts=out.alerts,
        dead_letters=[DeadLetter(where, reason, raw, table_id) for reason in out.dlq],
        closed_hand=out.closed_hand,
        outside_hand=out.outside_hand,
        archive=out.archive,
    )
