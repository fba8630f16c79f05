"""compare() and the record status (events.md "What the service produces"; GEN-8, GEN-10).

Every number is worked out by hand in the docstring; the code under test only compares.
"""

from __future__ import annotations

from collections.abc import Iterable

from services.adjudicator.adjudicate import compare, record_status
from services.adjudicator.recorded import RecordedHand
from services.events.contract import Finding, Movement
from services.games.model import GameOutcome, finding
from services.games.profile import RuleProfile
from tests.profiles import HOUSE

HOUSE_V1 = HOUSE


def _profile(**gen: str) -> RuleProfile:
    sections = dict(HOUSE_V1.sections)
    sections["gen"] = {**sections["gen"], **gen}
    return RuleProfile(name="test", sections=sections)


def _codes(found: Iterable[Finding]) -> list[tuple[str, str, int | None, int | None]]:
    return [(f.code, f.rule, f.seat, f.amount) for f in found]


def test_correct_hand_gives_no_finding_and_ok() -> None:
    """Seat 1 wins 9 after paying 1 rake, seat 2 loses 10, house +1: both sides equal."""
    expected = GameOutcome(net={1: 9, 2: -10}, house=1, rake={1: 1})
    recorded = RecordedHand(net={1: 9, 2: -10}, house=1, rake={"1": 1})
    found = compare(expected, recorded, "GEN-10", HOUSE_V1)
    assert found == []
    assert record_status(expected, recorded, found) == "ok"


def test_mispay_and_rake_over_are_found() -> None:
    """Expected: seat 1 +9 after rake 1 (+10 before rake), seat 2 -10, house +1.
    Recorded: seat 1 paid 12 and raked 2: net +10, rake 2 -> +12 before rake, 2 over;
    seat 2 -12 (over-collected by 2); house +2.
    MISPAY seat 1 +2, MISPAY seat 2 -2, RAKE_OVER seat 1 by 1."""
    expected = GameOutcome(net={1: 9, 2: -10}, house=1, rake={1: 1}, seat_rules={1: "X-1"})
    recorded = RecordedHand(net={1: 10, 2: -12}, house=2, rake={"1": 2})
    found = compare(expected, recorded, "GEN-10", HOUSE_V1)
    assert _codes(found) == [("MISPAY", "X-1", 1, 2), ("MISPAY", "GEN-8", 2, -2),
                             ("RAKE_OVER", "GEN-10", 1, 1)]
    assert record_status(expected, recorded, found) == "discrepancy"


def test_info_only_findings_leave_the_hand_ok() -> None:
    """An info finding does not spoil 'ok' when both sides are equal."""
    expected = GameOutcome(net={1: 0, 2: 0}, house=0, rake={})
    recorded = RecordedHand(net={1: 0, 2: 0}, house=0, rake={})
    note = [finding("NOTE", "GEN-7", "info", "seat 2 walked away; its hand is folded")]
    assert record_status(expected, recorded, note) == "ok"
    warn = [finding("NOTE", "GEN-7", "warning", "something")]
    assert record_status(expected, recorded, warn) == "discrepancy"


def test_ok_needs_recorded_equal_to_expected_even_when_mispay_is_posted_info() -> None:
    """A casino may post mispay and rake errors at severity info. events.md: status is
    ``ok`` only when recorded EQUALS expected and no finding is above info. Expected
    seat 1 +10 / seat 2 -10; recorded seat 1 +12 / seat 2 -12: not equal, so the hand is
    a discrepancy although its only finding (MISPAY, info) is not above info."""
    profile = _profile(mispay_severity="info", rake_error_severity="info")
    expected = GameOutcome(net={1: 10, 2: -10}, house=0, rake={})
    recorded = RecordedHand(net={1: 12, 2: -12}, house=0, rake={})
    found = compare(expected, recorded, "GEN-10", profile)
    assert [f.severity for f in found] == ["info", "info"]
    assert record_status(expected, recorded, found) == "discrepancy"


def test_dead_needs_the_dead_hand_handled_correctly() -> None:
    """GEN-6: dead means 'dead hand correctly handled'. Expected all zero; the table kept
    a 2-chip rake (house +2, seat 1 -2). With rake errors posted as info the finding is
    not above info, yet the hand was not handled correctly: discrepancy, not dead."""
    profile = _profile(mispay_severity="info", rake_error_severity="info")
    expected = GameOutcome(net={1: 0, 2: 0}, house=0, rake={}, dead=True)
    recorded = RecordedHand(net={1: -2, 2: 0}, house=2, rake={"1": 2})
    found = compare(expected, recorded, "GEN-10", profile)
    assert record_status(expected, recorded, found) == "discrepancy"
    clean = RecordedHand(net={1: 0, 2: 0}, house=0, rake={})
    assert record_status(expected, clean, []) == "dead"


def test_expected_side_that_does_not_conserve_is_a_finding() -> None:
    """GEN-8 holds for the expected side too: seat 1 +10, seat 2 -8, house 0 sums to +2,
    so 2 chips would be created. The recorded side matches it seat by seat, so compare
    gives no MISPAY; the non-conservation itself must be reported (critical), once for
    each side (the recorded side here has no finding of record_hand explaining it)."""
    expected = GameOutcome(net={1: 10, 2: -8}, house=0, rake={})
    recorded = RecordedHand(net={1: 10, 2: -8}, house=0, rake={})
    found = compare(expected, recorded, "GEN-10", HOUSE_V1)
    assert [(f.code, f.rule, f.severity, f.amount) for f in found] == [
        ("NOT_CONSERVED", "GEN-8", "critical", 2), ("NOT_CONSERVED", "GEN-8", "critical", 2)]
    assert "expected" in found[0].message and "recorded" in found[1].message
    assert record_status(expected, recorded, found) == "discrepancy"


