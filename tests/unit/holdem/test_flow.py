"""TH-1 (flow: deal, burns, streets, blinds) and TH-2 (best five of seven)."""

from __future__ import annotations

from tests.unit.holdem import scenario as s
from tests.unit.holdem.builder import (
    acts,
    adjudicate,
    blinds,
    board,
    burn,
    card,
    codes,
    config,
    deal,
    payout,
    show,
    street,
)


def test_reference_hand_is_ok() -> None:
    """Aces beat kings; seat 1 wins the pot of 8 (scenario docstring): +4 / -4 / 0."""
    record = adjudicate(s.STACKS, s.BUTTON, *s.reference_hand())
    assert record.status == "ok", record.findings
    assert record.expected is not None
    assert record.expected.net == {"1": 4, "2": -4, "3": 0, "house": 0}
    assert record.findings == []


def test_missing_burn_before_the_turn() -> None:
    """The turn dealt straight after the flop betting, with no burn: TH-1."""
    record = adjudicate(s.STACKS, s.BUTTON, blinds(1, 2), deal(s.CARDS, s.BUTTON), *s.preflop(),
                        street(*s.FLOP), *s.flop_betting(), board(s.TURN), *s.checks(),
                        street(s.RIVER), *s.checks(), *s.ending())
    assert codes(record) == [("MISSING_BURN", "TH-1")]
    assert record.status == "discrepancy"


def test_two_burns_before_the_river() -> None:
    record = adjudicate(s.STACKS, s.BUTTON, blinds(1, 2), deal(s.CARDS, s.BUTTON), *s.preflop(),
                        street(*s.FLOP), *s.flop_betting(), street(s.TURN), *s.checks(),
                        burn(), street(s.RIVER), *s.checks(), *s.ending())
    assert codes(record) == [("EXTRA_BURN", "TH-1")]
    assert record.findings[0].amount == 1


def test_deal_out_of_order_is_reported_once() -> None:
    """Dealt 2 1 3 1 2 3 instead of 1 2 3 1 2 3: the first card went to the wrong seat."""
    cards = [card(2, "Kc"), card(1, "As"), card(3, "7h"), card(1, "Ad"), card(2, "Kd"),
             card(3, "2c")]
    record = adjudicate(s.STACKS, s.BUTTON, blinds(1, 2), cards, *s.preflop(), street(*s.FLOP),
                        *s.flop_betting(), street(s.TURN), *s.checks(), street(s.RIVER),
                        *s.checks(), *s.ending())
    assert codes(record) == [("DEAL_ORDER", "TH-1")]
    assert record.findings[0].seat == 2


def test_a_seat_dealt_one_card() -> None:
    """Seat 3 (folded) received only one card: TH-1 two hole cards each."""
    cards = [card(1, "As"), card(2, "Kc"), card(3, "7h"), card(1, "Ad"), card(2, "Kd")]
    record = adjudicate(s.STACKS, s.BUTTON, blinds(1, 2), cards, *s.preflop(), street(*s.FLOP),
                        *s.flop_betting(), street(s.TURN), *s.checks(), street(s.RIVER),
                        *s.checks(), *s.ending())
    assert ("WRONG_CARD_COUNT", "TH-1") in codes(record)
    finding = next(f for f in record.findings if f.code == "WRONG_CARD_COUNT")
    assert (finding.seat, finding.amount) == (3, -1)


def test_turn_of_two_cards() -> None:
    record = adjudicate(s.STACKS, s.BUTTON, blinds(1, 2), deal(s.CARDS, s.BUTTON), *s.preflop(),
                        street(*s.FLOP), *s.flop_betting(), street(s.TURN, "5d"), *s.checks(),
                        *s.ending())
    assert ("BOARD_CARD_COUNT", "TH-1") in codes(record)


def test_blind_posted_after_the_deal() -> None:
    record = adjudicate(s.STACKS, s.BUTTON, deal(s.CARDS, s.BUTTON), blinds(1, 2), *s.preflop(),
                        street(*s.FLOP), *s.flop_betting(), street(s.TURN), *s.checks(),
                        street(s.RIVER), *s.checks(), *s.ending())
    assert codes(record) == [("BLIND_AFTER_DEAL", "TH-1"), ("BLIND_AFTER_DEAL", "TH-1")]


def test_wrong_deck_declared() -> None:
    record = adjudicate(s.STACKS, s.BUTTON, *s.reference_hand(), deck=36)
    assert ("WRONG_DECK", "TH-9") in codes(record)


