"""Hand assembly keeps the table context the rules need (HCF-2 offers, CP-9 buys, CP-12
new seats, stacks carried from hand to hand)."""

from __future__ import annotations

import random

from services.adjudicator.intake import ParsedEvent, parse_record
from services.adjudicator.table import TableState, apply_event, table_context
from services.events.canonical import event_hash
from services.events.stream import TableStream
from services.games.model import BuyRecord
from services.simulator.handbuilder import table_config
from tests.profiles import PROFILES
from tests.unit.core.streams import hcf_stream, lines


def _feed(state: TableState, raw: list[bytes]) -> None:
    for i, line in enumerate(raw):
        parsed = parse_record(line, f"line {i + 1}")
        assert isinstance(parsed, ParsedEvent)
        apply_event(state, parsed, PROFILES)


def test_buy_history_marks_what_happened_since_the_previous_hand() -> None:
    events = hcf_stream(hands=1)
    state = TableState(table_id="T1")
    _feed(state, lines(events))
    s = TableStream("T1", random.Random(0))  # continue the same table's chain
    s.seq, s.last_hash = events[-1]["seq"], event_hash(events[-1])
    s.emit("chips_changed", {"seat": 1, "amount": 50, "kind": "short_buy"})
    s.emit("chips_changed", {"seat": 1, "amount": -20, "kind": "remove"})
    _feed(state, lines(s.events))
    ctx = table_context(state)
    assert ctx.buys == (
        BuyRecord(1, "seated", 100, 2, since_previous_hand=False),
        BuyRecord(3, "seated", 100, 3, since_previous_hand=False),
        BuyRecord(1, "short_buy", 50, events[-1]["seq"] + 1, since_previous_hand=True),
    )
    # Stack carried: 100, folded the 5 ante in hand 1, +50 short buy, -20 removed.
    assert ctx.seated[1].stack == 125
    assert ctx.new_seats == frozenset()
    assert ctx.previous_button == 3 and ctx.hands_played == 1


def test_offers_and_new_seats_reset_after_each_hand() -> None:
    s = TableStream("T7", random.Random(2))
    s.emit("table_configured", table_config("hcf"))
    s.emit("player_seated", {"seat": 2, "player_id": "P2", "stack": 40})
    s.emit("designated_player_offer", {"seat": 2, "accepted": False})
    state = TableState(table_id="T7")
    _feed(state, lines(s.events))
    ctx = table_context(state)
    assert ctx.designated_offers == ((2, False),)
    assert ctx.new_seats == frozenset({2})
