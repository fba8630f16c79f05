"""Through ``adjudicate_hand``: expected against the chips the table recorded.

The three-handed deal of ``test_stakes_and_rake`` (point value 1, button 1, payment order
2, 3, 1): seat 2 owes seat 3 10 and seat 1 16; seat 3 owes seat 1 16.
"""

from __future__ import annotations

from services.adjudicator.adjudicate import adjudicate_hand
from services.events.contract import AdjudicationRecord
from tests.profiles import PROFILES
from tests.unit.chinese.scenario import config, make_hand, pay, rake
from tests.unit.chinese.test_fouls_super_bonus import BONUS_HAND, FOULED, TENS
from tests.unit.chinese.test_scoring import H_A, H_B
from tests.unit.native.rules_support import both_engines

DEAL = {1: BONUS_HAND, 2: FOULED, 3: TENS}
CORRECT = [pay(2, 3, 10), pay(2, 1, 16), pay(3, 1, 16)]


def _record(payments: list[tuple[str, dict[str, object]]], **kwargs: object) -> AdjudicationRecord:
    cfg = kwargs.pop("cfg", config())
    return adjudicate_hand(make_hand(DEAL, cfg, payments=payments, **kwargs), PROFILES)  # type: ignore[arg-type]


def _codes(record: AdjudicationRecord) -> list[tuple[str, str]]:
    return [(f.code, f.rule) for f in record.findings if f.code != "FOULED_HAND"]


def test_correct_settlement_is_ok() -> None:
    record = _record(CORRECT)
    assert record.status == "ok", record.findings
    assert record.expected is not None and record.recorded is not None
    assert record.expected.net == {"1": 32, "2": -26, "3": -6, "house": 0}
    assert record.recorded.net == record.expected.net


def test_correct_settlement_with_rake_is_ok() -> None:
    """Mode all, fee 2: each seat's rake recorded; nets 30, -28, -8, house 6."""
    record = _record([rake(1, 2), rake(2, 2), rake(3, 2), *CORRECT],
                     cfg=config(rake_mode="all", fee=2))
    assert record.status == "ok", record.findings
    assert record.expected is not None
    assert record.expected.net == {"1": 30, "2": -28, "3": -8, "house": 6}


def test_foul_not_penalised_is_a_mispay_citing_cp8() -> None:
    """The table let seat 2 off its 16 to seat 1: seat 1 recorded +16 (due +32), seat 2
    recorded -10 (due -26). MISPAY for both, citing CP-8 (a foul decided them), and no
    PAYMENT_ROUTING between seats 1 and 2: the MISPAYs claim those 16 chips, and CP-10's
    route is said only while every seat's total is right (QA: the same chips twice).
    Both engines."""
    hand = make_hand(DEAL, config(), payments=[pay(2, 3, 10), pay(3, 1, 16)])
    record = both_engines(hand, PROFILES)
    mispays = {f.seat: (f.rule, f.amount) for f in record.findings if f.code == "MISPAY"}
    assert mispays == {1: ("CP-8", -16), 2: ("CP-8", 16)}
    assert "PAYMENT_ROUTING" not in [f.code for f in record.findings]
    assert record.status == "discrepancy"


def test_wrong_rake_is_flagged_under_gen10() -> None:
    record = _record([rake(1, 3), rake(2, 2), rake(3, 2), *CORRECT],
                     cfg=config(rake_mode="all", fee=2))
    assert ("RAKE_OVER", "GEN-10") in _codes(record)


def test_same_nets_other_route_is_information_only() -> None:
    """Seat 2 pays seat 1 all 26 and seat 1 passes 10 on to seat 3: every net is right
    but the chips took another route (PAYMENT_ROUTING, info): status stays ok."""
    record = _record([pay(2, 1, 26), pay(1, 3, 10), pay(3, 1, 16)])
    assert record.status == "ok"
    assert ("PAYMENT_ROUTING", "CP-10") in _codes(record)


def test_stack_cap_ignored_is_a_mispay_citing_cp10() -> None:
    """Seat 1 started with 10: it may win at most 10 from each of seats 2 and 3 (+20), but
    the table paid it 16 + 16 = 32: overpaid by 12."""
    record = _record(CORRECT, stacks={1: 10, 2: 1000, 3: 1000})
    mispays = {f.seat: (f.rule, f.amount) for f in record.findings if f.code == "MISPAY"}
    assert mispays[1] == ("CP-10", 12)


def test_misdeal_with_rake_taken_is_over_collected() -> None:
    """A misdeal takes no rake: the 2 collected from seat 1 is RAKE_OVER."""
    hand = make_hand({1: H_A, 2: H_B}, config(rake_mode="all", fee=2), unset=[1, 2],
                     open_hands=False, before_opening=[("misdeal", {"reason": "wrong seats"})],
                     payments=[rake(1, 2)])
    record = adjudicate_hand(hand, PROFILES)
    assert ("RAKE_OVER", "GEN-10") in _codes(record)


def test_misdeal_correctly_handled_is_dead() -> None:
    hand = make_hand({1: H_A, 2: H_B}, unset=[1, 2], open_hands=False,
                     before_opening=[("misdeal", {"reason": "wrong seats"})])
    assert adjudicate_hand(hand, PROFILES).status == "dead"


def test_no_point_value_is_rejected() -> None:
    cfg = config()
    cfg["limits"] = {"min_wager": 1, "max_wager": 1000}
    record = adjudicate_hand(make_hand({1: H_A, 2: H_B}, cfg), PROFILES)
    assert record.status == "rejected" and record.findings[0].rule == "CP-9"


def test_rake_from_a_pot_chinese_poker_never_has_is_no_seats_fee() -> None:
    """GEN-10: Chinese Poker has no pot; each fee comes from its payer's stack. Mode all,
    fee 2, the points paid right, and the table recorded 6 chips of rake "from the pot"
    with no seat named. Nothing went into the pot, so none of it is a seat's fee: each
    seat's rake is 0 of 2 (RAKE_UNDER), the pot's 6 a RAKE_OVER, the pot overdrawn by 6
    (GEN-8), and no MISPAY: every seat's points are right (QA: each seat was shown
    "before rake" with a fee it never paid, a MISPAY citing the scoring rule). Both
    engines."""
    from_pot = ("rake_collected", {"seat": None, "amount": 6, "from": "pot"})
    hand = make_hand(DEAL, config(rake_mode="all", fee=2), payments=[from_pot, *CORRECT])
    record = both_engines(hand, PROFILES)
    found = sorted((f.code, f.rule, f.seat, f.amount) for f in record.findings
                   if f.code != "FOULED_HAND")
    assert found == [("POT_OVERDRAWN", "GEN-8", None, 6),
                     ("RAKE_OVER", "GEN-10", None, 6),
                     ("RAKE_UNDER", "GEN-10", 1, -2), ("RAKE_UNDER", "GEN-10", 2, -2),
                     ("RAKE_UNDER", "GEN-10", 3, -2)]
