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
ledger) must name the archived hash of the hand's last event.

Breaks the table's own stream already had when it arrived (a tampered or missing event
the chain check reported then, as an alert the archive kept) are listed as such: the
archive then holds the stream faithfully, break included. Only the others mean the
archive changed; ``failed`` counts those (``strict`` counts both).

The checks are pure functions over decoded segments (``check_table``), so a test can
alter any stored field of any event and ask whether it is found.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

import orjson
from sqlalchemy import Engine, func, select

from services.archive.reader import iter_segments, segments_query
from services.archive.segment import PackedSegment, UnknownCodec, event_lines
from services.events.canonical import GENESIS_HASH
from services.ledger.archive_tables import ArchiveAlert, ArchiveSegment
from services.ledger.models import Hand

# Chain findings of the intake (SURV-9) that mean the stream broke where they point.
INTAKE_BREAK_CODES = frozenset({"CHAIN_BROKEN", "SEQ_GAP", "REORDERED", "EVENT_ID_CONFLICT",
                                "SEQ_CONFLICT"})


@dataclass(frozen=True)
class ChainBreak:
    """One break: where (table, seq, event), what, and whether the stream had it at intake."""

    table_id: str
    seq: int | None
    event_id: str | None
    kind: str  # altered, gap, genesis, conflict, column, unreadable, anchor
    message: str
    at_intake: bool = False


@dataclass(frozen=True)
class StoredEvent:
    """An archived event as verify reads it back (hash recomputed from its bytes)."""

    seq: int
    event_id: str
    prev_hash: str
    hash: str
    ts: str
    table_id: str
    hand_id: str | None
    refused: bool


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

    @property
    def archive_breaks(self) -> list[ChainBreak]:
        """Breaks the stream did not have when it arrived: the archive changed."""
        return [b for b in self.breaks if not b.at_intake]

    def failed(self, strict: bool = False) -> bool:
        return bool(self.breaks if strict else self.archive_breaks)


# ---------------------------------------------------------------- one segment


def decode_segment(segment: PackedSegment) -> DecodedSegment:
    """Read a stored body and compare the columns with what the body says."""
    out = DecodedSegment(segment)
    table = segment.table_id
    try:
        lines = event_lines(segment.codec, segment.body)
    except (UnknownCodec, ValueError, RuntimeError) as exc:  # cramjam: DecompressionError
        out.problems.append(ChainBreak(table, segment.first_seq, None, "unreadable",
                                       f"segment at seq {segment.first_seq} cannot be read: "
                                       f"{exc}"))
        return out
    refused = set(segment.refused)
    for i, line in enumerate(lines):
        event = read_event(line, i in refused)
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


def read_event(line: bytes, refused: bool) -> StoredEvent | None:
    """The envelope of one archived line, or None when it is not an event."""
    try:
        obj = orjson.loads(line)
        fields = (obj["seq"], obj["event_id"], obj["prev_hash"], obj["ts"], obj["table_id"],
                  obj["hand_id"])
    except (orjson.JSONDecodeError, KeyError, TypeError):
        return None
    seq, event_id, prev_hash, ts, table_id, hand_id = fields
    if not (type(seq) is int and isinstance(event_id, str) and isinstance(prev_hash, str)
            and isinstance(ts, str) and isinstance(table_id, str)
            and (hand_id is None or isinstance(hand_id, str))):
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


@dataclass(frozen=True)
class Anchor:
    """What the ledger booked for a hand: the seq and hash of its last event."""

    hand_id: str
    last_seq: int
    last_hash: str


def check_table(table_id: str, segments: Sequence[DecodedSegment],
                before: tuple[int, str] | None = None, anchors: Iterable[Anchor] = (),
                intake_breaks: frozenset[int] = frozenset()) -> list[ChainBreak]:
    """Every break of one table's chain over ``segments`` (in arrival order).

    ``before``: (seq, hash) of the table's last archived event before these segments,
    when they do not start at the table's beginning (a span of days). ``anchors``: the
    ledger's record of each hand. ``intake_breaks``: the seqs at which the intake
    reported the stream broken (its SURV-9 alerts)."""
    breaks = [p for s in segments for p in s.problems]
    by_seq: dict[int, StoredEvent] = {}
    for event in (e for s in segments for e in s.events if not e.refused):
        known = by_seq.get(event.seq)
        if known is not None and known.hash != event.hash:
            breaks.append(ChainBreak(table_id, event.seq, event.event_id, "conflict",
                                     f"seq {event.seq} is archived twice with different "
                                     f"bytes (events {known.event_id} and {event.event_id})"))
        by_seq.setdefault(event.seq, event)
    chain = [by_seq[seq] for seq in sorted(by_seq)]
    breaks += _link_problems(table_id, chain, before)
    breaks += _anchor_problems(table_id, by_seq, anchors)
    return [_classified(b, intake_breaks) for b in breaks]


def _link_problems(table_id: str, chain: list[StoredEvent],
                   before: tuple[int, str] | None) -> list[ChainBreak]:
    problems: list[ChainBreak] = []
    previous = before
    for event in chain:
        if previous is None:
            if event.seq == 1 and event.prev_hash != GENESIS_HASH:
                problems.append(ChainBreak(table_id, 1, event.event_id, "genesis",
                                           "seq 1 does not carry the all-zero genesis "
                                           "prev_hash"))
        else:
            seq, digest = previous
            if event.seq != seq + 1:
                missing = f"seq {seq + 1}" if event.seq == seq + 2 else f"seq {seq + 1}.." \
                          f"{event.seq - 1}"
                problems.append(ChainBreak(table_id, event.seq, event.event_id, "gap",
                                           f"{missing} missing before seq {event.seq}"))
            elif event.prev_hash != digest:
                problems.append(ChainBreak(
                    table_id, event.seq, event.event_id, "altered",
                    f"seq {event.seq} carries prev_hash {event.prev_hash[:16]}… but seq {seq} "
                    f"as archived hashes to {digest[:16]}…: seq {seq} (or this event) "
                    "changed"))
        previous = (event.seq, event.hash)
    return problems


