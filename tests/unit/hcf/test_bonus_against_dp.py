"""HCF-10 Reading ``bonus_settlement``: ``paytable_alone`` (house-v1) against the source's
items 6-7 taken literally, ``against_dp``: a bonus the paytable pays wins only when the
player's flush / straight-flush run beats the DP's; equal pushes; worse loses.

Every hand: DP seat 1 (stack 10,000), seat 2 Ante 10, one bonus wager of 5, Raise 10,
no rake. Numbers worked by hand in each docstring.
"""

from __future__ import annotations

from services.games.hcf import adjudicate as hcf
from services.games.hcf.evaluation import straight_flush_strength_of_masks, suit_masks
from services.games.profile import RuleProfile
from tests.profiles import HOUSE
from tests.unit.hcf.scenario import config, deal, ended, hand, raise_, show, started, wager

HOUSE = HOUSE
AGAINST_DP = RuleProfile("variant", {**HOUSE.sections,
                                     "hcf": {**HOUSE.sections["hcf"],
                                             "bonus_settlement": "against_dp"}})


def _net(kind: str, dp_cards: str, cards: str, profile: RuleProfile) -> dict[int, int]:
    parts = hand(config(), started(1, {1: 10_000, 2: 1_000}), wager(2, "ante", 10),
                 wager(2, kind, 5), deal({1: dp_cards, 2: cards}, dp=1), raise_(2, 10),
                 show(1, dp_cards), show(2, cards), ended())
    return hcf.adjudicate(parts, profile).net


def test_flush_bonus_loses_to_a_longer_dp_flush() -> None:
    """DP Ad Kd 9d 5d 2d: 5-card flush, qualifies. Seat 2 As Ks Qs 9s: 4-card flush,
    loses Ante 10 + Raise 10 = -20. Flush bonus 4-card pays 2 to 1 = +10 by the paytable
    alone (-20 + 10 = -10); against the DP's 5-card flush it loses its 5: -25."""
    dp, cards = "Ad Kd 9d 5d 2d 3c 4h", "As Ks Qs 9s 2h 3h 4c"
    assert _net("flush_bonus", dp, cards, HOUSE) == {1: 10, 2: -10}
    assert _net("flush_bonus", dp, cards, AGAINST_DP) == {1: 25, 2: -25}


def test_flush_bonus_ties_the_dp_and_pushes() -> None:
    """DP A-K-9-5 of diamonds, seat 2 A-K-9-5 of spades: equal 4-card flushes, Ante and
    Raise push (0). Paytable alone: 4-card 2 to 1 = +10. Against the DP: equal, the bonus
    wager stays with the player: 0."""
    dp, cards = "Ad Kd 9d 5d 3c 4h 7h", "As Ks 9s 5s 2h 3h 8c"
    assert _net("flush_bonus", dp, cards, HOUSE) == {1: -10, 2: 10}
    assert _net("flush_bonus", dp, cards, AGAINST_DP) == {1: 0, 2: 0}


def test_straight_flush_bonus_compares_the_top_of_equal_runs() -> None:
    """DP 5-6-7 of diamonds (3-card flush 7-high: does not qualify, Ante +10, Raise
    pushes); run of 3 topping at 7. Seat 2 2-3-4 of spades: run of 3 topping at 4, which
    the paytable pays 8 to 1 = +40 (10 + 40 = 50); against the DP's higher run it loses
    its 5: 10 - 5 = +5."""
    dp, cards = "5d 6d 7d Kc 2h 9s Jc", "2s 3s 4s Kh Qh 8c Td"
    assert _net("sf_bonus", dp, cards, HOUSE) == {1: -50, 2: 50}
    assert _net("sf_bonus", dp, cards, AGAINST_DP) == {1: -5, 2: 5}


def test_straight_flush_bonus_beating_the_dp_run_is_paid_by_the_paytable() -> None:
    """Same DP (run 5-6-7). Seat 2 8-9-T of spades: run of 3 topping at T beats the DP's
    7: paid 8 to 1 = +40 under both readings; Ante +10 (DP does not qualify): +50."""
    dp, cards = "5d 6d 7d Kc 2h 9s Jc", "8s 9s Ts 2c 3h 4h Qd"
    assert _net("sf_bonus", dp, cards, HOUSE) == {1: -50, 2: 50}
    assert _net("sf_bonus", dp, cards, AGAINST_DP) == {1: -50, 2: 50}


def test_bonus_the_paytable_does_not_pay_loses_whatever_the_dp_holds() -> None:
    """Seat 2's 3-card flush beats the DP's 3-card flush, but the Flush bonus pays from 4
    cards: it loses its 5 under both readings. DP 8-5-2 of diamonds (does not qualify):
    Ante +10, Raise pushes: 10 - 5 = +5."""
    dp, cards = "8d 5d 2d 9c Jc 6h Th", "As Ks Qs 2h 3h 5c 7c"
    assert _net("flush_bonus", dp, cards, HOUSE) == {1: -5, 2: 5}
    assert _net("flush_bonus", dp, cards, AGAINST_DP) == {1: -5, 2: 5}


def test_run_strength_is_length_then_top_card() -> None:
    """``length << 4 | top rank``: A-2-3 tops at 3 (3 << 4 | 3 = 51); Q-K-A at the ace
    (3 << 4 | 14 = 62); K-A-2 is no run without wrap-around (best run 2: A-K tops at 14,
    2 << 4 | 14 = 46) and a run topping at 2 with it (3 << 4 | 2 = 50); all 13 ranks of
    one suit are a 13-run topping at the ace (13 << 4 | 14 = 222)."""
    def strength(cards: str, wrap: bool = False) -> int:
        return straight_flush_strength_of_masks(suit_masks(cards.split()), True, wrap)

    assert strength("As 2s 3s") == 51
    assert strength("Qs Ks As") == 62
    assert strength("Ks As 2s") == 46
    assert strength("Ks As 2s", wrap=True) == 50
    assert strength(" ".join(r + "h" for r in "23456789TJQKA"), wrap=True) == 222
