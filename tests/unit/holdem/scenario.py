"""The reference hand most TH tests start from, written out by hand.

Three players, 100 chips each, blinds 1/2, button seat 3 (small blind seat 1, big blind
seat 2). Hole cards: seat 1 As Ad, seat 2 Kc Kd, seat 3 7h 2c, dealt 1 2 3 1 2 3.

- Pre-flop: seat 3 folds, seat 1 calls 1 (its blind 1 + 1 = 2), seat 2 checks. Pot 4.
- Flop Qs Jd 4c: seat 1 checks, seat 2 bets 2, seat 1 calls 2. Pot 8.
- Turn 9h, river 3s: checked through.
- Showdown: seat 2 (the flop bettor, but the river had no bet, so the first player left
  of the button, seat 1, shows first): aces beat kings. Seat 1 wins the pot of 8:
  net seat 1 = 8 - 4 = +4, seat 2 = -4, seat 3 = 0.
"""

from __future__ import annotations

from tests.unit.holdem.builder import Part, acts, blinds, deal, payout, show, street

STACKS = {1: 100, 2: 100, 3: 100}
BUTTON = 3
CARDS: dict[int, list[str | None]] = {1: ["As", "Ad"], 2: ["Kc", "Kd"], 3: ["7h", "2c"]}
FLOP = ("Qs", "Jd", "4c")
TURN = "9h"
RIVER = "3s"


def preflop() -> list[Part]:
    return [acts((3, "fold"), (1, "call", 1), (2, "check"))]


def flop_betting() -> list[Part]:
    return [acts((1, "check"), (2, "bet", 2), (1, "call", 2))]


def checks() -> list[Part]:
    return [acts((1, "check"), (2, "check"))]


def ending(winner: int = 1, amount: int = 8) -> list[Part]:
    return [show(1, CARDS[1]), show(2, CARDS[2]), payout(winner, amount)]


def reference_hand() -> list[Part]:
    """The whole hand as dealt correctly."""
    return [blinds(1, 2), deal(CARDS, BUTTON), *preflop(), street(*FLOP), *flop_betting(),
            street(TURN), *checks(), street(RIVER), *checks(), *ending()]
