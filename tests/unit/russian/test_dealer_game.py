"""RP-6: buying the dealer's game, and the dealer's replaced card.

Ante 10, Bet 20. The dealer holds Ad Qc 8s 6d 3h: ace without king, he does not qualify;
his highest card is the Ad. Buying costs 1x Ante = 10, taken from the Ante (recorded as
the Ante collected to the house).
"""

from __future__ import annotations

from services.games.profile import RuleProfile
from services.games.russian.adjudicate import adjudicate
from tests.profiles import HOUSE
from tests.unit.russian.scenario import Scenario, codes, expected_net

DEALER = "Ad Qc 8s 6d 3h"


def buys(cards: str, dealer: str = DEALER, seats: dict[int, int] | None = None) -> Scenario:
    """Seat 1 (Ante 10, keeps ``cards``, Bet 20) buys the dealer's game for its Ante."""
    return (Scenario(seats or {1: 1000}).ante(1, 10).deal(1, cards).deal_dealer(dealer)
            .act(1, "stand").bet(1, 20).turn_dealer(dealer)
            .act(1, "buy_dealer_game").collect(1, "ante", 10))


def test_bought_game_qualifies_and_the_box_wins() -> None:
    """Ad out, 8h in: dealer 8h 8s Qc 6d 3h, a pair of 8s, qualifies. J J J beats it: Bet 20
    paid 3:1 = 60, the Ante already spent on the purchase: 60 - 10 = +50."""
    record = buys("Jc Jd Js 2h 7c").replace("Ad", "8h").pay(1, 60).record()
    assert record.status == "ok", record.findings
    assert expected_net(record) == {"1": 50, "house": -50}


def test_bought_game_qualifies_and_the_box_loses() -> None:
    """Dealer 8-8 beats the box's 4-4: the Bet 20 is lost on top of the price 10: -30."""
    record = (buys("4c 4d Kc 9h 2s").replace("Ad", "8h").collect(1, "bet", 20).record())
    assert record.status == "ok", record.findings
    assert expected_net(record)["1"] == -30


def test_bought_game_still_does_not_qualify_returns_the_bet() -> None:
    """Ad out, 2c in: Q 8 6 3 2 still does not qualify: Bet returned; the price 10 is gone."""
    record = buys("Jc Jd Js 2h 7c").replace("Ad", "2c").record()
    assert record.status == "ok", record.findings
    assert expected_net(record)["1"] == -10


def test_bought_game_ties_push_with_the_ante_spent() -> None:
    """Ad out, 8h in: dealer 8h 8s Qc 6d 3h; the box holds 8c 8d Qh 6s 3c, card for card the
    same: push, the Bet stays; only the price is gone: -10."""
    record = buys("8c 8d Qh 6s 3c").replace("Ad", "8h").record()
    assert record.status == "ok", record.findings
    assert expected_net(record)["1"] == -10


def test_price_recorded_as_a_collection_is_the_same_chips() -> None:
    """The price as ``collection`` kind buy_dealer_game from the stack (the Ante then goes
    back at hand_ended) moves the same chips: -10 + 60 = +50, no finding."""
    record = (Scenario().ante(1, 10).deal(1, "Jc Jd Js 2h 7c").deal_dealer(DEALER)
              .act(1, "stand").bet(1, 20).turn_dealer(DEALER).act(1, "buy_dealer_game")
              .fee(1, "buy_dealer_game", 10).replace("Ad", "8h").pay(1, 60).record())
    assert record.status == "ok", record.findings
    assert expected_net(record)["1"] == 50


def test_one_box_buys_the_other_is_paid_its_ante() -> None:
    """Seat 1 buys (dealer then 8-8, J J J wins: +50); seat 2 declines: its Ante 10 is paid
    1:1 on the dealer's original hand (+10) though the bought hand qualifies. House -60."""
    record = (Scenario({1: 1000, 2: 1000}).ante(1, 10).ante(2, 10)
              .deal(1, "Jc Jd Js 2h 7c").deal(2, "5c 5d Th 9c 4s").deal_dealer(DEALER)
              .act(1, "stand").act(2, "stand").bet(1, 20).bet(2, 20).turn_dealer(DEALER)
              .act(1, "buy_dealer_game").collect(1, "ante", 10).act(2, "decline_dealer_game")
              .replace("Ad", "8h").pay(1, 60).pay(2, 10).record())
    assert record.status == "ok", record.findings
    assert expected_net(record) == {"1": 50, "2": 10, "house": -60}


