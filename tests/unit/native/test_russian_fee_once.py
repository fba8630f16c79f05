"""A wrong draw price (RP-2) is one finding, WRONG_FEE; the MISPAY is the payout alone.

QA (hand T002-000023): a box paid 20 for an exchange priced 10 and its Bet was paid right
(1 to 1); the record carried WRONG_FEE RP-2 +10 *and* MISPAY RP-7 -10 for the same ten
chips, and an officer settling both would refund twice. The MISPAY compares what the
rules pay (RP-7 here) with what was paid, leaving out the price difference WRONG_FEE
already reports; the record's expected and recorded nets are unchanged.

One hand, worked by hand: seat 1, Ante 10, dealt Qs Qh 7d 4c 2s, exchanges 4c 2s for
9h 8c (price 1x Ante = 10), plays Bet 20 with a pair of queens. The dealer's
Ad Kc 8s 6d 3h is Ace-King: he qualifies (RP-5) and loses to the pair (RP-7): Ante
returned, Bet paid 1 to 1 = 20. Expected net: +20 - 10 (price) = +10; house -10.
The table takes ``fee`` for the exchange and pays ``paid``: recorded net = paid - fee.

Every case runs through both engines (the Python reference and the core) and their
records are compared byte for byte.
"""

from __future__ import annotations

import pytest

from services.events.contract import AdjudicationRecord
from tests.profiles import PROFILES
from tests.unit.native.rules_support import both_engines as judged_by_both
from tests.unit.russian.scenario import Scenario

DEALER = "Ad Kc 8s 6d 3h"


def hand(fee: int | None, paid: int) -> Scenario:
    """The hand above; ``fee`` None: the exchange is served with no price taken."""
    s = Scenario({1: 1000}).ante(1, 10).deal(1, "Qs Qh 7d 4c 2s").deal_dealer(DEALER)
    if fee is None:
        s.act(1, "stand")
    else:
        s.fee(1, "exchange", fee)
    return s.draw(1, "4c 2s", "9h 8c").bet(1, 20).turn_dealer(DEALER).pay(1, paid)


def both_engines(s: Scenario) -> AdjudicationRecord:
    """The reference's record of the scenario's hand, the core's the same bytes."""
    return judged_by_both(s.hand(), PROFILES)


def found(record: AdjudicationRecord) -> list[tuple[str, str, str, int | None, int | None]]:
    return [(f.code, f.rule, f.severity, f.seat, f.amount) for f in record.findings]


def nets(record: AdjudicationRecord) -> tuple[dict[str, int], dict[str, int]]:
    assert record.expected is not None and record.recorded is not None
    return record.expected.net, record.recorded.net


def reconciles(record: AdjudicationRecord) -> None:
    """Each side conserves chips (GEN-8: seat + house = 0, no NOT_CONSERVED), and the
    seat's recorded - expected is the MISPAY less the WRONG_FEE (paid - due lowers the
    seat's net): each chip of the difference is in exactly one finding."""
    expected, recorded = nets(record)
    assert sum(expected.values()) == 0 and sum(recorded.values()) == 0
    assert "NOT_CONSERVED" not in [f.code for f in record.findings]
    mispay = sum(f.amount or 0 for f in record.findings if f.code == "MISPAY")
    fee = sum(f.amount or 0 for f in record.findings if f.code == "WRONG_FEE")
    assert recorded["1"] - expected["1"] == mispay - fee


WARN, CRIT = "warning", "critical"


def test_right_price_and_payout_is_ok() -> None:
    """fee 10, paid 20: recorded 20 - 10 = +10 = expected; nothing to report."""
    record = both_engines(hand(10, 20))
    assert record.status == "ok" and record.findings == []
    assert nets(record) == ({"1": 10, "house": -10}, {"1": 10, "house": -10})


@pytest.mark.parametrize(("fee", "paid", "recorded", "wrong_fee"), [
    # overpaid price: 20 for 10; recorded 20 - 20 = 0; WRONG_FEE 20 - 10 = +10 (QA's hand)
    (20, 20, 0, 10),
    # underpaid price: 5 for 10; recorded 20 - 5 = +15; WRONG_FEE 5 - 10 = -5
    (5, 20, 15, -5),
    # no price at all: recorded 20 - 0 = +20; WRONG_FEE 0 - 10 = -10
    (None, 20, 20, -10),
])
def test_a_wrong_price_alone_is_one_wrong_fee_and_no_mispay(
        fee: int | None, paid: int, recorded: int, wrong_fee: int) -> None:
    """The Bet is paid right (20); the seat's whole difference from +10 is the price,
    reported once as WRONG_FEE. The nets stay as the events give them."""
    record = both_engines(hand(fee, paid))
    assert found(record) == [("WRONG_FEE", "RP-2", WARN, 1, wrong_fee)]
    assert nets(record) == ({"1": 10, "house": -10}, {"1": recorded, "house": -recorded})
    assert record.status == "discrepancy"
    reconciles(record)


def test_a_wrong_payout_alone_is_one_mispay() -> None:
    """fee 10 (right), paid 10 instead of 20: recorded 10 - 10 = 0, expected +10:
    MISPAY RP-7 0 - 10 = -10, with today's message; no WRONG_FEE."""
    record = both_engines(hand(10, 10))
    assert found(record) == [("MISPAY", "RP-7", CRIT, 1, -10)]
    assert record.findings[0].message == ("seat 1: recorded +0 chips before rake, RP-7 gives "
                                          "+10; underpaid by 10")
    reconciles(record)


@pytest.mark.parametrize(("fee", "paid", "recorded", "wrong_fee", "mispay", "tail"), [
    # price 20 (+10 over), paid 10 (10 short): recorded 10 - 20 = -10; the difference
    # -20 is -10 of price and -10 of payout: MISPAY -10 - 10 + 10 = -10
    (20, 10, -10, 10, -10, "price paid 10 over (reported as WRONG_FEE), underpaid by 10"),
    # price 20 (+10 over), paid 30 (10 over): recorded 30 - 20 = +10 = expected, yet two
    # errors cancel: MISPAY 10 - 10 + 10 = +10 (the comparison of nets alone saw nothing)
    (20, 30, 10, 10, 10, "price paid 10 over (reported as WRONG_FEE), overpaid by 10"),
    # price 5 (5 short), paid 25 (5 over): recorded 25 - 5 = +20; the difference +10 is
    # +5 of price and +5 of payout: MISPAY 20 - 10 - 5 = +5
    (5, 25, 20, -5, 5, "price paid 5 short (reported as WRONG_FEE), overpaid by 5"),
])
def test_a_wrong_price_and_a_wrong_payout_are_two_findings_each_with_its_amount(
        fee: int, paid: int, recorded: int, wrong_fee: int, mispay: int, tail: str) -> None:
    record = both_engines(hand(fee, paid))
    assert found(record) == [("WRONG_FEE", "RP-2", WARN, 1, wrong_fee),
                             ("MISPAY", "RP-7", CRIT, 1, mispay)]
    assert record.findings[1].message == (f"seat 1: recorded {recorded:+d} chips before "
                                          f"rake, RP-7 gives +10; leaving out the {tail}")
    assert nets(record) == ({"1": 10, "house": -10}, {"1": recorded, "house": -recorded})
    reconciles(record)
