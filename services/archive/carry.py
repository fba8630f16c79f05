"""Each table's state kept at the end of a log that goes on, and taken by the run of the
log that follows it (``services.adjudicator.carry`` says why).

``pitwatch adjudicate --leave-open --ledger URL`` keeps, when its log ends, every table's
state as the log left it (open hands included) in ``table_carries``, keyed by the table,
how many of its events the state had taken and the engine; any ``adjudicate --ledger``
run then continues a table it meets from the latest state kept for it (the most events
taken) that the table's first record in its log goes on from: one above the state's
chain head, or a seq the state is missing (``StateRead.goes_on_with``). So a day's file
is checked as part of its tables' chains, and re-running a day (or giving it with the day
before) continues from the same state as before: the states kept after it have taken its
first record, so it goes on from the one they went on from. The core's chain check
(SURV-9) then holds the log's first event to the kept chain: a log that does not follow
on (events missing between the logs, another chain) is reported as a gap or break, a
late event as REORDERED, as in one run of both logs.

Why the events taken and not the chain head as the key, and "the latest that fits" and
not "the highest head below the first seq" (QA, variant C): the head is the highest seq a
table has taken, not the last. A forged event at seq 2**53 - 1 moves it there, and the
genuine events after it arrive below it (late arrivals, filling the gap); an honest log
whose late event comes in the next day's file starts below it too. No state was kept
below such a log's first seq, so the table started new (11 hands of the next day rejected
for want of their configuration, 3 orphan events); and a day whose events all came below
the head left it where it was, so its state was taken for the one before (kept already),
and the day after went on from two days back. Every record a run takes counts
(``events_taken``, the archive's count), so each run that meets a table keeps a state of
its own, in the order the runs took the table's events.

A kept state is derived (the archive holds the events it was made from, and the hands
left open are in the log that goes on), so it is taken only when it is whole: its SHA-256
as kept, of this engine (each reads only its own format), of the table that asks and at
the chain head its row names. Otherwise the run says why and the table starts new, as it
did before states were kept; except a state only the other engine reads, which refuses
the run before it reads a line (``refuse_other_engines``). A state kept at or above the
log's first seq that cannot be read cannot say whether it is missing that seq, so it is
said and not passed over: the table starts new rather than go on from an older state
that may not be the one. A log whose first record of a table is a repeat of one the
latest state took, or one older than its window remembers, fits no later state and goes
on from the latest state below it (or starts new), as before: its first record alone
does not tell it from a day run again.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import TypeAlias, cast

from sqlalchemy import Engine, Row, Table, and_, func, select
from sqlalchemy.dialects import postgresql, sqlite

from services.adjudicator.carry import StateReader, TableCarry
from services.ledger.archive_tables import ArchiveTable
from services.ledger.archive_tables import TableCarry as CarryRow
from services.ledger.db import write_transaction

C = CarryRow
# table_id, last_seq, events_taken, engine, state, sha
KeptRow: TypeAlias = Row[str, int, int, str, bytes, str]


@dataclass
class CarryResult:
    """What a run did with kept states: the tables it continued (table, seq of the state
    taken), why a state was not taken (one line each), how many states it kept for the
    next log and how many were kept already (the same log run again)."""

    continued: list[tuple[str, int]] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    kept: int = 0
    already: int = 0
    # Tables the archive holds, met part way through their chains with no state kept
    # before: (table, its first seq in the log, the archive's highest seq of it).
    unlinked: list[tuple[str, int, int]] = field(default_factory=list)


# What to do when a kept state cannot be taken: the table's days judged in one run need no
# kept state (a state is kept once per count of events, so running the day before again
# keeps no new one).
GIVE_TOGETHER = (" (to judge it as part of its chain, give this log together with the "
                 "ones before it, from the table's first, in one run)")
ROWS_READ_AT_ONCE = 8  # kept states of a table fetched at a time, the latest first


class KeptStates:
    """A run's carry source (``EmbeddedRunner.carry_from``): asked once a table, on its
    first record taken, for the state to continue it from. ``engine``: the run's engine;
    ``read``: reads a state of that engine and says what it holds of its table's chain
    (ValueError: not one it reads), on a runner of its own
    (``EmbeddedRunner.read_state``)."""

    def __init__(self, db: Engine, engine: str, read: StateReader,
                 result: CarryResult) -> None:
        self._db = db
        self._engine = engine
        self._read = read
        self.result = result
        # The tables any state is kept for, and the archive's tables with their highest
        # seq, read once: a table outside them (a log's new table, or one of the many ids
        # a hostile log may invent) costs no query.
        self._kept_tables: set[str] | None = None
        self._archived: dict[str, int] = {}

    def __call__(self, table_id: str, seq: int) -> bytes | None:
        try:
            if self._kept_tables is None:
                with self._db.connect() as conn:
                    self._kept_tables = set(conn.scalars(select(C.table_id).distinct()))
                self._archived = archived_tables(self._db)
            found = (self._goes_on_from(table_id, seq) if table_id in self._kept_tables
                     else None)
        except Exception as exc:  # said, not lost: the core cannot raise through its call
            first_line = (str(exc).splitlines() or [type(exc).__name__])[0]
            self.result.refused.append(
                f"table {table_id}: the states kept for it could not be read ({first_line}); "
                f"the table starts new here, as if this log were its first{GIVE_TOGETHER}")
            return None
        if found is None:
            if seq > 1 and table_id in self._archived:  # the log goes on from an earlier one
                self.result.unlinked.append((table_id, seq, self._archived[table_id]))
            return None
        row, why = found
        if why is not None:
            remedy = "" if row.engine != self._engine else GIVE_TOGETHER  # said in ``why``
            self.result.refused.append(
                f"table {table_id}: the state kept after its seq {row.last_seq:,} {why}; the "
                f"table starts new here, as if this log were its first{remedy}")
            return None
        self.result.continued.append((table_id, row.last_seq))
        return bytes(row.state)

    def _goes_on_from(self, table_id: str, seq: int) -> tuple[KeptRow, str | None] | None:
        """The state the table's log, first record at ``seq``, goes on from, and why it
        cannot be taken (None: it can); None: no state kept fits, the table starts new.

        The states from the latest (the most events taken; this engine's first where both
        kept one after as many), read one at a time: a state whose head is below ``seq``
        is the one (the log is the next, or comes after a gap; the states before it are
        not read); one at or above it is the one if it is missing ``seq`` (the log starts
        with a late event), and is passed over if it has taken it (the log is a day run
        again, which goes on from where that day's first run did); one that cannot be
        read is the one, said (it may be, and an older state would judge the log from
        the wrong place)."""
        query = (select(C.table_id, C.last_seq, C.events_taken, C.engine, C.state,
                        C.state_sha256)
                 .where(C.table_id == table_id)
                 .order_by(C.events_taken.desc(), C.engine != self._engine))
        with self._db.connect() as conn:
            rows = conn.execution_options(yield_per=ROWS_READ_AT_ONCE).execute(query)
            taken = None
            for row in rows:
                if row.events_taken == taken:  # another engine's state after as many
                    continue
                taken = row.events_taken
                why = self._why_not(row, seq)
                if why is not _HAS_TAKEN:
                    return row, why
        return None

    def _why_not(self, row: KeptRow, seq: int) -> str | None:
        """Why the state cannot be taken for a log whose first record is at ``seq``
        (``_HAS_TAKEN``: the state is whole but has taken that seq), or None."""
        if row.engine != self._engine:
            return (f"was kept by the {row.engine} engine, which alone reads it (run with "
                    f"--engine {row.engine} to continue the table)")
        if hashlib.sha256(row.state).hexdigest() != row.state_sha256:
            return "is damaged (its SHA-256 differs from the one kept with it)"
        try:
            read = self._read(bytes(row.state))
        except ValueError as exc:
            return f"is not a state this pitwatch reads ({exc})"
        if read.table_id != row.table_id:
            return f"is of table {read.table_id}"
        if read.last_seq != row.last_seq:
            return (f"holds the table's chain up to seq {read.last_seq:,}, not the seq its "
                    "row names (the row was changed after it was kept)")
        return None if read.goes_on_with(seq) else _HAS_TAKEN


# ``KeptStates._why_not`` of a whole state that has taken the log's first seq: not a
# refusal, the lookup goes on to the state before it.
_HAS_TAKEN = "has taken the log's first seq"


class KeptByAnotherEngine(ValueError):
    """The ledger keeps tables' states that only another engine reads; the message says
    which, and what to do."""


ENGINE_OPTION = "run with --engine {engine}"  # how a run picks its engine (``surveil``: env)


def refuse_other_engines(db: Engine, engine: str, choose: str = ENGINE_OPTION) -> None:
    """Refuse a run (``KeptByAnotherEngine``) before it reads a line when the latest state
    kept for any table is another engine's only.

    Why refused, not started new as a damaged state is: the state holds the events of the
    hands it left open, which only its engine reads, and the archive took them only when
    those hands closed. A run that started the table new lost them from the archive for
    good, and booked the log's hands as a new table's (rejected). An engine is chosen per
    ledger; a state kept by the other is said up front, with the way on."""
    latest = (select(C.table_id, func.max(C.events_taken).label("taken"))
              .group_by(C.table_id).subquery())
    query = select(C.table_id, C.engine).join(
        latest, and_(C.table_id == latest.c.table_id, C.events_taken == latest.c.taken))
    engines: dict[str, set[str]] = {}
    with db.connect() as conn:
        for table_id, kept_by in conn.execute(query):
            engines.setdefault(table_id, set()).add(kept_by)
    others = sorted((t, min(e)) for t, e in engines.items() if engine not in e)
    if not others:
        return
    named = ", ".join(t for t, _ in others[:5]) + (
        f" and {len(others) - 5:,} more" if len(others) > 5 else "")
    other = others[0][1]
    raise KeptByAnotherEngine(
        f"the ledger keeps the state of table(s) {named} as the {other} engine left it "
        f"(--leave-open), and only that engine reads it: {choose.format(engine=other)}, or "
        "give this log together with the ones before it, from the tables' first, in one "
        "run (nothing was read or written)")


def archived_tables(db: Engine) -> dict[str, int]:
    """The tables the archive holds, with the highest seq of each."""
    with db.connect() as conn:
        return {t: int(s) for t, s in conn.execute(
            select(ArchiveTable.table_id, ArchiveTable.last_seq))}


def kept_states_from(db: Engine, result: CarryResult
                     ) -> Callable[[str, StateReader], KeptStates]:
    """The ``CarryFrom`` of a run that reads the states kept in ``db`` (``adjudicate
    --ledger``, ``surveil --db``): given the run's engine and its state reader, its
    ``KeptStates``, which reports into ``result``."""
    return partial(KeptStates, db, result=result)


def keep_carries(db: Engine, engine: str, carries: Sequence[TableCarry], at: str
                 ) -> tuple[int, int]:
    """Keep each table's state (``EmbeddedRunner.carries``), the first kept after as many
    events of the table staying (a day run again makes the same state); returns (kept
    now, kept already)."""
    if not carries:
        return 0, 0
    keys = {(c.table_id, c.taken) for c in carries}
    with db.connect() as conn:
        held = {(row.table_id, row.events_taken) for row in conn.execute(
            select(C.table_id, C.events_taken).where(
                C.engine == engine, C.table_id.in_({c.table_id for c in carries})))}
    values = [{"table_id": c.table_id, "last_seq": c.last_seq, "engine": engine,
               "last_hash": c.last_hash, "events_taken": c.taken, "archive": c.archive,
               "state": c.state,
               "state_sha256": hashlib.sha256(c.state).hexdigest(), "kept_at": at}
              for c in carries if (c.table_id, c.taken) not in held]
    if values:
        table = cast(Table, CarryRow.__table__)
        with write_transaction(db) as conn:
            dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
            conn.execute(dialect.insert(table).on_conflict_do_nothing(), values)
    return len(values), len(keys & held)
