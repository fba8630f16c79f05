"""The simulator's table-level SURV-2 scenario (``sweetheart``): a dealer who overpays one
player's wins. Checked from the events and the labels, then by adjudication: each labelled
hand is a favourable MISPAY of exactly the labelled amount on the friend's seat."""

from __future__ import annotations

import random
import re

from services.adjudicator.adjudicate import adjudicate_hand
from services.events.contract import HandStartedEvent, WagerEvent
from services.events.stream import TableStream
from services.simulator.hcf import FAULTS, simulate_table
from services.simulator.run import simulate
from tests.profiles import HOUSE, PROFILES
from tests.unit.hcf.streams import simulated


def test_labelled_hands_are_the_friends_wins_overpaid_by_the_sweetheart_dealer() -> None:
    """Table index 0: the sweetheart is D0-1, the friend P0-1 (first seated, seat 1).
    Every label's detail says "overpays P0-1's win by N" with 1 <= N <= the friend's
    Ante; the adjudicator must find a MISPAY of +N on that seat and no other finding
    above info for that seat."""
    hands, labels = simulated(3, 0, 200, frozenset({"sweetheart"}))
    assert len(labels) >= 10  # the scenario is not vacuous
    by_id = {h.hand_id: h for h in hands}
    for label in labels:
        assert (label.fault, label.codes) == (
            "sweetheart", ["MISPAY", "SWEETHEARTING", "PROCEDURE_DRIFT"])
        hand = by_id[label.hand_id]
        started = hand.events[0]
        assert isinstance(started, HandStartedEvent)
        assert started.data.dealer_id == "D0-1"
        seats = {s.seat: s.player_id for s in started.data.seats}
        assert label.seat is not None and seats[label.seat] == "P0-1"
        match = re.search(r"overpays P0-1's win by (\d+)$", label.detail)
        assert match is not None, label.detail
        extra = int(match.group(1))
        ante = next(e.data.amount for e in hand.events if isinstance(e, WagerEvent)
                    and e.data.seat == label.seat and e.data.kind == "ante")
        assert 1 <= extra <= ante
        record = adjudicate_hand(hand, PROFILES)
        serious = [(f.code, f.seat, f.amount) for f in record.findings
                   if f.severity != "info" and f.seat == label.seat]
        assert serious == [("MISPAY", label.seat, extra)], (label, record.findings)


def test_the_friend_stays_and_the_sweetheart_dealer_returns_after_each_relief() -> None:
    stream = TableStream("T0", random.Random(5))
    simulate_table(stream, 400, random.Random(6), frozenset({"sweetheart"}), 0.0, 0, HOUSE)
    left = [e for e in stream.events if e["type"] == "player_left"]
    assert left, "players do leave at this table"
    assert all(e["data"]["player_id"] != "P0-1" for e in left)
    changes = [e["data"]["dealer_id"] for e in stream.events if e["type"] == "dealer_changed"]
    assert len(changes) >= 4
    assert changes[1::2] == ["D0-1"] * len(changes[1::2])  # relief, sweetheart, relief...
    assert "D0-1" not in changes[0::2]


def test_without_the_scenario_no_dealer_returns_and_no_sweetheart_label() -> None:
    """Every other fault selected: the per-hand faults are labelled as before, dealers
    are always new (D0-2, D0-3, ...) and nothing is labelled ``sweetheart``."""
    stream = TableStream("T0", random.Random(5))
    others = frozenset(FAULTS) - {"sweetheart"}
    labels = simulate_table(stream, 400, random.Random(6), others, 0.2, 0, HOUSE)
    assert labels and all(label.fault != "sweetheart" for label in labels)
    changes = [e["data"]["dealer_id"] for e in stream.events if e["type"] == "dealer_changed"]
    assert changes == [f"D0-{n}" for n in range(2, len(changes) + 2)]


def test_the_log_runner_gives_the_scenario_to_the_first_hcf_table_only() -> None:
    """Games alternate russian, hcf: tables T002 and T004 are HCF; only T002 hosts it."""
    log = simulate(["russian", "hcf"], 4, 120, seed=2, faults=frozenset({"sweetheart"}), profile=HOUSE)
    assert log.truth
    assert {label.table_id for label in log.truth} == {"T002"}
