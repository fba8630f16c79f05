"""One table's hash chain linked as its archived events arrive (``ChainWalk``), and what
a break in it is (``ChainBreak``): the part of ``pitwatch verify`` that decides, apart
from reading the database (``services.archive.verify``). Also which breaks the intake
itself reported (``intake_break``, ``classified``) and the chain's end against the
catalog (``end_problems``).
"""

from __future__ import annotations

import bisect
import heapq
import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from itertools import chain
from typing import NamedTuple

from services.events.bounds import MAX_REMEMBERED_EVENTS
from services.events.canonical import GENESIS_HASH


@dataclass(frozen=True)
class ChainBreak:
    """One break: where (table, seq, event), what, and whether the stream had it at intake."""

    table_id: str
    seq: int | None
    event_id: str | None
    kind: str  # altered, gap, genesis, conflict, copy, late, column, unreadable, anchor, end,
    # checkpoint, carry
    message: str
    at_intake: bool = False
    # The link as verify found it: the prev_hash the event carries and the hash of the
    # event before it ("altered", "genesis"); the seq before a gap ("gap").
    carried: str | None = None
    previous_hash: str | None = None
    previous_seq: int | None = None
    # ``message`` with every hash it names whole (64 hex digits), for JSON and CSV: the
    # table shows 16 for people, but an auditor's evidence must name the very hash (QA).
    # None: the message names no hash.
    full: str | None = None
    # The seqs (first, last, as the segment's columns say) whose events this break leaves
    # unverified: a body not the bytes written is not read (``decode_segment``).
    unverified: tuple[int, int] | None = None

    def said(self, whole_hashes: bool = False) -> str:
        """The message; with ``whole_hashes``, each hash it names in full."""
        return self.full if whole_hashes and self.full is not None else self.message


def short(digest: str) -> str:
    """A hash as a person reads it in a message: its first 16 hex digits."""
    return f"{digest[:16]}…"


class StoredEvent(NamedTuple):
    """An archived event as verify reads it back (hash recomputed from its bytes). A
    named tuple, not a frozen dataclass: verify makes one for every archived event, and
    the dataclass's construction was a third of reading one (1.0 against 0.3 us)."""

    seq: int
    event_id: str
    prev_hash: str
    hash: str
    ts: str
    table_id: str
    hand_id: str | None
    refused: bool


@dataclass(frozen=True)
class Anchor:
    """What the ledger booked for a hand: the seq and hash of its last event, and whether
    it was booked (``posted``) or refused."""

    hand_id: str
    last_seq: int
    last_hash: str
    posted: bool = True


# Linked events a walk keeps, to tell a byte copy from a conflict: those of the last this
# many seqs below its head, as many as the intake remembers to tell a redelivery from a
# forgery. The intake never takes in two events at one seq, and the writer keeps one copy
# of an event, so an honest archive has neither.
RECENT_SEQS = MAX_REMEMBERED_EVENTS


