"""``pitwatch verify`` links a table's chain as its segments stream by (``ChainWalk``).

The reference is the definition the docs give: every accepted event put in ``seq`` order
(the first arrival of each seq), each linked to the one before it, written out here in a
dozen lines (``linked_in_seq_order``) and independent of the walk. The walk must give the
same breaks for every archive the intake could have written (an event that arrives below
a higher seq only when the intake said it came late: REORDERED), while holding only the
events above a gap that such an event may still fill.
"""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from services.archive import chain
from services.archive.chain import Anchor, ChainBreak, ChainWalk, StoredEvent
from services.archive.verify import DecodedSegment, check_table, decode_segment, intake_break
from services.events.canonical import GENESIS_HASH
from tests.unit.archive.support import run, simulated_log

TABLE = "T1"
Found = tuple[str, int | None, str | None, int | None]  # kind, seq, event id, seq before


def digest(seq: int, variant: str = "") -> str:
    """A stand-in hash (64 characters): the walk only compares them."""
    return f"{variant or 'd'}{seq:063d}"


def event(seq: int, variant: str = "", prev_hash: str | None = None) -> StoredEvent:
    """Seq ``seq`` of a clean chain (``variant``: another event at that seq)."""
    prev = prev_hash if prev_hash is not None else (
        GENESIS_HASH if seq == 1 else digest(seq - 1))
    return StoredEvent(seq, f"e{seq}{variant}", prev, digest(seq, variant),
                       "2026-01-05T10:00:00Z", TABLE, None, False)


def linked_in_seq_order(events: Sequence[StoredEvent], before: tuple[int, str] | None,
                        anchors: Sequence[Anchor]) -> list[Found]:
    """The definition: each later arrival at a seq in arrival order (a conflict, or a copy
    when byte for byte the same), then each link in seq order, then the anchors that name
    a linked event with another hash."""
    by_seq: dict[int, StoredEvent] = {}
    found: list[Found] = []
    for e in events:
        if e.seq in by_seq:
            found.append(("conflict" if by_seq[e.seq].hash != e.hash else "copy", e.seq,
                          e.event_id, None))
        by_seq.setdefault(e.seq, e)
    previous = before
    for seq in sorted(by_seq):
        e = by_seq[seq]
        if previous is None and seq > 1:
            found.append(("gap", seq, e.event_id, 0))
        elif previous is None and e.prev_hash != GENESIS_HASH:
            found.append(("genesis", 1, e.event_id, 0))
        elif previous is not None and seq != previous[0] + 1:
            found.append(("gap", seq, e.event_id, previous[0]))
        elif previous is not None and e.prev_hash != previous[1]:
            found.append(("altered", seq, e.event_id, previous[0]))
        previous = (seq, e.hash)
    found += [("anchor", a.last_seq, by_seq[a.last_seq].event_id, None) for a in anchors
              if a.last_seq in by_seq and by_seq[a.last_seq].hash != a.last_hash]
    return found


def walked(events: Sequence[StoredEvent], before: tuple[int, str] | None,
           anchors: Sequence[Anchor], reordered: Sequence[int]) -> tuple[list[Found], int]:
    """The walk's breaks, and the most events it held at once."""
    walk = ChainWalk(TABLE, before, anchors, reordered)
    most = 0
    for e in events:
        walk.arrive(e)
        most = max(most, len(walk.waiting))
    return [short(b) for b in walk.finish()], most


def short(b: ChainBreak) -> Found:
    return b.kind, b.seq, b.event_id, b.previous_seq


@st.composite
def intake_archives(draw: st.DrawFn) -> tuple[list[StoredEvent], tuple[int, str] | None,
                                              list[Anchor], list[int]]:
    """A table's accepted events in arrival order, as an intake could have archived them
    and then some changed: seqs missing, a few arriving late (with their REORDERED alert;
    some such events then removed), events altered, other events at a taken seq, byte
    copies, anchors right and wrong, a span's ``before``."""
    size = draw(st.integers(1, 60))
    start = draw(st.integers(0, 5))
    before = (start, digest(start)) if start else None
    if start and draw(st.booleans()):
        before = (start, digest(start, "x"))
    seqs = [s for s in range(start + 1, start + size + 1)
            if not draw(st.booleans()) or draw(st.integers(0, 9))]
    order = list(seqs)
    reordered: set[int] = set()
    for s in draw(st.lists(st.sampled_from(seqs), max_size=6, unique=True)) if seqs else []:
        at = order.index(s)
        delay = draw(st.integers(1, 12))
        order.insert(min(at + delay, len(order) - 1), order.pop(at))
        reordered.add(s)
    arrivals = [event(s) for s in order]
    for s in draw(st.lists(st.sampled_from(order), max_size=3)) if order else []:
        at = next(i for i, e in enumerate(arrivals) if e.seq == s)
        arrivals[at] = event(s, prev_hash="f" * 64)
    removed = set(draw(st.lists(st.sampled_from(sorted(reordered)), max_size=2))
                  if reordered else [])
    arrivals = [e for e in arrivals if e.seq not in removed]
    for _ in range(draw(st.integers(0, 3))):
        if not arrivals:
            break
        copy_of = draw(st.sampled_from(arrivals))
        at = draw(st.integers(arrivals.index(copy_of) + 1, len(arrivals)))
        other = copy_of if draw(st.booleans()) else event(copy_of.seq, "c")
        arrivals.insert(at, other)
    spurious = draw(st.lists(st.integers(1, start + size + 3), max_size=2))
    anchors = sorted((Anchor(f"h{s}", s, digest(s) if draw(st.booleans()) else "0" * 64)
                      for s in draw(st.lists(st.integers(1, start + size + 2), max_size=5,
                                             unique=True))), key=lambda a: a.last_seq)
    return arrivals, before, anchors, sorted(reordered | set(spurious))


