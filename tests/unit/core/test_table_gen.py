"""GEN-3/GEN-4/GEN-5 as the table assembles hands: table-level events inside a hand.

Table-level events (``hand_id`` null) that arrive between ``hand_started`` and
``hand_ended`` belong to the hand; the same events between hands do not.
"""

from __future__ import annotations

import random

import orjson

from services.adjudicator.embedded import adjudicate_lines
from services.events.contract import AdjudicationRecord, Alert
from services.events.stream import TableStream
from services.simulator.handbuilder import table_config
from tests.profiles import PROFILES

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
    return _run(s.events)[0]


def _run(events: list[dict]) -> tuple[list[AdjudicationRecord], list[Alert]]:  # type: ignore[type-arg]
    records: list[AdjudicationRecord] = []
    alerts: list[Alert] = []
    for step in adjudicate_lines((orjson.dumps(e) for e in events), PROFILES):
        records.extend(step.records)
        alerts.extend(step.alerts)
    return records, alerts


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


def _cash_stream(during_hand: bool) -> list[dict]:  # type: ignore[type-arg]
    """A table where seat 1 puts 20 in cash in play, before the hand or during it."""
    s = TableStream("T1", random.Random(3))
    s.emit("table_configured", table_config("hcf"))
    s.emit("player_seated", {"seat": 1, "player_id": "P1", "stack": 100})
    s.emit("player_seated", {"seat": 3, "player_id": "P3", "stack": 100})
    cash = {"seat": 1, "amount": 20, "kind": "cash_in_play"}
    if not during_hand:
        s.emit("chips_changed", cash)
    s.emit("hand_started", {"button": 3, "designated_player": 3, "dealer_id": "D1",
                            "seats": [{"seat": 1, "player_id": "P1", "stack": 100},
                                      {"seat": 3, "player_id": "P3", "stack": 100}],
                            "deck": 52}, HID)
    if during_hand:
        s.emit("chips_changed", cash)
    s.emit("hand_ended", {}, HID)
    return s.events


def test_cash_in_play_between_hands_is_a_gen4_alert() -> None:
    """GEN-4: cash put in play before the deal (seq 4) would be wagered as cash in the
    next hand; with no hand to carry a finding it is one CASH_IN_PLAY alert (house-v1
    ``cash_in_play_severity`` = warning), and the hand itself has no GEN-4 finding."""
    records, alerts = _run(_cash_stream(during_hand=False))
    assert [(a.code, a.rule, a.severity, a.seq) for a in alerts] == [
        ("CASH_IN_PLAY", "GEN-4", "warning", 4)]
    assert "seat 1 put 20 in cash" in alerts[0].message
    assert ("CASH_IN_PLAY", "GEN-4") not in _gen_codes(records[0])


def test_cash_in_play_during_a_hand_is_the_hand_finding_not_an_alert() -> None:
    records, alerts = _run(_cash_stream(during_hand=True))
    assert [a.code for a in alerts] == []
    assert ("CASH_IN_PLAY", "GEN-4") in _gen_codes(records[0])
