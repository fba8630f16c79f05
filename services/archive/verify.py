"""``pitwatch verify``: every hash chain in the archive re-checked from the stored bytes.

For every table, every archived event's SHA-256 is recomputed from its canonical JSON, the
events the chain check accepted are put in ``seq`` order, and each must carry ``seq`` one
above its predecessor and ``prev_hash`` equal to its predecessor's recomputed hash (the
first event of a table: seq 1 and the all-zero genesis hash). So an event changed after
it was archived, by a single byte, is found at the next event (its ``prev_hash`` no
longer matches), a removed event as a gap, and a table's last event, which has no
successor yet, by its segment's ``last_hash``. The columns beside each body (sequence
range, hashes, timestamps, day, counts) are derived from the body again and compared; for
every booked hand, the ledger's record (``hands.last_hash``, written independently by the
ledger) must name the archived hash of the hand's last event. A chain cut short at its end
(the last segments removed, which leaves no successor to notice) is found against the
catalog (``archive_tables.last_seq``: the highest seq the writer ever archived for the
table, which the database never lets go down): the archived events must reach it.

Breaks the table's own stream already had when it arrived (a tampered or missing event
the chain check reported then, as an alert the archive kept) are listed as such: the
archive then holds the stream faithfully, break included. A break counts as one seen at
intake only if it is the same break: a CHAIN_BROKEN alert at that seq naming the same
two hashes (the ``prev_hash`` the event carried, the hash its predecessor had as
received), or, for an event that came late and did not fit between its neighbours (an
alert that names no hashes), that event's link or its successor's; a gap inside a gap a
SEQ_GAP alert reported, none of whose seqs came late and was taken in (each such event
has its REORDERED alert, and was archived). So an event changed or removed in the
archive next to a break the stream already had is still found. Only the other breaks
mean the archive changed; ``failed`` counts those (``strict`` counts both).

The checks are pure functions over decoded segments (``check_table``), so a test can
alter any stored field of any event and ask whether it is found. They read a table's
segments once, as they stream from the database (``ChainWalk``), so a table's years need
no more memory than its days.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from itertools import chain, repeat
from operator import attrgetter
from typing import Any

import orjson
from sqlalchemy import Engine, func, select

from services.adjudicator.engine import engine_name
from services.archive.alert_check import alert_breaks
from services.archive.anchors import booked_anchors, seqless_anchors
from services.archive.carry_check import kept_state_breaks

# NO_CATALOG_ROW, IntakeBreak and intake_break are chain.py's now; named here, as before.
from services.archive.chain import NO_CATALOG_ROW as NO_CATALOG_ROW
from services.archive.chain import (
    Anchor,
    ChainBreak,
    ChainWalk,
    StoredEvent,
    archive_damage,
    classified,
    end_problems,
)
from services.archive.chain import IntakeBreak as IntakeBreak
from services.archive.chain import intake_break as intake_break
from services.archive.checkpoints import checkpoint_breaks
from services.archive.partitions import detached_before
from services.archive.reader import (
    Damage,
    DamagedRow,
    StoredSegment,
    segments_query,
    shown,
    stored_segments,
)
from services.archive.segment import (
    MAX_PART_BYTES,
    PackedSegment,
    UnknownCodec,
    UnreadableBody,
    event_lines,
)
from services.archive.span_gaps import filed_elsewhere, in_arrival_order, missing_seqs
from services.archive.span_gaps import note as span_note
from services.games.profile import Profiles
from services.ledger.archive_tables import ArchiveAlert, ArchiveSegment, ArchiveTable
from services.ledger.spans import within_days


@dataclass
class DecodedSegment:
    """A stored segment, its body read and its columns checked against the body.

    ``opens``: the hand its first event starts (an accepted hand_started), else None;
    ``lines``, ``size`` and ``first_size``: its lines, their canonical bytes and those of
    the first. What ``check_table`` needs to hold a part of a hand's segment past the
    first (``pack_parts``) to the hand's id."""

    segment: PackedSegment
    events: list[StoredEvent] = field(default_factory=list)
    problems: list[ChainBreak] = field(default_factory=list)
    opens: str | None = None
    lines: int = 0
    size: int = 0
    first_size: int = 0
    # A body not the bytes written, not read: (first_seq, last_seq, first_prev_hash,
    # last_hash) as its columns say, the chain linked through it by them (``ChainWalk.skip``).
    unverified: tuple[int, int, str, str] | None = None


