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
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from itertools import chain, repeat
from operator import attrgetter
from typing import Any

import orjson
from sqlalchemy import Connection, Engine, func, select

from services.adjudicator.engine import engine_name
from services.archive.carry_check import check_kept_states, has_kept_states
from services.archive.chain import (
    Anchor,
    ChainBreak,
    ChainWalk,
    StoredEvent,
)
from services.archive.checkpoints import checkpoints_of, rederive
from services.archive.partitions import detached_before
from services.archive.reader import STREAM_ROWS, iter_segments, segments_query
from services.archive.segment import PackedSegment, UnknownCodec, UnreadableBody, event_lines
from services.games.profile import Profiles
from services.ledger.archive_tables import ArchiveAlert, ArchiveSegment, ArchiveTable
from services.ledger.models import Hand
from services.ledger.spans import within_days

# What the intake's SURV-9 alerts say (services.adjudicator.table: check_chain), read back.
_BROKEN = re.compile(r"^seq (\d+) says the previous event hashed to ([0-9a-f]{12})…, but seq "
                     r"(\d+) as received hashes to ([0-9a-f]{12})…")
_GAP = re.compile(r"^seq jumped from (\d+) to (\d+):")
_LATE = re.compile(r"^late seq (\d+) does not fit the hash chain around it")
PREFIX = 12  # hex digits of a hash an intake alert names


@dataclass(frozen=True)
class IntakeBreak:
    """A break the chain check reported when the event arrived: CHAIN_BROKEN (the
    prev_hash the event carried and the hash its predecessor had, as hash prefixes; or
    ``late``: an event come late that did not fit between its neighbours), SEQ_GAP (the
    head it jumped from), or ``reordered``: an event that came late and was taken into
    the chain (REORDERED), so its seq is no longer missing."""

    seq: int
    carried: str | None = None
    received: str | None = None
    jumped_from: int | None = None
    late: bool = False
    reordered: bool = False


@dataclass
class DecodedSegment:
    """A stored segment, its body read and its columns checked against the body."""

    segment: PackedSegment
    events: list[StoredEvent] = field(default_factory=list)
    problems: list[ChainBreak] = field(default_factory=list)


@dataclass
class VerifyReport:
    tables: int = 0
    segments: int = 0
    events: int = 0
    breaks: list[ChainBreak] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    kept_states: int = 0  # kept table states derived again, as kept

    @property
    def archive_breaks(self) -> list[ChainBreak]:
        """Breaks the stream did not have when it arrived: the archive changed."""
        return [b for b in self.breaks if not b.at_intake]

    def failed(self, strict: bool = False) -> bool:
        return bool(self.breaks if strict else self.archive_breaks)


# ---------------------------------------------------------------- one segment


def decode_segment(segment: PackedSegment, native: bool | None = None) -> DecodedSegment:
    """Read a stored body and compare the columns with what the body says. ``native``:
    the core reads the envelopes (``_native_envelopes``); None asks ``$PITWATCH_ENGINE``
    (a whole verify asks it once, ``verify_archive``)."""
    out = DecodedSegment(segment)
    table = segment.table_id
    if segment.body_sha256 is not None and (
            hashlib.sha256(segment.body).hexdigest() != segment.body_sha256):
        out.problems.append(ChainBreak(table, segment.first_seq, None, "column",
                                       f"segment at seq {segment.first_seq}: the stored body "
                                       "is not the bytes written (its SHA-256 differs)"))
    try:
        lines = event_lines(segment.codec, segment.body)
    except (UnknownCodec, UnreadableBody) as exc:
        out.problems.append(ChainBreak(table, segment.first_seq, None, "unreadable",
                                       f"segment at seq {segment.first_seq} cannot be read: "
                                       f"{exc}"))
        return out
    use_core = engine_name() == "native" if native is None else native
    known = _native_envelopes(lines, segment.refused) if use_core else None
    if known is not None and None not in known:
        taken = list(map(_as_stored, repeat(StoredEvent), known))
        if set(map(_table_of, taken)) == {table}:  # the usual body: every line read
            out.events = taken
            out.problems += _column_problems(segment, out.events)
            return out
    refused = set(segment.refused)
    for i, line in enumerate(lines):
        quick = known[i] if known is not None else None
        event = (_as_stored(StoredEvent, quick) if quick is not None
                 else read_event(line, i in refused))
        if event is None or event.table_id != table:
            out.problems.append(ChainBreak(table, segment.first_seq, None, "unreadable",
                                           f"event {i + 1} of the segment at seq "
                                           f"{segment.first_seq} is not an event of table "
                                           f"{table}"))
            continue
        out.events.append(event)
    if len(out.events) == len(lines):
        out.problems += _column_problems(segment, out.events)
    return out


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


