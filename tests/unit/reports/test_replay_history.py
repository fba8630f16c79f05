"""A report's replay of a hand late in its table's life: the table's history before the
wanted hands goes through the native core in bulk (``services.reports.replay``'s
``_history_fed``), the hands' span event by event. What the report shows must be what the
reference's event-by-event replay from the table's first event shows."""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from sqlalchemy import Engine

from services.adjudicator.embedded import adjudicate_lines
from services.adjudicator.intake import Rejection, parse_record
from services.archive.segment import event_lines
from services.events.canonical import canonical_json
from services.events.contract import encode_record
from services.reports.archived import tables_of, through_hand
from services.reports.replay import (
    ArchivedEvents,
    Events,
    replay_hand,
    replay_hands,
)
from tests.profiles import PROFILES
from tests.unit.archive.support import (
    keep,
    lines_through_hand,
    run,
    same_replay,
    simulated_log,
)
from tests.unit.reports.logs import GAMES, lines_of, simulated


def _replays_as_the_reference(source: Events, lines: list[bytes], hand_ids: list[str]
                              ) -> None:
    """The hands from ``source`` with the native engine, one by one and together, are the
    reference's event-by-event replay of ``lines`` (the same events as a log)."""
    for hand_id in hand_ids:
        same_replay(replay_hand(source, hand_id, PROFILES, "native"),
              replay_hand(lines, hand_id, PROFILES, "python"))
    together = replay_hands(source, hand_ids, PROFILES, "native")
    reference = replay_hands(lines, hand_ids, PROFILES, "python")
    assert sorted(together) == sorted(reference) == sorted(hand_ids)
    for hand_id in hand_ids:
        same_replay(together[hand_id], reference[hand_id])


@pytest.mark.parametrize("game", GAMES)
def test_late_hands_replay_as_the_reference_replays_them(game: str) -> None:
    """Fault-injected logs of every game (refused lines, chain breaks, mispays among the
    history): the last hands of a table, one by one and together, give the reference's
    records, spans, anchors, decision paths and refused lines."""
    events, records = simulated(game, hands=40, tables=2)
    lines = lines_of(events)
    late = [r.hand_id for r in records if r.table_id == records[-1].table_id][-3:]
    _replays_as_the_reference(lines, lines, late)


def test_refused_lines_of_the_history_are_named_with_the_intake_reason() -> None:
    """Three lines the intake refuses, put into a clean table's history by hand (lines 3,
    10 and 21 of the log): line 3 is not JSON, so it names no table and no table's report
    names it; line 10 has an unknown type, line 21 names a hand with a list (JSON allows
    it, no hand id is one). The report of a hand long after them names exactly lines 10
    and 21, each with the reason the intake gives it, and the hand's record is the one
    ``pitwatch adjudicate`` wrote for the clean log (the refused lines change nothing)."""
    events, _ = simulated("hcf", hands=30, faulty=False, tables=1)
    clean = lines_of(events)
    wanted = orjson.loads(clean[-5])["hand_id"]
    table = orjson.loads(clean[0])["table_id"]
    refused = {
        3: b'{"table_id": "' + table.encode() + b'", "type": "hand_started", "seq": ',
        10: orjson.dumps({**orjson.loads(clean[8]), "type": "no_such_event"}),
        21: orjson.dumps({"table_id": table, "hand_id": ["not", "an", "id"]}),
    }
    lines = list(clean)
    for number in sorted(refused):
        lines.insert(number - 1, refused[number])
    expected = [r for step in adjudicate_lines(clean, PROFILES) for r in step.records
                if r.hand_id == wanted]
    replay = replay_hand(lines, wanted, PROFILES, "native")
    reasons = []
    for number in (10, 21):
        parsed = parse_record(lines[number - 1], f"line {number}")
        assert isinstance(parsed, Rejection)
        reasons.append(f"line {number}: {parsed.reason}")
    assert replay.rejected_lines == reasons
    assert replay.record is not None
    assert [encode_record(replay.record)] == [encode_record(r) for r in expected]
    # The span starts after the history: every event of the hand, and the line before it.
    assert replay.events and {e.event.hand_id for e in replay.events} == {wanted}
    assert replay.before is not None and replay.before.event.hand_id != wanted
    assert replay.before.line == replay.events[0].line - 1


def test_a_hand_id_that_is_not_a_string_does_not_stop_the_replay() -> None:
    """A line naming a hand with a JSON object (unhashable in Python) was a TypeError
    while the log was split by table; it is a refused line like any other."""
    events, records = simulated("hcf", hands=6, faulty=False, tables=1)
    lines = lines_of(events)
    lines.insert(2, orjson.dumps({"table_id": records[0].table_id, "hand_id": {"a": 1}}))
    replay = replay_hand(lines, records[-1].hand_id, PROFILES, "native")
    assert replay.record is not None
    assert [r.split(":")[0] for r in replay.rejected_lines] == ["line 3"]