@settings(max_examples=400, deadline=None)
@given(intake_archives())
def test_the_walk_finds_what_linking_in_seq_order_finds(
        archive: tuple[list[StoredEvent], tuple[int, str] | None, list[Anchor], list[int]]
        ) -> None:
    events, before, anchors, reordered = archive
    found, _ = walked(events, before, anchors, reordered)
    assert found == linked_in_seq_order(events, before, anchors)


def test_a_gap_the_intake_did_not_see_filled_is_linked_across_at_once() -> None:
    """Seq 100 lost (no REORDERED alert at it): nothing can fill it, so 101 is linked as
    soon as it arrives and the walk never holds an event."""
    events = [event(s) for s in range(1, 5001) if s != 100]
    found, most = walked(events, None, [], [])
    assert found == [("gap", 101, "e101", 99)] and most == 0


def test_a_gap_an_event_came_late_to_fill_holds_the_events_above_it_until_then() -> None:
    events = [event(s) for s in range(1, 151) if s != 100] + [event(100)] + [
        event(s) for s in range(151, 301)]
    found, most = walked(events, None, [], [100])
    assert found == [] and most == 50
    walk = ChainWalk(TABLE, None, [], [100])
    for e in events:
        walk.arrive(e)
    assert walk.waiting == {}  # all linked before the end


def test_an_event_added_below_the_linked_seqs_without_a_reordered_alert_is_late() -> None:
    """The genuine seq 100 forged into the archive after the stream lost it: linking in
    seq order would close the gap and see nothing; the walk says the intake never took it
    in."""
    events = [event(s) for s in range(1, 201) if s != 100] + [event(100)]
    walk = ChainWalk(TABLE, None, [], [])
    for e in events:
        walk.arrive(e)
    breaks = walk.finish()
    assert [short(b) for b in breaks] == [("late", 100, "e100", None),
                                          ("gap", 101, "e101", 99)]
    assert breaks[0].message == (
        "seq 100 is archived after the chain was linked past it (to seq 200), and the "
        "intake took in no event late at that seq (no REORDERED alert): the archive holds "
        "an event the intake did not accept there")


def test_a_seq_archived_again_long_after_is_late_and_a_recent_one_a_conflict_or_copy(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(chain, "RECENT_SEQS", 8)
    events = [event(s) for s in range(1, 41)] + [event(35, "c"), event(36), event(5, "c"),
                                                 event(6)]
    found, _ = walked(events, None, [], [])
    assert found == [("conflict", 35, "e35c", None), ("copy", 36, "e36", None),
                     ("late", 5, "e5c", None), ("late", 6, "e6", None)]


def test_a_late_event_of_a_gap_before_the_span_is_left_to_that_span() -> None:
    """A span starts after seq 50; seq 48 came late (REORDERED) and was archived on the
    span's first day: it links into the day before, not here."""
    events = [event(s) for s in range(51, 61)] + [event(48)]
    found, _ = walked(events, (50, digest(50)), [], [48])
    assert found == []
    found, _ = walked(events, (50, digest(50)), [], [])
    assert found == [("late", 48, "e48", None)]


def test_anchors_out_of_last_seq_order_are_refused() -> None:
    walk = ChainWalk(TABLE, None, [Anchor("a", 5, digest(5)), Anchor("b", 3, digest(3))], [])
    with pytest.raises(ValueError, match="last_seq order"):
        for s in range(1, 10):
            walk.arrive(event(s))


# ---------------------------------------------------------------- real archives


def decoded_tables(lines: Sequence[bytes]) -> dict[str, tuple[list[DecodedSegment], list[int]]]:
    """Each table's decoded segments in arrival order and its REORDERED seqs."""
    done = run(lines)
    tables: dict[str, tuple[list[DecodedSegment], list[int]]] = {}
    for segment in sorted(done.segments, key=lambda s: (s.table_id, s.head_seq, s.ordinal)):
        tables.setdefault(segment.table_id, ([], []))[0].append(decode_segment(segment))
    for alert in done.alerts:
        found = intake_break(alert.code, alert.seq or 0, alert.message)
        if found is not None and found.reordered:
            tables[alert.table_id][1].append(found.seq)
    return tables


@pytest.mark.parametrize("seed", [10, 25, 31])
def test_hostile_streams_walk_as_they_link_in_seq_order(seed: int) -> None:
    """Hostile-input corpora (late events taken in, refused ones, a misrouted event that
    made the head jump): the walk and the definition agree table by table."""
    from tests.fuzz.corpus import build_corpus

    tables = decoded_tables(build_corpus(seed=seed).mutated)
    late = 0
    for segments, reordered in tables.values():
        events = [e for s in segments for e in s.events if not e.refused]
        found, _ = walked(events, None, [], reordered)
        assert found == linked_in_seq_order(events, None, [])
        late += len(reordered)
    assert late, "some corpus has events that came late"


def test_a_table_is_read_segment_by_segment() -> None:
    """``check_table`` lets each segment go once its events are walked: the segment two
    back is garbage by the time the next one is asked for."""
    table_id, (segments, _) = next(iter(decoded_tables(simulated_log().lines).items()))
    alive: list[weakref.ref[DecodedSegment]] = []

    def fresh() -> Iterator[DecodedSegment]:
        for s in segments:
            if len(alive) >= 2:
                gc.collect()
                assert alive[-2]() is None, f"segment {len(alive) - 2} still held"
            copy = decode_segment(s.segment)
            alive.append(weakref.ref(copy))
            yield copy
            del copy

    assert check_table(table_id, fresh()) == check_table(table_id, segments)
    assert len(alive) == len(segments) > 10
