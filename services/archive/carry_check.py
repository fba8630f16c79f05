"""``pitwatch verify`` derives every kept table state again from the archived events.

Why: a state kept at the end of a day's log (``services.archive.carry``) decides how the
next day's hands are judged, and a run takes it on its SHA-256 alone; someone who could
rewrite it with its hash would change that judgement without a chain break. The state is
derived data: the table's first ``events_taken`` archived events, fed in arrival order to
a runner of the state's engine set as the run was (cutting the archive's segments or
not), give it again, byte for byte. The open hands' events a state holds are archived
when those hands end, in the next log's run, so the newest state of a table usually waits
for that run (a note says so); the others are derived. States without profiles to judge
under are not. After a detach (the table's first days cold), the states whose events are
all live are derived from the state kept before them, as the run that kept them went on
from it (imported, then fed what came after): the first state past the detached days is
taken as kept (a note says so).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Engine, select

from services.adjudicator.engine import make_runner
from services.adjudicator.native_runner import NativeRunner
from services.adjudicator.python_runner import ReferenceRunner
from services.archive.chain import ChainBreak, first_damage
from services.archive.partitions import detached_lines, has_detached_days
from services.archive.reader import DamagedRow, StoredAsBytes, raw_bytes, segment_bodies, shown
from services.archive.segment import SEPARATOR
from services.games.profile import Profiles
from services.ledger.archive_tables import TableCarry as C


@dataclass(frozen=True)
class KeptState:
    table_id: str
    last_seq: int
    engine: str
    events_taken: int
    archive: bool
    state: bytes
    last_hash: str  # the chain head the row names beside last_seq (its event's SHA-256)

    def describe(self) -> str:
        return (f"the state kept after seq {self.last_seq:,} ({self.engine} engine, "
                f"{self.events_taken:,} events taken)")


@dataclass
class CarryCheck:
    """What deriving a table's kept states found: how many were derived as kept, and those
    that differ (one line each)."""

    derived: int = 0
    differ: list[tuple[str, str | None]] = field(default_factory=list)  # (line, its hashes whole)


def check_kept_states(engine: Engine, table_id: str, profiles: Profiles,
                      notes: list[str], damage: Sequence[tuple[int, str]] = ()
                      ) -> CarryCheck:
    """Every state kept for the table, derived again from its archived events and
    compared byte for byte. A row that is no kept state (rewritten behind its guard: a
    count that is none, a state stored as text) differs too: it is listed, not derived.

    ``damage``: the breaks verify found in the table's archived events, each at the lowest
    seq it may have changed, lowest first (``services.archive.verify.archive_damage``). A
    state that does not derive, with such a break at or below its seq, is not said to
    differ: a note says it cannot be derived from the damaged archive, naming the first
    break (the events it was made from are no longer all there as they were)."""
    check = CarryCheck()
    states, damaged = _kept(engine, table_id)
    check.differ += [(line, None) for line in damaged]
    if not states:
        return check
    with engine.connect() as conn:
        cut = detached_lines(conn, table_id) if has_detached_days(conn, table_id) else 0
    said = _Said(notes, damage)
    if cut != 0:
        _after_detached_days(engine, table_id, profiles, states, cut, check, said)
        return check
    for group in _groups(states):
        _walk(engine, table_id, profiles, group, check, said)
    return check


def _after_detached_days(engine: Engine, table_id: str, profiles: Profiles,
                         states: list[KeptState], cut: int | None, check: CarryCheck,
                         said: _Said) -> None:
    """The states of a table whose first days (``cut`` archived lines; None: unknown) are
    detached: each derived from the one kept before it, when that one's events reach the
    live archive. Without it a forged state passed ``verify`` once any day was detached,
    which every archive kept for years is (QA)."""
    live = [] if cut is None else [s for s in states if s.events_taken >= cut]
    cold = len(states) - len(live)
    if cold:
        said.notes.append(f"table {table_id}: {cold:,} kept state(s) were not derived again "
                          "(their events are in the detached days)")
    for group in _groups(live):
        start, rest = group[0], group[1:]
        said.notes.append(f"table {table_id}: {start.describe()}, the first past its "
                          "detached days, is taken as kept; those after it are derived from "
                          "it (a forgery of it shows as the next state differing)")
        if rest:
            _walk(engine, table_id, profiles, rest, check, said, start, cut or 0)


def kept_state_breaks(engine: Engine, table_id: str, from_first: bool,
                      profiles: Profiles | None, notes: list[str],
                      damage: Sequence[tuple[int, str]]) -> tuple[list[ChainBreak], int]:
    """What ``pitwatch verify`` says of the table's kept states: the breaks (kind
    ``carry``: one that differs, a row that is no kept state) and how many derived as
    kept. Derived only on a verify from the table's first day and with profiles to judge
    under (else a note, when the table has any; a row that is no kept state is a break
    either way). ``damage``: ``check_kept_states``'s."""
    if not from_first or profiles is None:
        if has_kept_states(engine, table_id):
            notes.append(
                f"table {table_id}: its kept states were not derived again (" + (
                    "a verify without --from derives them" if not from_first else
                    "no rule profiles were given to derive them under") + ")")
        return [ChainBreak(table_id, None, None, "carry", message)
                for message in damaged_kept_states(engine, table_id)], 0
    check = check_kept_states(engine, table_id, profiles, notes, damage)
    return [ChainBreak(table_id, None, None, "carry", message, full=full)
            for message, full in check.differ], check.derived