@dataclass
class VerifyReport:
    tables: int = 0
    segments: int = 0
    events: int = 0
    breaks: list[ChainBreak] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    kept_states: int = 0  # kept table states derived again, as kept
    alerts: int = 0  # archived alerts held to their JSON (``alert_check``)

    @property
    def archive_breaks(self) -> list[ChainBreak]:
        """Breaks the stream did not have when it arrived: the archive changed."""
        return [b for b in self.breaks if not b.at_intake]

    def failed(self, strict: bool = False) -> bool:
        return bool(self.breaks if strict else self.archive_breaks)


# ---------------------------------------------------------------- one segment


def decode_segment(segment: PackedSegment, native: bool | None = None,
                   damage: Iterable[Damage] = ()) -> DecodedSegment:
    """Read a stored body and compare the columns with what the body says. ``native``:
    the core reads the envelopes (``_native_envelopes``); None asks ``$PITWATCH_ENGINE``
    (a whole verify asks it once, ``verify_archive``). ``damage``: what the row's columns
    hold that the writer never writes (``services.archive.reader.stored_segment``), each
    a break; a row whose refused positions do not read is not read further (which of its
    events the chain took cannot be told)."""
    out = DecodedSegment(segment)
    table = segment.table_id
    damage = tuple(damage)
    for column, what in damage:
        seq, where = _at(segment)
        out.problems.append(ChainBreak(
            table, seq, None, "unreadable" if column == "refused" else "column",
            f"{where}: {what}" + (" (its events are not verified: which of them the chain "
                                  "took cannot be told)" if column == "refused" else "")))
    if any(column == "refused" for column, _ in damage):
        return out
    if segment.body_sha256 is not None and (
            hashlib.sha256(segment.body).hexdigest() != segment.body_sha256):
        return _not_the_bytes_written(out)
    try:
        lines = event_lines(segment.codec, segment.body)
    except (UnknownCodec, UnreadableBody) as exc:
        seq, where = _at(segment)
        out.problems.append(ChainBreak(table, seq, None, "unreadable",
                                       f"{where} cannot be read: {exc}"))
        return out
    out.lines, out.size, out.first_size = len(lines), sum(map(len, lines)), len(lines[0])
    if 0 not in segment.refused:
        out.opens = _opened_hand(lines[0])
    use_core = engine_name() == "native" if native is None else native
    known = _native_envelopes(lines, segment.refused) if use_core else None
    if known is not None and None not in known:
        taken = list(map(_as_stored, repeat(StoredEvent), known))
        if set(map(_table_of, taken)) == {table}:  # the usual body: every line read
            out.events = taken
            out.problems += _column_problems(segment, out.events, out.opens)
            return out
    refused = set(segment.refused)
    for i, line in enumerate(lines):
        quick = known[i] if known is not None else None
        event = (_as_stored(StoredEvent, quick) if quick is not None
                 else read_event(line, i in refused))
        if event is None or event.table_id != table:
            seq, where = _at(segment)
            out.problems.append(ChainBreak(table, seq, None, "unreadable",
                                           f"event {i + 1} of the {where} is not an event "
                                           f"of table {table}"))
            continue
        out.events.append(event)
    if len(out.events) == len(lines):
        out.problems += _column_problems(segment, out.events, out.opens)
    return out


def _not_the_bytes_written(out: DecodedSegment) -> DecodedSegment:
    """A segment whose body's SHA-256 is not the one stored with it: one break, and its
    body is not read. Why: what a changed body decodes to is no evidence of anything (QA:
    one flipped bit decoded to lines that were no events, and to events at seqs of other
    hands, listed as conflicts there, and as changed kept states). Its seqs, as its columns
    say, are left unverified, and the chain is linked through them by its columns
    (``unverified``), so that the events after it are checked against what is known."""
    segment = out.segment
    first, last = segment.first_seq, segment.last_seq
    seq, where = _at(segment)
    span = None
    if type(first) is int and type(last) is int and first <= last:
        where = f"segment at seq {first}..{last} (as its columns say)"
        span = (first, last)
        if isinstance(segment.first_prev_hash, str) and isinstance(segment.last_hash, str):
            out.unverified = (first, last, segment.first_prev_hash, segment.last_hash)
    out.problems.append(ChainBreak(
        segment.table_id, seq, None, "column",
        f"{where}: the stored body is not the bytes written (its SHA-256 differs): its "
        "events are not read, nor verified" + (
            "; the chain goes on from the hash its columns name" if out.unverified else ""),
        unverified=span or (None if seq is None else (seq, seq))))
    return out


