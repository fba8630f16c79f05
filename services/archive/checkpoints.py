"""Table checkpoints: the native core's state of a table at a point of its archive.

Why: a dispute report re-derives its hand from the table as it stood when the hand began
(configuration, seating, stacks, the previous button, the chain's window), which only the
table's earlier events establish; a table archives years of them, and replaying them all
(``services.archive.history.BulkHistory``, about 0.13 ms a hand) made the report of a hand
a year into a table's life take minutes. ``pitwatch archive checkpoint`` stores the state
every ``CHECKPOINT_LINES`` archived lines (``archive_checkpoints``); a report starts at the
latest one before its hand and replays only what follows.

A checkpoint is derived, so it is used only when the archive still matches it: its
state's SHA-256 matches, the archive still holds exactly the segments and lines it was
made from, up to its key (the live ones, and those of detached days, which ``archive
detach`` counts), and this core reads its state as its table's (``readable``). That is a
check of what it was made from, not of what it says: ``pitwatch verify`` derives every
checkpoint again from the one before it (``rederive``) and reports one that differs. A
report states the checkpoint it started from.

Where a report's span begins depends on the first line naming its hand: usually in the
hand's own segments, but an event of a hand can arrive inside another hand's segment or
between hands (refused, or early). Each checkpoint lists such "stray" hand ids of its
stretch (``strays``), so a report of such a hand starts at a checkpoint before them.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

import orjson
from sqlalchemy import Connection, Engine, Table, func, select, tuple_
from sqlalchemy.dialects import postgresql, sqlite

from services.archive.chain import ChainBreak, first_damage
from services.archive.history import BulkHistory
from services.archive.partitions import detached_tables, has_detached_days, still_detached
from services.archive.reader import (
    STREAM_ROWS,
    DamagedRow,
    SegmentBody,
    StoredAsBytes,
    day_or_none,
    raw_bytes,
    raw_text,
    segment_bodies,
    shown,
)
from services.games.profile import Profiles
from services.ledger.archive_tables import ArchiveCheckpoint, ArchiveDetached, ArchiveSegment
from services.ledger.db import write_transaction

# Archived lines between two checkpoints of a table: a report replays at most this many
# lines before its hand's span (about 1,300 HCF hands; a tenth of a second).
CHECKPOINT_LINES = 100_000
# Rejected lines a checkpoint names (a report names the first five of its table's).
NAMED_REJECTIONS = 5
# Checkpoints tried, latest first, before a report replays its table from the start.
TRIES = 8

Key = tuple[int, int]  # (head_seq, ordinal): a segment's place in its table's arrival order
_LINE = re.compile(r"^line (\d+): (.*)$", re.DOTALL)
_HAND_KEY = b'"hand_id":"'


@dataclass(frozen=True)
class Checkpoint:
    """One ``archive_checkpoints`` row (``rejected_first``: (line, reason), lines counted
    from the table's first archived line; ``strays``: hand ids named in its stretch
    outside their own segments)."""

    table_id: str
    head_seq: int
    ordinal: int
    day: dt.date
    segments: int
    lines: int
    rejected: int
    rejected_first: tuple[tuple[int, str], ...]
    strays: tuple[str, ...]
    state: bytes
    state_sha256: str
    made_at: str

    @property
    def key(self) -> Key:
        return (self.head_seq, self.ordinal)

    def describe(self) -> str:
        return (f"checkpoint of table {self.table_id} after archived line {self.lines:,} "
                f"(segment {self.head_seq}/{self.ordinal}, {self.day.isoformat()}; state "
                f"SHA-256 {self.state_sha256[:16]}…, made {self.made_at})")


@dataclass(frozen=True)
class DamagedCheckpoint:
    """An ``archive_checkpoints`` row holding what pitwatch never writes there (rewritten
    behind its guard): never used, and a break for ``pitwatch verify``."""

    table_id: str
    head_seq: Any  # as stored
    ordinal: Any
    what: str  # "column strays holds 'x', not a list of hand ids"

    def describe(self) -> str:
        return (f"checkpoint of table {self.table_id} after segment {self.head_seq}/"
                f"{self.ordinal} cannot be read: {self.what} (it is not used)")


# ---------------------------------------------------------------- reading


_C = ArchiveCheckpoint
# Read as stored (``services.archive.reader``): a day that is none, a state stored as
# text, are one damaged row, not an error that ends the read.
_COLUMNS = (_C.table_id, _C.head_seq, _C.ordinal, raw_text(_C.day, "day"), _C.segments,
            _C.lines, _C.rejected, _C.rejected_first, _C.strays, raw_bytes(_C.state, "state"),
            StoredAsBytes(_C.state).label("state_is_bytes"), _C.state_sha256, _C.made_at)


def _of_row(row: Any) -> Checkpoint | str:
    """The row as a checkpoint, or what is wrong with it."""
    counts = {"head_seq": row.head_seq, "ordinal": row.ordinal, "segments": row.segments,
              "lines": row.lines, "rejected": row.rejected}
    for name, value in counts.items():
        if type(value) is not int:
            return f"column {name} holds {shown(value)}, not a count"
    day = day_or_none(row.day)
    if day is None:
        return f"column day holds {shown(row.day)}, not a day"
    rejected = _json(row.rejected_first)
    if not (isinstance(rejected, list) and all(
            isinstance(r, list) and len(r) == 2 and type(r[0]) is int and isinstance(r[1], str)
            for r in rejected)):
        return (f"column rejected_first holds {shown(row.rejected_first)}, not a list of "
                "[line, reason]")
    strays = _json(row.strays)
    if not (isinstance(strays, list) and all(isinstance(h, str) for h in strays)):
        return f"column strays holds {shown(row.strays)}, not a list of hand ids"
    if not row.state_is_bytes:
        return ("column state holds no bytes (NULL)" if row.state is None
                else "column state is stored as text, not as the bytes written")
    if not (isinstance(row.state_sha256, str) and isinstance(row.made_at, str)):
        return "column state_sha256 or made_at holds no text"
    return Checkpoint(row.table_id, row.head_seq, row.ordinal, day, row.segments, row.lines,
                      row.rejected, tuple((n, reason) for n, reason in rejected),
                      tuple(strays), bytes(row.state), row.state_sha256, row.made_at)


def _json(raw: Any) -> Any:
    """A stored JSON column's value; None when it holds no JSON."""
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError:  # not JSON, or not text at all
        return None