def _column_problems(segment: PackedSegment, events: list[StoredEvent]) -> list[ChainBreak]:
    """Each column against the value the body gives it."""
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
    for name, value in derived.items():
        stored = getattr(segment, name)
        if stored != value:
            problems.append(ChainBreak(
                segment.table_id, segment.first_seq, None, "column",
                f"segment at seq {segment.first_seq}: column {name} holds {stored!r} but its "
                f"events give {value!r}"))
    if any(not 0 <= i < len(events) for i in segment.refused):
        problems.append(ChainBreak(segment.table_id, segment.first_seq, None, "column",
                                   f"segment at seq {segment.first_seq}: refused positions "
                                   f"{segment.refused} outside its {len(events)} events"))
    if segment.hand_id is not None and not any(e.hand_id == segment.hand_id for e in events):
        problems.append(ChainBreak(segment.table_id, segment.first_seq, None, "column",
                                   f"segment at seq {segment.first_seq} is filed under hand "
                                   f"{segment.hand_id} but holds no event of it"))
    return problems


# ---------------------------------------------------------------- one table


# ``check_table``'s ``archived_to`` when the table has no catalog row at all.
NO_CATALOG_ROW = -1


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
    for segment in segments:
        problems += segment.problems
        for event in segment.events:
            if not event.refused:
                walk.arrive(event)
    breaks = problems + walk.finish()
    if archived_to is not None:
        after = archived_to if archived_to_after is None else archived_to_after
        breaks += _end_problems(table_id, walk.highest, archived_to, after)
    return [_classified(b, intake) for b in breaks]


def _end_problems(table_id: str, highest: int | None, archived_to: int, after: int
                  ) -> list[ChainBreak]:
    """The end of the chain against the catalog. Removing a table's last segments leaves a
    chain whose every link holds (nothing comes after the cut to notice it); the catalog
    still names the highest seq ever archived. Either way round they differ, something was
    removed or changed behind the database's guards. ``archived_to`` was read before the
    chain, ``after`` after it: the writer raises the catalog in the transaction that adds
    the events, so on a live archive the chain reaches the first and never passes the
    second."""
    if after == NO_CATALOG_ROW:
        if highest is None:
            return []  # only refused events archived: the catalog never had this table
        return [ChainBreak(table_id, highest, None, "end",
                           f"the archive holds table {table_id} up to seq {highest}, but the "
                           "catalog (archive_tables) has no row for the table: removed")]
    if highest is None and archived_to == NO_CATALOG_ROW:
        return []  # the table's first accepted events came in while this was read
    if highest is not None and archived_to <= highest <= after:
        return []
    if highest is None or highest < archived_to:
        first = 1 if highest is None else highest + 1
        missing = f"seq {first}" if first == archived_to else f"seq {first}..{archived_to}"
        last = "no event" if highest is None else f"seq {highest}"
        return [ChainBreak(table_id, first, None, "end",
                           f"{missing} missing at the end of the chain: the catalog "
                           f"(archive_tables) says table {table_id} was archived up to seq "
                           f"{archived_to}, the archive holds {last} last (segments "
                           "removed from its end)")]
    return [ChainBreak(table_id, highest, None, "end",
                       f"the archive holds table {table_id} up to seq {highest}, but the "
                       f"catalog (archive_tables) says seq {after}: the catalog was "
                       "changed")]


def _classified(found: ChainBreak, intake: list[IntakeBreak]) -> ChainBreak:
    """``found`` marked as seen at intake when the intake reported this very break."""
    if found.seq is None or not any(_same_break(found, b, intake) for b in intake):
        return found
    return ChainBreak(found.table_id, found.seq, found.event_id, found.kind,
                      found.message + " (as received: reported at intake)", True,
                      found.carried, found.previous_hash, found.previous_seq)


