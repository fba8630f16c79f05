"""Section 5's "Rule" column cites the rule of the finding that explains a seat's
difference, not the game's payout rule (QA: HCF seat 5 "-1 | HCF-7" beside RAKE_OVER
HCF-12; Chinese seat 3 "-1 | CP-5" beside RAKE_OVER GEN-10). Figures written by hand."""

from __future__ import annotations

from services.events.contract import AdjudicationRecord, Finding, SideResult
from services.reports.settlement import seat_lines


def _record(game: str, expected: SideResult, recorded: SideResult,
            findings: list[Finding]) -> AdjudicationRecord:
    return AdjudicationRecord(
        v=1, table_id="T1", hand_id="H1", game=game, status="discrepancy",  # type: ignore[arg-type]
        rule_profile="house-v1", expected=expected, recorded=recorded, findings=findings,
        players={"1": "P1", "5": "P5"}, movements=[])


def _finding(code: str, rule: str, seat: int, amount: int) -> Finding:
    return Finding(code=code, rule=rule, severity="warning", seat=seat, amount=amount,
                   message="m")


def _rules(record: AdjudicationRecord, payout_rules: dict[int, str]) -> dict[str, str | None]:
    return {line.who: line.rule for line in seat_lines(record, payout_rules)}


def test_a_rake_only_difference_cites_the_rake_rule_hcf() -> None:
    """Seat 5 won +40 before rake; posted rake 2, collected 3: result +38 due, +37 got."""
    record = _record(
        "hcf",
        SideResult(net={"1": 18, "5": 38, "house": 4}, rake={"1": 2, "5": 2}),
        SideResult(net={"1": 18, "5": 37, "house": 5}, rake={"1": 2, "5": 3}),
        [_finding("RAKE_OVER", "HCF-12", 5, 1)])
    rules = _rules(record, {1: "HCF-7", 5: "HCF-7"})
    assert rules["seat 5"] == "HCF-12"
    assert rules["seat 1"] == "HCF-7"  # no difference: the rule that decided the result


def test_a_rake_only_difference_cites_the_rake_rule_chinese() -> None:
    record = _record(
        "chinese",
        SideResult(net={"1": 3, "5": -5, "house": 2}, rake={"1": 1, "5": 1}),
        SideResult(net={"1": 3, "5": -6, "house": 3}, rake={"1": 1, "5": 2}),
        [_finding("RAKE_OVER", "GEN-10", 5, 1)])
    assert _rules(record, {1: "CP-5", 5: "CP-5"})["seat 5"] == "GEN-10"


def test_a_wrong_fee_cites_the_fee_rule_even_beside_a_mispay() -> None:
    """Russian seat 5 paid 10 for an exchange priced 9: -39 got, -38 due, no rake. The
    engine also reports a MISPAY of the same chip (another developer's fix); the fee
    explains the whole difference, so the column cites RP-2 alone."""
    record = _record(
        "russian",
        SideResult(net={"5": -38, "house": 38}, rake={}),
        SideResult(net={"5": -39, "house": 39}, rake={}),
        [_finding("MISPAY", "RP-7", 5, -1), _finding("WRONG_FEE", "RP-2", 5, 1)])
    assert _rules(record, {5: "RP-7"})["seat 5"] == "RP-2"


def test_a_payout_difference_still_cites_the_mispay_rule() -> None:
    record = _record(
        "russian",
        SideResult(net={"5": 25, "house": -25}, rake={}),
        SideResult(net={"5": 55, "house": -55}, rake={}),
        [_finding("MISPAY", "RP-7", 5, 30)])
    assert _rules(record, {5: "RP-7"})["seat 5"] == "RP-7"


def test_a_difference_of_both_payout_and_rake_cites_both() -> None:
    """Seat 5: paid 5 too much before rake, and 1 chip of rake too many: +4."""
    record = _record(
        "hcf",
        SideResult(net={"5": 38, "house": -38}, rake={"5": 2}),
        SideResult(net={"5": 42, "house": -42}, rake={"5": 3}),
        [_finding("MISPAY", "HCF-7", 5, 5), _finding("RAKE_OVER", "HCF-12", 5, 1)])
    assert _rules(record, {5: "HCF-7"})["seat 5"] == "HCF-12, HCF-7"


def test_fees_from_the_pot_leave_a_seats_result_before_rake_at_its_net() -> None:
    """Hold'em, fees from the pot, the button's (seat 3) forgotten: seat 1 +1 due, +2 got
    (it was paid the button's fee chip); seat 3 0 due and got, its fee 1 due, 0 taken.
    No seat's own chips pay a fee: the "before rake" columns are the nets (seat 3: 0 and
    0, not +1 and 0), seat 3's line cites only the rake rule, seat 1's its MISPAY."""
    record = _record(
        "holdem",
        SideResult(net={"1": 1, "2": -4, "3": 0, "house": 3}, rake={"1": 1, "2": 1, "3": 1}),
        SideResult(net={"1": 2, "2": -4, "3": 0, "house": 2}, rake={"1": 1, "2": 1}),
        [_finding("MISPAY", "TH-9", 1, 1), _finding("RAKE_UNDER", "GEN-10", 3, -1)])
    lines = {line.who: line for line in seat_lines(record, {1: "TH-9", 2: "TH-9", 3: "TH-9"},
                                                   fees_from_pot=True)}
    three = lines["seat 3"]
    assert (three.expected_before_rake, three.recorded_before_rake) == (0, 0)
    assert three.rule == "GEN-10"
    assert (lines["seat 1"].expected_before_rake, lines["seat 1"].recorded_before_rake,
            lines["seat 1"].rule) == (1, 2, "TH-9")
