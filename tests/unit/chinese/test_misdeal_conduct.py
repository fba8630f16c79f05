"""CP-11 misdeals, CP-12 conduct, CP-9 buy-ins, CP-1 dead seats."""

from __future__ import annotations

from services.games.chinese.adjudicate import adjudicate
from services.games.model import BuyRecord, HandInput, TableContext
from tests.profiles import HOUSE
from tests.unit.chinese.scenario import codes, config, hand_set, make_hand, outcome
from tests.unit.chinese.test_scoring import H_A, H_B

PAIR = {1: H_A, 2: H_B}  # seat 1 wins 1 point from seat 2


def _exposed(seat: int, cards: str) -> list[tuple[str, dict[str, object]]]:
    return [("card_exposed", {"seat": seat, "card": c, "cause": "dealer_error"})
            for c in cards.split()]


def test_cp11_recorded_misdeal_voids_the_hand() -> None:
    """A misdeal was called before anybody set: nothing scored, no rake, dead."""
    result = outcome(PAIR, config(rake_mode="all", fee=2), unset=[1, 2], open_hands=False,
                     before_opening=[("misdeal", {"reason": "hands given to wrong seats"})])
    assert result.dead
    assert result.net == {1: 0, 2: 0} and result.rake == {} and result.house == 0
    assert result.seat_rules == {1: "CP-11", 2: "CP-11"}
    assert "FOULED_HAND" not in codes(result)


def test_cp11_misdeal_after_a_hand_was_set_without_visible_cause() -> None:
    """Seat 1 had set its hand; no exposed or miscounted hand: the misdeal is honoured (the
    hand is dead) but questioned."""
    result = outcome(PAIR, unset=[2], open_hands=False,
                     before_opening=[("misdeal", {"reason": "dealer says wrong seats"})])
    assert result.dead
    assert "MISDEAL_WITHOUT_CAUSE" in codes(result)


def test_cp11_five_exposed_cards_not_called_voids_the_hand() -> None:
    """The dealer exposed five of seat 2's cards and the hand was played on: misdeal not
    called (critical); the hand is void, so nothing is due (seat 1's 1 point included)."""
    result = outcome(PAIR, before_opening=_exposed(2, "2c 3c 5d Jc Jd"))
    assert "MISDEAL_NOT_CALLED" in codes(result)
    assert result.dead and result.net == {1: 0, 2: 0}


def test_cp11_four_exposed_cards_is_no_misdeal() -> None:
    result = outcome(PAIR, before_opening=_exposed(2, "2c 3c 5d Jc"))
    assert "MISDEAL_NOT_CALLED" not in codes(result)
    assert result.net == {1: 1, 2: -1}


def test_cp11_wrong_number_of_cards_not_called() -> None:
    """Seat 2 was dealt 12 cards (its 7c never came): a misdeal nobody called."""
    dealt = {2: "2c 3c 5d Jc Jd 4c 5c 8d Tc Td Th 6c"}
    result = outcome(PAIR, dealt=dealt)
    assert "MISDEAL_NOT_CALLED" in codes(result)
    assert any("12 cards" in f.message for f in result.findings)


def test_gen6_hand_dead() -> None:
    result = outcome(PAIR, before_opening=[("hand_dead", {"reason": "shoe error"})])
    assert result.dead and result.seat_rules == {1: "GEN-6", 2: "GEN-6"}


def test_cp12_hand_opened_before_the_last_player_set() -> None:
    """Seat 1's hand is opened while seat 2 has not set; seat 2 sets afterwards, which still
    counts (the opener is at fault): seat 1 wins 1 point."""
    late_set = hand_set(2, H_B)
    result = outcome(PAIR, unset=[2], after_opening=[late_set])
    found = [f for f in result.findings if f.code == "HAND_OPENED_EARLY"]
    assert len(found) == 1 and found[0].seat == 1 and "seat(s) 2" in found[0].message
    assert result.net == {1: 1, 2: -1}