def _same_break(found: ChainBreak, reported: IntakeBreak, intake: list[IntakeBreak]) -> bool:
    """Whether ``reported`` (one of the table's ``intake`` breaks) is ``found``.

    A broken link is the one the intake named: the same two hash prefixes at the same seq;
    or, where an event came late and did not fit between its neighbours (the intake names
    no hashes then), its own link or its successor's. A gap is the intake's when it lies
    inside a gap the intake reported (the same head jumped from, or a later one: events
    that came late may have filled its start) and none of its seqs came late and was
    taken in (REORDERED): those were archived, and their absence is the archive's."""
    if found.kind in ("altered", "genesis"):
        if reported.late:
            return found.kind == "altered" and found.seq in (reported.seq, reported.seq + 1)
        return (reported.seq == found.seq
                and reported.carried is not None and reported.received is not None
                and found.carried is not None and found.previous_hash is not None
                and found.carried[:PREFIX] == reported.carried
                and found.previous_hash[:PREFIX] == reported.received)
    if found.kind == "gap" and reported.jumped_from is not None \
            and found.previous_seq is not None and found.seq is not None:
        inside = reported.jumped_from <= found.previous_seq and found.seq <= reported.seq
        return inside and not any(b.reordered and found.previous_seq < b.seq < found.seq
                                  for b in intake)
    return False


def intake_break(code: str, seq: int, message: str) -> IntakeBreak | None:
    """What a SURV-9 alert of the intake says broke, or None (another kind of alert)."""
    if code == "CHAIN_BROKEN":
        match = _BROKEN.match(message)
        if match is not None and int(match.group(1)) == seq:
            return IntakeBreak(seq, carried=match.group(2), received=match.group(4))
        late = _LATE.match(message)
        if late is not None and int(late.group(1)) == seq:
            return IntakeBreak(seq, late=True)
    if code == "SEQ_GAP":
        match = _GAP.match(message)
        if match is not None and int(match.group(2)) == seq:
            return IntakeBreak(seq, jumped_from=int(match.group(1)))
    if code == "REORDERED":
        return IntakeBreak(seq, reordered=True)
    return None


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
    native = engine_name() == "native"
    for table in _tables(engine, table_id, first_day, last_day):
        reaches = reaches_end(engine, table, last_day)
        archived_to = _archived_to(engine, table) if reaches else None
        counted = _Counted()
        with engine.connect() as conn:
            decoded = (decode_segment(s, native) for s in
                       iter_segments(conn, segments_query(table, first_day, last_day)))
            first = next(decoded, None)
            before = _before(engine, table, first.segment) if first is not None else None
            segments = counted.of(chain([first], decoded) if first is not None else ())
            with engine.connect() as anchors_conn:
                report.breaks += check_table(
                    table, segments, before, _anchors(anchors_conn, table, first_day, last_day),
                    _intake_breaks(engine, table), archived_to,
                    _archived_to(engine, table) if reaches else None)
        report.breaks += _checkpoint_breaks(
            engine, table, first_day, last_day, profiles if native else None, report.notes,
            "no rule profiles were given to derive them under" if native else
            "they are the native core's states; PITWATCH_ENGINE=python")
        report.breaks += _kept_state_breaks(engine, table, first_day is None, profiles,
                                            report)
        report.tables += 1
        report.segments += counted.segments
        report.events += counted.events
        if on_table is not None:
            on_table(table, counted.segments)
    return report


def _checkpoint_breaks(engine: Engine, table_id: str, first_day: dt.date | None,
                       last_day: dt.date | None, profiles: Profiles | None, notes: list[str],
                       why_not: str) -> list[ChainBreak]:
    """The table's checkpoints (of the span's days) derived again from the one before
    each (``services.archive.checkpoints.rederive``): one that differs is a break (kind
    ``checkpoint``), as a report started from it would show a table that never was. Their
    states are the native core's: with the reference engine (``profiles`` None then), or
    without profiles, they are not derived, and a note says why (``why_not``)."""
    if profiles is None:
        with engine.connect() as conn:
            if next(checkpoints_of(conn, table_id, limit=1), None) is not None:
                notes.append(f"table {table_id}: its checkpoints were not derived again "
                             f"({why_not})")
        return []
    return [ChainBreak(table_id, None, None, "checkpoint",
                       f"{p.checkpoint.describe()}: {p.message}")
            for p in rederive(engine, table_id, profiles, first_day, last_day, notes)]


