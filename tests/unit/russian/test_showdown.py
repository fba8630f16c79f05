"""RP-5, RP-7, RP-8: dealer qualification, the paytable, ties and two combinations.

Every number below is worked out by hand in the docstrings: Ante 10, so Bet = 2 x 10 = 20,
and a winning box is paid Bet x odds with the Ante returned (net + 20 x odds).
"""

from __future__ import annotations

import pytest

from services.games.russian.evaluation import dealer_qualifies
from tests.unit.russian.scenario import Scenario, codes, expected_net, recorded_net

# Ace-King with 8-6-3: the weakest kind of qualifying hand (RP-5).
DEALER_AK = "Ad Kc 8s 6d 3h"


def played(cards: str, dealer: str, *, seats: dict[int, int] | None = None) -> Scenario:
    """Seat 1, Ante 10, keeps ``cards`` and bets 20 against ``dealer``."""
    return (Scenario(seats or {1: 1000}).ante(1, 10).deal(1, cards).deal_dealer(dealer)
            .act(1, "stand").bet(1, 20).turn_dealer(dealer))


# (row, player's five cards, odds): every RP-7 paytable line beats Ad Kc 8s 6d 3h.
PAYTABLE_ROWS = [
    ("royal_flush", "Ts Js Qs Ks As", 100),
    ("straight_flush", "5h 6h 7h 8h 9h", 50),
    ("four_of_a_kind", "9c 9d 9h 9s 2c", 20),
    ("full_house", "Qc Qd Qh 4c 4d", 7),
    ("flush", "2d 5d 9d Jd Qd", 5),
    ("straight", "4s 5c 6h 7d 8c", 4),
    ("three_of_a_kind", "Jc Jd Js 2h 7c", 3),
    ("two_pair", "Tc Td 5s 5c 2d", 2),
    ("one_pair", "7h 7s Qc 4h 2s", 1),
    ("ace_king", "As Kh Qd 5c 2h", 1),
]


@pytest.mark.parametrize(("row", "cards", "odds"), PAYTABLE_ROWS, ids=[r[0] for r in PAYTABLE_ROWS])
def test_every_paytable_row_pays_the_bet(row: str, cards: str, odds: int) -> None:
    """RP-7: box higher than a qualifying dealer: Ante returned, Bet 20 paid ``odds`` to 1.

    royal 20x100=2000, straight flush 20x50=1000, quads 20x20=400, full house 20x7=140,
    flush 20x5=100, straight 20x4=80, trips 20x3=60, two pair 20x2=40, pair 20x1=20,
    Ace-King (A K Q beats A K 8) 20x1=20. The house pays exactly that.
    """
    win = 20 * odds
    record = played(cards, DEALER_AK).pay(1, win).record()
    assert record.status == "ok", record.findings
    assert expected_net(record) == {"1": win, "house": -win}
    assert recorded_net(record) == expected_net(record)


def test_paytable_row_overridden_by_the_table_posting() -> None:
    """GEN-5 / RP-7: the table posts full house at 8: 20 x 8 = 160 (not the profile's 140)."""
    scenario = played("Qc Qd Qh 4c 4d", DEALER_AK)
    scenario.config["paytables"] = {"bet": {"full_house": 8}}
    record = scenario.pay(1, 160).record()
    assert record.status == "ok", record.findings
    assert expected_net(record)["1"] == 160


def test_unknown_paytable_row_is_a_finding_and_ignored() -> None:
    """GEN-5: a posted row that names no paytable line is ignored: trips still 20x3 = 60."""
    scenario = played("Jc Jd Js 2h 7c", DEALER_AK)
    scenario.config["paytables"] = {"bet": {"five_aces": 500}}
    record = scenario.pay(1, 60).record()
    assert codes(record) == ["UNKNOWN_PAYTABLE_ROW"]
    assert expected_net(record)["1"] == 60


def test_mispaid_row_is_a_mispay_citing_rp7() -> None:
    """Full house paid 5:1 (100) instead of 7:1 (140): underpaid by 40."""
    record = played("Qc Qd Qh 4c 4d", DEALER_AK).pay(1, 100).record()
    mispay = [f for f in record.findings if f.code == "MISPAY"]
    assert len(mispay) == 1 and mispay[0].rule == "RP-7" and mispay[0].amount == -40


# ---------------------------------------------------------------- RP-5 qualification


def test_dealer_with_a_pair_qualifies_and_wins() -> None:
    """Dealer 9-9 beats the box's 4-4: the box loses Ante 10 and Bet 20 = -30."""
    record = (played("4c 4d Kh Jh 2s", "9s 9d Kc 5h 2c")
              .collect(1, "ante", 10).collect(1, "bet", 20).record())
    assert record.status == "ok", record.findings
    assert expected_net(record) == {"1": -30, "house": 30}


