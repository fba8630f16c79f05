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
# Makes a run's carry source, given the run's engine ("native" or "python") and a reader
# that says which table a state of that engine is of (ValueError: not one it reads).
CarryFrom: TypeAlias = Callable[[str, Callable[[bytes], str]], CarrySource]


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
