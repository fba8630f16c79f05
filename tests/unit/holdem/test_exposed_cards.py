"""TH-3: exposed hole cards during the deal.

The reference deal (scenario.py) is 1:As 2:Kc 3:7h 1:Ad 2:Kd 3:2c, so As is the first card
dealt and Kc the second. When Kc is exposed, the deal is completed, Kc is replaced by the
top card (Ks here) and Kc becomes the flop burn, so the flop is dealt with no fresh burn.
Seat 2 then holds Ks Kd and still loses to aces: the settlement stays +4 / -4 / 0.
"""

from __future__ import annotations

from tests.unit.holdem import scenario as s
from tests.unit.holdem.builder import (
    Part,
    acts,
    adjudicate,
    blinds,
    board,
    card,
    codes,
    deal,
    exposed,
    misdeal,
    moved,
    payout,
    show,
    street,
)

REPLACED = {1: ["As", "Ad"], 2: ["Ks", "Kd"], 3: ["7h", "2c"]}


def after_the_deal(flop_burn: bool) -> list[Part]:
    """Betting and board from the pre-flop betting on; seat 2 shows Ks Kd."""
    flop = street(*s.FLOP) if flop_burn else board(*s.FLOP)
    return [*s.preflop(), flop, *s.flop_betting(), street(s.TURN), *s.checks(),
            street(s.RIVER), *s.checks(), show(1, REPLACED[1]), show(2, REPLACED[2]),
            payout(1, 8)]


def misdeal_refunds() -> list[Part]:
    """GEN-6: the blinds (1 and 2) go back."""
    return [misdeal(), payout(1, 1, "refund"), payout(2, 2, "refund")]


def test_first_card_exposed_and_misdeal_declared_is_a_dead_hand() -> None:
    """The first card (As) exposed: misdeal; blinds returned, nothing else: status dead."""
    record = adjudicate(s.STACKS, s.BUTTON, blinds(1, 2), card(1, "As", face_up=True),
                        *misdeal_refunds())
    assert record.status == "dead"
    assert record.findings == []
    assert record.expected is not None and record.recorded is not None
    assert record.expected.net == {"1": 0, "2": 0, "3": 0, "house": 0}
    assert record.recorded.net == record.expected.net


def test_first_card_exposed_but_hand_played_on() -> None:
    """TH-3 required a misdeal; the hand was played out, so it is settled as played
    (profile reading) and the finding says a misdeal was due."""
    record = adjudicate(s.STACKS, s.BUTTON, blinds(1, 2), deal(s.CARDS, s.BUTTON,
                                                               face_up=["As"]),
                        *s.preflop(), street(*s.FLOP), *s.flop_betting(), street(s.TURN),
                        *s.checks(), street(s.RIVER), *s.checks(), *s.ending())
    assert codes(record) == [("MISDEAL_REQUIRED", "TH-3")]
    assert record.findings[0].severity == "critical"
    assert record.expected is not None
    assert record.expected.net == {"1": 4, "2": -4, "3": 0, "house": 0}


def test_later_card_exposed_and_handled_correctly() -> None:
    """Kc exposed: deal completed, Kc taken to the burn, Ks dealt to seat 2, flop without
    a fresh burn: no finding."""
    record = adjudicate(s.STACKS, s.BUTTON, blinds(1, 2),
                        deal(s.CARDS, s.BUTTON, face_up=["Kc"]),
                        moved("Kc", "seat:2", "burn"), card(2, "Ks"),
                        *after_the_deal(flop_burn=False))
    assert record.status == "ok", record.findings
    assert record.findings == []


def test_later_card_exposed_reported_by_card_exposed_event() -> None:
    """The same, with the exposure recorded as a card_exposed event during the deal."""
    cards = deal(s.CARDS, s.BUTTON)
    record = adjudicate(s.STACKS, s.BUTTON, blinds(1, 2), cards[:2], exposed(2, "Kc"),
                        cards[2:], moved("Kc", "seat:2", "burn"), card(2, "Ks"),
                        *after_the_deal(flop_burn=False))
    assert record.status == "ok", record.findings


def test_exposed_card_kept_by_the_player() -> None:
    record = adjudicate(s.STACKS, s.BUTTON, blinds(1, 2),
                        deal(s.CARDS, s.BUTTON, face_up=["Kc"]), *s.preflop(),
                        street(*s.FLOP), *s.flop_betting(), street(s.TURN), *s.checks(),
                        street(s.RIVER), *s.checks(), *s.ending())
    assert codes(record) == [("EXPOSED_CARD_NOT_REPLACED", "TH-3")]
    assert record.findings[0].seat == 2


