"""TH-7: an extra hole card to the first player.

Reference hand (scenario.py). After the deal (1 2 3 1 2 3) the dealer gives seat 1 (the
first player) one more card, 5h. Correct: 5h goes back and is the burn card, so the flop
comes with no fresh burn (or 5h goes back to the deck and is burned at the flop). The
settlement is unchanged: +4 / -4 / 0.
"""

from __future__ import annotations

from tests.unit.holdem import scenario as s
from tests.unit.holdem.builder import (
    Part,
    adjudicate,
    blinds,
    board,
    card,
    codes,
    deal,
    misdeal,
    moved,
    payout,
    street,
)


def after_the_deal(flop: Part) -> list[Part]:
    return [*s.preflop(), flop, *s.flop_betting(), street(s.TURN), *s.checks(),
            street(s.RIVER), *s.checks(), *s.ending()]


def dealt_with_extra() -> list[Part]:
    return [blinds(1, 2), deal(s.CARDS, s.BUTTON), card(1, "5h")]


def test_extra_card_becomes_the_burn() -> None:
    record = adjudicate(s.STACKS, s.BUTTON, *dealt_with_extra(), moved("5h", "seat:1", "burn"),
                        *after_the_deal(board(*s.FLOP)))
    assert record.status == "ok", record.findings


def test_extra_card_returned_to_the_deck_and_burned_at_the_flop() -> None:
    record = adjudicate(s.STACKS, s.BUTTON, *dealt_with_extra(), moved("5h", "seat:1", "stub"),
                        *after_the_deal(street(*s.FLOP, burned="5h")))
    assert record.status == "ok", record.findings


def test_extra_card_returned_but_another_card_burned() -> None:
    record = adjudicate(s.STACKS, s.BUTTON, *dealt_with_extra(), moved("5h", "seat:1", "stub"),
                        *after_the_deal(street(*s.FLOP, burned="6d")))
    assert codes(record) == [("EXTRA_CARD_NOT_BURNED", "TH-7")]


def test_extra_card_taken_to_the_burn_and_a_fresh_burn_as_well() -> None:
    record = adjudicate(s.STACKS, s.BUTTON, *dealt_with_extra(), moved("5h", "seat:1", "burn"),
                        *after_the_deal(street(*s.FLOP)))
    assert codes(record) == [("EXTRA_CARD_NOT_BURNED", "TH-7")]


def test_extra_card_kept_makes_the_hand_dead_at_the_showdown() -> None:
    """Seat 1 kept three hole cards: TH-7 finding, and (reading irregular_hand_dead) its
    hand cannot win: seat 2's kings take the pot of 8 (seat 2 +4, seat 1 -4). The table
    paid seat 1: MISPAY +8 for seat 1 and -8 for seat 2, citing TH-9."""
    record = adjudicate(s.STACKS, s.BUTTON, *dealt_with_extra(),
                        *after_the_deal(street(*s.FLOP)))
    assert ("EXTRA_CARD_NOT_BURNED", "TH-7") in codes(record)
    assert record.expected is not None
    assert record.expected.net == {"1": -4, "2": 4, "3": 0, "house": 0}
    mispays = sorted((f.seat, f.amount, f.rule) for f in record.findings if f.code == "MISPAY")
    assert mispays == [(1, 8, "TH-9"), (2, -8, "TH-9")]


def test_two_extra_cards_and_misdeal_declared() -> None:
    record = adjudicate(s.STACKS, s.BUTTON, *dealt_with_extra(), card(2, "6h"), misdeal(),
                        payout(1, 1, "refund"), payout(2, 2, "refund"))
    assert record.status == "dead"
    assert record.findings == []


def test_two_extra_cards_but_hand_played_on() -> None:
    record = adjudicate(s.STACKS, s.BUTTON, *dealt_with_extra(), card(2, "6h"),
                        moved("5h", "seat:1", "burn"), moved("6h", "seat:2", "stub"),
                        *after_the_deal(street(*s.FLOP)))
    assert codes(record) == [("MISDEAL_REQUIRED", "TH-7")]


def test_misdeal_declared_for_a_single_extra_card() -> None:
    record = adjudicate(s.STACKS, s.BUTTON, *dealt_with_extra(), misdeal(),
                        payout(1, 1, "refund"), payout(2, 2, "refund"))
    assert codes(record) == [("MISDEAL_NOT_REQUIRED", "TH-7")]


def test_wrong_card_taken_back() -> None:
    """Seat 1 got 5h extra but the dealer took back As: TH-7 not done, and a card that was
    neither exposed nor extra was removed."""
    record = adjudicate(s.STACKS, s.BUTTON, *dealt_with_extra(), moved("As", "seat:1", "burn"),
                        *after_the_deal(board(*s.FLOP)))
    found = codes(record)
    assert ("EXTRA_CARD_NOT_BURNED", "TH-7") in found
    assert ("WRONG_CARD_REMOVED", "TH-7") in found


def test_extra_card_returned_then_a_second_extra_card() -> None:
    """Seat 1 gets 5h extra, the dealer takes it to the burn, then gives seat 1 another
    extra card 6h (and takes it back too). Seat 1 already had its two cards, so 6h is not
    a replacement: two extra cards were dealt, and TH-7 requires a misdeal. The hand was
    played on: MISDEAL_REQUIRED (TH-7), and no WRONG_CARD_REMOVED (6h was an extra card)."""
    record = adjudicate(s.STACKS, s.BUTTON, *dealt_with_extra(), moved("5h", "seat:1", "burn"),
                        card(1, "6h"), moved("6h", "seat:1", "burn"),
                        *after_the_deal(board(*s.FLOP)))
    found = codes(record)
    assert ("MISDEAL_REQUIRED", "TH-7") in found
    assert ("WRONG_CARD_REMOVED", "TH-7") not in found
