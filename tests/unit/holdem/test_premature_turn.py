"""TH-6: a turn dealt before the flop betting was complete.

From the reference hand (scenario.py): after the flop, seat 1 checks and the dealer turns
9h before seat 2 acts. Correct procedure: 9h set aside; seat 2 bets 2, seat 1 calls; burn
and deal the turn (Th); turn betting; 9h shuffled back into the stub; river (3s) with no
burn. Board Qs Jd 4c Th 3s: aces beat kings, seat 1 wins 8: +4 / -4 / 0.
"""

from __future__ import annotations

from tests.unit.holdem import scenario as s
from tests.unit.holdem.builder import (
    Part,
    acts,
    adjudicate,
    blinds,
    board,
    burn,
    codes,
    deal,
    moved,
    reshuffled,
    street,
)


def until_premature_turn(burned: str | None = None) -> list[Part]:
    return [blinds(1, 2), deal(s.CARDS, s.BUTTON), *s.preflop(), street(*s.FLOP),
            acts((1, "check")), street("9h", burned=burned)]


def rest_of_flop_round() -> list[Part]:
    return [acts((2, "bet", 2), (1, "call", 2))]


def test_premature_turn_handled_correctly() -> None:
    record = adjudicate(s.STACKS, s.BUTTON, *until_premature_turn(),
                        moved("9h", "board", "set_aside"), *rest_of_flop_round(),
                        street("Th"), *s.checks(), reshuffled("9h"), board(s.RIVER),
                        *s.checks(), *s.ending())
    assert record.status == "ok", record.findings
    assert record.expected is not None
    assert record.expected.net == {"1": 4, "2": -4, "3": 0, "house": 0}


def test_premature_turn_dealt_straight_to_set_aside() -> None:
    """The table may record the premature card as dealt to set_aside at once."""
    set_aside = ("card_dealt", {"to": "set_aside", "card": "9h", "face_up": True})
    record = adjudicate(s.STACKS, s.BUTTON, blinds(1, 2), deal(s.CARDS, s.BUTTON),
                        *s.preflop(), street(*s.FLOP), acts((1, "check")), set_aside,
                        *rest_of_flop_round(), street("Th"), *s.checks(), reshuffled("9h"),
                        board(s.RIVER), *s.checks(), *s.ending())
    assert record.status == "ok", record.findings


def test_premature_turn_kept_in_play() -> None:
    """9h stays as the turn: board Qs Jd 4c 9h 3s, aces still win; finding TH-6."""
    record = adjudicate(s.STACKS, s.BUTTON, *until_premature_turn(), *rest_of_flop_round(),
                        *s.checks(), street(s.RIVER), *s.checks(), *s.ending())
    assert codes(record) == [("PREMATURE_TURN_NOT_SET_ASIDE", "TH-6")]


def test_no_burn_before_the_replacement_turn() -> None:
    record = adjudicate(s.STACKS, s.BUTTON, *until_premature_turn(),
                        moved("9h", "board", "set_aside"), *rest_of_flop_round(),
                        board("Th"), *s.checks(), reshuffled("9h"), board(s.RIVER),
                        *s.checks(), *s.ending())
    assert codes(record) == [("MISSING_BURN", "TH-6")]


def test_river_burned_after_a_premature_turn() -> None:
    record = adjudicate(s.STACKS, s.BUTTON, *until_premature_turn(),
                        moved("9h", "board", "set_aside"), *rest_of_flop_round(),
                        street("Th"), *s.checks(), reshuffled("9h"), street(s.RIVER),
                        *s.checks(), *s.ending())
    assert codes(record) == [("EXTRA_BURN", "TH-6")]


def test_set_aside_card_never_shuffled_back() -> None:
    record = adjudicate(s.STACKS, s.BUTTON, *until_premature_turn(),
                        moved("9h", "board", "set_aside"), *rest_of_flop_round(),
                        street("Th"), *s.checks(), board(s.RIVER), *s.checks(), *s.ending())
    assert codes(record) == [("SET_ASIDE_NOT_RESHUFFLED", "TH-6")]


def test_set_aside_card_shuffled_back_before_the_turn_betting() -> None:
    record = adjudicate(s.STACKS, s.BUTTON, *until_premature_turn(),
                        moved("9h", "board", "set_aside"), *rest_of_flop_round(),
                        street("Th"), reshuffled("9h"), *s.checks(), board(s.RIVER),
                        *s.checks(), *s.ending())
    assert codes(record) == [("SET_ASIDE_NOT_RESHUFFLED", "TH-6")]
    assert "before the turn betting" in record.findings[0].message


def test_burn_card_reshuffled_with_the_set_aside_card() -> None:
    """TH-6: only the set-aside card goes back (not burns); 5c was the turn burn."""
    record = adjudicate(s.STACKS, s.BUTTON, *until_premature_turn(),
                        moved("9h", "board", "set_aside"), *rest_of_flop_round(),
                        street("Th", burned="5c"), *s.checks(), reshuffled("9h", "5c"),
                        board(s.RIVER), *s.checks(), *s.ending())
    assert codes(record) == [("BURN_NOT_KEPT", "TH-6")]


def test_premature_turn_does_not_end_the_flop_round() -> None:
    """Seat 2's bet after the premature turn is still a flop bet (small bet in fixed
    limit, and the flop round is complete before the real turn): no betting finding."""
    record = adjudicate(s.STACKS, s.BUTTON, *until_premature_turn(),
                        moved("9h", "board", "set_aside"), *rest_of_flop_round(),
                        street("Th"), *s.checks(), reshuffled("9h"), board(s.RIVER),
                        *s.checks(), *s.ending())
    assert not [f for f in record.findings if f.code in ("OUT_OF_TURN", "ROUND_INCOMPLETE")]


def test_premature_turn_burned_then_dealt_straight_to_set_aside() -> None:
    """The dealer burns (5c) and turns 9h before seat 2 acted; the table records 9h as
    dealt to set_aside. The 5c burn belongs to the premature turn: after the round the
    dealer burns once more (6c) and deals Th. Two burns in all, one per turn dealt, is
    exactly TH-6, so no finding (the replacement turn has one burn, not two)."""
    set_aside = ("card_dealt", {"to": "set_aside", "card": "9h", "face_up": True})
    record = adjudicate(s.STACKS, s.BUTTON, blinds(1, 2), deal(s.CARDS, s.BUTTON),
                        *s.preflop(), street(*s.FLOP), acts((1, "check")), burn("5c"),
                        set_aside, *rest_of_flop_round(), street("Th", burned="6c"),
                        *s.checks(), reshuffled("9h"), board(s.RIVER), *s.checks(),
                        *s.ending())
    assert record.status == "ok", record.findings
    assert record.findings == []
