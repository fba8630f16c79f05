"""GEN-3/GEN-4/GEN-5 as the table assembles hands: table-level events inside a hand.

Table-level events (``hand_id`` null) that arrive between ``hand_started`` and
``hand_ended`` belong to the hand; the same events between hands do not.
"""

from __future__ import annotations

import random

import orjson

from services.adjudicator.embedded import adjudicate_lines
from services.events.contract import AdjudicationRecord
from services.simulator.handbuilder import table_config
from services.simulator.stream import TableStream

HID = "T1-000001"


def _records(between: list[tuple[str, dict]], during: list[tuple[str, dict]]  # type: ignore[type-arg]
             ) -> list[AdjudicationRecord]:
    """One tiny HCF hand (seat 1 antes 5 and folds, the DP seat 3 collects it), with
    ``between`` events before hand_started and ``during`` events after the ante."""
    s = TableStream("T1", random.Random(3))
    s.emit("table_configured", table_config("hcf"))
    s.emit("player_seated", {"seat": 1, "player_id": "P1", "stack": 100})
    s.emit("player_seated", {"seat": 3, "player_id": "P3", "stack": 100})
    for type_, data in between:
        s.emit(type_, data)
    s.emit("hand_started", {"button": 3, "designated_player": 3, "dealer_id": "D1",
                            "seats": [{"seat": 1, "player_id": "P1", "stack": 100},
                                      {"seat": 3, "player_id": "P3", "stack": 100}],
                            "deck": 52}, HID)
    s.emit("wager", {"seat": 1, "kind": "ante", "amount": 5}, HID)
    for type_, data in during:
        s.emit(type_, data)
    s.emit("card_dealt", {"to": "seat", "seat": 1, "card": "As", "face_up": False}, HID)
    s.emit("action", {"seat": 1, "action": "fold"}, HID)
    s.emit("wager_collected", {"seat": 1, "kind": "ante", "amount": 5, "to": "designated"},
           HID)
    s.emit("hand_ended", {}, HID)
    out: list[AdjudicationRecord] = []
    for step in adjudicate_lines(orjson.dumps(e) for e in s.events):
        out.extend(step.records)
    return out


def _gen_codes(record: AdjudicationRecord) -> list[tuple[str, str]]:
    return [(f.code, f.rule) for f in record.findings if f.rule.startswith("GEN-")]


def test_chips_changed_between_hands_is_no_finding() -> None:
    """GEN-3 is about chips in or out DURING a hand; a buy-in before it is fine."""
    [record] = _records([("chips_changed", {"seat": 1, "amount": 50, "kind": "add"})], [])
    assert _gen_codes(record) == []


def test_chips_changed_during_the_hand_is_gen3_and_cash_gen4() -> None:
    """hand_id null, but between hand_started and hand_ended: the hand's findings."""
    [record] = _records([], [("chips_changed", {"seat": 1, "amount": 50, "kind": "add"}),
                             ("chips_changed", {"seat": 1, "amount": 10,
                                                "kind": "cash_in_play"})])
    assert _gen_codes(record) == [("CHIPS_DURING_HAND", "GEN-3"), ("CASH_IN_PLAY", "GEN-4")]
    assert record.status == "discrepancy"


def test_unauthorised_reconfiguration_during_the_hand_is_gen5_twice() -> None:
    """GEN-5: table_configured with no authorized_by in the middle of the hand: the
    configuration changed during the hand, and the hand ends under a configuration
    nobody authorised. Both findings, critical; the hand is not ok."""
    [record] = _records([], [("table_configured", table_config("hcf", authorized_by=None))])
    assert _gen_codes(record) == [("CONFIG_CHANGED_DURING_HAND", "GEN-5"),
                                  ("UNAUTHORISED_CONFIGURATION", "GEN-5")]
    assert record.status == "discrepancy"