def test_cp12_hand_changed_after_opening_is_ignored() -> None:
    """Seat 2 re-sets its hand after the opening (to a foul): the first setting counts."""
    reset = hand_set(2, ("Tc Td Th", "2c 3c 5d Jc Jd", "4c 5c 8d 6c 7c"))
    result = outcome(PAIR, after_opening=[reset])
    assert "HAND_CHANGED_AFTER_OPENING" in codes(result)
    assert result.net == {1: 1, 2: -1}


def test_cp12_player_shows_cards_while_they_are_out() -> None:
    shown = ("card_exposed", {"seat": 2, "card": "Tc", "cause": "player"})
    result = outcome(PAIR, before_opening=[shown])
    assert "HAND_SHOWN_EARLY" in codes(result)


def test_cp12_new_player_on_the_button() -> None:
    result = outcome(PAIR, button=1, context={"new_seats": frozenset({1}), "hands_played": 7})
    assert "NEW_PLAYER_ON_BUTTON" in codes(result)


def test_cp12_new_player_dealt_the_first_hand() -> None:
    """Button 1: seat 2 (left of the button) is dealt first."""
    result = outcome(PAIR, button=1, context={"new_seats": frozenset({2}), "hands_played": 7})
    assert "NEW_PLAYER_FIRST_HAND" in codes(result)


def test_cp12_first_hand_of_the_table_is_exempt() -> None:
    """Nobody played before: every player is new, so the button has to go to one of them."""
    result = outcome(PAIR, button=1, context={"new_seats": frozenset({1, 2})})
    assert not {"NEW_PLAYER_FIRST_HAND", "NEW_PLAYER_ON_BUTTON"} & set(codes(result))


def test_cp12_a_reopened_table_whose_every_player_is_new_is_exempt() -> None:
    """The table played 7 hands, emptied, and both players sat down again: like the first
    hand, every seat is new, so no seat can take the button or the first hand without a
    new player (QA helper 98: both findings were raised)."""
    result = outcome(PAIR, button=1, context={"new_seats": frozenset({1, 2}), "hands_played": 7})
    assert not {"NEW_PLAYER_FIRST_HAND", "NEW_PLAYER_ON_BUTTON"} & set(codes(result))


def test_cp12_new_player_elsewhere_is_fine() -> None:
    """Button 4, seats 1..3 play: the first hand is seat 1's; new seat 2 is fine (its stack,
    1000, is over the 20-point minimum)."""
    result = outcome({2: H_A, 3: H_B}, button=4, context={"new_seats": frozenset({2}), "hands_played": 7})
    assert not {"NEW_PLAYER_FIRST_HAND", "NEW_PLAYER_ON_BUTTON",
                "BUY_IN_BELOW_MINIMUM"} & set(codes(result))


def test_cp9_new_player_below_minimum_buy_in() -> None:
    """Point value 5: the minimum buy-in is 20 x 5 = 100; new seat 3 starts with 95."""
    result = outcome({2: H_A, 3: H_B}, config(point_value=5), button=4,
                     stacks={2: 1000, 3: 95}, context={"new_seats": frozenset({3}), "hands_played": 7})
    found = [f for f in result.findings if f.code == "BUY_IN_BELOW_MINIMUM"]
    assert [f.seat for f in found] == [3] and found[0].amount == 95


def test_cp9_exact_minimum_is_enough() -> None:
    result = outcome({2: H_A, 3: H_B}, config(point_value=5), button=4,
                     stacks={2: 1000, 3: 100}, context={"new_seats": frozenset({3}), "hands_played": 7})
    assert "BUY_IN_BELOW_MINIMUM" not in codes(result)


def _with_buys(hand: HandInput, buys: list[BuyRecord]) -> HandInput:
    t = hand.table
    table = TableContext(table_id=t.table_id, config=t.config,
                             config_authorized=t.config_authorized, seated=t.seated,
                             buys=tuple(buys))
    return HandInput(table=table, hand_id=hand.hand_id, events=hand.events)