def _at(segment: PackedSegment, events: list[StoredEvent] | None = None
        ) -> tuple[int | None, str]:
    """Where a break of the segment is listed (the lowest seq of its accepted events:
    from ``events`` when they were read, else its ``first_seq`` column when that holds
    one) and how a message names it: by that seq, else by its key (a segment of refused
    events only, or a damaged row)."""
    seqs = [e.seq for e in events if not e.refused] if events else []
    seq = min(seqs) if seqs else segment.first_seq
    if type(seq) is int:
        return seq, f"segment at seq {seq}"
    return None, f"segment at head_seq {segment.head_seq}, ordinal {segment.ordinal}"


def _opened_hand(first: bytes) -> str | None:
    """The hand a segment's first line starts when it is a hand_started: the table state
    cuts a hand's segment there, and files it under that hand (``hand_id or ""``:
    ``services.adjudicator.table.apply_event``); an accepted hand_started never comes
    anywhere else in a segment. Read only when the line names a hand_started at all (one
    line a segment, not one an event)."""
    if b"hand_started" not in first:
        return None
    try:
        obj = orjson.loads(first)
    except orjson.JSONDecodeError:
        return None
    if not isinstance(obj, dict) or obj.get("type") != "hand_started":
        return None
    hand = obj.get("hand_id")
    return hand if isinstance(hand, str) else ""


_as_stored = tuple.__new__  # a StoredEvent of the core's 8-tuple, as it is
_table_of = attrgetter("table_id")


def _native_envelopes(lines: list[bytes], refused: list[int]) -> list[Any] | None:
    """For the native engine (the caller asks ``$PITWATCH_ENGINE``, once a run), each
    line's envelope as ``read_event`` gives it (``refused``: the segment's refused
    positions), read by the core's one pass (``archived_envelopes``), or None for a line
    it leaves to ``read_event``; with no core built, None: ``read_event`` reads every
    line. Why: reading each event in Python was most of verify's time over years of
    archived events."""
    try:
        from services import _native
    except ImportError:  # the core is not built: the Python reader reads every line
        return None
    envelopes: list[Any] = _native.archived_envelopes(lines, refused)
    return envelopes


def read_event(line: bytes, refused: bool) -> StoredEvent | None:
    """The envelope of one archived line, or None when it is not an event."""
    try:
        obj = orjson.loads(line)
        seq, event_id, prev_hash = obj["seq"], obj["event_id"], obj["prev_hash"]
        ts, table_id, hand_id = obj["ts"], obj["table_id"], obj["hand_id"]
    except (orjson.JSONDecodeError, KeyError, TypeError):
        return None
    # orjson makes exact ints and strs (never a subclass): the exact type says it all.
    if not (type(seq) is int and type(event_id) is str and type(prev_hash) is str
            and type(ts) is str and type(table_id) is str
            and (hand_id is None or type(hand_id) is str)):
        return None
    return StoredEvent(seq, event_id, prev_hash, hashlib.sha256(line).hexdigest(), ts,
                       table_id, hand_id, refused)