def has_kept_states(engine: Engine, table_id: str) -> bool:
    with engine.connect() as conn:
        return conn.execute(select(C.last_seq).where(C.table_id == table_id).limit(1)
                            ).first() is not None


def damaged_kept_states(engine: Engine, table_id: str) -> list[str]:
    """What ``check_kept_states`` lists of rows that are no kept state, without reading
    the states (a verify that derives none still lists them)."""
    with engine.connect() as conn:
        rows = conn.execute(select(*_COLUMNS).where(C.table_id == table_id)
                            .order_by(C.last_seq, C.engine))
        return [found for r in rows if isinstance(found := _read(r, b""), str)]


# Read as stored (``services.archive.reader``): a state stored as text is a damaged row,
# not a driver's error that ends the read.
_COLUMNS = (C.table_id, C.last_seq, C.engine, C.events_taken, C.archive, C.last_hash,
            StoredAsBytes(C.state).label("state_is_bytes"))


def _kept(engine: Engine, table_id: str) -> tuple[list[KeptState], list[str]]:
    """The table's kept states in the order of the events they had taken, and what is
    wrong with each row that is none."""
    with engine.connect() as conn:
        rows = conn.execute(select(*_COLUMNS, raw_bytes(C.state, "state"))
                            .where(C.table_id == table_id).order_by(C.last_seq, C.engine))
        read = [_read(r, r.state) for r in rows]
    states = sorted((k for k in read if isinstance(k, KeptState)),
                    key=lambda k: (k.events_taken, k.engine))
    return states, [k for k in read if isinstance(k, str)]


def _read(row: Any, state: bytes | None) -> KeptState | str:
    """A ``table_carries`` row as a kept state, or what is wrong with it (one line)."""
    what = None
    if type(row.last_seq) is not int:
        what = f"column last_seq holds {shown(row.last_seq)}, not a seq"
    elif type(row.events_taken) is not int or row.events_taken < 0:
        what = f"column events_taken holds {shown(row.events_taken)}, not a count"
    elif not isinstance(row.engine, str):
        what = f"column engine holds {shown(row.engine)}, not an engine's name"
    elif not isinstance(row.last_hash, str):
        what = f"column last_hash holds {shown(row.last_hash)}, not a hash"
    elif not row.state_is_bytes:
        what = ("column state holds no bytes (NULL)" if state is None
                else "column state is stored as text, not as the bytes written")
    if what is not None or state is None:
        return (f"the state kept for table {row.table_id} after seq {shown(row.last_seq)} "
                f"cannot be read: {what} (it is not derived again)")
    return KeptState(row.table_id, row.last_seq, row.engine, row.events_taken,
                     bool(row.archive), bytes(state), row.last_hash)


def _groups(states: Sequence[KeptState]) -> list[list[KeptState]]:
    """The states by how they were made (engine, archiving): one walk each."""
    groups: dict[tuple[str, bool], list[KeptState]] = {}
    for state in states:
        groups.setdefault((state.engine, state.archive), []).append(state)
    return list(groups.values())


