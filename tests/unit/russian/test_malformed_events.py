"""Malformed or contradictory events give a finding or a rejected record, never a crash.

A card that appears twice in one hand is a GEN-1 finding of the integrity check; the game
module must then still answer. A hand whose cards cannot be ranked (a box or the dealer
holding the same card twice) cannot be settled: the record is ``rejected`` with a message
citing GEN-1, not an unhandled exception out of the card evaluator.
"""

from __future__ import annotations

from tests.unit.russian.scenario import Scenario, expected_net

DEALER = "Ad Kc 8s 6d 3h"  # Ace-King, qualifies
NO_GAME = "Ad Qc 8s 6d 3h"  # ace without king, does not qualify


def rejected_by_gen1(scenario: Scenario) -> str:
    record = scenario.record()
    assert record.status == "rejected", record.findings
    [reason] = [f for f in record.findings if f.code == "HAND_REJECTED"]
    assert reason.rule == "GEN-1"
    return reason.message


def test_box_dealt_the_same_card_twice_is_rejected() -> None:
    """Seat 1 is dealt Jc twice and plays: its hand cannot be ranked."""
    scenario = (Scenario().ante(1, 10).deal(1, "Jc Jc Js 2h 7c").deal_dealer(DEALER)
                .act(1, "stand").bet(1, 20).turn_dealer(DEALER))
    assert "Jc" in rejected_by_gen1(scenario)


def test_dealer_dealt_the_same_card_twice_is_rejected() -> None:
    dealer = "Ad Ad 8s 6d 3h"
    scenario = (Scenario().ante(1, 10).deal(1, "Jc Jd Js 2h 7c").deal_dealer(dealer)
                .act(1, "stand").bet(1, 20).turn_dealer(dealer))
    assert "dealer" in rejected_by_gen1(scenario)


def test_sixth_card_already_in_the_box_is_rejected() -> None:
    """The card bought is the box's own Jc again: six cards with a duplicate."""
    scenario = (Scenario().ante(1, 10).deal(1, "Jc Jd Js 2h 7c").deal_dealer(DEALER)
                .fee(1, "buy_card", 10).draw(1, "", "Jc").bet(1, 20).turn_dealer(DEALER))
    rejected_by_gen1(scenario)


def test_insured_box_with_a_duplicate_card_is_rejected() -> None:
    """Insurance needs the box's hand ranked (three of a kind or better) before settlement."""
    scenario = (Scenario().ante(1, 10).deal(1, "Jc Jd Js 2h 7c").deal_dealer(DEALER)
                .fee(1, "buy_card", 10).draw(1, "", "Jd").bet(1, 20).insure(1, 10)
                .turn_dealer(DEALER))
    rejected_by_gen1(scenario)


def test_exchange_receiving_the_same_card_twice_is_rejected() -> None:
    scenario = (Scenario().ante(1, 10).deal(1, "Jc Jd Js 2h 7c").deal_dealer(DEALER)
                .fee(1, "exchange", 10).draw(1, "2h 7c", "3d 3d").bet(1, 20)
                .turn_dealer(DEALER))
    rejected_by_gen1(scenario)


def test_shown_six_cards_with_a_duplicate_are_rejected() -> None:
    """The shoe did not read the box's card; the six cards it shows hold Jc twice."""
    scenario = (Scenario().ante(1, 10)
                .add("card_dealt", to="seat", seat=1, card=None, face_up=False)
                .deal_dealer(DEALER).bet(1, 20).turn_dealer(DEALER)
                .add("showdown", seat=1, cards=["Jc", "Jc", "Js", "2h", "7c", "7d"]))
    rejected_by_gen1(scenario)


def test_dealer_replacement_card_already_in_his_hand_is_rejected() -> None:
    """The game is bought; the dealer 'receives' his own Qc in place of the Ad."""
    scenario = (Scenario().ante(1, 10).deal(1, "Jc Jd Js 2h 7c").deal_dealer(NO_GAME)
                .act(1, "stand").bet(1, 20).turn_dealer(NO_GAME)
                .act(1, "buy_dealer_game").collect(1, "ante", 10).replace("Ad", "Qc"))
    assert "Qc" in rejected_by_gen1(scenario)


def test_folded_box_with_a_duplicate_card_is_still_settled() -> None:
    """Seat 2 folds at the draw, so its cards are never ranked: GEN-1 flags the duplicate
    and the hand is still adjudicated. Seat 1: trips beat Ace-King, 20 x 3 = +60; seat 2
    loses its Ante: -10. House -50."""
    record = (Scenario({1: 1000, 2: 1000}).ante(1, 10).ante(2, 10).deal(1, "Jc Jd Js 2h 7c")
              .deal(2, "5c 5c Th 9c 4s").deal_dealer(DEALER).act(1, "stand").act(2, "fold")
              .bet(1, 20).turn_dealer(DEALER).pay(1, 60).collect(2, "ante", 10).record())
    assert record.status == "discrepancy"
    assert [f.code for f in record.findings] == ["DUPLICATE_CARD"]
    assert expected_net(record) == {"1": 60, "2": -10, "house": -50}


def test_a_rejected_hand_keeps_what_its_events_show() -> None:
    """The GEN checks read the events, not the game's reading: seat 1's box holds Jc twice
    (rejected, GEN-1), and 50 chips were added to seat 1 during the hand (GEN-3). The
    rejected record used to carry HAND_REJECTED alone; the chips added were in no record
    (QA). The deck check names the duplicate too, at its seq (the second Jc, seq 5)."""
    scenario = (Scenario().ante(1, 10).deal(1, "Jc Jc Js 2h 7c").deal_dealer(DEALER)
                .add("chips_changed", seat=1, amount=50, kind="add")
                .act(1, "stand").bet(1, 20).turn_dealer(DEALER))
    record = scenario.record()
    assert record.status == "rejected"
    assert [(f.code, f.rule, f.severity) for f in record.findings] == [
        ("HAND_REJECTED", "GEN-1", "critical"), ("DUPLICATE_CARD", "GEN-1", "critical"),
        ("CHIPS_DURING_HAND", "GEN-3", "critical")]
    assert "+50 chips" in record.findings[2].message
