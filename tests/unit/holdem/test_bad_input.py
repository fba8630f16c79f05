"""Contradictory events of a hold'em hand give a finding with a message, never an
exception, and never change how the seats dealt in are judged."""

from __future__ import annotations

from tests.unit.holdem import scenario as s
from tests.unit.holdem.builder import (
    act,
    adjudicate,
    blinds,
    board,
    card,
    codes,
    deal,
    exposed,
    moved,
    payout,
    show,
    street,
)

REPLACED = {1: ["As", "Ad"], 2: ["Ks", "Kd"], 3: ["7h", "2c"]}


def test_exposure_reported_for_a_seat_not_dealt_in() -> None:
    """Kc (seat 2) exposed and handled as TH-3 says (deal completed, Kc to the burn, Ks
    dealt, flop without a burn). A card_exposed (dealer error) also names seat 9, which is
    not dealt in: NOT_IN_HAND (TH-1) for seat 9; it is not a second exposed hole card, so
    no misdeal is due and seat 2's correction stands (no TH-3 finding)."""
    cards = deal(s.CARDS, s.BUTTON, face_up=["Kc"])
    record = adjudicate(s.STACKS, s.BUTTON, blinds(1, 2), cards[:4], exposed(9, "5h"),
                        cards[4:], moved("Kc", "seat:2", "burn"), card(2, "Ks"),
                        *s.preflop(), board(*s.FLOP), *s.flop_betting(), street(s.TURN),
                        *s.checks(), street(s.RIVER), *s.checks(), show(1, REPLACED[1]),
                        show(2, REPLACED[2]), payout(1, 8))
    assert codes(record) == [("NOT_IN_HAND", "TH-1")]
    assert record.findings[0].seat == 9


def test_showdown_and_board_declaration_by_a_seat_not_dealt_in() -> None:
    """The reference hand (aces win 8, +4 / -4 / 0) with a showdown record and a
    declare_board action for seat 9, which is not dealt in: one NOT_IN_HAND (TH-1) for
    each; the settlement is unchanged."""
    record = adjudicate(s.STACKS, s.BUTTON, *s.reference_hand(), act(9, "declare_board"),
                        show(9, ["5h", "6h"]))
    assert codes(record) == [("NOT_IN_HAND", "TH-1"), ("NOT_IN_HAND", "TH-1")]
    assert record.expected is not None
    assert record.expected.net == {"1": 4, "2": -4, "3": 0, "house": 0}
