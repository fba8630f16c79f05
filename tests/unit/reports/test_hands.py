"""Final hands from the events of any game, described by that game's evaluator."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from services.events.contract import Event
from services.reports.hands import FinalHand, final_hands
from services.simulator.handbuilder import build_hand, table_config


def _events(game: str, specs: list[tuple[str, dict[str, Any]]], deck: int = 52) -> list[Event]:
    started = ("hand_started", {"button": 1, "designated_player": None, "dealer_id": "d1",
                                "seats": [{"seat": 1, "player_id": "P1", "stack": 500},
                                          {"seat": 2, "player_id": "P2", "stack": 500}],
                                "deck": deck})
    hand = build_hand(table_config(game), [started, *specs, ("hand_ended", {})])
    return list(hand.events)


def _deal(to: str, cards: Sequence[str | None], seat: int | None = None) -> list[tuple[str, dict[str, Any]]]:
    out = []
    for card in cards:
        body: dict[str, Any] = {"to": to, "card": card, "face_up": False}
        if seat is not None:
            body["seat"] = seat
        out.append(("card_dealt", body))
    return out


def _by_holder(hands: list[FinalHand]) -> dict[str, FinalHand]:
    return {h.holder: h for h in hands}


def test_russian_draw_and_dealer_replacement() -> None:
    """Seat 1: As Ks Qs Js 2d, exchanges 2d for Ts -> royal flush. Seat 2: 9c 9d 4h 4s 2c,
    folds -> two pair, nines and fours. Dealer: Ah Kd 7c 5h 3s, replaces Ah by 7d ->
    Kd 7c 7d 5h 3s = one pair, sevens."""
    specs = [*_deal("seat", ["As", "Ks", "Qs", "Js", "2d"], 1),
             *_deal("seat", ["9c", "9d", "4h", "4s", "2c"], 2),
             *_deal("dealer", ["Ah", "Kd", "7c", "5h", "3s"]),
             ("draw", {"seat": 1, "discarded": ["2d"], "received": ["Ts"]}),
             ("action", {"seat": 2, "action": "fold"}),
             ("dealer_replaced_card", {"removed": "Ah", "received": "7d", "burned": []})]
    hands = _by_holder(final_hands(_events("russian", specs), "russian"))
    assert hands["seat 1"].cards == ["As", "Ks", "Qs", "Js", "Ts"]
    assert hands["seat 1"].description == "Royal flush"
    assert hands["seat 1"].player == "P1"
    assert hands["seat 2"].folded and hands["seat 2"].description == "Two pair, nines and fours"
    assert hands["dealer"].cards == ["Kd", "7c", "5h", "3s", "7d"]
    assert hands["dealer"].description == "One pair, sevens"


def test_russian_six_cards_two_combinations() -> None:
    """RP-8: 7h 7d 7c 7s Kh + bought 2c: best five four sevens with the king; the best other
    five (any five holding the 2c) is still four sevens -> described twice."""
    specs = [*_deal("seat", ["7h", "7d", "7c", "7s", "Kh"], 1),
             ("draw", {"seat": 1, "discarded": [], "received": ["2c"]})]
    hand = _by_holder(final_hands(_events("russian", specs), "russian"))["seat 1"]
    assert hand.description == ("Four of a kind, sevens and, second combination (RP-8), "
                                "Four of a kind, sevens")


def test_face_down_unread_card_is_listed_not_ranked() -> None:
    specs = _deal("seat", ["As", "Ks", None, "Js", "Ts"], 1)
    hand = _by_holder(final_hands(_events("russian", specs), "russian"))["seat 1"]
    assert hand.cards == ["As", "Ks", None, "Js", "Ts"] and hand.description is None


def test_shown_cards_complete_an_unread_deal() -> None:
    specs = [*_deal("dealer", [None] * 5),
             ("showdown", {"seat": "dealer", "cards": ["2h", "2d", "2c", "9s", "9h"]})]
    dealer = _by_holder(final_hands(_events("russian", specs), "russian"))["dealer"]
    assert dealer.cards == ["2h", "2d", "2c", "9s", "9h"]
    assert dealer.description == "Full house, twos over nines"


def test_holdem_uses_the_board() -> None:
    """Seat 1 Ah Kh, board Qh Jh Th 2c 3d -> royal flush; seat 2 2s 2d -> three twos."""
    specs = [*_deal("seat", ["Ah", "Kh"], 1), *_deal("seat", ["2s", "2d"], 2),
             *_deal("board", ["Qh", "Jh", "Th", "2c", "3d"])]
    hands = _by_holder(final_hands(_events("holdem", specs), "holdem"))
    assert hands["seat 1"].description == "Royal flush"
    assert hands["seat 2"].description == "Three of a kind, twos"
    assert hands["board"].cards == ["Qh", "Jh", "Th", "2c", "3d"]


def test_holdem_board_correction_moves_a_card() -> None:
    specs = [*_deal("board", ["Qh", "Jh", "Th"]),
             ("card_moved", {"card": "Th", "from": "board", "to": "set_aside"})]
    hands = _by_holder(final_hands(_events("holdem", specs), "holdem"))
    assert hands["board"].cards == ["Qh", "Jh"]


def test_chinese_segments() -> None:
    """front As Ad 3c = one pair, aces; middle 5 spades = flush, king high; back 4 x 9 ->
    four of a kind, nines."""
    cards = ["As", "Ad", "3c", "Ks", "Js", "8s", "6s", "4s", "9c", "9d", "9h", "9s", "2d"]
    specs = [*_deal("seat", cards, 1),
             ("hand_set", {"seat": 1, "front": cards[:3], "middle": cards[3:8],
                           "back": cards[8:]})]
    hand = _by_holder(final_hands(_events("chinese", specs), "chinese"))["seat 1"]
    assert hand.description == ("front: One pair, aces; middle: Flush, king high; "
                                "back: Four of a kind, nines")


def test_draw7a_short_deck() -> None:
    """32-card deck: A 7 8 9 T offsuit is the lowest straight (ace low), ten high."""
    specs = _deal("seat", ["As", "7d", "8c", "9h", "Ts"], 1)
    hand = _by_holder(final_hands(_events("draw7a", specs, deck=32), "draw7a"))["seat 1"]
    assert hand.description == "Straight, ten high"


def test_hcf_longest_flush() -> None:
    """Seven cards Ah Qh 9h 2h Kc 3d 4s: four hearts A-Q-9-2."""
    specs = _deal("seat", ["Ah", "Qh", "9h", "2h", "Kc", "3d", "4s"], 1)
    hand = _by_holder(final_hands(_events("hcf", specs), "hcf"))["seat 1"]
    assert hand.description == "4-card flush A-Q-9-2"


def test_unknown_game_lists_cards() -> None:
    specs = _deal("seat", ["As", "Ks", "Qs", "Js", "Ts"], 1)
    hand = _by_holder(final_hands(_events("russian", specs), None))["seat 1"]
    assert hand.description is None and hand.cards == ["As", "Ks", "Qs", "Js", "Ts"]