def _column_problems(segment: PackedSegment, events: list[StoredEvent], opens: str | None
                     ) -> list[ChainBreak]:
    """Each column against the value the body gives it. ``opens``: the hand the first
    event starts (``_opened_hand``), whose segment it is: its ``hand_id`` must say so
    (filed under none, a report of the hand finds none of its events; under another,
    that one's). Any other segment filed under a hand must hold an event of it (a part
    of a hand's segment past the first: ``check_table`` holds it to the hand)."""
    accepted = [e for e in events if not e.refused]
    lowest = min(accepted, key=lambda e: e.seq) if accepted else None
    highest = max(accepted, key=lambda e: e.seq) if accepted else None
    derived = {
        "events": len(events),
        "first_seq": lowest.seq if lowest else None,
        "last_seq": highest.seq if highest else None,
        "first_prev_hash": lowest.prev_hash if lowest else None,
        "last_hash": highest.hash if highest else None,
        "first_ts": events[0].ts if events else None,
        "last_ts": events[-1].ts if events else None,
        "day": (highest or events[-1]).ts[:10] if events else None,
    }
    problems = []
    table = segment.table_id
    for name, value in derived.items():
        stored = getattr(segment, name)
        if stored != value:
            seq, where = _at(segment, events)
            problems.append(ChainBreak(
                table, seq, None, "column",
                f"{where}: column {name} holds {shown(stored)} but its events give "
                f"{shown(value)}"))
    if any(not 0 <= i < len(events) for i in segment.refused):
        seq, where = _at(segment, events)
        problems.append(ChainBreak(table, seq, None, "column",
                                   f"{where}: refused positions {shown(segment.refused)} "
                                   f"outside its {len(events)} events"))
    hand = segment.hand_id
    if opens is not None and hand != opens:
        seq, where = _at(segment, events)
        problems.append(ChainBreak(table, seq, None, "column",
                                   f"{where}: column hand_id holds {shown(hand)}, but its "
                                   f"first event starts hand {opens}: the segment is that "
                                   "hand's"))
    elif opens is None and hand is not None and not any(e.hand_id == hand for e in events):
        seq, where = _at(segment, events)
        problems.append(ChainBreak(table, seq, None, "column",
                                   f"{where} is filed under hand {hand} but holds no event "
                                   "of it"))
    return problems


# ---------------------------------------------------------------- one table


def check_table(table_id: str, segments: Iterable[DecodedSegment],
                before: tuple[int, str] | None = None, anchors: Iterable[Anchor] = (),
                intake_breaks: Iterable[IntakeBreak] = (),
                archived_to: int | None = None,
                archived_to_after: int | None = None) -> list[ChainBreak]:
    """Every break of one table's chain over ``segments`` (in arrival order), read once,
    as they come: only the events still waiting for a gap below them to be filled are
    held (``ChainWalk``), so a table's years verify in bounded memory.

    ``before``: (seq, hash) of the table's last archived event before these segments,
    when they do not start at the table's beginning (a span of days). ``anchors``: the
    ledger's record of each hand, in ``last_seq`` order. ``intake_breaks``: what the
    intake reported broken (its SURV-9 alerts). ``archived_to``: the catalog's highest
    archived seq of the table (``NO_CATALOG_ROW`` if it has none), given when
    ``segments`` reach the table's last archived day; None compares nothing (a span that
    ends before it). Read before the segments; ``archived_to_after`` (default: the same)
    read after them, so that events archived meanwhile are no break: the chain must reach
    the first and not pass the second."""
    intake = list(intake_breaks)
    walk = ChainWalk(table_id, before, anchors, (b.seq for b in intake if b.reordered))
    problems: list[ChainBreak] = []
    previous: DecodedSegment | None = None
    hand: str | None = None  # the hand whose segment's parts these are (``_goes_on``)
    for segment in segments:
        problems += segment.problems
        if segment.opens is not None or previous is None or not _goes_on(previous, segment):
            hand = segment.opens
        elif hand is not None and segment.segment.hand_id != hand:
            problems.append(_part_break(segment, hand))
        for event in segment.events:
            if not event.refused:
                walk.arrive(event)
        if segment.unverified is not None:
            walk.skip(*segment.unverified)
        previous = segment
    breaks = problems + walk.finish()
    if archived_to is not None:
        after = archived_to if archived_to_after is None else archived_to_after
        breaks += end_problems(table_id, walk.highest, archived_to, after)
        if walk.highest is not None or after != NO_CATALOG_ROW:  # (else: never archived)
            breaks += walk.booked_past(after)
    return [classified(b, intake) for b in breaks]


def _goes_on(previous: DecodedSegment, part: DecodedSegment) -> bool:
    """Whether ``part`` is a part of the segment ``previous`` is a part of. A segment past
    ``MAX_PART_BYTES`` is stored in parts (``pack_parts``), each filed under the segment's
    hand, only the first starting with its hand_started: a part after another has the
    same ``head_seq``, the ordinal after its last event, and comes because the part
    before was full."""
    before, stored = previous.segment, part.segment
    return (stored.head_seq == before.head_seq
            and stored.ordinal == before.ordinal + previous.lines
            and previous.size + part.first_size > MAX_PART_BYTES)


def _part_break(part: DecodedSegment, hand: str) -> ChainBreak:
    """A later part of ``hand``'s segment filed under another hand, or none: a report of
    the hand would stop at the part before it."""
    stored = part.segment
    seq, where = _at(stored, part.events)
    return ChainBreak(stored.table_id, seq, None, "column",
                      f"{where}: column hand_id holds {shown(stored.hand_id)}, but the "
                      f"segment goes on from hand {hand}'s part before it (a hand's segment "
                      f"over {MAX_PART_BYTES:,} bytes is stored in parts): it is that hand's")


