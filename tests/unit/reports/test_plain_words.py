"""The decision path, the findings and the alerts in plain words (QA: Python syntax and
engine codes shown to readers: "[4, 2, 1, 7]", "{4: 1, 2: 1}", "rake mode 'all'",
"(one_pair)", "seat 1 2 segment(s) 2 = 2", a threshold "6.75475e-08" beside "6.8e-08").
Expected texts written by hand; the engines' own texts (stored, compared by other tests)
are rewritten for display only."""

from __future__ import annotations

import re

from services.events.contract import Alert
from services.reports.alerts import alert_line
from services.reports.narrate import chips
from services.reports.wording import plain, plain_step
from tests.unit.reports.test_daily_alerts import _report, _section


def test_lists_and_dicts_of_seats_read_as_seats() -> None:
    assert plain_step("settlement order (counter-clockwise from the right of the button): "
                      "[4, 2, 1, 7]") == ("settlement order (counter-clockwise from the "
                                          "right of the button): seats 4, 2, 1, 7")
    assert plain_step("rake mode 'all', fee 1: 5 participant(s) [4, 2, 1, 7, 6]; rake due "
                      "{4: 1, 2: 1, 1: 1, 7: 1, 6: 1}") == (
        "rake mode all (every participant and the designated player pay the fee), fee 1: "
        "5 participants: seats 4, 2, 1, 7, 6; rake due seat 4: 1, seat 2: 1, seat 1: 1, "
        "seat 7: 1, seat 6: 1")
    assert plain_step("designated player: seat 5 (previous seat 3; passed over [4], "
                      "declined [4])") == ("designated player: seat 5 (previous seat 3; "
                                           "passed over seat 4; declined seat 4)")


def test_engine_codes_read_as_words() -> None:
    assert plain_step("bonus wins total 60 exceed the cap 50: paid pro rata "
                      "(largest_remainder), seat 1 flush 25") == (
        "bonus wins total 60 exceed the cap 50: paid pro rata (largest remainder first), "
        "seat 1 flush 25")
    assert plain_step("dealer holds 9s Kc Kd 2s Qd (one_pair): qualifies (ace_king or better "
                      "needed)") == ("dealer holds 9s Kc Kd 2s Qd (one pair): qualifies "
                                     "(ace-king or better needed)")
    assert plain_step("shuffler_alarm at seq 12 (red light during the deal): the whole hand "
                      "is dead") == ("shuffler alarm at seq 12 (red light during the deal): "
                                     "the whole hand is dead")


def test_chinese_segments_and_scoop_read_as_sentences() -> None:
    assert plain_step("seat 1 vs seat 2: front to seat 1, middle to seat 1, back to seat 2; "
                      "seat 1 2 segment(s) 2 = 2, seat 2 1 segment(s) 1 = 1: seat 2 pays "
                      "seat 1 1") == (
        "seat 1 vs seat 2: front to seat 1, middle to seat 1, back to seat 2; seat 1 won 2 "
        "segments: 2 points = 2, seat 2 won 1 segment: 1 point = 1: seat 2 pays seat 1 1")
    assert plain_step("seat 3 scoop 6 = 6, seat 4 0 segment(s) 0 = 0") == (
        "seat 3 won all three segments (a scoop): 6 points = 6, seat 4 won 0 segments: "
        "0 points = 0")


def test_one_chip_and_one_point_are_singular() -> None:
    assert plain("seat 4 wins 1 points x 1 = 1 chips from seat 3") == (
        "seat 4 wins 1 point x 1 = 1 chip from seat 3")
    assert plain("mandarin scoring, one point = 1 chips") == "mandarin scoring, one point = 1 chip"
    assert plain("1 chips were left in the pot at hand_ended") == (
        "1 chip was left in the pot at the hand's end")
    assert plain("input ended before its hand_ended") == (  # not "its the hand's end"
        "input ended before the hand's end")
    assert plain("hand_started of T1-000011 (seq 911) arrived before this hand's hand_ended"
                 ) == ("hand_started of T1-000011 (seq 911) arrived before this hand's end"
                       )  # not "this hand's the hand's end"
    assert plain("seat 2: recorded 11 chips, 21 chips due") == (
        "seat 2: recorded 11 chips, 21 chips due")


def test_odd_chip_note_only_with_an_odd_chip() -> None:
    even = ("main pot 12, eligible 1 3; seat 1: Two pair, aces and nines; seat 3: Two pair, "
            "aces and nines: seat 1 6, seat 3 6 (split, odd chip to the first winner left "
            "of the button)")
    assert plain_step(even) == (
        "main pot 12, eligible seats 1, 3; seat 1: Two pair, aces and nines; seat 3: Two "
        "pair, aces and nines: seat 1 6, seat 3 6 (split evenly)")
    odd = even.replace("main pot 12", "main pot 13").replace("seat 1 6,", "seat 1 7,")
    assert plain_step(odd).endswith(
        "seat 1 7, seat 3 6 (split, odd chip to the first winner left of the button)")


def test_the_narrative_separates_thousands() -> None:
    assert chips(1158) == "1,158 chips"
    assert chips(1) == "1 chip"


def _sweetheart(threshold: float) -> Alert:
    return Alert(table_id="T1", hand_id="B", code="SWEETHEARTING", rule="SURV-2",
                 severity="critical", message="p = 1.20e-09 <= 6.8e-08", evidence={
                     "dealer": "d2", "player": "T1-P2", "count": 7, "p_value": 1.2e-9,
                     "threshold": threshold,
                     "statistic": "P(X >= count), X ~ Binomial(dealer_events, "
                                  "expected_share)",
                     "hands": [{"table_id": "T1", "hand_id": "B", "seat": 2}]})


def test_the_threshold_reads_as_the_message_writes_it_and_the_statistic_in_words() -> None:
    line = alert_line(_sweetheart(6.75475e-08))
    assert line.threshold == "6.8e-08"
    assert line.p_value == "1.20e-09"
    assert line.statistic == (
        "The probability of a count at least this high if each of the dealer's events "
        "(dealer_events) went to this player only at the player's expected share "
        "(expected_share): a binomial probability. In symbols: P(X >= count), "
        "X ~ Binomial(dealer_events, expected_share)")


def test_a_chain_alert_has_no_empty_statistic_cells_and_the_heading_names_it() -> None:
    chain = Alert(table_id="T1", hand_id="B", code="CHAIN_BROKEN", rule="SURV-9",
                  severity="critical", message="seq 5 says ...", evidence=None)
    report = _report()
    report.attach_alerts([chain], "alerts.jsonl")
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", _section(report)))
    assert "SURV-2..SURV-8" not in text and "Cross-hand patterns" not in text
    assert "Alerts (SURV-9; docs/surveillance.md) from alerts.jsonl" in text
    assert "it has no count, p-value or statistic" in text
    assert "Count" not in text and "p-value –" not in text and "threshold" not in text
    assert "Evidence hands (0)" not in text
    both = _report()
    both.attach_alerts([chain, _sweetheart(1e-6)], "alerts.jsonl")
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", _section(both)))
    assert "Alerts (SURV-2, SURV-9; docs/surveillance.md)" in text
    assert "Count 7 p-value 1.20e-09 (threshold &le; 1e-06)" in text