def test_card_dealt_to_a_dealer_hand() -> None:
    extra = ("card_dealt", {"to": "dealer", "card": "5h", "face_up": False})
    record = adjudicate(s.STACKS, s.BUTTON, blinds(1, 2), deal(s.CARDS, s.BUTTON), extra,
                        *s.preflop(), street(*s.FLOP), *s.flop_betting(), street(s.TURN),
                        *s.checks(), street(s.RIVER), *s.checks(), *s.ending())
    assert ("CARD_TO_DEALER", "TH-1") in codes(record)


def test_player_plays_best_five_of_seven() -> None:
    """TH-2. Board Ks Qs Js 2d 3c. Seat 1 holds Ts 4h: four spades (no flush), K-Q-J-T
    with no 9 or A (no straight): king high, K-Q-J-T-4. Seat 2 holds Ac 2h: a pair of
    deuces (2h 2d) with A-K-Q, which beats king high. Seat 2 wins the pot of 8 (each put
    in 4): seat 2 +4, seat 1 -4."""
    cards = {1: ["Ts", "4h"], 2: ["Ac", "2h"], 3: ["7h", "8c"]}
    record = adjudicate(s.STACKS, s.BUTTON, blinds(1, 2), deal(cards, s.BUTTON), *s.preflop(),
                        street("Ks", "Qs", "Js"), *s.flop_betting(), street("2d"), *s.checks(),
                        street("3c"), *s.checks(), show(1, cards[1]), show(2, cards[2]),
                        payout(2, 8))
    assert record.status == "ok", record.findings
    assert record.expected is not None
    assert record.expected.net == {"1": -4, "2": 4, "3": 0, "house": 0}


def test_fixed_limit_bet_sizes() -> None:
    """TH-1 fixed limit 2/4: blinds 1/2, small bet 2 pre-flop and on the flop, big bet 4
    on the turn and river. Seat 2 bets 3 on the flop (not 2): WRONG_LIMIT_AMOUNT (TH-1).
    Chips: pre-flop 2 each (pot 4), flop 3 + 3 (pot 10), seat 1 wins 10: +5 / -5."""
    cfg = config("fixed", small_bet=2, big_bet=4)
    record = adjudicate(s.STACKS, s.BUTTON, blinds(1, 2), deal(s.CARDS, s.BUTTON), *s.preflop(),
                        street(*s.FLOP), acts((1, "check"), (2, "bet", 3), (1, "call", 3)),
                        street(s.TURN), *s.checks(), street(s.RIVER), *s.checks(),
                        show(1, s.CARDS[1]), show(2, s.CARDS[2]), payout(1, 10), cfg=cfg)
    assert codes(record) == [("WRONG_LIMIT_AMOUNT", "TH-1")]
    assert record.expected is not None
    assert record.expected.net == {"1": 5, "2": -5, "3": 0, "house": 0}


def test_fixed_limit_big_bet_on_the_turn() -> None:
    """Fixed 2/4: a bet of 4 on the turn is the big bet: no finding. Pot: 4 pre-flop +
    4 flop (2 each) + 8 turn (4 each) = 16; seat 1 wins: +8 / -8."""
    cfg = config("fixed", small_bet=2, big_bet=4)
    record = adjudicate(s.STACKS, s.BUTTON, blinds(1, 2), deal(s.CARDS, s.BUTTON), *s.preflop(),
                        street(*s.FLOP), *s.flop_betting(), street(s.TURN),
                        acts((1, "check"), (2, "bet", 4), (1, "call", 4)), street(s.RIVER),
                        *s.checks(), show(1, s.CARDS[1]), show(2, s.CARDS[2]), payout(1, 16),
                        cfg=cfg)
    assert record.status == "ok", record.findings
    assert record.expected is not None
    assert record.expected.net == {"1": 8, "2": -8, "3": 0, "house": 0}


def test_action_that_is_not_holdem() -> None:
    record = adjudicate(s.STACKS, s.BUTTON, blinds(1, 2), deal(s.CARDS, s.BUTTON),
                        acts((3, "stand")), *s.preflop(), street(*s.FLOP), *s.flop_betting(),
                        street(s.TURN), *s.checks(), street(s.RIVER), *s.checks(), *s.ending())
    assert codes(record) == [("UNEXPECTED_ACTION", "TH-1")]