# ---------------------------------------------------------------- the archive


def verify_archive(engine: Engine, first_day: dt.date | None = None,
                   last_day: dt.date | None = None, table_id: str | None = None,
                   on_table: Callable[[str, int], None] | None = None,
                   profiles: Profiles | None = None) -> VerifyReport:
    """Verify every table (or one) over every day (or a span); ``on_table`` is called
    after each table with the number of its segments (progress). Each table's segments
    and the ledger's anchors are read as the chain check consumes them (``check_table``):
    the memory a table needs does not grow with its history. ``profiles``: the rule
    profiles the tables' checkpoints are derived again under (the command's; without
    them the checkpoints are not derived, and a note says so)."""
    report = VerifyReport()
    alerts = alert_breaks(engine, table_id, first_day, last_day)
    report.alerts, report.breaks = alerts.checked, report.breaks + alerts.breaks
    native = engine_name() == "native"
    for table in _tables(engine, table_id, first_day, last_day):
        found, counted = _walk_table(engine, table, first_day, last_day, native, [])
        others = filed_elsewhere(engine, table, first_day, last_day, missing_seqs(found))
        if others:  # a span's "gap" filed under another day: verified with the span
            found, counted = _walk_table(engine, table, first_day, last_day, native, others)
            report.notes.append(span_note(table, others))
        report.breaks += found
        report.breaks += seqless_anchors(engine, table, first_day, last_day)
        damage = archive_damage(found)
        report.breaks += checkpoint_breaks(
            engine, table, first_day, last_day, profiles if native else None, report.notes,
            "no rule profiles were given to derive them under" if native else
            "they are the native core's states; PITWATCH_ENGINE=python", damage)
        carried, derived = kept_state_breaks(engine, table, first_day is None, profiles,
                                             report.notes, damage)
        report.breaks += carried
        report.kept_states += derived
        report.tables += 1
        report.segments += counted.segments
        report.events += counted.events
        if on_table is not None:
            on_table(table, counted.segments)
    return report


def _walk_table(engine: Engine, table: str, first_day: dt.date | None,
                last_day: dt.date | None, native: bool, others: list[StoredSegment]
                ) -> tuple[list[ChainBreak], _Counted]:
    """One table's chain over the span's segments (and ``others``, where they arrived:
    ``services.archive.span_gaps``), read as ``check_table`` consumes them."""
    reaches = reaches_end(engine, table, last_day)
    archived_to = _archived_to(engine, table) if reaches else None
    counted = _Counted()
    with engine.connect() as anchors_conn, engine.connect() as conn:
        # The ledger's anchors read first, the archive after: a run books a batch's hands
        # and keeps their events in one transaction, so every hand of the earlier read
        # has its events in the later one. Read the other way round while a run booked,
        # verify saw hands booked past the archive's end: hundreds of false "anchor"
        # breaks, exit 1 (QA).
        anchors = read_first(booked_anchors(anchors_conn, table, first_day, last_day))
        stored = stored_segments(conn, segments_query(table, first_day, last_day))
        decoded = (decode_segment(s.segment, native, s.damage)
                   for s in in_arrival_order(stored, others))
        first = next(decoded, None)
        # None: a table the catalog names with no segment left (whole verifies only,
        # ``_tables``): its chain ends where its detached days left it, if anywhere.
        before = (_before(engine, table, first.segment) if first is not None
                  else detached_before(engine, table))
        segments = counted.of(chain([first], decoded) if first is not None else ())
        found = check_table(
            table, segments, before, anchors, _intake_breaks(engine, table),
            archived_to, _archived_to(engine, table) if reaches else None)
    return found, counted


def read_first(items: Iterator[Anchor]) -> Iterator[Anchor]:
    """``items`` with its first item read now: its query runs (and, on SQLite and
    PostgreSQL alike, takes its view of the database) before the ones after it."""
    first = next(items, None)
    return iter(()) if first is None else chain([first], items)


class _Counted:
    """Segments and events that went by (the report's counts, read from a stream)."""

    def __init__(self) -> None:
        self.segments = 0
        self.events = 0

    def of(self, segments: Iterable[DecodedSegment]) -> Iterator[DecodedSegment]:
        for segment in segments:
            self.segments += 1
            self.events += len(segment.events)
            yield segment


