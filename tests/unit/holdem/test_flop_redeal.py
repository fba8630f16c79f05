"""TH-4 (too many flop cards) and TH-5 (redealing a flop).

From the reference hand (scenario.py). The redealt flop is 8d 8h 2s, the turn Th, the
river 3s: seat 1 has aces and eights, seat 2 kings and eights, so aces still win the pot
of 8: +4 / -4 / 0.
"""

from __future__ import annotations

from services.simulator.handbuilder import EventSpec
from tests.unit.holdem import scenario as s
from tests.unit.holdem.builder import (
    Part,
    acts,
    adjudicate,
    blinds,
    board,
    codes,
    deal,
    moved,
    reshuffled,
    street,
)

NEW_FLOP = ("8d", "8h", "2s")


def gathered(*cards: str) -> list[EventSpec]:
    """The flop cards taken off the board into the stub, then the stub shuffled (GEN-1:
    only cards nobody holds any more can be reshuffled)."""
    return [*(moved(c, "board", "stub") for c in cards), reshuffled(*cards)]


def rest() -> list[Part]:
    """Flop betting, turn, river, showdown: aces win 8."""
    return [*s.flop_betting(), street("Th"), *s.checks(), street(s.RIVER), *s.checks(),
            *s.ending()]


def opening() -> list[Part]:
    return [blinds(1, 2), deal(s.CARDS, s.BUTTON)]


def test_four_card_flop_redealt_correctly() -> None:
    """Four flop cards: all four back into the stub, burn stays, three new cards, no
    burn. Expected +4 / -4 / 0, no finding."""
    record = adjudicate(s.STACKS, s.BUTTON, *opening(), *s.preflop(),
                        street(*s.FLOP, "9h"), gathered(*s.FLOP, "9h"), board(*NEW_FLOP),
                        *rest())
    assert record.status == "ok", record.findings
    assert record.expected is not None
    assert record.expected.net == {"1": 4, "2": -4, "3": 0, "house": 0}


def test_four_card_flop_kept_without_the_extra_card() -> None:
    """The dealer took back the fourth card and played the flop: TH-4 says redeal even
    when the extra card is known."""
    record = adjudicate(s.STACKS, s.BUTTON, *opening(), *s.preflop(),
                        street(*s.FLOP, "9h"), moved("9h", "board", "stub"), *rest())
    assert codes(record) == [("FLOP_NOT_REDEALT", "TH-4")]
    assert record.findings[0].severity == "critical"


def test_redealt_flop_with_a_fresh_burn() -> None:
    record = adjudicate(s.STACKS, s.BUTTON, *opening(), *s.preflop(),
                        street(*s.FLOP, "9h"), gathered(*s.FLOP, "9h"), street(*NEW_FLOP),
                        *rest())
    assert codes(record) == [("EXTRA_BURN", "TH-5")]


def test_flop_cards_not_shuffled_back_into_the_stub() -> None:
    moves = [moved(c, "board", "burn") for c in (*s.FLOP, "9h")]
    record = adjudicate(s.STACKS, s.BUTTON, *opening(), *s.preflop(),
                        street(*s.FLOP, "9h"), *moves, board(*NEW_FLOP), *rest())
    assert codes(record) == [("REDEAL_NOT_RESHUFFLED", "TH-5")]


def test_premature_flop_redealt_correctly() -> None:
    """The flop came after seat 3 folded but before seats 1 and 2 acted: the round
    completes, the flop goes back, a new flop is dealt without a burn."""
    record = adjudicate(s.STACKS, s.BUTTON, *opening(), acts((3, "fold")), street(*s.FLOP),
                        acts((1, "call", 1), (2, "check")), gathered(*s.FLOP),
                        board(*NEW_FLOP), *rest())
    assert record.status == "ok", record.findings
    assert record.expected is not None
    assert record.expected.net == {"1": 4, "2": -4, "3": 0, "house": 0}


def test_premature_flop_kept() -> None:
    record = adjudicate(s.STACKS, s.BUTTON, *opening(), acts((3, "fold")), street(*s.FLOP),
                        acts((1, "call", 1), (2, "check")), *s.flop_betting(),
                        street("Th"), *s.checks(), street(s.RIVER), *s.checks(), *s.ending())
    assert codes(record) == [("FLOP_NOT_REDEALT", "TH-5")]


def test_burn_card_shuffled_back_with_the_flop() -> None:
    """TH-5: the burn card stays; here 5c (the flop burn) went back into the stub."""
    record = adjudicate(s.STACKS, s.BUTTON, *opening(), acts((3, "fold")),
                        street(*s.FLOP, burned="5c"), acts((1, "call", 1), (2, "check")),
                        *(moved(c, "board", "stub") for c in s.FLOP),
                        reshuffled(*s.FLOP, "5c"), board(*NEW_FLOP), *rest())
    assert codes(record) == [("BURN_NOT_KEPT", "TH-5")]


def test_premature_flop_does_not_end_the_preflop_round() -> None:
    """The pre-flop actions after a premature flop are still pre-flop: seat 1's call of 1
    completes its small blind (no wrong-amount finding), and the round is complete before
    the redeal."""
    record = adjudicate(s.STACKS, s.BUTTON, *opening(), acts((3, "fold")), street(*s.FLOP),
                        acts((1, "call", 1), (2, "check")), gathered(*s.FLOP),
                        board(*NEW_FLOP), *rest())
    assert not [f for f in record.findings if f.code in ("WRONG_CALL_AMOUNT",
                                                         "ROUND_INCOMPLETE")]