def checkpoints_of(conn: Connection, table_id: str, before: Key | None = None,
                   latest_first: bool = False, limit: int | None = None,
                   damaged: list[DamagedCheckpoint] | None = None) -> Iterator[Checkpoint]:
    """The table's checkpoints (those keyed below ``before``; the first ``limit``), in key
    order (``latest_first``: the other way), read as consumed: a table's years of
    checkpoints are not held at once. A row that does not read as one is passed by (a
    report starts from another; the ``limit`` counts it), and added to ``damaged``."""
    query = select(*_COLUMNS).where(_C.table_id == table_id)
    if before is not None:
        query = query.where(tuple_(_C.head_seq, _C.ordinal) < tuple_(*before))
    order = (_C.head_seq.desc(), _C.ordinal.desc()) if latest_first else (_C.head_seq,
                                                                           _C.ordinal)
    query = query.order_by(*order)
    if limit is not None:
        query = query.limit(limit)
    for row in conn.execute(query.execution_options(yield_per=STREAM_ROWS)):
        checkpoint = _of_row(row)
        if isinstance(checkpoint, Checkpoint):
            yield checkpoint
        elif damaged is not None:
            damaged.append(DamagedCheckpoint(table_id, row.head_seq, row.ordinal, checkpoint))


def _first_stray(conn: Connection, table_id: str, hand_ids: set[str], before: Key
                 ) -> Key | None:
    """The key of the first checkpoint below ``before`` whose stretch names one of the
    hands outside their segments (only checkpoints with strays are read). A list that
    does not read might name them: it counts as naming them (the report starts earlier,
    never too late)."""
    query = (select(_C.head_seq, _C.ordinal, _C.strays)
             .where(_C.table_id == table_id, _C.strays != "[]",
                    tuple_(_C.head_seq, _C.ordinal) < tuple_(*before))
             .order_by(_C.head_seq, _C.ordinal))
    for head_seq, ordinal, strays in conn.execute(query):
        named = _json(strays)
        if not (isinstance(named, list) and all(isinstance(h, str) for h in named)) or (
                hand_ids.intersection(named)):
            return (head_seq, ordinal)
    return None