def test_dealer_with_a_flush_and_no_ace_king_qualifies() -> None:
    """A flush (no ace, no king) is better than Ace-King: qualifies; trips lose: -30."""
    record = (played("Jc Jd Js 3c 7c", "2h 5h 8h 9h Th")
              .collect(1, "ante", 10).collect(1, "bet", 20).record())
    assert record.status == "ok", record.findings
    assert expected_net(record)["1"] == -30


@pytest.mark.parametrize("dealer", ["Ad Qc 8s 6d 3h", "Kd Qc 8s 6d 3h"],
                         ids=["ace-queen", "king-high"])
def test_dealer_below_ace_king_pays_the_ante_and_returns_the_bet(dealer: str) -> None:
    """RP-5/RP-6: ace without king, or king without ace, does not qualify: Ante 10 paid
    1 to 1 (+10), Bet 20 returned (0): net +10 even for a box holding nothing."""
    assert not dealer_qualifies(dealer.split())
    record = played("2c 4d 7h 9s Jc", dealer).pay(1, 10).record()
    assert record.status == "ok", record.findings
    assert expected_net(record) == {"1": 10, "house": -10}


def test_bet_collected_when_dealer_does_not_qualify_is_a_mispay_citing_rp6() -> None:
    """Dealer A-Q does not qualify: +10 due; the table took the Bet: -20, off by -30."""
    record = played("Tc Td 5s 5c 2d", "Ad Qc 8s 6d 3h").collect(1, "bet", 20).record()
    mispay = [f for f in record.findings if f.code == "MISPAY"]
    assert [(f.rule, f.amount) for f in mispay] == [("RP-6", -30)]


# ---------------------------------------------------------------- RP-7 ties


def test_equal_category_decided_by_the_next_card_for_the_box() -> None:
    """A K Q 7 5 against A K Q 7 4: the fifth card decides for the box: Ace-King 1:1 = +20."""
    record = played("As Kh Qd 7c 5h", "Ad Kc Qs 7s 4h").pay(1, 20).record()
    assert record.status == "ok", record.findings
    assert expected_net(record)["1"] == 20


def test_equal_pairs_decided_by_the_kicker_for_the_dealer() -> None:
    """9-9 with A K 4 against the dealer's 9-9 with A K 5: the dealer wins: -30."""
    record = (played("9c 9h Ah Kd 4s", "9s 9d As Kc 5h")
              .collect(1, "ante", 10).collect(1, "bet", 20).record())
    assert record.status == "ok", record.findings
    assert expected_net(record)["1"] == -30


def test_identical_hands_push() -> None:
    """A K Q 7 5 against A K Q 7 5 (suits do not count): push, everything stays: 0."""
    record = played("As Kh Qd 7c 5h", "Ad Kc Qs 7s 5d").record()
    assert record.status == "ok", record.findings
    assert expected_net(record) == {"1": 0, "house": 0}


# ---------------------------------------------------------------- RP-8 two combinations


def bought_sixth(five: str, sixth: str, dealer: str) -> Scenario:
    """Seat 1, Ante 10, buys a sixth card for 10, bets 20."""
    return (Scenario().ante(1, 10).deal(1, five).deal_dealer(dealer)
            .fee(1, "buy_card", 10).draw(1, "", sixth).bet(1, 20).turn_dealer(dealer))


def test_six_cards_paid_for_two_combinations() -> None:
    """J J J 7 2 + 7: best five J J J 7 7 full house (7), best other five J J J 7 2 three of
    a kind (3): Bet 20 x (7 + 3) = 200, less the sixth card's price 10: net +190."""
    record = bought_sixth("Jc Jd Js 2h 7c", "7d", DEALER_AK).pay(1, 200).record()
    assert record.status == "ok", record.findings
    assert expected_net(record) == {"1": 190, "house": -190}
    assert [f.rule for f in record.findings] == []


def test_second_combination_below_ace_king_is_not_paid() -> None:
    """4 5 6 7 8 straight + 2c: every other five of the six is high card without A-K, so
    only the straight is paid: 20 x 4 = 80, less the price 10: net +70."""
    record = bought_sixth("4s 5c 6h 7d 8c", "2c", DEALER_AK).pay(1, 80).record()
    assert record.status == "ok", record.findings
    assert expected_net(record)["1"] == 70


def test_two_combinations_need_the_better_one_to_beat_the_dealer() -> None:
    """Six cards 5-5 / 5-5-x pairs against dealer K-K: the best (pair of 5s) loses, nothing is
    paid for either: Ante 10 + Bet 20 + price 10 = -40."""
    record = (bought_sixth("5c 5d 9h 7s 2d", "3c", "Ks Kd 8s 6d 4h")
              .collect(1, "ante", 10).collect(1, "bet", 20).record())
    assert record.status == "ok", record.findings
    assert expected_net(record)["1"] == -40