def test_same_rank_card_burned_and_another_drawn() -> None:
    """Ad out; Ah drawn: same rank, Ah Qc 8s 6d 3h makes nothing, so it is burned; 8h is
    the dealer's new card. Correct procedure: no finding; J J J wins +50."""
    record = buys("Jc Jd Js 2h 7c").replace("Ad", "8h", burned="Ah").pay(1, 60).record()
    assert record.status == "ok", record.findings


def test_same_rank_card_that_completes_a_flush_is_kept() -> None:
    """Dealer Ad Qh 8h 6h 3h (no qualification). Ah drawn in place of Ad makes a heart flush:
    kept, not burned. The flush beats the box's J J J: -10 price - 20 Bet = -30."""
    dealer = "Ad Qh 8h 6h 3h"
    record = (buys("Jc Jd Js 2c 7c", dealer=dealer).replace("Ad", "Ah")
              .collect(1, "bet", 20).record())
    assert record.status == "ok", record.findings
    assert expected_net(record)["1"] == -30


def test_same_rank_card_kept_though_it_makes_nothing_is_a_burn_finding() -> None:
    """Ah kept in place of Ad (Ah Qc 8s 6d 3h makes nothing): it should have been burned.
    Settled on the hand as dealt: still no qualification, Bet returned: -10."""
    record = buys("Jc Jd Js 2h 7c").replace("Ad", "Ah").record()
    assert codes(record) == ["BURN_PROCEDURE"]
    assert expected_net(record)["1"] == -10


def test_burning_a_card_of_another_rank_is_a_burn_finding() -> None:
    record = buys("Jc Jd Js 2h 7c").replace("Ad", "2c", burned="8h").record()
    assert codes(record) == ["BURN_PROCEDURE"]


def test_burning_a_same_rank_card_that_completes_a_flush_is_a_burn_finding() -> None:
    record = buys("Jc Jd Js 2c 7c", dealer="Ad Qh 8h 6h 3h").replace(
        "Ad", "2d", burned="Ah").record()
    assert codes(record) == ["BURN_PROCEDURE"]


def test_replacing_a_card_other_than_the_highest_is_a_finding() -> None:
    """Qc replaced instead of Ad: REPLACED_WRONG_CARD; settled on the hand as dealt:
    Ad 9h 8s 6d 3h does not qualify, Bet returned: -10."""
    record = buys("Jc Jd Js 2h 7c").replace("Qc", "9h").record()
    assert codes(record) == ["REPLACED_WRONG_CARD"]
    assert expected_net(record)["1"] == -10


def test_buying_when_the_dealer_qualifies_is_ignored() -> None:
    """Dealer A K qualifies: no game to buy. Settled by RP-7: J J J wins 60, Ante returned,
    so +60; the table's taking of the Ante as a price is a MISPAY (-10 recorded +50)."""
    dealer = "Ad Kc 8s 6d 3h"
    record = buys("Jc Jd Js 2h 7c", dealer=dealer).pay(1, 60).record()
    assert sorted(codes(record)) == ["BUY_WHEN_DEALER_QUALIFIES", "MISPAY"]
    assert expected_net(record)["1"] == 60


def test_buy_without_a_replacement_is_settled_on_the_dealt_hand() -> None:
    """No dealer_replaced_card: REPLACEMENT_MISSING; the dealer's hand as dealt does not
    qualify, so the buyer's Bet is returned: -10."""
    record = buys("Jc Jd Js 2h 7c").record()
    assert codes(record) == ["REPLACEMENT_MISSING"]
    assert expected_net(record)["1"] == -10