def why_not_usable(conn: Connection, checkpoint: Checkpoint) -> str | None:
    """None when the checkpoint describes the archive as it is; else why it does not."""
    if hashlib.sha256(checkpoint.state).hexdigest() != checkpoint.state_sha256:
        return "its state is not the bytes it was stored with (SHA-256 differs)"
    s = ArchiveSegment
    live = conn.execute(select(func.count(), func.coalesce(func.sum(s.events), 0)).where(
        s.table_id == checkpoint.table_id,
        tuple_(s.head_seq, s.ordinal) <= tuple_(*checkpoint.key))).one()
    d = ArchiveDetached
    detached = conn.execute(select(func.count(), func.count(d.segments),
                                   func.coalesce(func.sum(d.segments), 0),
                                   func.coalesce(func.sum(d.events), 0))
                            .where(d.table_id == checkpoint.table_id, still_detached())).one()
    days, counted, detached_segments, detached_lines = (int(v or 0) for v in detached)
    last_detached = detached_tables(conn, checkpoint.table_id).get(checkpoint.table_id)
    at_cut = (int(live[0]) == 0 and days == counted
              and (detached_segments, detached_lines) == (checkpoint.segments,
                                                          checkpoint.lines))
    if (int(live[0]) == 0 and last_detached is not None and checkpoint.day <= last_detached
            and not at_cut):
        # Made inside a day detached since: it was counted as holding other lines (QA).
        # One after the last segment of the detached days (``archive detach`` makes it:
        # ``services.archive.cut``) counts them all, and the live events continue it.
        return (f"its day, {checkpoint.day.isoformat()}, is detached past retention (a "
                "replay starts from a checkpoint in the live archive)")
    if days != counted:
        return "a day of its table was detached before pitwatch counted detached segments"
    segments = int(live[0]) + detached_segments
    lines = int(live[1]) + detached_lines
    if (segments, lines) != (checkpoint.segments, checkpoint.lines):
        return (f"the archive now holds {segments:,} segments and {lines:,} lines up to it, "
                f"not the {checkpoint.segments:,} and {checkpoint.lines:,} it was made from")
    return None


def readable(profiles: Profiles, checkpoint: Checkpoint) -> bool:
    """Whether this core reads the checkpoint's state as a state of its table (one made by
    a core whose state format has changed since, or forged, is not)."""
    try:
        return BulkHistory(profiles, []).restore(checkpoint.state) == checkpoint.table_id
    except ValueError:
        return False


def start_for(engine: Engine, table_id: str, hand_ids: set[str]) -> Checkpoint | None:
    """The checkpoint a replay of these hands of the table may start from: the latest
    usable one before the last segment with events the chain took ahead of the hands'
    first segment (before their first segment when none is live: the table's first days
    detached, a checkpoint at the cut), and before any stretch where one of the hands is
    named as a stray (so that the first line naming a hand, and an event before it, come
    after it)."""
    s = ArchiveSegment
    with engine.connect() as conn:
        first = conn.execute(select(s.head_seq, s.ordinal).where(
            s.table_id == table_id, s.hand_id.in_(sorted(hand_ids)))
            .order_by(s.head_seq, s.ordinal).limit(1)).first()
        if first is None:
            return None
        anchor = conn.execute(select(s.head_seq, s.ordinal).where(
            s.table_id == table_id, s.last_seq.is_not(None),
            tuple_(s.head_seq, s.ordinal) < tuple_(first.head_seq, first.ordinal))
            .order_by(s.head_seq.desc(), s.ordinal.desc()).limit(1)).first()
        if anchor is not None:
            limit: Key = (anchor.head_seq, anchor.ordinal)
        elif detached_tables(conn, table_id):
            # The hands begin the live archive: their anchor is the detached days' last
            # event, and only the checkpoint at the cut (``services.archive.cut``) holds
            # the table there (the report takes the anchor from ``archive_detached``).
            limit = (first.head_seq, first.ordinal)
        else:
            return None
        limit = _first_stray(conn, table_id, hand_ids, limit) or limit
        tried = list(checkpoints_of(conn, table_id, limit, latest_first=True, limit=TRIES))
        for checkpoint in tried:
            if why_not_usable(conn, checkpoint) is None:
                return checkpoint
    return None


# ---------------------------------------------------------------- making


