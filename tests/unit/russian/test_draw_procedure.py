"""RP-2 draw procedure (decide first, serve in box order, one buy or exchange of 2 to 5
cards, price 1x Ante) and RP-10 (no card changes after the Bet).

Three boxes, Ante 10 each; every box folds after the draw unless stated, so the chips are
simple: a box loses its Ante and any price it paid.
"""

from __future__ import annotations

from tests.profiles import HOUSE
from tests.unit.russian.scenario import Scenario, codes, expected_net, recorded_net

DEALER = "Ad Kc 8s 6d 3h"
CARDS = {1: "2c 3d 5h 9s Jc", 2: "4c 6h 7d Tc Qs", 3: "2d 4h 7s 9c Qd"}


def three_boxes() -> Scenario:
    s = Scenario({1: 1000, 2: 1000, 3: 1000})
    for seat in (1, 2, 3):
        s.ante(seat, 10)
    for seat in (1, 2, 3):
        s.deal(seat, CARDS[seat])
    return s.deal_dealer(DEALER)


def finish(s: Scenario, seats: tuple[int, ...] = (1, 2, 3)) -> Scenario:
    """Every box folds after the draw; the table takes the Antes."""
    for seat in seats:
        s.act(seat, "fold")
    s.turn_dealer(DEALER)
    for seat in seats:
        s.collect(seat, "ante", 10)
    return s


def test_correct_draw_phase_has_no_finding() -> None:
    """All decide (1 exchanges 3, 2 keeps, 3 buys), then 1 and 3 are served in order. Each
    drawing box: -10 Ante -10 price = -20; the keeper -10. House +50."""
    s = (three_boxes().fee(1, "exchange", 10).act(2, "stand").fee(3, "buy_card", 10)
         .draw(1, "2c 3d 5h", "Ac Ah 7c").draw(3, "", "Ks"))
    record = finish(s).record()
    assert record.status == "ok", record.findings
    assert expected_net(record) == {"1": -20, "2": -10, "3": -20, "house": 50}


def test_card_served_before_every_box_decided() -> None:
    """Seat 1 is served before seat 3 has decided: DRAW_BEFORE_ALL_DECIDED for seat 3."""
    s = (three_boxes().fee(1, "exchange", 10).act(2, "stand")
         .draw(1, "2c 3d 5h", "Ac Ah 7c").fee(3, "buy_card", 10).draw(3, "", "Ks"))
    record = finish(s).record()
    assert [(f.code, f.rule, f.seat) for f in record.findings] == [
        ("DRAW_BEFORE_ALL_DECIDED", "RP-2", 3)]


def test_fold_after_the_draws_is_the_play_decision_not_a_late_draw_decision() -> None:
    """Seat 2 records nothing before the draws and folds afterwards (RP-3): no finding."""
    s = three_boxes().fee(1, "exchange", 10).act(3, "stand").draw(1, "2c 3d 5h", "Ac Ah 7c")
    record = finish(s).record()
    assert record.status == "ok", record.findings


def test_boxes_served_out_of_order() -> None:
    """Seat 3 is served before seat 1: DRAW_OUT_OF_ORDER for seat 1."""
    s = (three_boxes().fee(1, "exchange", 10).act(2, "stand").fee(3, "buy_card", 10)
         .draw(3, "", "Ks").draw(1, "2c 3d 5h", "Ac Ah 7c"))
    record = finish(s).record()
    assert [(f.code, f.seat) for f in record.findings] == [("DRAW_OUT_OF_ORDER", 1)]


def test_exchange_of_one_card() -> None:
    s = (three_boxes().fee(1, "exchange", 10).act(2, "stand").act(3, "stand")
         .draw(1, "2c", "Ac"))
    record = finish(s).record()
    assert codes(record) == ["EXCHANGE_ONE_CARD"]


def test_second_exchange() -> None:
    """Seat 1 exchanges twice and pays twice: -10 Ante -10 -10 = -30 (each draw served is
    charged), SECOND_DRAW."""
    s = (three_boxes().fee(1, "exchange", 10).act(2, "stand").act(3, "stand")
         .draw(1, "2c 3d", "Ac Ah").fee(1, "exchange", 10).draw(1, "5h 9s", "7c 7h"))
    record = finish(s).record()
    assert codes(record) == ["SECOND_DRAW"]
    assert expected_net(record)["1"] == -30


def test_buy_after_an_exchange_is_a_second_draw() -> None:
    s = (three_boxes().fee(1, "exchange", 10).act(2, "stand").act(3, "stand")
         .draw(1, "2c 3d", "Ac Ah").fee(1, "buy_card", 10).draw(1, "", "7c"))
    record = finish(s).record()
    assert codes(record) == ["SECOND_DRAW"]


