"""Malformed or contradictory Chinese Poker events: a finding or HandRejected, never a crash.

Each scenario states what is wrong and what the adjudicator must answer.
"""

from __future__ import annotations

import pytest

from services.adjudicator.adjudicate import adjudicate_hand
from services.games.chinese.adjudicate import adjudicate
from services.games.model import HandRejected
from services.simulator.handbuilder import build_hand
from tests.profiles import HOUSE, PROFILES
from tests.unit.chinese.scenario import config, hand_events, make_hand, outcome, pay

A = ("Qh Qd 2s", "Ac Ad 3s 4d 5h", "5c 6c 7c 8c 9c")
B = ("Ah Kd 3c", "2h 2d 6d 7d 8s", "Tc Td Th Js Jd")


def test_cp1_seat_listed_twice_in_hand_started_is_rejected() -> None:
    """hand_started lists seat 2 twice with stacks 1000 and 5: which stack caps seat 2's
    winnings (CP-10) cannot be told, so the hand cannot be adjudicated."""
    events = hand_events({1: A, 2: B})
    events[0][1]["seats"].append({"seat": 2, "player_id": "P9", "stack": 5})
    with pytest.raises(HandRejected) as rejected:
        adjudicate(build_hand(config(), events), HOUSE)
    assert rejected.value.rule == "CP-1"
    assert "seat 2" in str(rejected.value)


def test_cp1_seat_outside_the_four_seats_is_rejected() -> None:
    """CP-1: a Chinese Poker table has four seats (1-4) and one 52-card deck of 4 x 13
    cards; a hand dealt to seat 9 cannot belong to it."""
    with pytest.raises(HandRejected) as rejected:
        outcome({1: A, 9: B})
    assert rejected.value.rule == "CP-1"
    assert "seat 9" in str(rejected.value)


def test_cp1_button_outside_the_four_seats_is_rejected() -> None:
    """The button on seat 7 of a four-seat table: no payment order (CP-10) or rake payer
    (GEN-10) can be derived from it."""
    with pytest.raises(HandRejected) as rejected:
        outcome({1: A, 2: B}, button=7)
    assert rejected.value.rule == "CP-1"


def test_record_for_a_rejected_hand_says_why() -> None:
    """Through the adjudicator the rejection is a record with status rejected, not a crash."""
    record = adjudicate_hand(make_hand({1: A, 9: B}, payments=[pay(9, 1, 11)]), PROFILES)
    assert record.status == "rejected"
    assert [f.rule for f in record.findings] == ["CP-1"]


def test_cp1_second_hand_started_is_rejected() -> None:
    """Two hand_started events in one hand (the second deals in seats 1 and 3 with 3 chips
    each): who was dealt in, with what stack, is contradictory."""
    events = hand_events({1: A, 2: B})
    events.insert(1, ("hand_started", {
        "button": 2, "designated_player": None, "dealer_id": "D1", "deck": 52,
        "seats": [{"seat": 1, "player_id": "P1", "stack": 3},
                  {"seat": 3, "player_id": "P3", "stack": 3}]}))
    with pytest.raises(HandRejected) as rejected:
        adjudicate(build_hand(config(), events), HOUSE)
    assert rejected.value.rule == "CP-1"
    assert "hand_started" in str(rejected.value)