@dataclass
class Walk:
    """A table's archive walked through a ``BulkHistory`` from a checkpoint (or from its
    first segment): the counts a checkpoint records, kept as the segments go by."""

    table_id: str
    history: BulkHistory
    segments: int = 0
    lines: int = 0
    rejected: int = 0
    rejected_first: list[tuple[int, str]] = field(default_factory=list)
    strays: set[str] = field(default_factory=set)

    @classmethod
    def start(cls, table_id: str, profiles: Profiles, after: Checkpoint | None) -> Walk:
        history = BulkHistory(profiles, [])
        walk = cls(table_id, history)
        if after is not None:
            history.restore(after.state)
            walk.segments, walk.lines, walk.rejected = after.segments, after.lines, \
                after.rejected
            walk.rejected_first = list(after.rejected_first)
        return walk

    def take(self, hand_id: str | None, body: bytes) -> None:
        """One segment's body (its lines joined by newlines), fed as a report feeds it."""
        lines = body.split(b"\n")
        self.history.feed(list(zip(range(self.lines + 1, self.lines + 1 + len(lines)),
                                   lines, strict=True)))
        self.segments += 1
        self.lines += len(lines)
        for text in self.history.rejected:
            self.rejected += 1
            match = _LINE.match(text)
            if match is not None and len(self.rejected_first) < NAMED_REJECTIONS:
                self.rejected_first.append((int(match.group(1)), match.group(2)))
        self.history.rejected.clear()
        self.strays.update(strays_of(hand_id, body, lines))

    def checkpoint(self, head_seq: int, ordinal: int, day: dt.date, at: str
                   ) -> Checkpoint | None:
        """The state now, as a checkpoint after segment (head_seq, ordinal); the strays
        seen since the last one go with it. None: no line of the table was taken yet."""
        state = self.history.export(self.table_id)
        if state is None:
            return None
        made = Checkpoint(self.table_id, head_seq, ordinal, day, self.segments, self.lines,
                          self.rejected, tuple(self.rejected_first), tuple(sorted(self.strays)),
                          state, hashlib.sha256(state).hexdigest(), at)
        self.strays = set()
        return made


def strays_of(hand_id: str | None, body: bytes, lines: list[bytes]) -> set[str]:
    """Hand ids the body's lines name at their top level other than the segment's own.
    Canonical JSON writes ``"hand_id":"`` only as a key (a quote in a string is escaped),
    so a body whose count of it is its own hand's count has none: only others are read."""
    own = 0 if hand_id is None else body.count(_HAND_KEY + orjson.dumps(hand_id)[1:])
    if body.count(_HAND_KEY) == own:
        return set()
    found = set()
    for line in lines:
        try:
            obj = orjson.loads(line)
        except orjson.JSONDecodeError:
            continue
        named = obj.get("hand_id") if isinstance(obj, dict) else None
        if isinstance(named, str) and named != hand_id:
            found.add(named)
    return found


@dataclass
class Made:
    """What one ``make_checkpoints`` did."""

    tables: int = 0
    checkpoints: int = 0
    skipped: list[str] = field(default_factory=list)  # "table T: why", not checkpointed


def make_checkpoints(engine: Engine, profiles: Profiles, at: str, table_id: str | None = None,
                     every: int = CHECKPOINT_LINES) -> Made:
    """Checkpoints of every table (or one), every ``every`` archived lines, continuing
    from each table's latest usable one (a repeat adds only what the archive gained)."""
    made = Made()
    for table in _tables(engine, table_id):
        made.tables += 1
        latest, why = _latest(engine, table, profiles)
        if why is not None:
            made.skipped.append(f"table {table}: {why}")
            continue
        try:
            rows = _walk_table(engine, table, profiles, latest, every, at)
        except DamagedRow as exc:  # its state past that row cannot be derived
            made.skipped.append(f"table {table}: {exc} (`pitwatch verify` lists it)")
            continue
        insert_checkpoints(engine, rows)
        made.checkpoints += len(rows)
    return made


def _tables(engine: Engine, table_id: str | None) -> list[str]:
    query = select(ArchiveSegment.table_id).distinct().order_by(ArchiveSegment.table_id)
    if table_id is not None:
        query = query.where(ArchiveSegment.table_id == table_id)
    with engine.connect() as conn:
        return list(conn.execute(query).scalars())