def test_wrong_price() -> None:
    """Seat 3 is charged 20 for its sixth card; the price is 1x Ante = 10: WRONG_FEE +10.
    The seat's chips are off by exactly that (recorded -30, due -20), so there is no
    MISPAY: the fold cost what RP-2 says, and the price is reported once."""
    s = (three_boxes().act(1, "stand").act(2, "stand").fee(3, "buy_card", 20)
         .draw(3, "", "Ks"))
    record = finish(s).record()
    assert [(f.code, f.amount) for f in record.findings] == [("WRONG_FEE", 10)]
    assert (expected_net(record)["3"], recorded_net(record)["3"]) == (-20, -30)


def test_draw_served_without_its_price() -> None:
    """Seat 3 decided to keep, yet got a card for nothing: due -20, recorded -10, all of
    it the missing price (WRONG_FEE -10)."""
    s = three_boxes().act(1, "stand").act(2, "stand").act(3, "stand").draw(3, "", "Ks")
    record = finish(s).record()
    assert [(f.code, f.amount) for f in record.findings] == [("WRONG_FEE", -10)]


def test_price_taken_for_a_draw_never_served() -> None:
    """A price of 10 for no draw: due -10, recorded -20, all of it WRONG_FEE +10."""
    s = three_boxes().act(1, "stand").act(2, "stand").fee(3, "buy_card", 10)
    record = finish(s).record()
    assert [(f.code, f.amount) for f in record.findings] == [("WRONG_FEE", 10)]


def test_exchange_with_unequal_counts_is_invalid() -> None:
    s = (three_boxes().fee(1, "exchange", 10).act(2, "stand").act(3, "stand")
         .draw(1, "2c 3d 5h", "Ac Ah"))
    assert codes(finish(s).record()) == ["INVALID_DRAW"]


def test_giving_back_a_card_not_held() -> None:
    s = (three_boxes().fee(1, "exchange", 10).act(2, "stand").act(3, "stand")
         .draw(1, "2c Ts", "Ac Ah"))
    assert codes(finish(s).record()) == ["DISCARD_NOT_HELD"]


def test_draw_to_a_folded_box() -> None:
    s = (three_boxes().act(1, "fold").act(2, "stand").act(3, "stand")
         .fee(1, "exchange", 10).draw(1, "2c 3d", "Ac Ah"))
    record = finish(s, seats=(2, 3)).collect(1, "ante", 10).record()
    assert "DRAW_AFTER_FOLD" in codes(record)


def test_cards_changed_after_the_bet() -> None:
    """RP-10: seat 1 is served after its Bet. It pays; its final hand A A 5 9 J is played
    against the dealer's A K: pair of aces wins 20 x 1: -10 price + 20 = +10."""
    s = (Scenario().ante(1, 10).deal(1, CARDS[1]).deal_dealer(DEALER).act(1, "stand")
         .bet(1, 20).fee(1, "exchange", 10).draw(1, "2c 3d", "Ac Ah")
         .turn_dealer(DEALER).pay(1, 20))
    record = s.record()
    assert codes(record) == ["CARDS_CHANGED_AFTER_BET"]
    assert record.findings[0].rule == "RP-10"
    assert expected_net(record)["1"] == 10


def test_box_served_in_order_with_the_left_of_button_reading() -> None:
    """Under ``left_of_button`` (button 2), seat 3 is the first box and seat 1 the last:
    serving 3 then 1 is in order."""
    from services.games.profile import RuleProfile
    from services.games.russian.adjudicate import adjudicate

    base = HOUSE
    sections = {name: dict(values) for name, values in base.sections.items()}
    sections["russian"]["serving_order"] = "left_of_button"
    profile = RuleProfile(name="test", sections=sections)
    s = (three_boxes().fee(1, "exchange", 10).act(2, "stand").fee(3, "buy_card", 10)
         .draw(3, "", "Ks").draw(1, "2c 3d 5h", "Ac Ah 7c"))
    s.events[0][1]["button"] = 2
    outcome = adjudicate(finish(s).hand(), profile)
    assert [f.code for f in outcome.findings] == []
    s2 = (three_boxes().fee(1, "exchange", 10).act(2, "stand").fee(3, "buy_card", 10)
          .draw(1, "2c 3d 5h", "Ac Ah 7c").draw(3, "", "Ks"))
    s2.events[0][1]["button"] = 2
    outcome2 = adjudicate(finish(s2).hand(), profile)
    assert [(f.code, f.seat) for f in outcome2.findings] == [("DRAW_OUT_OF_ORDER", 3)]