def _kept_state_breaks(engine: Engine, table_id: str, from_first: bool,
                       profiles: Profiles | None, report: VerifyReport) -> list[ChainBreak]:
    """The table's kept states (``services.archive.carry``) derived again from its
    archived events (``services.archive.carry_check``): one that differs is a break (kind
    ``carry``). Only on a verify from the table's first day and with profiles to judge
    under (else a note, when the table has any)."""
    if not from_first or profiles is None:
        if has_kept_states(engine, table_id):
            report.notes.append(
                f"table {table_id}: its kept states were not derived again (" + (
                    "a verify from the first day derives them" if not from_first else
                    "no rule profiles were given to derive them under") + ")")
        return []
    check = check_kept_states(engine, table_id, profiles, report.notes)
    report.kept_states += check.derived
    return [ChainBreak(table_id, None, None, "carry", message) for message in check.differ]


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
    query = select(ArchiveSegment.table_id).distinct().order_by(ArchiveSegment.table_id)
    if table_id is not None:
        query = query.where(ArchiveSegment.table_id == table_id)
    query = within_days(query, ArchiveSegment.day, first_day, last_day)
    with engine.connect() as conn:
        return list(conn.execute(query).scalars())


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
    if row is None or row.last_hash is None:
        return detached_before(engine, table_id)
    return int(row.last_seq), str(row.last_hash)


def reaches_end(engine: Engine, table_id: str, last_day: dt.date | None) -> bool:
    """Whether the span verified holds the table's last archived day."""
    if last_day is None:
        return True
    s = ArchiveSegment
    with engine.connect() as conn:
        later = conn.execute(select(s.day).where(s.table_id == table_id, s.day > last_day)
                             .limit(1)).first()
    return later is None


def _archived_to(engine: Engine, table_id: str) -> int:
    """The catalog's highest archived seq of the table (``NO_CATALOG_ROW``: no row)."""
    with engine.connect() as conn:
        last_seq = conn.execute(select(ArchiveTable.last_seq)
                                .where(ArchiveTable.table_id == table_id)).scalar()
    return NO_CATALOG_ROW if last_seq is None else int(last_seq)


def _anchors(conn: Connection, table_id: str, first_day: dt.date | None,
             last_day: dt.date | None) -> Iterator[Anchor]:
    """The ledger's booked hands of the table, in ``last_seq`` order, read as consumed."""
    query = select(Hand.hand_id, Hand.last_seq, Hand.last_hash).where(
        Hand.table_id == table_id, Hand.last_hash.is_not(None), Hand.last_seq.is_not(None))
    query = within_days(query, Hand.day, first_day, last_day).order_by(Hand.last_seq,
                                                                      Hand.hand_id)
    for hand_id, seq, digest in conn.execution_options(yield_per=STREAM_ROWS).execute(query):
        if seq is not None and digest is not None:
            yield Anchor(hand_id, seq, digest)


def _intake_breaks(engine: Engine, table_id: str) -> list[IntakeBreak]:
    """The chain breaks the intake reported at this table (its archived SURV-9 alerts)."""
    with engine.connect() as conn:
        rows = conn.execute(select(ArchiveAlert.code, ArchiveAlert.seq, ArchiveAlert.alert_json)
                            .where(ArchiveAlert.table_id == table_id,
                                   ArchiveAlert.rule == "SURV-9",
                                   ArchiveAlert.code.in_(["CHAIN_BROKEN", "SEQ_GAP",
                                                          "REORDERED"]),
                                   ArchiveAlert.seq.is_not(None))).all()
    found = [intake_break(code, seq, str(orjson.loads(raw).get("message", "")))
             for code, seq, raw in rows if seq is not None]
    return [b for b in found if b is not None]


def archived_event_count(engine: Engine) -> int:
    with engine.connect() as conn:
        return int(conn.execute(select(func.coalesce(func.sum(ArchiveSegment.events), 0))
                                ).scalar_one())