def _latest(engine: Engine, table_id: str, profiles: Profiles
            ) -> tuple[Checkpoint | None, str | None]:
    """The usable checkpoint to continue from (None: the table's first segment), or why
    the table cannot be walked: its first days are detached and no checkpoint holds."""
    with engine.connect() as conn:
        for checkpoint in list(checkpoints_of(conn, table_id, latest_first=True,
                                              limit=TRIES)):
            if why_not_usable(conn, checkpoint) is None and readable(profiles, checkpoint):
                return checkpoint, None
        detached = has_detached_days(conn, table_id)
    if detached:
        return None, ("its first days are detached and no checkpoint made before that "
                      "still matches the archive: its state cannot be derived")
    return None, None


def _walk_table(engine: Engine, table_id: str, profiles: Profiles, after: Checkpoint | None,
                every: int, at: str) -> list[Checkpoint]:
    walk = Walk.start(table_id, profiles, after)
    last = walk.lines
    rows: list[Checkpoint] = []
    for head_seq, ordinal, day, hand_id, body in _segments_after(engine, table_id, after):
        walk.take(hand_id, body)
        if walk.lines - last >= every and day is not None:  # None: a damaged row's day
            made = walk.checkpoint(head_seq, ordinal, day, at)
            if made is not None:
                rows.append(made)
                last = walk.lines
    return rows


def _segments_after(engine: Engine, table_id: str, after: Checkpoint | None
                    ) -> Iterator[SegmentBody]:
    with engine.connect() as conn:
        yield from segment_bodies(conn, table_id, after.key if after else None)


def insert_checkpoints(engine: Engine, rows: list[Checkpoint]) -> None:
    if not rows:
        return
    values = [{"table_id": c.table_id, "head_seq": c.head_seq, "ordinal": c.ordinal,
               "day": c.day, "segments": c.segments, "lines": c.lines,
               "rejected": c.rejected,
               "rejected_first": orjson.dumps(c.rejected_first).decode(),
               "strays": orjson.dumps(c.strays).decode(),
               "state": c.state, "state_sha256": c.state_sha256, "made_at": c.made_at}
              for c in rows]
    table = cast(Table, ArchiveCheckpoint.__table__)
    with write_transaction(engine) as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(postgresql.insert(table).on_conflict_do_nothing(), values)
        else:
            conn.execute(sqlite.insert(table).on_conflict_do_nothing(), values)


# ---------------------------------------------------------------- checking


@dataclass(frozen=True)
class CheckpointProblem:
    """A checkpoint that holds (its counts match the archive) but whose state, counts or
    named rejections are not what the archive derives from the checkpoint before it."""

    checkpoint: Checkpoint
    message: str


def rederive(engine: Engine, table_id: str, profiles: Profiles,
             first_day: dt.date | None = None, last_day: dt.date | None = None,
             notes: list[str] | None = None,
             damaged: list[DamagedCheckpoint] | None = None,
             damage: Sequence[tuple[int, str]] = ()) -> list[CheckpointProblem]:
    """Every usable checkpoint of the table (of the span's days) derived again from the
    usable one before it, or from the table's first segment, and compared. A checkpoint
    that no longer matches the archive's counts is not used by reports and not compared
    (a ``notes`` line says so); one that cannot be derived (the table's first days
    detached, no checkpoint before it usable; an archived segment before it that does
    not read, a note) neither. A row that is no checkpoint goes to ``damaged``.

    ``damage``: the table's breaks in its archived events, each as the lowest seq it may
    have changed and how it is listed (``services.archive.chain.archive_damage``). A
    checkpoint whose stretch (after the checkpoint it is derived from, up to its own
    segment) holds one is not compared but noted: derived from a damaged stretch, a
    genuine checkpoint differs too (QA: one bit flipped in a body gave two ``checkpoint``
    breaks beside the body's own), and the break is the archive's, listed already."""
    problems: list[CheckpointProblem] = []
    with engine.connect() as conn:
        detached = has_detached_days(conn, table_id)
    previous: Checkpoint | None = None
    trusted = False  # ``previous`` was not derived itself: the first past a detach
    with engine.connect() as stream, engine.connect() as conn:
        for checkpoint in checkpoints_of(stream, table_id, damaged=damaged):
            why = why_not_usable(conn, checkpoint)
            if why is not None:
                if notes is not None:
                    notes.append(f"{checkpoint.describe()} is not used: {why}")
                continue
            wanted = ((first_day is None or checkpoint.day >= first_day)
                      and (last_day is None or checkpoint.day <= last_day))
            hit = first_damage(damage, checkpoint.head_seq,
                               previous.head_seq if previous is not None else None)
            if wanted and hit is not None:
                if notes is not None:
                    notes.append(f"{checkpoint.describe()} cannot be derived again: the "
                                 f"archive is damaged before it (the {hit} listed), so "
                                 "whether it is as made cannot be told; the break is the "
                                 "archive's, not one of the checkpoint")
            elif wanted and (previous is not None or not detached):
                try:
                    derived = _derived(engine, profiles, checkpoint, previous)
                except DamagedRow as exc:  # verify lists the segment itself
                    if notes is not None:
                        notes.append(f"{checkpoint.describe()} was not derived again: {exc}")
                    continue
                found = _compare(checkpoint, derived)
                problems += [CheckpointProblem(checkpoint, m + _from_trusted(previous, trusted))
                             for m in found]
            if readable(profiles, checkpoint):  # else the next is derived from the one before
                trusted = previous is None and detached
                previous = checkpoint
    return problems