class ChainWalk:
    """One table's accepted events, fed in arrival order, linked in ``seq`` order.

    Why it can link as it reads: the intake takes an event in below its chain head only
    when that seq was skipped by a gap and the event came late, and then it says so (a
    REORDERED alert, archived). So a gap none of whose seqs has such an alert will never
    be filled in an honest archive: the walk links across it at once. A gap with one
    waits for it, holding the events above it (at most the intake's window of two hands:
    ``services.events.bounds``); any other event below the walked seqs is a break (kind
    ``late``: the intake never accepted it there) or, for a seq it still remembers, an
    exact copy (``copy``) or a ``conflict``. The result is what putting every accepted
    event of the table in ``seq`` order (the first arrival of each seq) and linking them
    would give, each later arrival at a seq listed (``conflict``, or ``copy`` when byte
    for byte the same), for every archive the intake could have written; only events
    added behind the archive's guards below the walked seqs are told apart (``late``)."""

    def __init__(self, table_id: str, before: tuple[int, str] | None,
                 anchors: Iterable[Anchor], reordered: Iterable[int]) -> None:
        self.table_id = table_id
        self.before = before
        self.previous = before  # (seq, hash) of the last event linked
        self.expected = before[0] + 1 if before else 1  # lowest seq not yet linked
        self.reordered = sorted(set(reordered))
        self.waiting: dict[int, StoredEvent] = {}
        self.heap: list[int] = []
        self.recent: dict[int, StoredEvent] = {}  # linked events, the last RECENT_SEQS seqs
        self.anchors = iter(anchors)
        self.anchor: Anchor | None = next(self.anchors, None)
        self.conflicts: list[ChainBreak] = []
        self.links: list[ChainBreak] = []
        self.anchored: list[ChainBreak] = []
        self.booked_at: Anchor | None = None  # the last booked hand's anchor checked
        self.last: StoredEvent | None = None  # the event linked last (its hand, its id)
        # Seqs whose events cannot be verified (``skip``): each span's stand-in event, by
        # its first seq, with its last seq; and every span's (first, last).
        self.spans: dict[int, tuple[StoredEvent, int]] = {}
        self.unverified: list[tuple[int, int]] = []
        self.after_span = False  # the link before the next event is a span's columns

    @property
    def highest(self) -> int | None:
        """The highest seq linked (or ``before``'s): where the chain ends."""
        return self.previous[0] if self.previous is not None else None

    def arrive(self, event: StoredEvent) -> None:
        seq = event.seq
        if seq == self.expected and not self.heap:  # the usual case: the next event
            self._link(event)
            return
        if seq >= self.expected:
            known = self.waiting.get(seq)
            if known is None:
                self.waiting[seq] = event
                heapq.heappush(self.heap, seq)
                self._link_what_can_be()
            elif not self._unverifiable(seq):
                self.conflicts.append(_twice(self.table_id, known, event))
            return
        if self._unverifiable(seq):
            return  # what it is beside (a copy, a conflict) cannot be told
        remembered = self.recent.get(seq) if seq >= self.expected - RECENT_SEQS else None
        if remembered is not None:
            self.conflicts.append(_twice(self.table_id, remembered, event))
        elif not (self.before is not None and seq <= self.before[0] and self._came_late(
                seq, seq)):  # a late event of a gap before the span: linked there
            self.conflicts.append(ChainBreak(
                self.table_id, seq, event.event_id, "late",
                f"seq {seq} is archived after the chain was linked past it (to seq "
                f"{self.expected - 1}), and the intake took in no event late at that seq "
                "(no REORDERED alert): the archive holds an event the intake did not "
                "accept there"))

    def finish(self) -> list[ChainBreak]:
        """The breaks, once every segment arrived: the events still waiting are linked
        (their gaps are gaps)."""
        while self.heap:
            lowest = heapq.heappop(self.heap)
            event = self.waiting.pop(lowest)
            if lowest >= self.expected:  # (else inside a span linked past it: ``skip``)
                self._link(event)
        return self.conflicts + self.links + self.anchored

    def skip(self, first: int, last: int, prev_hash: str, last_hash: str) -> None:
        """Seqs ``first``..``last`` whose events cannot be verified: a segment whose body
        is not the bytes written (its SHA-256 differs), so what it decodes to is no
        evidence of anything (QA: one flipped bit read as events at other seqs, listed as
        conflicts in hands nobody touched). The chain is linked through it by what its
        columns say: the event before it must hash to its ``first_prev_hash``, and the
        event after it carry its ``last_hash``; an event found at one of its seqs is not
        compared with anything."""
        self.unverified.append((first, last))
        if first < self.expected or first in self.waiting:
            return  # below the linked seqs, or where an event waits: nothing more known
        stand_in = StoredEvent(first, "", prev_hash, last_hash, "", self.table_id, None,
                               False)
        self.spans[first] = (stand_in, last)
        self.waiting[first] = stand_in
        heapq.heappush(self.heap, first)
        self._link_what_can_be()

    def _unverifiable(self, seq: int) -> bool:
        return bool(self.unverified) and any(a <= seq <= b for a, b in self.unverified)

    def _link_what_can_be(self) -> None:
        while self.heap:
            lowest = self.heap[0]
            if lowest < self.expected:  # inside a span linked past it (``skip``)
                heapq.heappop(self.heap)
                del self.waiting[lowest]
                continue
            if lowest != self.expected and self._came_late(self.expected, lowest - 1):
                return  # a seq of the gap below may still come late
            heapq.heappop(self.heap)
            self._link(self.waiting.pop(lowest))

    def _came_late(self, first: int, last: int) -> bool:
        """Whether the intake took in an event late at a seq in ``first``..``last``."""
        at = bisect.bisect_left(self.reordered, first)
        return at < len(self.reordered) and self.reordered[at] <= last

    def _link(self, event: StoredEvent) -> None:
        seq = event.seq
        previous = self.previous
        span = self.spans.get(seq) if self.spans else None
        if span is not None and span[0] is event:
            self._link_span(event, span[1])
            return
        if previous is None or seq != previous[0] + 1 or event.prev_hash != previous[1]:
            self.links += _link_problems(self.table_id, event, previous, self.last,
                                         self.after_span)
        self.after_span = False
        self.last = event
        self.previous = (seq, event.hash)
        self.expected = seq + 1
        recent = self.recent
        recent[seq] = event
        if len(recent) > 2 * RECENT_SEQS:  # forget the older half, in one pass
            self.recent = {s: e for s, e in recent.items() if s >= seq + 1 - RECENT_SEQS}
        if self.anchor is not None and self.anchor.last_seq <= seq:
            self._check_anchors(event)

    def _link_span(self, stand_in: StoredEvent, last: int) -> None:
        """A span of unverifiable seqs (``skip``) linked by its columns; the booked hands
        ending inside it are passed by (their events cannot be read)."""
        del self.spans[stand_in.seq]
        previous = self.previous
        if previous is not None and (stand_in.seq != previous[0] + 1
                                     or stand_in.prev_hash != previous[1]):
            self.links += _span_problems(self.table_id, stand_in, last, previous, self.last,
                                         self.after_span)
        elif previous is None:
            self.links += _link_problems(self.table_id, stand_in, None, None, False)
        self.after_span = True
        self.last = stand_in
        self.previous = (last, stand_in.hash)
        self.expected = last + 1
        while self.anchor is not None and self.anchor.last_seq <= last:
            self.anchor = next(self.anchors, None)

    def _check_anchors(self, event: StoredEvent) -> None:
        """The ledger's hands whose last event is this one (anchors of seqs not linked,
        outside the span or in a gap, are passed by: a gap is reported as such)."""
        while self.anchor is not None and self.anchor.last_seq <= event.seq:
            anchor = self.anchor
            self.anchor = next(self.anchors, None)
            if self.anchor is not None and self.anchor.last_seq < anchor.last_seq:
                raise ValueError("check_table: anchors must come in last_seq order")
            if anchor.posted and anchor.last_seq == event.seq:
                self._check_booked_once(anchor, event)
            if anchor.last_seq == event.seq and anchor.last_hash != event.hash:
                said = (f"hand {anchor.hand_id} was booked with its last event (seq "
                        f"{anchor.last_seq}) hashing to {{}}, the archive's hashes to {{}}")
                self.anchored.append(ChainBreak(
                    self.table_id, anchor.last_seq, event.event_id, "anchor",
                    said.format(short(anchor.last_hash), short(event.hash)),
                    full=said.format(anchor.last_hash, event.hash)))

    def booked_past(self, end: int) -> list[ChainBreak]:
        """The booked hands left once every event was linked that end past ``end`` (the
        catalog's highest archived seq, read after the walk, or the chain's end if
        higher): the ledger holds chips for a last event the archive never kept (a
        hand's ``last_seq`` rewritten past the end, with a made-up hash: QA). Those
        between the chain's end and the catalog's are the tail ``end_problems`` reports
        missing."""
        end = max(end, self.highest or 0)
        left = chain([self.anchor] if self.anchor is not None else [], self.anchors)
        self.anchor = None
        return [ChainBreak(self.table_id, a.last_seq, None, "anchor",
                           f"hand {a.hand_id} was booked ending at seq {a.last_seq}, past "
                           f"the archive's last event of the table (seq {end}): the ledger "
                           "holds chips for events the archive never kept (or not yet: "
                           "while a run is being kept, or after one was stopped part way, "
                           "the archive may be behind the ledger; verify once the run or "
                           "the archive service caught up, or run the stopped log again)")
                for a in left if a.posted and a.last_seq > end]

    def _check_booked_once(self, anchor: Anchor, event: StoredEvent) -> None:
        """A booked hand ending at the event the booked hand before it ends at, or at an
        event of another hand (a copy booked before the hand it copies, which the ledger
        then refused: QA)."""
        before, self.booked_at = self.booked_at, anchor
        if before is not None and before.last_seq == anchor.last_seq:
            self.anchored.append(_booked_twice(self.table_id, before, anchor, event))
        elif event.hand_id is not None and event.hand_id != anchor.hand_id:
            self.anchored.append(ChainBreak(
                self.table_id, event.seq, event.event_id, "anchor",
                f"hand {anchor.hand_id} was booked ending at seq {event.seq}, an event of "
                f"hand {event.hand_id}: a record copied under another hand id, its chips "
                "counted for a hand that never was"))