def _anchor_problems(table_id: str, by_seq: dict[int, StoredEvent],
                     anchors: Iterable[Anchor]) -> list[ChainBreak]:
    problems = []
    for anchor in anchors:
        event = by_seq.get(anchor.last_seq)
        if event is None:
            continue  # not in the span verified (or a gap, reported as such)
        if event.hash != anchor.last_hash:
            problems.append(ChainBreak(
                table_id, anchor.last_seq, event.event_id, "anchor",
                f"hand {anchor.hand_id} was booked with its last event (seq "
                f"{anchor.last_seq}) hashing to {anchor.last_hash[:16]}…, the archive's "
                f"hashes to {event.hash[:16]}…"))
    return problems


def _classified(found: ChainBreak, intake_breaks: frozenset[int]) -> ChainBreak:
    if found.kind in ("altered", "gap", "genesis") and found.seq in intake_breaks:
        return ChainBreak(found.table_id, found.seq, found.event_id, found.kind,
                          found.message + " (as received: reported at intake)", True)
    return found


# ---------------------------------------------------------------- the archive


def verify_archive(engine: Engine, first_day: dt.date | None = None,
                   last_day: dt.date | None = None, table_id: str | None = None,
                   on_table: Callable[[str, int], None] | None = None) -> VerifyReport:
    """Verify every table (or one) over every day (or a span); ``on_table`` is called
    after each table with the number of its segments (progress)."""
    report = VerifyReport()
    for table in _tables(engine, table_id, first_day, last_day):
        with engine.connect() as conn:
            decoded = [decode_segment(s) for s in
                       iter_segments(conn, segments_query(table, first_day, last_day))]
        before = _before(engine, table, decoded[0].segment) if decoded else None
        if decoded and before is None and decoded[0].segment.head_seq > 1 and first_day:
            report.notes.append(f"table {table}: nothing archived before {first_day}; its "
                                "first event in the span is not linked to an earlier one")
        report.tables += 1
        report.segments += len(decoded)
        report.events += sum(len(d.events) for d in decoded)
        report.breaks += check_table(table, decoded, before,
                                     _anchors(engine, table, first_day, last_day),
                                     _intake_breaks(engine, table))
        if on_table is not None:
            on_table(table, len(decoded))
    return report


def _tables(engine: Engine, table_id: str | None, first_day: dt.date | None,
            last_day: dt.date | None) -> list[str]:
    query = select(ArchiveSegment.table_id).distinct().order_by(ArchiveSegment.table_id)
    if table_id is not None:
        query = query.where(ArchiveSegment.table_id == table_id)
    if first_day is not None:
        query = query.where(ArchiveSegment.day >= first_day)
    if last_day is not None:
        query = query.where(ArchiveSegment.day <= last_day)
    with engine.connect() as conn:
        return list(conn.execute(query).scalars())


def _before(engine: Engine, table_id: str, first: PackedSegment) -> tuple[int, str] | None:
    """(last_seq, last_hash) of the table's last segment before ``first`` holding accepted
    events (its columns: it is outside the span verified)."""
    s = ArchiveSegment
    with engine.connect() as conn:
        row = conn.execute(
            select(s.last_seq, s.last_hash)
            .where(s.table_id == table_id, s.last_seq.is_not(None),
                   (s.head_seq < first.head_seq)
                   | ((s.head_seq == first.head_seq) & (s.ordinal < first.ordinal)))
            .order_by(s.last_seq.desc()).limit(1)).first()
    if row is None or row.last_hash is None:
        return None
    return int(row.last_seq), str(row.last_hash)


def _anchors(engine: Engine, table_id: str, first_day: dt.date | None,
             last_day: dt.date | None) -> list[Anchor]:
    query = select(Hand.hand_id, Hand.last_seq, Hand.last_hash).where(
        Hand.table_id == table_id, Hand.last_hash.is_not(None), Hand.last_seq.is_not(None))
    if first_day is not None:
        query = query.where(Hand.day >= first_day)
    if last_day is not None:
        query = query.where(Hand.day <= last_day)
    with engine.connect() as conn:
        return [Anchor(h, seq, digest) for h, seq, digest in conn.execute(query)
                if seq is not None and digest is not None]


def _intake_breaks(engine: Engine, table_id: str) -> frozenset[int]:
    with engine.connect() as conn:
        seqs = conn.execute(select(ArchiveAlert.seq).where(
            ArchiveAlert.table_id == table_id, ArchiveAlert.rule == "SURV-9",
            ArchiveAlert.code.in_(sorted(INTAKE_BREAK_CODES)),
            ArchiveAlert.seq.is_not(None))).scalars()
        return frozenset(s for s in seqs if s is not None)


def archived_event_count(engine: Engine) -> int:
    with engine.connect() as conn:
        return int(conn.execute(select(func.coalesce(func.sum(ArchiveSegment.events), 0))
                                ).scalar_one())
