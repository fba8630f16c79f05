"""Each table's state kept at the end of a log that goes on, and taken by the run of the
log that follows it (``services.adjudicator.carry`` says why).

``pitwatch adjudicate --leave-open --ledger URL`` keeps, when its log ends, every table's
state as the log left it (open hands included) in ``table_carries``, keyed by the table,
the seq of its last event taken in order and the engine; any ``adjudicate --ledger`` run
then continues a table it meets from the state kept at the highest seq below the table's
first event in its log. So a day's file is checked as part of its tables' chains, and
re-running a day (or giving it with the day before) continues from the same state as
before: a state kept at or after a log's first event of the table is never taken for it.
The core's chain check (SURV-9) then holds the log's first event to the kept chain head:
a log that does not follow on (events missing between the logs, another chain) is
reported as a gap or break, as in one run of both logs.

A kept state is derived (the archive holds the events it was made from, and the hands
left open are in the log that goes on), so it is taken only when it is whole: its SHA-256
as kept, of this engine (each reads only its own format) and of the table that asks.
Otherwise the run says why and the table starts new, as it did before states were kept;
except a state only the other engine reads, which refuses the run before it reads a line
(``refuse_other_engines``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import TypeAlias, cast

from sqlalchemy import Engine, Row, Table, and_, func, select
from sqlalchemy.dialects import postgresql, sqlite

from services.adjudicator.carry import TableCarry
from services.ledger.archive_tables import ArchiveTable
from services.ledger.archive_tables import TableCarry as CarryRow
from services.ledger.db import write_transaction

C = CarryRow
KeptRow: TypeAlias = Row[str, int, str, bytes, str]  # table_id, last_seq, engine, state, sha


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
# kept state (a state is kept once per seq, so running the day before again keeps no new one).
GIVE_TOGETHER = (" (to judge it as part of its chain, give this log together with the "
                 "ones before it, from the table's first, in one run)")


class KeptStates:
    """A run's carry source (``EmbeddedRunner.carry_from``): asked once a table, on its
    first record taken, for the state to continue it from. ``engine``: the run's engine;
    ``table_of``: reads a state of that engine and says which table it is of (ValueError:
    not one it reads), on a runner of its own (``EmbeddedRunner.table_of_state``)."""

    def __init__(self, db: Engine, engine: str, table_of: Callable[[bytes], str],
                 result: CarryResult) -> None:
        self._db = db
        self._engine = engine
        self._table_of = table_of
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
                    self._archived = {t: int(s) for t, s in conn.execute(
                        select(ArchiveTable.table_id, ArchiveTable.last_seq))}
            row = (self._latest_before(table_id, seq) if table_id in self._kept_tables
                   else None)
        except Exception as exc:  # said, not lost: the core cannot raise through its call
            first_line = (str(exc).splitlines() or [type(exc).__name__])[0]
            self.result.refused.append(
                f"table {table_id}: the states kept for it could not be read ({first_line}); "
                f"the table starts new here, as if this log were its first{GIVE_TOGETHER}")
            return None
        if row is None:
            if seq > 1 and table_id in self._archived:  # the log goes on from an earlier one
                self.result.unlinked.append((table_id, seq, self._archived[table_id]))
            return None
        why = self._why_not(row)
        if why is not None:
            remedy = "" if row.engine != self._engine else GIVE_TOGETHER  # said in ``why``
            self.result.refused.append(
                f"table {table_id}: the state kept after its seq {row.last_seq:,} {why}; the "
                f"table starts new here, as if this log were its first{remedy}")
            return None
        self.result.continued.append((table_id, row.last_seq))
        return bytes(row.state)

    def _latest_before(self, table_id: str, seq: int) -> KeptRow | None:
        """The state kept at the highest seq below ``seq`` (this engine's when both are)."""
        query = select(C.table_id, C.last_seq, C.engine, C.state, C.state_sha256).where(
            C.table_id == table_id, C.last_seq < seq).order_by(C.last_seq.desc()).limit(2)
        with self._db.connect() as conn:
            rows = list(conn.execute(query))
        if not rows:
            return None
        top = [row for row in rows if row.last_seq == rows[0].last_seq]
        return next((row for row in top if row.engine == self._engine), top[0])

    def _why_not(self, row: KeptRow) -> str | None:
        if row.engine != self._engine:
            return (f"was kept by the {row.engine} engine, which alone reads it (run with "
                    f"--engine {row.engine} to continue the table)")
        if hashlib.sha256(row.state).hexdigest() != row.state_sha256:
            return "is damaged (its SHA-256 differs from the one kept with it)"
        try:
            of = self._table_of(bytes(row.state))
        except ValueError as exc:
            return f"is not a state this pitwatch reads ({exc})"
        if of != row.table_id:
            return f"is of table {of}"
        return None


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
    latest = (select(C.table_id, func.max(C.last_seq).label("seq"))
              .group_by(C.table_id).subquery())
    query = select(C.table_id, C.engine).join(
        latest, and_(C.table_id == latest.c.table_id, C.last_seq == latest.c.seq))
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


def kept_states_from(db: Engine, result: CarryResult
                     ) -> Callable[[str, Callable[[bytes], str]], KeptStates]:
    """The ``CarryFrom`` of a run that reads the states kept in ``db`` (``adjudicate
    --ledger``, ``surveil --db``): given the run's engine and its state reader, its
    ``KeptStates``, which reports into ``result``."""
    return partial(KeptStates, db, result=result)


def keep_carries(db: Engine, engine: str, carries: Sequence[TableCarry], at: str
                 ) -> tuple[int, int]:
    """Keep each table's state (``EmbeddedRunner.carries``), the first kept at a seq
    staying; returns (kept now, kept already)."""
    if not carries:
        return 0, 0
    keys = {(c.table_id, c.last_seq) for c in carries}
    with db.connect() as conn:
        held = {(row.table_id, row.last_seq) for row in conn.execute(
            select(C.table_id, C.last_seq).where(
                C.engine == engine, C.table_id.in_({c.table_id for c in carries})))}
    values = [{"table_id": c.table_id, "last_seq": c.last_seq, "engine": engine,
               "last_hash": c.last_hash, "events_taken": c.taken, "archive": c.archive,
               "state": c.state,
               "state_sha256": hashlib.sha256(c.state).hexdigest(), "kept_at": at}
              for c in carries if (c.table_id, c.last_seq) not in held]
    if values:
        table = cast(Table, CarryRow.__table__)
        with write_transaction(db) as conn:
            dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
            conn.execute(dialect.insert(table).on_conflict_do_nothing(), values)
    return len(values), len(keys & held)