@dataclass(frozen=True)
class _Said:
    """Where a walk's notes go, and the archive's damage that explains a state that does
    not derive (``check_kept_states``)."""

    notes: list[str]
    damage: Sequence[tuple[int, str]]

    def damaged_before(self, state: KeptState) -> str | None:
        """The first break at or below the state's seq (as listed: kind and seq)."""
        return first_damage(self.damage, state.last_seq)

    def cannot_derive(self, state: KeptState, first: str) -> None:
        self.notes.append(
            f"table {state.table_id}: {state.describe()} cannot be derived again: the "
            f"archive is damaged before it (the {first} listed is the first of its breaks "
            "there), so whether the state is as kept cannot be told; the break is the "
            "archive's, not one of the state")


def _walk(engine: Engine, table_id: str, profiles: Profiles, states: list[KeptState],
          check: CarryCheck, said: _Said, start: KeptState | None = None,
          cut: int = 0) -> None:
    """One pass over the table's archived events, comparing each state (in the order of
    the events they had taken) when the walk has fed as many. ``start``: a state the walk
    goes on from (imported, its events not fed again); ``cut``: the lines the live
    archive no longer holds (its detached days), counted before its first segment."""
    first = start or states[0]
    runner = make_runner(profiles, first.engine, archive=first.archive, closed_hands=False)
    if start is not None:
        runner.import_table(start.state)
    taken = 0 if start is None else start.events_taken  # lines already in the state
    pending = list(states)  # sorted by events_taken
    fed = cut
    try:
        with engine.connect() as conn:
            for segment in segment_bodies(conn, table_id):
                lines = segment.body.split(SEPARATOR)
                at = min(len(lines), max(taken - fed, 0))
                fed += at
                while pending and fed + len(lines) - at >= pending[0].events_taken:
                    wanted = pending.pop(0)
                    take = wanted.events_taken - fed
                    _feed(runner, lines[at:at + take])
                    at, fed = at + take, fed + take
                    _compare(runner, wanted, check, said)
                if not pending:
                    return
                _feed(runner, lines[at:])
                fed += len(lines) - at
    except DamagedRow as exc:  # verify lists the segment itself
        said.notes.append(f"table {table_id}: {len(pending):,} kept state(s) were not "
                          f"derived again: {exc}")
        return
    for state in pending:
        damaged = said.damaged_before(state)
        if damaged is not None:  # (QA: said to wait for hands the archive had lost)
            said.cannot_derive(state, damaged)
            continue
        said.notes.append(f"table {table_id}: {state.describe()} was not derived again: "
                          f"the archive holds {fed:,} of those events (the hands it left "
                          "open are archived when the log that goes on is run)")


def _feed(runner: NativeRunner | ReferenceRunner, lines: Iterable[bytes]) -> None:
    lines = list(lines)
    if not lines:
        return
    if isinstance(runner, NativeRunner):
        for _ in runner.feed_buffer(SEPARATOR.join(lines)):
            pass
        return
    for line in lines:
        runner.feed(line, "archive")


def _compare(runner: NativeRunner | ReferenceRunner, wanted: KeptState,
             check: CarryCheck, said: _Said) -> None:
    """The state's bytes, and the chain head its row names: the next log's run picks a
    state by comparing ``last_seq`` with its first seq (the latest state whose head is
    below it is taken without a look at its other states), so a row that names another
    head than its state's events end at would hand the state to a log it does not go on
    to, though the bytes derive as kept (the run refuses it when it reads the state; this
    says so before a run). Either differing from an archive damaged before the state is
    the damage's (``_Said.damaged_before``)."""
    head = runner.chain_head(wanted.table_id)
    same_bytes = runner.export_table(wanted.table_id) == wanted.state
    if same_bytes and (head is None or (head[0], head[1]) == (wanted.last_seq,
                                                              wanted.last_hash)):
        check.derived += 1
        return
    first = said.damaged_before(wanted)
    if first is not None:
        said.cannot_derive(wanted, first)
    elif not same_bytes:
        check.differ.append((f"{wanted.describe()} differs from the state its archived "
                             "events give: the next log's hands were judged from a table "
                             "that never was", None))
    elif head is not None:
        line = (f"{wanted.describe()} names its table's chain head as seq "
                f"{wanted.last_seq:,}, hash {{}}, but the archived events it was made "
                f"from end at seq {head[0]:,}, hash {{}}: the row was changed after it was "
                "kept (the next log's run picks a kept state by that seq)")
        check.differ.append((line.format(f"{wanted.last_hash[:12]}…", f"{head[1][:12]}…"),
                             line.format(wanted.last_hash, head[1])))