def _booked_twice(table_id: str, first: Anchor, second: Anchor, event: StoredEvent
                  ) -> ChainBreak:
    """Two booked hands ending at one event: an event belongs to one hand, so one of them
    is a record copied under another hand id (the ledger refuses such a copy since
    migration 0017; one booked before it counts the hand's chips twice)."""
    return ChainBreak(table_id, event.seq, event.event_id, "anchor",
                      f"hands {first.hand_id} and {second.hand_id} were both booked ending at "
                      f"seq {event.seq}: an event belongs to one hand, so one is a copy of "
                      "the other and its chips are counted twice")


def _twice(table_id: str, first: StoredEvent, event: StoredEvent) -> ChainBreak:
    """An accepted seq archived a second time. The intake never accepts two events at one
    seq (a re-delivery is refused, and archived as refused), and the writer stores an
    event it already holds only once, so even a byte copy was put there by hand: it
    changes no link, but a replay reads it again."""
    if first.hash != event.hash:
        return ChainBreak(table_id, event.seq, event.event_id, "conflict",
                          f"seq {event.seq} is archived twice with different bytes (events "
                          f"{first.event_id} and {event.event_id})")
    return ChainBreak(table_id, event.seq, event.event_id, "copy",
                      f"seq {event.seq} (event {event.event_id}) is archived twice, byte for "
                      "byte: the writer keeps one copy of an event, so the second was added")


