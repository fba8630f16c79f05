"""The packed per-table state (memory bound, architecture.md): the open hand's events and
the duplicate window are kept as bytes, and must give back exactly what was fed in."""

from __future__ import annotations

import copy
import random

import orjson

from services.adjudicator.embedded import EmbeddedRunner, adjudicate_lines
from services.adjudicator.intake import ParsedEvent, parse_record
from services.adjudicator.table import (
    TableState,
    apply_event,
    decode_state,
    encode_state,
)
from services.events.contract import Event
from services.simulator.handbuilder import table_config
from services.simulator.stream import TableStream
from tests.unit.core.streams import hcf_stream, lines


def parsed(raw: bytes) -> ParsedEvent:
    result = parse_record(raw, "test")
    assert isinstance(result, ParsedEvent)
    return result


def mixed_open_hand() -> list[bytes]:
    """An HCF hand left open, with the envelope fields the packing leaves out varied:
    a table-level event inside the hand (``hand_id`` null), another source, and two
    card events (the card strings are the body, packed as they are)."""
    s = TableStream("T9", random.Random(5))
    s.emit("table_configured", table_config("hcf"))
    s.emit("player_seated", {"seat": 1, "player_id": "P1", "stack": 100})
    s.emit("player_seated", {"seat": 3, "player_id": "P3", "stack": 100})
    hid = "T9-000001"
    s.emit("hand_started", {"button": 3, "designated_player": 3, "dealer_id": "D1",
                            "seats": [{"seat": 1, "player_id": "P1", "stack": 100},
                                      {"seat": 3, "player_id": "P3", "stack": 100}],
                            "deck": 52}, hid)
    s.emit("wager", {"seat": 1, "kind": "ante", "amount": 5}, hid, source="cage-terminal")
    s.emit("dealer_changed", {"dealer_id": "D2"})
    s.emit("card_dealt", {"to": "seat", "seat": 1, "card": "As", "face_up": False}, hid)
    s.emit("card_dealt", {"to": "burn", "card": None, "face_up": False}, hid)
    return [orjson.dumps(e) for e in s.events]


def test_open_hand_gives_back_the_events_it_was_fed_field_for_field() -> None:
    raw = mixed_open_hand()
    state = TableState(table_id="T9")
    for line in raw:
        apply_event(state, parsed(line))
    assert state.open_hand is not None
    expected: list[Event] = [parsed(line).event for line in raw[3:]]
    assert list(state.open_hand.events) == expected
    assert [e.source for e in state.open_hand.events] == [
        "dealer-terminal", "cage-terminal", "dealer-terminal", "dealer-terminal",
        "dealer-terminal"]
    assert [e.hand_id for e in state.open_hand.events] == [
        "T9-000001", "T9-000001", None, "T9-000001", "T9-000001"]


def test_state_round_trips_through_the_changelog_encoding_mid_hand() -> None:
    """A state stored mid-hand and restored gives the same records as one never stored."""
    raw = lines(hcf_stream(hands=2))
    straight = [r for step in adjudicate_lines(raw) for r in step.records]
    cut = 6  # configured, 2 seated, hand_started, wager, card_dealt: hand 1 open
    state = TableState(table_id="T1")
    for line in raw[:cut]:
        apply_event(state, parsed(line))
    restored = decode_state(encode_state(state))
    assert restored == state
    records = []
    for line in raw[cut:]:
        records += apply_event(restored, parsed(line)).records
    assert [r.hand_id for r in records] == ["T1-000001", "T1-000002"]
    assert records == straight


def test_changed_body_under_a_remembered_id_is_a_conflict_not_a_duplicate() -> None:
    events = hcf_stream()
    twin = copy.deepcopy(events[5])  # seq 6, the card_dealt of hand 1
    twin["data"]["card"] = "Kd"
    runner = EmbeddedRunner()
    for line in lines(events):
        runner.feed(line, "x")
    assert [a.code for a in runner.feed(orjson.dumps(twin), "y").alerts] == [
        "EVENT_ID_CONFLICT"]
