"""TH-9 with a showdown hand unknown (QA, "a cheat goes unseen"): who won cannot be said,
but some payouts are wrong whatever the unknown cards are, and they are mispays.

A folded seat wins no pot; a seat wins only the pots its contribution reaches; a pot
between known hands goes to the best of them; a pot with an unknown hand in it goes to
an unknown hand or to the best known one. Each seat's net before rake therefore lies
between what it surely gets and that plus every uncertain pot it could win: outside,
MISPAY (TH-9) and ``discrepancy``; inside, ``unverified`` and no accusation.

Every expected value is worked out by hand in the docstrings. Every hand is adjudicated
by both engines: the Python reference and the native core, which must give the same
record byte for byte and must decide it itself (no deferral to Python).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson

from services.adjudicator.adjudicate import adjudicate_hand
from services.adjudicator.native_runner import NativeRunner
from services.events.contract import AdjudicationRecord, decode_record, encode_record
from services.games.profile import Profiles
from services.importers.phh import import_phh
from tests.profiles import HOUSE, PROFILES
from tests.unit.holdem.builder import (
    Part,
    acts,
    blinds,
    config,
    deal,
    hand_input,
    payout,
    rake,
    show,
    street,
)
from tests.unit.native.rules_support import house_with, records

# Not in fixtures/phhs, whose files one test counts all together.
PHHS = Path(__file__).parents[2] / "fixtures" / "phhs_unknown_paid"
BOARD = ("Qs", "Jd", "4c", "9h", "3s")
NATIVE = NativeRunner(PROFILES)
POT_FEES = Profiles({HOUSE.name: house_with("holdem", {"rake": {"fee_from": "pot"}})})
POT_FEES_NATIVE = NativeRunner(POT_FEES)


def both_engines(stacks: dict[int, int], button: int, *parts: Part,
                 cfg: dict[str, Any] | None = None, fees_from_pot: bool = False
                 ) -> AdjudicationRecord:
    """The Python record, after checking that the core decided the hand itself and wrote
    the same bytes. ``fees_from_pot``: under the GEN-10 reading that takes each seat's fee
    out of the pot."""
    hand = hand_input(stacks, button, *parts, cfg=cfg)
    profiles, runner = (POT_FEES, POT_FEES_NATIVE) if fees_from_pot else (PROFILES, NATIVE)
    reference = adjudicate_hand(hand, profiles)
    native, why = runner.adjudicate_hand(hand)
    assert native is not None, why
    assert encode_record(native) == encode_record(reference)
    return reference


def mispays(record: AdjudicationRecord) -> list[tuple[int | None, int | None, str, str]]:
    return sorted((f.seat, f.amount, f.rule, f.severity)
                  for f in record.findings if f.code == "MISPAY")


def folded_then_showdown(*ending: Part, cfg: dict[str, Any] | None = None,
                         fees_from_pot: bool = False) -> AdjudicationRecord:
    """Stacks 100, blinds 1/2 (seats 1, 2), button 3. Pre-flop seat 3 calls 2, seat 1
    completes (1 more), seat 2 checks: pot 6. Flop seat 1 bets 2, seat 2 calls, seat 3
    folds: pot 10 (seats 1 and 2 in for 4, seat 3 for 2). Turn and river checked. Seat 1
    (first left of the button, so first to show) shows Kc Kd; seat 2's cards were not read
    and are not shown.

    Seat 3 folded: whatever seat 2 holds, its net is exactly -2. Seats 1 and 2 each get
    nothing or all 10: net between -4 and +6."""
    cards: dict[int, list[str | None]] = {1: ["Kc", "Kd"], 2: [None, None], 3: ["7h", "2c"]}
    return both_engines(
        {1: 100, 2: 100, 3: 100}, 3, blinds(1, 2), deal(cards, 3),
        acts((3, "call", 2), (1, "call", 1), (2, "check")), street(*BOARD[:3]),
        acts((1, "bet", 2), (2, "call", 2), (3, "fold")), street(BOARD[3]),
        acts((1, "check"), (2, "check")), street(BOARD[4]), acts((1, "check"), (2, "check")),
        show(1, cards[1]), *ending, cfg=cfg, fees_from_pot=fees_from_pot)


def test_a_folded_seat_paid_the_pot_is_a_mispay_whatever_the_unknown_cards() -> None:
    """The table pays the pot of 10 to seat 3, who folded: recorded 10 - 2 = +8, the rules
    give -2 whoever won: MISPAY +10 (TH-9, critical), ``discrepancy``. Seats 1 and 2 lost
    their 4 each: -4 is within their bounds, no finding on them."""
    record = folded_then_showdown(payout(3, 10))
    assert record.status == "discrepancy"
    assert mispays(record) == [(3, 10, "TH-9", "critical")]
    assert record.expected is None
    assert [f.code for f in record.findings] == ["SHOWDOWN_UNKNOWN", "MISPAY"]


def test_an_honest_payout_with_an_unknown_hand_stays_unverified() -> None:
    """The pot of 10 to seat 1 (+6), to seat 2 (+6), or split 5 / 5 (+1 each): each is
    what some cards of seat 2 give, so no accusation: ``unverified``, the one info
    finding."""
    for ending in ([payout(1, 10)], [payout(2, 10)], [payout(1, 5), payout(2, 5)]):
        record = folded_then_showdown(*ending)
        assert record.status == "unverified", record.findings
        assert [(f.code, f.severity) for f in record.findings] == [("SHOWDOWN_UNKNOWN", "info")]


def test_fees_taken_from_the_pot_are_counted_back() -> None:
    """The same hand, rake mode ``all`` fee 1, each fee out of the pot (GEN-10 reading
    ``fee_from = "pot"``): seats 1, 2 and 3 each owe 1, the pot of 10 pays out 7. Each
    fee is booked to its payer as rake, so a seat's net before rake counts it back:
    seat 3 (folded) -2 + 1 = -1 exactly; seats 1 and 2 between -4 + 1 = -3 and
    -4 + 7 + 1 = +4. The 7 to seat 2 with the three fees booked: seat 2 +3 + 1 = +4,
    seat 1 -3, seat 3 -1: all possible, ``unverified``. The 7 to seat 3 instead: +5 + 1 =
    +6 where -1 is due: MISPAY +7."""
    fees = [rake(1, 1, "pot"), rake(2, 1, "pot"), rake(3, 1, "pot")]
    cfg = config(mode="all", fee=1)
    record = folded_then_showdown(*fees, payout(2, 7), cfg=cfg, fees_from_pot=True)
    assert record.status == "unverified", record.findings
    record = folded_then_showdown(*fees, payout(3, 7), cfg=cfg, fees_from_pot=True)
    assert record.status == "discrepancy"
    assert mispays(record) == [(3, 7, "TH-9", "critical")]


def short_all_in(*ending: Part) -> AdjudicationRecord:
    """QA's side-pot hand built by hand. Stacks 100 / 30 / 100 / 100, button 4, blinds
    1/2 (seats 1, 2). Seat 3 raises to 10, seat 4 folds, seat 1 all-in to 100, seat 2
    all-in to 30 (its cards unknown, never shown), seat 3 calls to 100. Board 2c 7d 9h 3c
    4h: seat 1 Kh Kc beats seat 3 Qs Qd.

    Main pot 3 x 30 = 90 (seats 1, 2, 3); side pot 2 x 70 = 140 (seats 1, 3), both hands
    known: seat 1's kings, certain. The main pot goes to seat 2 or seat 1 (seat 3's queens
    lose to the kings whatever seat 2 holds). Net bounds: seat 1 +40 (140 - 100) to +130;
    seat 2 -30 to +60; seat 3 exactly -100; seat 4 exactly 0."""
    cards: dict[int, list[str | None]] = {1: ["Kh", "Kc"], 2: [None, None], 3: ["Qs", "Qd"],
                                          4: ["8c", "8d"]}
    return both_engines(
        {1: 100, 2: 30, 3: 100, 4: 100}, 4, blinds(1, 2), deal(cards, 4),
        acts((3, "raise", 10), (4, "fold"), (1, "all_in", 99), (2, "all_in", 28),
             (3, "call", 90)),
        street("2c", "7d", "9h"), street("3c"), street("4h"),
        show(1, cards[1]), show(3, cards[3]), *ending)


def test_an_all_in_seat_paid_the_side_pot_it_is_not_in() -> None:
    """QA's case: seat 2 (in for 30) is paid all 230: +200, at most +60: MISPAY +140;
    seat 1 gets nothing, -100, at least +40: MISPAY -140."""
    record = short_all_in(payout(2, 230))
    assert record.status == "discrepancy"
    assert mispays(record) == [(1, -140, "TH-9", "critical"), (2, 140, "TH-9", "critical")]


def test_a_side_pot_between_known_hands_is_checked() -> None:
    """The side pot of 140 paid to seat 3's queens (+40 where -100 is due: MISPAY +140),
    the main pot to seat 2 (+60, possible): seat 1 -100 where at least +40: MISPAY -140.
    The main pot to seat 3 instead (seat 1 the side pot, +40, fine): seat 3 -10 where -100
    is due, MISPAY +90, since the kings beat the queens whatever seat 2 holds."""
    record = short_all_in(payout(3, 140), payout(2, 90))
    assert mispays(record) == [(1, -140, "TH-9", "critical"), (3, 140, "TH-9", "critical")]
    record = short_all_in(payout(1, 140), payout(3, 90))
    assert record.status == "discrepancy"
    assert mispays(record) == [(3, 90, "TH-9", "critical")]


def test_the_side_pot_paid_right_stays_unverified() -> None:
    """The side pot to the kings and the main pot to seat 2 (+40, +60), or both to the
    kings (+130): each is what some cards of seat 2 give."""
    for ending in ([payout(1, 140), payout(2, 90)], [payout(1, 230)]):
        record = short_all_in(*ending)
        assert record.status == "unverified", record.findings


def phh_records(name: str) -> dict[str, AdjudicationRecord]:
    """The file imported and adjudicated by both engines (the same bytes, every hand
    decided by the core), by hand number."""
    result = import_phh([PHHS / name])
    lines = [orjson.dumps(e) for e in result.events]
    ref, nat, (_, deferred, _, why) = records(lines, PROFILES, True)
    assert nat == ref
    assert deferred == 0, why
    decoded = [decode_record(r) for r in ref]
    return {r.hand_id.rpartition("#")[2]: r for r in decoded}


def test_qa_phh_folded_player_paid_with_an_unknown_hand() -> None:
    """unknown_showdown_folded_paid.phhs (QA), blinds 1/2 (p1, p2), stacks 100. p3 raises
    to 4, p1 and p2 call: 12. Flop p1 bets 8, p2 calls, p3 folds: 28 (p1 and p2 in for 12,
    p3 for 4). Hand 1: p1 unknown, p2 5s6s, p3 paid 28: +24 where -4 is due: MISPAY +28.
    Hand 2: both hands known (p2's straight flush wins): MISPAY p2 -28 and p3 +28, as
    before. Hand 3: 14 to p1 (+2, within -12..+16), 14 to the folded p3 (+10 where -4):
    MISPAY +14."""
    hands = phh_records("unknown_showdown_folded_paid.phhs")
    assert {n: r.status for n, r in hands.items()} == {"1": "discrepancy", "2": "discrepancy",
                                                       "3": "discrepancy"}
    assert [(f.seat, f.amount) for f in hands["1"].findings if f.code == "MISPAY"] == [(3, 28)]
    assert [(f.seat, f.amount) for f in hands["2"].findings if f.code == "MISPAY"] == [
        (2, -28), (3, 28)]
    assert [(f.seat, f.amount) for f in hands["3"].findings if f.code == "MISPAY"] == [(3, 14)]


def test_qa_phh_short_all_in_paid_the_side_pot() -> None:
    """unknown_showdown_side_pot.phhs (QA): the hand ``short_all_in`` builds, p2 paid all
    230: MISPAY p1 -140 and p2 +140."""
    (record,) = phh_records("unknown_showdown_side_pot.phhs").values()
    assert record.status == "discrepancy"
    assert mispays(record) == [(1, -140, "TH-9", "critical"), (2, 140, "TH-9", "critical")]