def _link_problems(table_id: str, event: StoredEvent, previous: tuple[int, str] | None,
                   before: StoredEvent | None, after_span: bool) -> list[ChainBreak]:
    """The link from the event linked before (``previous``: seq and hash; None: this is
    the table's first) to ``event``. ``before``: that event as read (None: outside the
    span verified), so that a broken link names where either event is (its hand), for an
    auditor to find the one changed; ``after_span``: ``before`` is a span of seqs not
    verified (``ChainWalk.skip``), its hash its ``last_hash`` column."""
    event_id = event.event_id or None  # (a span's stand-in has none)
    if previous is None:
        # Nothing archived before (live or detached, ``_before``): the chain is the
        # table's whole, so it starts at seq 1; otherwise its first events were cut
        # away, or never came (then the intake reported the jump: as received).
        if event.seq > 1:
            missing = "seq 1" if event.seq == 2 else f"seq 1..{event.seq - 1}"
            return [ChainBreak(table_id, event.seq, event_id, "gap",
                               f"{missing} missing before seq {event.seq}: the table's first "
                               "events are in neither the archive nor a detached day",
                               previous_seq=0)]
        if event.prev_hash != GENESIS_HASH:
            said = "seq 1 does not carry the all-zero genesis prev_hash (it carries {})"
            return [ChainBreak(table_id, 1, event_id, "genesis",
                               said.format(short(event.prev_hash)),
                               carried=event.prev_hash, previous_hash=GENESIS_HASH,
                               previous_seq=0, full=said.format(event.prev_hash))]
        return []
    seq, digest = previous
    if event.seq != seq + 1:
        missing = f"seq {seq + 1}" if event.seq == seq + 2 else f"seq {seq + 1}..{event.seq - 1}"
        return [ChainBreak(table_id, event.seq, event_id, "gap",
                           f"{missing} missing before seq {event.seq}", previous_seq=seq)]
    if event.prev_hash != digest:
        if after_span and before is not None:
            said = (f"seq {event.seq} ({_where(event)}) carries prev_hash {{}} but the "
                    f"segment at seq {before.seq}..{seq}, whose body is not the bytes "
                    f"written, names {{}} as its last event's hash (its last_hash column): "
                    f"seq {seq}, that column or this event changed")
        else:
            said = (f"seq {event.seq} carries prev_hash {{}} but seq {seq} as archived "
                    f"hashes to {{}}: seq {seq}" + (
                        f" ({_where(before, named=True)})" if before is not None
                        and before.seq == seq else "")
                    + f" or this event ({_where(event)}) changed")
        return [ChainBreak(table_id, event.seq, event_id, "altered",
                           said.format(short(event.prev_hash), short(digest)),
                           carried=event.prev_hash, previous_hash=digest, previous_seq=seq,
                           full=said.format(event.prev_hash, digest))]
    return []


