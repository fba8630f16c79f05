"""The ledger's one reading of a hand's movements (``services.ledger.money``), checked on
hands worked out by hand, and the metrics' view of it (``hand_chips``) on the same hands.

Each expected figure is written out from the movements (events.md, "How chips move"),
not taken from the code."""

from __future__ import annotations

from services.events.contract import Movement
from services.ledger.money import HandMoney, hand_money
from services.observability.money import HandChips, hand_chips

EVENT = "00000000-0000-4000-8000-000000000001"


def _m(src: str, dst: str, amount: int, kind: str) -> Movement:
    return Movement(event_id=EVENT, seq=1, from_=src, to=dst, amount=amount, kind=kind)


# An HCF hand against the house: seat 1 wagers ante 10 and raise 20 and wins 20 on the
# raise (house pays); seat 2's ante 10 is lost to the house; 1 chip of rake from seat 1.
HCF_HAND = [
    _m("stack:1", "layout:1", 10, "wager"),
    _m("stack:1", "layout:1", 20, "wager"),
    _m("stack:2", "layout:2", 10, "wager"),
    _m("house", "stack:1", 20, "payout"),
    _m("layout:2", "house", 10, "wager_collected"),
    _m("stack:1", "rake", 1, "rake"),
]

# A Chinese Poker hand: seat 2 pays seat 1 6 points, seat 3 pays seat 1 3 points, each
# payment straight from stack to stack; a 1-chip fee from each of the three stacks.
CHINESE_HAND = [
    _m("stack:2", "stack:1", 6, "collection"),
    _m("stack:3", "stack:1", 3, "collection"),
    _m("stack:1", "rake", 1, "rake"),
    _m("stack:2", "rake", 1, "rake"),
    _m("stack:3", "rake", 1, "rake"),
]

# A hold'em pot of 40 (two bets of 20), 2 of rake taken from the pot, 38 to seat 4.
POT_HAND = [
    _m("stack:4", "pot", 20, "bet"),
    _m("stack:5", "pot", 20, "bet"),
    _m("pot", "rake", 2, "rake"),
    _m("pot", "stack:4", 38, "payout"),
]

# A dead HCF hand (HCF-13): both wagers go back, as does the seat's rake.
DEAD_HAND = [
    _m("stack:1", "layout:1", 10, "wager"),
    _m("stack:1", "rake", 1, "rake"),
    _m("layout:1", "stack:1", 10, "layout_return"),
    _m("house", "stack:1", 5, "payout"),
    _m("rake", "stack:1", 1, "rake_refund"),
]


def test_house_banked_hand() -> None:
    assert hand_money("ok", HCF_HAND) == HandMoney(
        drop=40, payouts=20, rake=1, bank=-10, collected=10)


def test_points_between_players_are_neither_drop_nor_collected_by_a_banker() -> None:
    assert hand_money("ok", CHINESE_HAND) == HandMoney(
        drop=0, payouts=0, rake=3, bank=0, between=9)


def test_rake_from_the_pot_is_counted_apart() -> None:
    assert hand_money("ok", POT_HAND) == HandMoney(
        drop=40, payouts=38, rake=2, bank=0, pot_rake=2)


def test_a_dead_hand_has_no_drop_and_no_payouts_and_its_rake_went_back() -> None:
    assert hand_money("dead", DEAD_HAND) == HandMoney(
        drop=0, payouts=0, rake=0, bank=-5, returned=10, returned_paid=5)


def test_the_metrics_count_the_same_figures() -> None:
    assert hand_chips("ok", HCF_HAND) == HandChips(drop=40, payouts=20, rake=1, collected=10)
    assert hand_chips("ok", CHINESE_HAND) == HandChips(rake=3, between=9)
    assert hand_chips("dead", DEAD_HAND) == HandChips()
    assert hand_chips("ok", None) == HandChips()