def _from_trusted(previous: Checkpoint | None, trusted: bool) -> str:
    """What a difference found against a checkpoint derived from one at the retention cut
    says: that one cannot be derived itself (its events are detached), so either may be
    the changed one. A forged cut checkpoint was blamed on the genuine one after it (QA)."""
    if previous is None or not trusted:
        return ""
    return (f" (derived from the checkpoint after archived line {previous.lines:,}, the "
            "first past the detached days, which cannot be derived itself: either of the "
            "two was changed)")


def _derived(engine: Engine, profiles: Profiles, checkpoint: Checkpoint,
             previous: Checkpoint | None) -> Walk:
    walk = Walk.start(checkpoint.table_id, profiles, previous)
    with engine.connect() as conn:
        for _, _, _, hand_id, body in segment_bodies(
                conn, checkpoint.table_id, previous.key if previous else None,
                checkpoint.key):
            walk.take(hand_id, body)
    return walk


def _compare(stored: Checkpoint, walk: Walk) -> list[str]:
    state = walk.history.export(stored.table_id)
    found = []
    if state != stored.state:
        found.append("its state is not the table's state the archive derives there")
    if (walk.segments, walk.lines) != (stored.segments, stored.lines):
        found.append(f"it counts {stored.segments:,} segments and {stored.lines:,} lines, "
                     f"the archive {walk.segments:,} and {walk.lines:,}")
    if (walk.rejected, tuple(walk.rejected_first)) != (stored.rejected, stored.rejected_first):
        found.append(f"it names {stored.rejected:,} rejected line(s), the archive derives "
                     f"{walk.rejected:,} ({list(walk.rejected_first)})")
    if tuple(sorted(walk.strays)) != stored.strays:
        found.append(f"it lists hands {list(stored.strays)} named outside their segments, "
                     f"the archive {sorted(walk.strays)}")
    return found


def checkpoint_breaks(engine: Engine, table_id: str, first_day: dt.date | None,
                       last_day: dt.date | None, profiles: Profiles | None, notes: list[str],
                       why_not: str, damage: list[tuple[int, str]]) -> list[ChainBreak]:
    """The table's checkpoints (of the span's days) derived again from the one before
    each (``services.archive.checkpoints.rederive``): one that differs is a break (kind
    ``checkpoint``), as a report started from it would show a table that never was. Their
    states are the native core's: with the reference engine (``profiles`` None then), or
    without profiles, they are not derived, and a note says why (``why_not``)."""
    damaged: list[DamagedCheckpoint] = []  # rows that do not read: a break either way
    if profiles is None:
        with engine.connect() as conn:
            readable = sum(1 for _ in checkpoints_of(conn, table_id, damaged=damaged))
        if readable:
            notes.append(f"table {table_id}: its checkpoints were not derived again "
                         f"({why_not})")
        found = []
    else:
        found = [ChainBreak(table_id, None, None, "checkpoint",
                            f"{p.checkpoint.describe()}: {p.message}")
                 for p in rederive(engine, table_id, profiles, first_day, last_day, notes,
                                   damaged, damage)]
    return [ChainBreak(table_id, None, None, "checkpoint", d.describe())
            for d in damaged] + found