def _span_problems(table_id: str, stand_in: StoredEvent, last: int,
                   previous: tuple[int, str], before: StoredEvent | None,
                   after_span: bool) -> list[ChainBreak]:
    """The link into a span of seqs not verified (``ChainWalk.skip``), by its columns."""
    seq, digest = previous
    if stand_in.seq != seq + 1:
        return _link_problems(table_id, stand_in, previous, before, after_span)
    said = (f"the segment at seq {stand_in.seq}..{last}, whose body is not the bytes "
            f"written, names prev_hash {{}} (its first_prev_hash column) but seq {seq} as "
            f"archived hashes to {{}}: seq {seq}" + (
                f" ({_where(before, named=True)})" if before is not None
                and before.seq == seq and not after_span else "")
            + " or that column changed")
    return [ChainBreak(table_id, stand_in.seq, None, "altered",
                       said.format(short(stand_in.prev_hash), short(digest)),
                       carried=stand_in.prev_hash, previous_hash=digest, previous_seq=seq,
                       full=said.format(stand_in.prev_hash, digest))]


def _where(event: StoredEvent, named: bool = False) -> str:
    """Where an event is, for finding it: its hand (or between hands), and its id when
    the row does not name it (``named``)."""
    hand = f"hand {event.hand_id}" if event.hand_id else "between hands"
    return f"event {event.event_id}, {hand}" if named else hand


# ---------------------------------------------------------------- what the intake saw


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


def classified(found: ChainBreak, intake: list[IntakeBreak]) -> ChainBreak:
    """``found`` marked as seen at intake when the intake reported this very break."""
    if found.seq is None or not any(_same_break(found, b, intake) for b in intake):
        return found
    suffix = " (as received: reported at intake)"
    return replace(found, message=found.message + suffix, at_intake=True,
                   full=None if found.full is None else found.full + suffix)


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


# ---------------------------------------------------------------- the end of a chain


# ``check_table``'s ``archived_to`` when the table has no catalog row at all.
NO_CATALOG_ROW = -1


def end_problems(table_id: str, highest: int | None, archived_to: int, after: int
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
        last = "none of its events" if highest is None else f"seq {highest} last"
        return [ChainBreak(table_id, first, None, "end",
                           f"{missing} missing at the end of the chain: the catalog "
                           f"(archive_tables) says table {table_id} was archived up to seq "
                           f"{archived_to}, the archive holds {last} (segments "
                           "removed from its end)")]
    return [ChainBreak(table_id, highest, None, "end",
                       f"the archive holds table {table_id} up to seq {highest}, but the "
                       f"catalog (archive_tables) says seq {after}: the catalog was "
                       "changed")]


# ---------------------------------------------------------------- what a break changes


# Breaks that change the events the archive gives, in arrival order, from their seq on:
# what a kept state is derived again from (``check_kept_states``).
EVENTS_CHANGED = frozenset({"altered", "genesis", "gap", "conflict", "copy", "late",
                            "unreadable", "end"})


def first_damage(damage: Iterable[tuple[int, str]], upto: int,
                 above: int | None = None) -> str | None:
    """How the first of ``damage`` (``archive_damage``: lowest seq first) that may have
    changed an event at or below ``upto`` (and above ``above``) is listed, or None: what
    a kept state or a checkpoint derived from those events cannot be told apart from."""
    return next((said for since, said in damage
                 if since <= upto and (above is None or since > above)), None)


def archive_damage(breaks: Iterable[ChainBreak]) -> list[tuple[int, str]]:
    """The table's breaks in the archive's events (not those the stream had at intake,
    which the run judged as they are archived), each as the lowest seq whose event it may
    have changed or lost, and how a note names it (its kind and seq, as listed); lowest
    first. Why: a kept state derived
    from a damaged archive differs from it although the state is as the run kept it (QA:
    a segment removed made the genuine state of the next day a ``carry`` break, "a table
    that never was"); the break is the archive's, and the state cannot be told either way."""
    found = []
    for b in breaks:
        if b.at_intake or b.seq is None:
            continue
        if b.unverified is not None:
            since = b.unverified[0]
        elif b.kind not in EVENTS_CHANGED:
            continue
        elif b.kind == "gap" and b.previous_seq is not None:
            since = b.previous_seq + 1  # the first seq missing
        elif b.kind == "altered" and b.previous_seq is not None:
            since = b.previous_seq  # the event before, or this one, changed
        else:
            since = b.seq
        found.append((since, f"{b.kind} at seq {b.seq:,}"))
    return sorted(found)
