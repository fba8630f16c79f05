"""Every Reading of the russian profile section toggled the other way, and the table's
posted royal flush feeding the RP-4 insurance maximum. Numbers worked out by hand below.
"""

from __future__ import annotations

from typing import Any

from services.games.profile import RuleProfile
from services.games.russian.adjudicate import adjudicate
from services.games.russian.procedure import procedure_findings
from services.games.russian.profile import RussianProfile
from services.games.russian.reading import read_hand
from tests.profiles import HOUSE
from tests.unit.russian.scenario import Scenario, codes, expected_net

DEALER = "Ad Kc 8s 6d 3h"  # Ace-King, qualifies
NO_GAME = "Ad Qc 8s 6d 3h"


def _profile_with(**changes: Any) -> RuleProfile:
    base = HOUSE
    sections = {name: dict(values) for name, values in base.sections.items()}
    sections["russian"].update(changes)
    return RuleProfile(name="test", sections=sections)


def bought_sixth(five: str, sixth: str) -> Scenario:
    """Seat 1, Ante 10, buys a sixth card for 10, bets 20 against the dealer's Ace-King."""
    return (Scenario().ante(1, 10).deal(1, five).deal_dealer(DEALER)
            .fee(1, "buy_card", 10).draw(1, "", sixth).bet(1, 20).turn_dealer(DEALER))


def test_two_combinations_not_paid_when_the_profile_says_so() -> None:
    """RP-8 with ``pay_two_combinations = false``: J J J 7 2 + 7 pays the full house only:
    20 x 7 = 140, less the price 10: +130 (house-v1 pays 20 x (7 + 3) - 10 = +190)."""
    hand = bought_sixth("Jc Jd Js 2h 7c", "7d").hand()
    outcome = adjudicate(hand, _profile_with(pay_two_combinations=False))
    assert outcome.net == {1: 130}
    assert outcome.house == -130


def test_second_combination_floor_raised_to_one_pair() -> None:
    """RP-8 floor raised to one pair: A K Q 5 5 + 2: best five 5 5 A K Q (pair, 1); the best
    other five is 5 5 A K 2 (a pair again, 1): both paid, 20 x 2 = 40 - 10 = +30.
    A K Q J 3 + 2 (no pair): best A K Q J 3 (Ace-King, 1), second A K Q J 2 (Ace-King):
    house-v1 pays it (20 x 2 - 10 = +30); with the floor at one pair it is not paid:
    20 x 1 - 10 = +10."""
    floor = _profile_with(second_combination_min_category="one_pair")
    pairs = adjudicate(bought_sixth("Ac Kd Qh 5s 5c", "2d").hand(), floor)
    assert pairs.net == {1: 30}
    ace_king = bought_sixth("Ac Kd Qh Js 3c", "2d").hand()
    assert adjudicate(ace_king, HOUSE).net == {1: 30}
    assert adjudicate(ace_king, floor).net == {1: 10}


def test_serving_order_left_of_the_button() -> None:
    """RP-2 ``serving_order = left_of_button``, button on seat 2: seat 3 is served first,
    then seat 1 (clockwise, wrapping). House-v1 (ascending seats) calls that order wrong."""
    s = Scenario({1: 1000, 2: 1000, 3: 1000})
    s.events[0][1]["button"] = 2
    for seat in (1, 3):
        s.ante(seat, 10)
    s.deal(1, "2c 3d 5h 9s Jc").deal(3, "2d 4h 7s 9c Qd").deal_dealer(DEALER)
    s.fee(1, "buy_card", 10).fee(3, "buy_card", 10).draw(3, "", "Ks").draw(1, "", "Kh")
    facts = read_hand(s.hand().events)
    antes = {1: 10, 3: 10}
    house = HOUSE.section("russian", RussianProfile)
    button = _profile_with(serving_order="left_of_button").section("russian", RussianProfile)
    assert [f.code for f in procedure_findings(facts, antes, house)] == ["DRAW_OUT_OF_ORDER"]
    assert procedure_findings(facts, antes, button) == []


def test_insurance_maximum_follows_the_posted_royal_flush() -> None:
    """RP-4 "half the Royal Flush payout of that box": the table posts royal flush 200.
    Ante 1, Bet 2: maximum 200 x 2 / 2 = 200 (with house-v1's 100 it would be 100).
    Insurance 150 plays in full; no game: Ante 1 paid + insurance 150 paid = +151."""
    s = (Scenario(paytables={"bet": {"royal_flush": 200}}).ante(1, 1)
         .deal(1, "Jc Jd Js 2h 7c").deal_dealer(NO_GAME).act(1, "stand").bet(1, 2)
         .insure(1, 150).turn_dealer(NO_GAME).pay(1, 1).pay(1, 150, "insurance"))
    record = s.record()
    assert record.status == "ok", record.findings
    assert codes(record) == []
    assert expected_net(record)["1"] == 151


def test_over_bet_excess_returned_when_the_profile_says_so() -> None:
    """RP-3 ``wrong_bet_settlement``. Ante 10, J J J stands, Bet 30 instead of 2 x 10 = 20;
    the dealer's Ace-King qualifies and loses to the trips (paid 3 to 1, Ante returned).
    "as_placed" (house-v1): 30 x 3 = +90. "excess_returned": 20 plays, 10 goes back:
    20 x 3 = +60. Both report WRONG_BET +10."""
    hand = (Scenario().ante(1, 10).deal(1, "Jc Jd Js 2h 7c").deal_dealer(DEALER)
            .act(1, "stand").bet(1, 30).turn_dealer(DEALER).hand())
    placed = adjudicate(hand, HOUSE)
    cut = adjudicate(hand, _profile_with(wrong_bet_settlement="excess_returned"))
    assert placed.net == {1: 90} and cut.net == {1: 60}
    for outcome in (placed, cut):
        assert [(f.code, f.amount) for f in outcome.findings] == [("WRONG_BET", 10)]


def test_insurance_outside_its_limits_settled_as_placed_when_the_profile_says_so() -> None:
    """RP-4 ``insurance_below_minimum`` / ``insurance_above_maximum``, J J J, the dealer
    does not qualify (insurance pays 1 to 1, Ante paid, Bet returned).
    Below: Ante 10, insurance 5 < 10. "returned": +10; "as_placed": 10 + 5 = +15.
    Above: Ante 1, Bet 2, maximum 100 x 2 / 2 = 100, insurance 150. "cut_to_maximum":
    1 + 100 = +101; "as_placed": 1 + 150 = +151."""
    def insured(ante: int, insurance: int) -> Any:
        return (Scenario().ante(1, ante).deal(1, "Jc Jd Js 2h 7c").deal_dealer(NO_GAME)
                .act(1, "stand").bet(1, 2 * ante).insure(1, insurance).turn_dealer(NO_GAME)
                .hand())

    house = HOUSE
    assert adjudicate(insured(10, 5), house).net == {1: 10}
    assert adjudicate(insured(10, 5),
                      _profile_with(insurance_below_minimum="as_placed")).net == {1: 15}
    assert adjudicate(insured(1, 150), house).net == {1: 101}
    assert adjudicate(insured(1, 150),
                      _profile_with(insurance_above_maximum="as_placed")).net == {1: 151}