def test_cp9_second_short_buy_without_a_full_buy() -> None:
    """Point value 5, minimum 100. Seat 2 sat with 200 (full), short-bought 50 (allowed:
    one after a full buy), and since the previous hand short-bought 50 again: finding."""
    buys = [BuyRecord(2, "seated", 200, 3, False), BuyRecord(2, "short_buy", 50, 40, False),
            BuyRecord(2, "short_buy", 50, 90, True)]
    hand = _with_buys(make_hand(PAIR, config(point_value=5)), buys)
    result = adjudicate(hand, HOUSE)
    found = [f for f in result.findings if f.code == "SHORT_BUY_NOT_ALLOWED"]
    assert [f.seat for f in found] == [2]


def test_cp9_short_buy_after_a_new_full_buy_is_allowed() -> None:
    """Seat 2: sat 200, short 50, full buy_in 100, short 50: each short buy follows a full
    buy. No finding."""
    buys = [BuyRecord(2, "seated", 200, 3, False), BuyRecord(2, "short_buy", 50, 40, False),
            BuyRecord(2, "buy_in", 100, 60, False), BuyRecord(2, "short_buy", 50, 90, True)]
    hand = _with_buys(make_hand(PAIR, config(point_value=5)), buys)
    result = adjudicate(hand, HOUSE)
    assert "SHORT_BUY_NOT_ALLOWED" not in codes(result)


def test_cp9_old_violations_are_not_reported_again() -> None:
    """The second short buy happened before the previous hand: reported then, not now."""
    buys = [BuyRecord(2, "seated", 200, 3, False), BuyRecord(2, "short_buy", 50, 40, False),
            BuyRecord(2, "short_buy", 50, 45, False)]
    hand = _with_buys(make_hand(PAIR, config(point_value=5)), buys)
    assert "SHORT_BUY_NOT_ALLOWED" not in codes(adjudicate(hand, HOUSE))


def test_cp9_short_buy_during_the_hand_judged_against_history() -> None:
    """History: sat 200, short 50. During the hand (GEN-3 flags that too): short 40 — the
    second short buy since the full buy: finding."""
    buys = [BuyRecord(2, "seated", 200, 3, False), BuyRecord(2, "short_buy", 50, 40, False)]
    during = ("chips_changed", {"seat": 2, "amount": 40, "kind": "short_buy"})
    hand = _with_buys(make_hand(PAIR, config(point_value=5), before_opening=[during]), buys)
    assert "SHORT_BUY_NOT_ALLOWED" in codes(adjudicate(hand, HOUSE))


def test_cp1_empty_seat_hand_is_dead() -> None:
    """Seat 3 is not dealt in but a hand was set for it: finding; it takes no part."""
    ghost = hand_set(3, ("Ah Ks Qs", "9c 9d 9h 9s 2d", "Ts Js Qh Kh Ad"))
    result = outcome(PAIR, before_opening=[ghost])
    assert "DEAD_SEAT_PLAYED" in codes(result)
    assert result.net == {1: 1, 2: -1}


def test_set_cards_must_be_the_cards_dealt() -> None:
    """Seat 2 was dealt 7c but set 7s in its place: a card was switched (critical)."""
    dealt = {2: "2c 3c 5d Jc Jd 4c 5c 8d Tc Td Th 6c 7c"}
    switched = {1: H_A, 2: ("2c 3c 5d", "Jc Jd 4c 5c 8d", "Tc Td Th 6c 7s")}
    result = outcome(switched, dealt=dealt)
    found = [f for f in result.findings if f.code == "SET_CARDS_NOT_DEALT"]
    assert len(found) == 1 and found[0].severity == "critical" and "7s" in found[0].message


def test_a_card_set_twice_is_named_as_set_more_often_than_dealt() -> None:
    """QA: seat 2 set Tc twice (6c dealt, never set); the finding said "set but not dealt:
    Tc" of a card it was dealt."""
    dealt = {2: "2c 3c 5d Jc Jd 4c 5c 8d Tc Td Th 6c 7c"}
    twice = {1: H_A, 2: ("2c 3c 5d", "Jc Jd 4c 5c 8d", "Tc Td Th Tc 7c")}
    result = outcome(twice, dealt=dealt)
    found = [f for f in result.findings if f.code == "SET_CARDS_NOT_DEALT"]
    assert [f.message for f in found] == [
        "seat 2 set other cards than it was dealt (set more often than dealt: Tc; dealt but "
        "not set: 6c): a card was switched or set twice"]
