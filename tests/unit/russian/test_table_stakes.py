"""GEN-2 at a Russian Poker table: a box starts with the chips its Ante can require.

house-v1: Ante + one draw at 1x Ante (buy and exchange both cost 1x, RP-2) + Bet of 2x
Ante (RP-3) = 4x Ante. Insurance is optional and not counted.
"""

from __future__ import annotations

from services.games.profile import RuleProfile
from services.games.russian.adjudicate import adjudicate
from tests.profiles import HOUSE
from tests.unit.russian.scenario import Scenario, codes

DEALER = "Ad Kc 8s 6d 3h"  # Ace-King, qualifies


def _folding_box(stack: int, ante: int) -> Scenario:
    """A box that antes and folds at the draw decision: the least a hand can cost."""
    return (Scenario(seats={1: stack}).ante(1, ante).deal(1, "Jc Jd 9s 2h 7c")
            .deal_dealer(DEALER).act(1, "fold").collect(1, "ante", ante))


def test_stack_of_exactly_four_antes_is_enough() -> None:
    """Ante 10, stack 40 = 10 + 10 + 20: covered, no GEN-2 finding."""
    assert "INSUFFICIENT_STAKE" not in codes(_folding_box(40, 10).record())


def test_stack_one_chip_short_of_four_antes_is_a_finding() -> None:
    """Ante 10, stack 39: the hand can require 40, one chip short. The finding is a
    warning (house-v1), names seat 1 and the shortfall 40 - 39 = 1; the fold itself
    settles normally (seat 1 loses its Ante of 10)."""
    record = _folding_box(39, 10).record()
    [short] = [f for f in record.findings if f.code == "INSUFFICIENT_STAKE"]
    assert (short.rule, short.severity, short.seat, short.amount) == ("GEN-2", "warning", 1, 1)
    assert "40" in short.message and "39" in short.message
    assert record.expected is not None and record.expected.net["1"] == -10


def test_dearer_draw_price_raises_what_must_be_covered() -> None:
    """With an exchange priced at 3x Ante, Ante 10 can require 10 + 30 + 20 = 60: a stack
    of 50 is 10 short."""
    base = HOUSE
    sections = {name: dict(values) for name, values in base.sections.items()}
    sections["russian"]["exchange_price_antes"] = 3
    outcome = adjudicate(_folding_box(50, 10).hand(), RuleProfile(name="test", sections=sections))
    [short] = [f for f in outcome.findings if f.code == "INSUFFICIENT_STAKE"]
    assert short.amount == 10