def _tables(engine: Engine, table_id: str | None, first_day: dt.date | None,
            last_day: dt.date | None) -> list[str]:
    """The tables to verify: each with segments in the span; on a verify of every day,
    then each the catalog names with none left (all removed: the end of its chain is
    held to the catalog, and so found; all its days detached: it ends where they did)."""
    s, catalog = ArchiveSegment, select(ArchiveTable.table_id)
    query = select(s.table_id).distinct().order_by(s.table_id)
    if table_id is not None:
        query = query.where(s.table_id == table_id)
        catalog = catalog.where(ArchiveTable.table_id == table_id)
    query = within_days(query, s.day, first_day, last_day)
    with engine.connect() as conn:
        tables = list(conn.execute(query).scalars())
        if first_day is None and last_day is None:
            tables += sorted(set(conn.execute(catalog).scalars()) - set(tables))
    return tables


def _before(engine: Engine, table_id: str, first: PackedSegment) -> tuple[int, str] | None:
    """(last_seq, last_hash) of the table's last segment before ``first`` holding accepted
    events (its columns: it is outside the span verified): in the live archive, else in
    the days detached past retention (``detached_before``). None: the table's archive
    starts with ``first``."""
    s = ArchiveSegment
    with engine.connect() as conn:
        row = conn.execute(
            select(s.last_seq, s.last_hash)
            .where(s.table_id == table_id, s.last_seq.is_not(None),
                   (s.head_seq < first.head_seq)
                   | ((s.head_seq == first.head_seq) & (s.ordinal < first.ordinal)))
            .order_by(s.last_seq.desc()).limit(1)).first()
    if row is None or type(row.last_seq) is not int or not isinstance(row.last_hash, str):
        return detached_before(engine, table_id)  # (a damaged row: its segment says so)
    return row.last_seq, row.last_hash


def reaches_end(engine: Engine, table_id: str, last_day: dt.date | None) -> bool:
    """Whether the span verified holds the table's last archived day."""
    if last_day is None:
        return True
    s = ArchiveSegment
    with engine.connect() as conn:
        later = conn.execute(select(s.head_seq).where(s.table_id == table_id,
                                                      s.day > last_day).limit(1)).first()
    return later is None


def _archived_to(engine: Engine, table_id: str) -> int:
    """The catalog's highest archived seq of the table (``NO_CATALOG_ROW``: no row)."""
    with engine.connect() as conn:
        last_seq = conn.execute(select(ArchiveTable.last_seq)
                                .where(ArchiveTable.table_id == table_id)).scalar()
    if last_seq is None:
        return NO_CATALOG_ROW
    try:
        return int(last_seq)
    except (TypeError, ValueError):  # rewritten behind its guard: no seq to hold the end to
        raise DamagedRow(f"the archive's catalog row of table {table_id} holds "
                         f"{shown(last_seq)} as its last seq, which is no seq") from None


def _intake_breaks(engine: Engine, table_id: str) -> list[IntakeBreak]:
    """The chain breaks the intake reported at this table (its archived SURV-9 alerts).
    An alert whose JSON does not read says nothing: the break it would have excused is
    then the archive's (the alert itself is the cases' check: one in no case)."""
    with engine.connect() as conn:
        rows = conn.execute(select(ArchiveAlert.code, ArchiveAlert.seq, ArchiveAlert.alert_json)
                            .where(ArchiveAlert.table_id == table_id,
                                   ArchiveAlert.rule == "SURV-9",
                                   ArchiveAlert.code.in_(["CHAIN_BROKEN", "SEQ_GAP",
                                                          "REORDERED"]),
                                   ArchiveAlert.seq.is_not(None))).all()
    found = [intake_break(code, seq, _message(raw))
             for code, seq, raw in rows if type(seq) is int]
    return [b for b in found if b is not None]


def _message(raw: Any) -> str:
    """An archived alert's message ("" when its JSON does not read)."""
    try:
        alert = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return ""
    message = alert.get("message") if isinstance(alert, dict) else None
    return message if isinstance(message, str) else ""


def archived_event_count(engine: Engine) -> int:
    with engine.connect() as conn:
        return int(conn.execute(select(func.coalesce(func.sum(ArchiveSegment.events), 0))
                                ).scalar_one())