def test_replacement_without_a_buyer_is_a_finding() -> None:
    """Nobody bought; the dealer replaced anyway: the Ante is still paid 1:1 (+10)."""
    record = (Scenario().ante(1, 10).deal(1, "Jc Jd Js 2h 7c").deal_dealer(DEALER)
              .act(1, "stand").bet(1, 20).turn_dealer(DEALER).act(1, "decline_dealer_game")
              .replace("Ad", "8h").pay(1, 10).record())
    assert codes(record) == ["REPLACEMENT_WITHOUT_BUY"]
    assert expected_net(record)["1"] == 10


def test_second_replacement_is_a_finding_and_the_first_stands() -> None:
    """First replacement 8h (8-8 qualifies, J J J wins +50); a second one is flagged."""
    record = (buys("Jc Jd Js 2h 7c").replace("Ad", "8h").replace("Qc", "Qd")
              .pay(1, 60).record())
    assert codes(record) == ["SECOND_REPLACEMENT"]
    assert expected_net(record)["1"] == 50


def test_insurance_is_lost_when_the_game_is_bought() -> None:
    """Reading (house-v1 ``insurance_when_game_bought = loses``): J J J insured for 10, buys;
    dealer still no game: price -10, Bet returned, insurance lost -10: net -20."""
    record = (Scenario().ante(1, 10).deal(1, "Jc Jd Js 2h 7c").deal_dealer(DEALER)
              .act(1, "stand").bet(1, 20).insure(1, 10).turn_dealer(DEALER)
              .act(1, "buy_dealer_game").collect(1, "ante", 10).replace("Ad", "2c")
              .collect(1, "insurance", 10).record())
    assert record.status == "ok", record.findings
    assert expected_net(record)["1"] == -20


def _profile_with(**changes: object) -> RuleProfile:
    base = HOUSE
    sections = {name: dict(values) for name, values in base.sections.items()}
    sections["russian"].update(changes)
    return RuleProfile(name="test", sections=sections)


def test_insurance_settled_on_the_new_hand_under_the_alternative_reading() -> None:
    """``final_dealer_hand``: dealer still does not qualify after the purchase: insurance 10
    paid 1:1: -10 price + 10 = 0."""
    hand = (Scenario().ante(1, 10).deal(1, "Jc Jd Js 2h 7c").deal_dealer(DEALER)
            .act(1, "stand").bet(1, 20).insure(1, 10).turn_dealer(DEALER)
            .act(1, "buy_dealer_game").collect(1, "ante", 10).replace("Ad", "2c").hand())
    outcome = adjudicate(hand, _profile_with(insurance_when_game_bought="final_dealer_hand"))
    assert outcome.net == {1: 0}
    assert outcome.house == 0


def test_dealer_showing_his_hand_after_the_replacement_is_no_switch() -> None:
    """RP-10 / RP-6: after the purchase the dealer turns his new hand Qc 8s 6d 3h 8h (the Ad
    replaced by the 8h): that is the hand he holds, not a switched card. J J J beats the
    pair of 8s: 60 - 10 = +50, no finding."""
    record = (buys("Jc Jd Js 2h 7c").replace("Ad", "8h")
              .turn_dealer("Qc 8s 6d 3h 8h").pay(1, 60).record())
    assert record.status == "ok", record.findings
    assert expected_net(record)["1"] == 50


def test_buying_after_the_replacement_card_was_seen_is_past_posting() -> None:
    """SURV-1 "after an outcome was visible": the dealer shows his replacement card 8h
    (making a pair of 8s, which the box's J J J beats) before seat 1 decides to buy. The
    purchase is flagged; the settlement stays on the purchase as the table ran it: Bet 20
    paid 3:1 = 60, Ante 10 spent: +50."""
    record = (Scenario().ante(1, 10).deal(1, "Jc Jd Js 2h 7c").deal_dealer(DEALER)
              .act(1, "stand").bet(1, 20).turn_dealer(DEALER).replace("Ad", "8h")
              .act(1, "buy_dealer_game").collect(1, "ante", 10).pay(1, 60).record())
    assert [(f.code, f.rule, f.seat) for f in record.findings] == [
        ("BUY_AFTER_REPLACEMENT", "SURV-1", 1)]
    assert expected_net(record)["1"] == 50