def test_the_history_is_not_parsed_event_by_event(monkeypatch: pytest.MonkeyPatch) -> None:
    """The point of the bulk path: for the last hand of a 30-hand table, Python's intake
    parses the hand's span, its anchors and the table's events after it (the event by
    event replay, as before), not the ~2,500 events before it."""
    import services.reports.replay as replay_module

    events, records = simulated("hcf", hands=30, faulty=False, tables=1)
    lines = lines_of(events)
    calls = 0

    def counted(raw: bytes, where: str) -> object:
        nonlocal calls
        calls += 1
        return parse_record(raw, where)

    monkeypatch.setattr(replay_module, "parse_record", counted)
    replay = replay_hand(lines, records[-1].hand_id, PROFILES, "native")
    assert replay.record is not None
    assert len(replay.events) <= calls < len(lines) // 10


# ---------------------------------------------------------------- from the event archive


def archived(events: Any) -> ArchivedEvents:
    """The log as the archive keeps it: each table's segment bodies (canonical JSON lines),
    read through a generator as the database's are."""
    done = run(lines_of(events))
    bodies: dict[str, list[bytes]] = {}
    for segment in sorted(done.segments, key=lambda s: (s.table_id, s.head_seq, s.ordinal)):
        bodies.setdefault(segment.table_id, []).append(
            b"\n".join(event_lines(segment.codec, segment.body)))
    return ArchivedEvents(tuple(sorted(bodies)), lambda table, _after: iter(bodies[table]))


@pytest.mark.parametrize("game", GAMES)
def test_archived_tables_replay_as_the_reference_replays_their_lines(game: str) -> None:
    """Every game, every fault kind, archived: the last hands of each table read from the
    archive's bodies as a stream (history fed as it comes) give what the reference's
    event-by-event replay gives over the same lines, one hand at a time and together."""
    events, records = simulated(game, hands=40, tables=2)
    source = archived(events)
    lines = source.lines()
    late = [r.hand_id for table in source.tables
            for r in [r for r in records if r.table_id == table][-2:]]
    _replays_as_the_reference(source, lines, late)


def test_an_archived_tables_history_is_fed_not_held(monkeypatch: pytest.MonkeyPatch) -> None:
    """The last hand of a 30-hand archived table: all but the hand's span (and the events
    after it) goes to the bulk history as the bodies are read."""
    from services.archive.history import BulkHistory

    events, records = simulated("hcf", hands=30, faulty=False, tables=1)
    source = archived(events)
    fed = 0
    original = BulkHistory.feed

    def counted(self: Any, lines: Any) -> None:
        nonlocal fed
        fed += len(lines)
        original(self, lines)

    monkeypatch.setattr(BulkHistory, "feed", counted)
    replay = replay_hand(source, records[-1].hand_id, PROFILES, "native")
    assert replay.record is not None and replay.before is not None
    assert fed == replay.before.line - 1  # every line before the span's anchor, no other
    assert fed > 0.9 * len(source.lines())


def test_a_hand_read_from_the_database_as_a_stream_is_the_reference_replay(
        engine: Engine) -> None:
    """SQLite and PostgreSQL (a server-side cursor there): ``through_hand`` reads the
    hand's table as the replay consumes it; its replay is the reference's over the lines
    the archive holds through the hand (``lines_through_hand``, the same reader's lines
    held whole; ``tests/unit/archive/test_writer.py`` holds them to the input log)."""
    lines = simulated_log().lines
    keep(engine, lines)
    ended = [orjson.loads(line)["hand_id"] for line in lines
             if orjson.loads(line)["type"] == "hand_ended"]
    for hand_id in (ended[-1], ended[len(ended) // 2]):
        source = through_hand(engine, hand_id)
        held = lines_through_hand(engine, hand_id)
        assert source is not None and held is not None
        reference = replay_hand(held, hand_id, PROFILES, "python")
        same_replay(replay_hand(source, hand_id, PROFILES, "native"), reference)
        # The reference engine reads the archived source as a log, whole.
        same_replay(replay_hand(source, hand_id, PROFILES, "python"), reference)
    assert through_hand(engine, "no-such-hand") is None


def test_the_daily_reports_tables_are_read_through_their_last_review_hand(
        engine: Engine) -> None:
    """``tables_of``: each table's events from its first through the last of the given
    hands it holds and one event after, not the table's later events (from the input
    log, as canonical JSON); a table none of the hands was played at is not read."""
    lines = simulated_log(faults=False).lines
    keep(engine, lines)
    events = [orjson.loads(line) for line in lines]
    by_table: dict[str, list[dict[str, Any]]] = {}
    for event in events:
        by_table.setdefault(event["table_id"], []).append(event)
    t1, t2 = sorted(by_table)[:2]
    early = [e["hand_id"] for e in by_table[t1] if e["type"] == "hand_ended"][3]
    later = [e["hand_id"] for e in by_table[t1] if e["type"] == "hand_ended"][7]
    other = [e["hand_id"] for e in by_table[t2] if e["type"] == "hand_ended"][1]
    source = tables_of(engine, [later, other, early, "no-such-hand"])
    assert source is not None and source.tables == (t1, t2)

    def through(table: str, hand_id: str) -> list[bytes]:
        last = max(i for i, e in enumerate(by_table[table]) if e["hand_id"] == hand_id)
        return [canonical_json(e) for e in by_table[table][:last + 2]]

    assert source.lines() == through(t1, later) + through(t2, other)
    assert tables_of(engine, ["no-such-hand"]) is None
