"""Events within their contract never make a record beyond the record contract's bound
(every integer within +/- 2^53 - 1: ``services.adjudicator.record_bound``).

QA (helper 68): a High Card Flush table with ``max_wager`` 2^53 - 1, a player with a stack
of 2^53 - 1 and an Ante of 2^52: GEN-2 asks for Ante + 3 Antes = 2^54, so the
INSUFFICIENT_STAKE's amount was 2^54 - (2^53 - 1) = 2^53 + 1, beyond the bound, and the
ledger refused the adjudicator's own record. Now the finding stands with its amount stated
at 2^53 - 1 and the exact number in its message, the same bytes from both engines; a
settlement beyond the bound (chips themselves) rejects the hand (HAND_REJECTED, GEN-8).
"""

from __future__ import annotations

from typing import Any

import msgspec
import orjson

from services.adjudicator.adjudicate import adjudicate_hand
from services.adjudicator.native_runner import NativeRunner
from services.events.contract import decode_record, encode_record
from services.games.model import HandInput
from services.games.profile import Profiles
from services.simulator.run import simulate
from tests.profiles import HOUSE
from tests.unit.hcf import scenario as hcf
from tests.unit.native.rules_support import both_engines, house_with, records
from tests.unit.reports.logs import rechain

MAX = 2**53 - 1
PROFILES = Profiles({HOUSE.name: house_with("hcf", {})})
DP6 = "Ah Kh Qh 9h 5h 2h 3c"  # six hearts, A-K-Q-9: the DP qualifies (HCF-7)
WINS6 = "Ad Kd Qd Jd 6d 5d 4c"  # six diamonds, A-K-Q-J: beats the DP


def folds_a_huge_ante() -> HandInput:
    """Seat 2 (stack 2^53 - 1) puts an Ante of 2^52 at a table whose max is 2^53 - 1 and
    folds; the DP (seat 1) collects it. No rake."""
    return hcf.hand(hcf.config(max_wager=MAX), hcf.started(1, {1: 500, 2: MAX}),
                    hcf.wager(2, "ante", 2**52), hcf.deal({1: DP6, 2: WINS6}, dp=1),
                    hcf.fold(2), hcf.collect(2, "ante", 2**52), hcf.ended())


def test_a_stake_shortfall_beyond_the_bound_is_stated_at_it_by_both_engines() -> None:
    """Ante 2^52 + a raise of 3 x 2^52 = 2^54 needed (house-v1: 3x Ante, no fee), the seat
    has 2^53 - 1: short by 2^54 - 2^53 + 1 = 9007199254740993, stated as 9007199254740991.
    The DP +2^52, seat 2 -2^52: within the bound, booked as they are."""
    record = both_engines(folds_a_huge_ante(), PROFILES)
    stake = [f for f in record.findings if f.code == "INSUFFICIENT_STAKE"]
    assert [(f.rule, f.seat, f.amount) for f in stake] == [("GEN-2", 2, 9007199254740991)]
    assert "can require 18014398509481984" in stake[0].message
    assert ("(amount 9007199254740993 chips: beyond the record's bound of 9007199254740991, "
            "stated as 9007199254740991)") in stake[0].message
    assert record.recorded is not None and record.recorded.net == {
        "1": 4503599627370496, "2": -4503599627370496, "house": 0}
    decode_record(encode_record(record))  # within the record contract: the ledger takes it


def paid_twice_the_bound() -> HandInput:
    """Seat 2 (Ante 10, raise 10) beats the DP and is paid 2^53 - 1 twice: each payout
    within the event contract, the seat's recorded net 2^54 - 2 - 20 + 20 beyond the
    record's bound."""
    return hcf.hand(hcf.config(), hcf.started(1, {1: MAX, 2: 500}),
                    hcf.wager(2, "ante", 10), hcf.deal({1: DP6, 2: WINS6}, dp=1),
                    hcf.raise_(2, 10), hcf.show(1, DP6), hcf.show(2, WINS6),
                    hcf.pay(2, MAX), hcf.pay(2, MAX), hcf.ended())


def test_a_settlement_beyond_the_bound_rejects_the_hand_and_the_core_leaves_it_to_python(
) -> None:
    """Chips that cannot be stated cannot be booked or checked for GEN-8: the record is
    ``rejected`` with a critical HAND_REJECTED (GEN-8) naming the side and its largest
    value, the other findings kept (the two MISPAYs, stated at the bound). The core hands
    such a hand to the Python rules (a deferral), so the bytes are the reference's."""
    hand = paid_twice_the_bound()
    record = adjudicate_hand(hand, PROFILES)
    assert record.status == "rejected" and record.recorded is None and record.expected is None
    last = record.findings[-1]
    assert (last.code, last.rule, last.severity) == ("HAND_REJECTED", "GEN-8", "critical")
    assert last.message.startswith("the recorded settlement: 18014398509481982 chips, beyond "
                                   "the 9007199254740991 an adjudication record can state")
    mispay = [f for f in record.findings if f.code == "MISPAY"]
    assert [(f.seat, f.amount) for f in mispay] == [(1, -MAX), (2, MAX)]
    decode_record(encode_record(record))
    native, why = NativeRunner(PROFILES).adjudicate_hand(hand)
    assert native is None and why is not None and "bound" in why


def huge_ante_lines() -> list[bytes]:
    """The QA run in small: one clean HCF table, its limit raised to 2^53 - 1 and the first
    Ante of hand T001-000003 made 2^52 (within the event contract), the chain hashed
    again."""
    log = simulate(["hcf"], 1, 6, 3, frozenset(), 0.0, profile=HOUSE)
    done = {"ante": False}

    def edit(event: dict[str, Any]) -> None:
        if event["type"] == "table_configured":
            event["data"]["limits"]["max_wager"] = MAX
        if (event["type"] == "wager" and event.get("hand_id") == "T001-000003"
                and event["data"]["kind"] == "ante" and not done["ante"]):
            event["data"]["amount"] = 2**52
            done["ante"] = True

    events = rechain(log.events, edit)
    assert done["ante"]
    return [orjson.dumps(e) for e in events]


def test_the_qa_log_gives_the_same_bytes_within_the_contract_from_both_engines() -> None:
    """The whole log through both runners (structs and the core's own bytes): the same
    records, every one within the record contract, hand T001-000003 with its GEN-2
    shortfall stated at the bound."""
    ref, nat, _ = records(huge_ante_lines(), PROFILES, closed_hands=False)
    assert ref == nat
    decoded = [decode_record(r) for r in ref]
    (hand,) = [r for r in decoded if r.hand_id == "T001-000003"]
    assert ("INSUFFICIENT_STAKE", MAX) in [(f.code, f.amount) for f in hand.findings]


def test_every_record_of_the_edge_hands_meets_the_record_contract() -> None:
    """Both hands' records decode under the contract (before: the first raised)."""
    for hand in (folds_a_huge_ante(), paid_twice_the_bound()):
        try:
            decode_record(encode_record(adjudicate_hand(hand, PROFILES)))
        except msgspec.ValidationError as exc:  # pragma: no cover - the failure message
            raise AssertionError(f"{hand.hand_id}: {exc}") from exc
