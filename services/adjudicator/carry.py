"""A table's state carried from the end of one log to the run of the log that goes on.

Why: a table's events are one hash chain from its configuration, and a casino's logs are
cut by day. A day's log alone starts part way through each table's chain, so the run had
no configuration for its hands (GEN-5 ``NO_CONFIGURATION``), called its first events a gap
from seq 0 (SURV-9 ``SEQ_GAP``), and a hand dealt across midnight had its first events in
the other file. The run of the day before can keep each table's state as its log left it,
open hands and all (``pitwatch adjudicate --leave-open --ledger``): the next day's run
takes a table's kept state when it meets the table, and goes on as one run of both days
would have. Both engines export and import their own states (the native core's bytes are
its own format, the reference's its msgpack), so a kept state says which engine made it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple, TypeAlias

# Where a table a runner meets for the first time may continue from: the state to take for
# it (the engine's ``export_table`` bytes) given its id and the seq of its first record
# taken; None: the table starts new.
CarrySource: TypeAlias = Callable[[str, int], bytes | None]


class StateRead(NamedTuple):
    """What a kept state says of its table's chain, read by the engine that wrote it
    (``EmbeddedRunner.read_state``): which table it is of, the seq of its chain head, and
    the seqs a gap skipped that have not arrived, as (first, last) ranges."""

    table_id: str
    last_seq: int
    missing: tuple[tuple[int, int], ...]

    def goes_on_with(self, seq: int) -> bool:
        """Whether a log whose first record of the table is at ``seq`` goes on from this
        state: the record is one the state has not taken, above its head (the next, or
        after a gap) or a seq it is missing (a late arrival the chain check takes as
        REORDERED, as one run of both logs does). Why not "above the head" alone: the
        head is the highest seq taken, not the last, so a late event, or every genuine
        event after a forged seq 2**53 - 1, comes below it (docs/events.md, "Duplicates,
        late and stale events"); a seq at or below the head that the state is not
        missing is one it has taken (or forgotten), so a log that starts there does not
        follow this state: it is a log run again, which goes on from an earlier one."""
        if seq > self.last_seq:
            return True
        return any(first <= seq <= last for first, last in self.missing)


# Reads a state of the run's engine (ValueError: not one it reads), on a runner of its own.
StateReader: TypeAlias = Callable[[bytes], StateRead]
# Makes a run's carry source, given the run's engine ("native" or "python") and its
# state reader.
CarryFrom: TypeAlias = Callable[[str, StateReader], CarrySource]


class TableCarry(NamedTuple):
    """A table's state as a run left it, and its chain head then: the seq and hash of its
    last event taken in seq order (the next log's first event of the table follows it);
    how many events of the table it has taken in all (the archive's count of them), and
    whether the run cut the archive's segments (the state then holds the events it has
    not handed out yet)."""

    table_id: str
    last_seq: int
    last_hash: str
    taken: int
    archive: bool
    state: bytes