def test_recorded_house_differing_from_expected_is_a_discrepancy() -> None:
    """Seats equal (seat 1 +5, seat 2 -5) but recorded house -3 vs expected 0: the
    recorded side sums to -3 (chips vanished). Reported as not conserving; not ok."""
    expected = GameOutcome(net={1: 5, 2: -5}, house=0, rake={})
    recorded = RecordedHand(net={1: 5, 2: -5}, house=-3, rake={})
    found = compare(expected, recorded, "GEN-10", HOUSE_V1)
    assert ("NOT_CONSERVED", "GEN-8", None, -3) in _codes(found)
    assert record_status(expected, recorded, found) == "discrepancy"


def test_rake_from_the_pot_with_no_seat_is_matched_to_the_seats_the_posted_rake_charges(
) -> None:
    """events.md: rake_collected.seat is null when the rake is taken from the pot.
    The game charges seat 1 (the pot's winner) a rake of 2. Pot 20 (10 each); the table
    takes 2 from the pot (seat null) and pays seat 1 the other 18.
    Expected: seat 1 +10 before rake, +8 after; seat 2 -10; rake {1: 2}; house +2 (sum 0).
    Recorded: stack 1 -10 + 18 = +8, stack 2 -10, rake {"pot": 2}, house +2.
    The 2 pot chips are matched to the seat the posted rake charges (seat 1 owes 2):
    seat 1 before rake +8 + 2 = +10 = due. No finding, status ok."""
    expected = GameOutcome(net={1: 8, 2: -10}, house=2, rake={1: 2})
    recorded = RecordedHand(movements=_into_pot(10, 10), net={1: 8, 2: -10}, house=2,
                            rake={"pot": 2})
    found = compare(expected, recorded, "GEN-10", HOUSE_V1)
    assert found == []
    assert record_status(expected, recorded, found) == "ok"


def test_pot_rake_beyond_what_the_posted_rake_charges_is_rake_over_on_the_pot() -> None:
    """Posted rake charges seat 1 a fee of 1; the table took 3 from the pot (seat null).
    1 is matched to seat 1; the other 2 are RAKE_OVER on the pot. Seat 1: expected +9
    after rake (+10 before), recorded +7 (pot 20 - 3 rake = 17 paid, minus its 10):
    before rake +7 + 1 attributed = +8, underpaid by 2: MISPAY -2."""
    expected = GameOutcome(net={1: 9, 2: -10}, house=1, rake={1: 1})
    recorded = RecordedHand(movements=_into_pot(10, 10), net={1: 7, 2: -10}, house=3,
                            rake={"pot": 3})
    found = compare(expected, recorded, "GEN-10", HOUSE_V1)
    assert _codes(found) == [("MISPAY", "GEN-8", 1, -2), ("RAKE_OVER", "GEN-10", None, 2)]


def test_pot_rake_beyond_the_chips_the_pot_held_is_no_seats_fee() -> None:
    """The second case, but only 2 chips went into the pot (a game whose fees come from
    the stacks, like Chinese Poker, puts none in): a pot's rake is a seat's fee only up
    to what the pot held. Of the 3, 2 can be matched (seat 1's fee, 1, is), and 1 is
    beyond the pot: RAKE_OVER 2 on the pot (the 1 unmatched plus the 1 beyond), and seat
    1's MISPAY -2 as before (+7 before rake + 1 attributed = +8 of +10)."""
    expected = GameOutcome(net={1: 9, 2: -10}, house=1, rake={1: 1})
    recorded = RecordedHand(movements=_into_pot(1, 1), net={1: 7, 2: -10}, house=3,
                            rake={"pot": 3})
    found = compare(expected, recorded, "GEN-10", HOUSE_V1)
    assert _codes(found) == [("MISPAY", "GEN-8", 1, -2), ("RAKE_OVER", "GEN-10", None, 2)]
    nothing_in = RecordedHand(net={1: 7, 2: -10}, house=3, rake={"pot": 3})
    found = compare(expected, nothing_in, "GEN-10", HOUSE_V1)
    assert _codes(found) == [("MISPAY", "GEN-8", 1, -3), ("RAKE_UNDER", "GEN-10", 1, -1),
                             ("RAKE_OVER", "GEN-10", None, 3)]


def _into_pot(*amounts: int) -> list[Movement]:
    """Wagers into the pot, seat 1 first (the recorded side's movements)."""
    return [Movement(event_id=f"00000000-0000-4000-8000-00000000000{seat}", seq=seat,
                     from_=f"stack:{seat}", to="pot", amount=amount, kind="wager")
            for seat, amount in enumerate(amounts, start=1)]


def test_pot_rake_when_nothing_is_due_is_rake_over() -> None:
    """GEN-6: a misdeal, no rake due; the table kept 4 from the pot (seat null)."""
    expected = GameOutcome(net={1: 0, 2: 0}, house=0, rake={}, dead=True)
    recorded = RecordedHand(net={1: -4, 2: 0}, house=4, rake={"pot": 4})
    found = compare(expected, recorded, "GEN-10", HOUSE_V1)
    assert _codes(found) == [("MISPAY", "GEN-8", 1, -4), ("RAKE_OVER", "GEN-10", None, 4)]
    assert record_status(expected, recorded, found) == "discrepancy"