def test_exposed_card_replaced_before_the_deal_was_completed() -> None:
    """Kc replaced at once (Ks dealt to seat 2 before seat 3's first card)."""
    cards = [card(1, "As"), card(2, "Kc", face_up=True), moved("Kc", "seat:2", "burn"),
             card(2, "Ks"), card(3, "7h"), card(1, "Ad"), card(2, "Kd"), card(3, "2c")]
    record = adjudicate(s.STACKS, s.BUTTON, blinds(1, 2), cards,
                        *after_the_deal(flop_burn=False))
    assert codes(record) == [("EXPOSED_CARD_REPLACED_EARLY", "TH-3")]


def test_exposed_card_replaced_but_a_fresh_burn_made_at_the_flop() -> None:
    """Kc was already the burn: burning another card moves the flop by one card."""
    record = adjudicate(s.STACKS, s.BUTTON, blinds(1, 2),
                        deal(s.CARDS, s.BUTTON, face_up=["Kc"]),
                        moved("Kc", "seat:2", "burn"), card(2, "Ks"),
                        *after_the_deal(flop_burn=True))
    assert codes(record) == [("EXPOSED_CARD_NOT_BURNED", "TH-3")]


def test_exposed_card_taken_back_but_never_replaced() -> None:
    record = adjudicate(s.STACKS, s.BUTTON, blinds(1, 2),
                        deal(s.CARDS, s.BUTTON, face_up=["Kc"]),
                        moved("Kc", "seat:2", "burn"), *s.preflop(), board(*s.FLOP),
                        acts((1, "check"), (2, "check")), street(s.TURN), *s.checks(),
                        street(s.RIVER), *s.checks(), show(1, s.CARDS[1]), payout(1, 4),
                        show(2, ["Kd"]))
    assert ("EXPOSED_CARD_NOT_REPLACED", "TH-3") in codes(record)


def test_two_cards_exposed_and_misdeal_declared() -> None:
    cards = deal(s.CARDS, s.BUTTON, face_up=["Kc", "2c"])
    record = adjudicate(s.STACKS, s.BUTTON, blinds(1, 2), cards, *misdeal_refunds())
    assert record.status == "dead"
    assert record.findings == []


def test_two_cards_exposed_but_hand_played_on() -> None:
    record = adjudicate(s.STACKS, s.BUTTON, blinds(1, 2),
                        deal(s.CARDS, s.BUTTON, face_up=["Kc", "2c"]), *s.preflop(),
                        street(*s.FLOP), *s.flop_betting(), street(s.TURN), *s.checks(),
                        street(s.RIVER), *s.checks(), *s.ending())
    assert codes(record) == [("MISDEAL_REQUIRED", "TH-3")]
    assert "2 hole cards were exposed" in record.findings[0].message


def test_misdeal_declared_for_one_later_exposed_card() -> None:
    """One exposed card that was not the first: the deal goes on; a misdeal is not what
    TH-3 prescribes (a warning; the hand is still dead, every chip back)."""
    record = adjudicate(s.STACKS, s.BUTTON, blinds(1, 2),
                        deal(s.CARDS, s.BUTTON, face_up=["Kd"]), *misdeal_refunds())
    assert codes(record) == [("MISDEAL_NOT_REQUIRED", "TH-3")]
    assert record.expected is not None
    assert record.expected.net == {"1": 0, "2": 0, "3": 0, "house": 0}


def test_card_exposed_by_the_player_is_not_a_dealer_error() -> None:
    cards = deal(s.CARDS, s.BUTTON)
    record = adjudicate(s.STACKS, s.BUTTON, blinds(1, 2), cards, exposed(1, "As", "player"),
                        *s.preflop(), street(*s.FLOP), *s.flop_betting(), street(s.TURN),
                        *s.checks(), street(s.RIVER), *s.checks(), *s.ending())
    assert record.status == "ok", record.findings


def test_exposure_after_the_betting_began_is_not_th3() -> None:
    """Reading deal_phase_ends = first_action: an exposure once the betting has begun is
    outside the deal; the player keeps the card."""
    record = adjudicate(s.STACKS, s.BUTTON, blinds(1, 2), deal(s.CARDS, s.BUTTON),
                        acts((3, "fold")), exposed(2, "Kc"), acts((1, "call", 1), (2, "check")),
                        street(*s.FLOP), *s.flop_betting(), street(s.TURN), *s.checks(),
                        street(s.RIVER), *s.checks(), *s.ending())
    assert record.status == "ok", record.findings


def test_misdeal_with_blinds_not_returned_is_a_mispay() -> None:
    """GEN-6: everything goes back. The table kept seat 2's big blind: MISPAY -2 for
    seat 2 and the pot left with 2 chips."""
    record = adjudicate(s.STACKS, s.BUTTON, blinds(1, 2), card(1, "As", face_up=True),
                        misdeal(), payout(1, 1, "refund"))
    mispay = [f for f in record.findings if f.code == "MISPAY"]
    assert [(f.seat, f.amount, f.rule) for f in mispay] == [(2, -2, "GEN-6")]
    assert ("POT_NOT_EMPTY", "GEN-8") in codes(record)
