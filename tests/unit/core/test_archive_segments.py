"""The archive segments a table cuts: every parsed event exactly once, in arrival order,
as its canonical bytes; a replay of the segments gives the run's records again.

Expected values come from intake alone (``parse_record`` of each input line: the event's
table, canonical bytes and hash), never from the segment code.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterable

import msgspec
import pytest

from services.adjudicator import archiving
from services.adjudicator.embedded import EmbeddedRunner, StepResult
from services.adjudicator.intake import ParsedEvent, parse_record
from services.adjudicator.segments import Segment
from services.events.canonical import canonical_json
from services.events.contract import encode_record
from services.events.stream import TableStream
from tests.fuzz.corpus import build_corpus
from tests.profiles import PROFILES
from tests.unit.core.streams import hcf_stream, lines


def run(log: Iterable[bytes]) -> list[StepResult]:
    runner = EmbeddedRunner(PROFILES, archive=True)
    steps = [runner.feed(raw, f"line {n}") for n, raw in enumerate(log, start=1)]
    return [*steps, runner.finish()]


def segments_of(steps: list[StepResult]) -> list[Segment]:
    return [segment for step in steps for segment in step.archive]


def parsed_by_table(log: Iterable[bytes]) -> dict[str, list[ParsedEvent]]:
    """Each table's parsed records in input order: what its archive must hold."""
    tables: dict[str, list[ParsedEvent]] = {}
    for raw in log:
        parsed = parse_record(raw, "line")
        if isinstance(parsed, ParsedEvent):
            tables.setdefault(parsed.event.table_id, []).append(parsed)
    return tables


def archived_by_table(segments: list[Segment]) -> dict[str, list[bytes]]:
    """Each table's archived events, segments in (head_seq, ordinal) order."""
    tables: dict[str, list[Segment]] = {}
    for segment in segments:
        tables.setdefault(segment.table_id, []).append(segment)
    return {table: [e.canonical for s in sorted(group, key=lambda s: (s.head_seq, s.ordinal))
                    for e in s.events]
            for table, group in tables.items()}


def test_two_hands_give_a_run_before_the_first_and_one_segment_per_hand() -> None:
    """``hcf_stream``: table_configured and two player_seated (3 events), then two hands
    of 6 events each; no events after the last hand."""
    events = hcf_stream("T1", hands=2)
    segments = segments_of(run(lines(events)))
    assert [(s.hand_id, len(s.events)) for s in segments] == [
        (None, 3), ("T1-000001", 6), ("T1-000002", 6)]
    assert [e.canonical for s in segments for e in s.events] == [canonical_json(e) for e in events]
    assert [(s.head_seq, s.ordinal) for s in segments] == [(1, 0), (4, 3), (10, 9)]
    assert not any(e.refused for s in segments for e in s.events)


def test_events_after_the_last_hand_are_archived_at_the_end_of_the_input() -> None:
    s = TableStream("T1", random.Random(3))
    for e in hcf_stream("T1", hands=1):
        s.emit(e["type"], e["data"], e["hand_id"])
    s.emit("player_left", {"seat": 1, "player_id": "P1", "stack": 95})
    steps = run(lines(s.events))
    assert steps[-2].archive == []  # the player_left alone cuts nothing
    (last,) = steps[-1].archive  # the end of the input does
    assert (last.hand_id, [e.seq for e in last.events]) == (None, [10])


def test_a_duplicate_is_archived_flagged_and_a_hand_keeps_its_order() -> None:
    """The ante (seq 5) delivered twice inside hand 1: the copy is refused by the chain
    check and kept in the hand's segment at its place of arrival."""
    events = hcf_stream("T1", hands=1)
    log = lines(events)
    log.insert(5, log[4])  # after the ante, the ante again
    (_, hand) = segments_of(run(log))
    assert [e.seq for e in hand.events] == [4, 5, 5, 6, 7, 8, 9]
    assert [e.refused for e in hand.events] == [False, False, True, False, False, False, False]


def test_a_long_run_between_hands_is_cut_at_its_bound() -> None:
    s = TableStream("T1", random.Random(1))
    for n in range(archiving.MAX_RUN_EVENTS * 2 + 5):
        s.emit("dealer_changed", {"dealer_id": f"D{n}"})
    segments = segments_of(run(lines(s.events)))
    assert [len(x.events) for x in segments] == [archiving.MAX_RUN_EVENTS,
                                                 archiving.MAX_RUN_EVENTS, 5]
    assert [x.ordinal for x in segments] == [0, archiving.MAX_RUN_EVENTS,
                                             2 * archiving.MAX_RUN_EVENTS]


def test_explicit_defaults_keep_the_bytes_the_record_was_hashed_as() -> None:
    """The fold with its default ``"amount": null`` written out: re-encoding the packed
    event would drop the member, so the hand keeps the canonical bytes of the record."""
    events = hcf_stream("T1", hands=1)
    events[6]["data"]["amount"] = None
    log = lines(events)
    parsed = parse_record(log[6], "line 7")
    assert isinstance(parsed, ParsedEvent) and not parsed.reencodes
    hand = segments_of(run(log))[1]
    assert hand.events[3].canonical == canonical_json(events[6])
    assert b'"amount":null' in hand.events[3].canonical
    assert hashlib.sha256(hand.events[3].canonical).hexdigest() == parsed.hash


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_hostile_input_every_parsed_event_once_in_arrival_order(seed: int) -> None:
    """The fuzzing corpus (moved, removed, repeated, damaged records and junk): per table,
    the segments in (head_seq, ordinal) order hold exactly the records intake parsed, in
    input order, byte for byte their canonical JSON, each hashing to its parsed hash."""
    corpus = build_corpus(seed, tables_per_game=1, hands=12)
    expected = parsed_by_table(corpus.mutated)
    segments = segments_of(run(corpus.mutated))
    archived = archived_by_table(segments)
    assert archived == {t: [p.canonical for p in ps] for t, ps in expected.items()}
    for table, parsed in expected.items():
        assert [hashlib.sha256(c).hexdigest() for c in archived[table]] == [
            p.hash for p in parsed]


@pytest.mark.parametrize("seed", [4, 5])
def test_replaying_the_archive_gives_the_same_records_and_alerts(seed: int) -> None:
    """The archive as the only input: a fresh run over every table's archived events (in
    archive order) gives the records and alerts of the run that cut them, byte for byte."""
    corpus = build_corpus(seed, tables_per_game=1, hands=12)
    steps = run(corpus.mutated)
    archived = archived_by_table(segments_of(steps))
    again = run([c for table in sorted(archived) for c in archived[table]])

    def records(ss: list[StepResult]) -> dict[str, bytes]:
        return {r.hand_id: encode_record(r) for s in ss for r in s.records}

    def alerts(ss: list[StepResult]) -> list[bytes]:
        return sorted(msgspec.json.encode(a) for s in ss for a in s.alerts)

    assert records(again) == records(steps)
    assert alerts(again) == alerts(steps)

    def in_order(ss: list[StepResult]) -> list[Segment]:
        return sorted(segments_of(ss), key=lambda s: (s.table_id, s.head_seq, s.ordinal))

    assert in_order(again) == in_order(steps)
