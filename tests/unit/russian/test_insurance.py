"""RP-4 insurance: paid, lost, returned as a wrong bet, limits, and "insurance closed".

Ante 10, Bet 20 unless stated. Insurance limits: at least 1x Ante, at most half the
royal payout of the box = 100 x Bet / 2.
"""

from __future__ import annotations

from tests.unit.russian.scenario import Scenario, codes, expected_net

QUALIFIES = "Ad Kc 8s 6d 3h"  # Ace-King
NO_GAME = "Ad Qc 8s 6d 3h"  # ace without king


def insured(cards: str, dealer: str, insurance: int, ante: int = 10) -> Scenario:
    return (Scenario().ante(1, ante).deal(1, cards).deal_dealer(dealer).act(1, "stand")
            .bet(1, 2 * ante).insure(1, insurance))


def test_insurance_paid_when_the_dealer_does_not_qualify() -> None:
    """J J J insured 10; no game: Ante paid 10, Bet returned, insurance paid 10: +20."""
    record = (insured("Jc Jd Js 2h 7c", NO_GAME, 10).turn_dealer(NO_GAME)
              .act(1, "decline_dealer_game").pay(1, 10).pay(1, 10, "insurance").record())
    assert record.status == "ok", record.findings
    assert expected_net(record) == {"1": 20, "house": -20}


def test_insurance_lost_when_the_dealer_qualifies() -> None:
    """J J J beats Ace-King: Bet 20 x 3 = +60; insurance 10 lost: +50."""
    record = (insured("Jc Jd Js 2h 7c", QUALIFIES, 10).turn_dealer(QUALIFIES)
              .pay(1, 60).collect(1, "insurance", 10).record())
    assert record.status == "ok", record.findings
    assert expected_net(record)["1"] == 50


def test_insurance_on_a_weaker_hand_is_returned() -> None:
    """Two pair is below three of a kind: the insurance 10 is returned as a wrong bet (it
    stays on the layout and goes back), two pair beats Ace-King: 20 x 2 = +40."""
    record = (insured("Tc Td 5s 5c 2d", QUALIFIES, 10).turn_dealer(QUALIFIES)
              .pay(1, 40).record())
    assert record.status == "ok", record.findings
    assert expected_net(record)["1"] == 40


def test_collecting_a_wrong_bet_insurance_is_a_mispay_citing_rp4() -> None:
    """The table took the two-pair box's insurance: recorded 40 - 10 = 30, due 40. The
    Bet was paid right; only the insurance is wrong, so the MISPAY cites RP-4."""
    record = (insured("Tc Td 5s 5c 2d", QUALIFIES, 10).turn_dealer(QUALIFIES)
              .pay(1, 40).collect(1, "insurance", 10).record())
    assert [(f.code, f.rule, f.amount) for f in record.findings] == [("MISPAY", "RP-4", -10)]


def test_insurance_paid_though_the_dealer_qualifies_is_a_mispay_citing_rp4() -> None:
    """Issue #20: J J J beats the dealer's Ace-King, the Bet 20 x 3 = 60 is paid right, but
    the table also paid the insurance 10 instead of taking it: recorded +70, due +50. The
    rule the table broke is RP-4 (insurance loses when the dealer qualifies), not RP-7."""
    record = (insured("Jc Jd Js 2h 7c", QUALIFIES, 10).turn_dealer(QUALIFIES)
              .pay(1, 60).pay(1, 10, "insurance").record())
    assert [(f.code, f.rule, f.amount) for f in record.findings] == [("MISPAY", "RP-4", 20)]


def test_a_wrong_bet_payout_with_the_insurance_right_still_cites_rp7() -> None:
    """Same hand, the insurance taken as it should be but the Bet paid 40 instead of 60:
    the MISPAY (-20) cites RP-7, the rule of the part the table got wrong."""
    record = (insured("Jc Jd Js 2h 7c", QUALIFIES, 10).turn_dealer(QUALIFIES)
              .pay(1, 40).collect(1, "insurance", 10).record())
    assert [(f.code, f.rule, f.amount) for f in record.findings] == [("MISPAY", "RP-7", -20)]


def test_insurance_below_one_ante_is_returned() -> None:
    """5 < 1x Ante 10: out of limits, returned: only the Ante is paid: +10."""
    record = (insured("Jc Jd Js 2h 7c", NO_GAME, 5).turn_dealer(NO_GAME).pay(1, 10).record())
    assert codes(record) == ["INSURANCE_OUT_OF_LIMITS"]
    assert expected_net(record)["1"] == 10


def test_insurance_above_half_the_royal_payout_is_cut_to_it() -> None:
    """Ante 1, Bet 2: the maximum is 100 x 2 / 2 = 100. Insurance 150: 100 plays, 50 is
    returned. No game: Ante 1 paid + insurance 100 paid = +101."""
    record = (insured("Jc Jd Js 2h 7c", NO_GAME, 150, ante=1).turn_dealer(NO_GAME)
              .pay(1, 1).pay(1, 100, "insurance").record())
    assert codes(record) == ["INSURANCE_OUT_OF_LIMITS"]
    assert expected_net(record)["1"] == 101


def test_insurance_at_the_exact_limits_is_accepted() -> None:
    """Ante 1, Bet 2: insurance 1 (the minimum) and, separately, 100 (the maximum)."""
    for amount in (1, 100):
        record = (insured("Jc Jd Js 2h 7c", NO_GAME, amount, ante=1).turn_dealer(NO_GAME)
                  .pay(1, 1).pay(1, amount, "insurance").record())
        assert record.status == "ok", (amount, record.findings)
        assert expected_net(record)["1"] == 1 + amount


def test_insurance_after_the_dealer_turns_is_late_and_void() -> None:
    """Insurance put down after the dealer's cards were turned (no game visible): it does
    not play. Due +10 (Ante); the table also paid the late insurance 10: MISPAY +10."""
    record = (Scenario().ante(1, 10).deal(1, "Jc Jd Js 2h 7c").deal_dealer(NO_GAME)
              .act(1, "stand").bet(1, 20).turn_dealer(NO_GAME).insure(1, 10)
              .pay(1, 10).pay(1, 10, "insurance").record())
    assert sorted(codes(record)) == ["LATE_INSURANCE", "MISPAY"]
    assert expected_net(record)["1"] == 10


def test_insurance_of_a_folded_box_is_returned() -> None:
    """The box folds (loses Ante 10); its insurance 10 goes back: -10."""
    record = (Scenario().ante(1, 10).deal(1, "Jc Jd Js 2h 7c").deal_dealer(QUALIFIES)
              .act(1, "fold").insure(1, 10).turn_dealer(QUALIFIES).collect(1, "ante", 10)
              .record())
    assert record.status == "ok", record.findings
    assert expected_net(record)["1"] == -10
