"""CP-2..CP-5: segment comparison, standard scoring, every Mandarin bonus row, worked examples.

Every expected number is worked out by hand in the test's docstring. Point value 1 and
stacks of 1000 unless stated, so points = chips and no cap applies.
"""

from __future__ import annotations

from tests.unit.chinese.scenario import codes, config, outcome

# H_A: QQ front, KK middle, AA back. H_B: 5-high front, JJ middle, TTT back.
H_A = ("Qc Qd 2h", "Kc Kd 3h 4h 6s", "Ac Ad 7h 8h 9s")
H_B = ("2c 3c 5d", "Jc Jd 4c 5c 8d", "Tc Td Th 6c 7c")


def test_cp4_two_segments_to_one_nets_one_point() -> None:
    """Front QQ > 5-high (seat 1), middle KK > JJ (seat 1), back AA < TTT (seat 2).
    Seat 1 wins 2 points, seat 2 wins 1: seat 2 pays seat 1 2 - 1 = 1."""
    result = outcome({1: H_A, 2: H_B})
    assert result.net == {1: 1, 2: -1}
    assert result.seat_rules == {1: "CP-4", 2: "CP-4"}
    assert result.house == 0 and result.rake == {}


def test_cp4_standard_scoring_scoop_is_three() -> None:
    """Standard scoring: seat 1 (QQ/AA/straight flush) takes all three segments from
    seat 2 (A-high/22/full house): 3 x 1 point = 3, no scoop bonus, no segment bonus."""
    s1 = ("Qh Qd 2s", "Ac Ad 3s 4d 5h", "5c 6c 7c 8c 9c")
    s2 = ("Ah Kd 3c", "2h 2d 6d 7d 8s", "Tc Td Th Js Jd")
    result = outcome({1: s1, 2: s2}, config(scoring="standard"))
    assert result.net == {1: 3, 2: -3}


def test_cp4_identical_segments_push() -> None:
    """Fronts K-Q-2 vs K-Q-2 (other suits) push; in the middle seat 1's pair of nines beats
    the pair of eights; in the back seat 2's trips beat seat 1's two pair. 1 point each:
    even, nobody pays."""
    s1 = ("Kc Qd 2h", "9c 9d 3h 4h 6s", "Ac Ad 7h 7s 8h")
    s2 = ("Kd Qh 2c", "8c 8d 3c 4c 6c", "Tc Td Th 5c 5d")
    result = outcome({1: s1, 2: s2})
    assert result.net == {1: 0, 2: 0}
    assert any("front push" in step.message for step in result.trace)


def test_cp5_worked_example_two_of_three_with_back_straight_flush_is_six() -> None:
    """rules.md CP-5: seat 2 wins the front (A-K-3 vs K-Q-2); seat 1 wins the middle (AA vs
    22) and the back (9-high straight flush vs full house). Seat 1: 2 points + 5 back
    straight flush bonus = 7; seat 2: 1. Net 1 + 5 = 6."""
    s1 = ("Kh Qd 2s", "Ac Ad 3s 4d 5h", "5c 6c 7c 8c 9c")
    s2 = ("Ah Kd 3c", "2h 2d 6d 7d 8s", "Tc Td Th Js Jd")
    result = outcome({1: s1, 2: s2})
    assert result.net == {1: 6, 2: -6}
    assert result.seat_rules[1] == "CP-5"


def test_cp5_worked_example_scoop_with_back_straight_flush_is_eleven() -> None:
    """rules.md CP-5: seat 1 wins all three (QQ > A-K-3, AA > 22, straight flush > full
    house): scoop 6 + back straight flush 5 = 11."""
    s1 = ("Qh Qd 2s", "Ac Ad 3s 4d 5h", "5c 6c 7c 8c 9c")
    s2 = ("Ah Kd 3c", "2h 2d 6d 7d 8s", "Tc Td Th Js Jd")
    result = outcome({1: s1, 2: s2})
    assert result.net == {1: 11, 2: -11}


def test_cp5_worked_example_scoop_without_bonus_is_six() -> None:
    """rules.md CP-5: seat 1 (QQ / KK / AA) beats seat 2 (5-high / JJ-8 / JJ-T) in every
    segment; no segment holds a bonus hand: 6."""
    s2 = ("2c 3c 5d", "Jc Jd 4c 5c 8d", "Jh Js Tc 9c 7c")
    result = outcome({1: H_A, 2: s2})
    assert result.net == {1: 6, 2: -6}


def test_cp5_back_four_of_a_kind_plus_four() -> None:
    """Seat 2 wins the front (AA vs 5-high) and the middle (KKK vs 66); seat 1 wins the back
    with four jacks over QQQ77: seat 1 1 + 4 = 5, seat 2 2. Seat 1 nets +3."""
    s1 = ("2c 3d 5h", "6c 6d 7h 8s 9s", "Jc Jd Jh Js 4c")
    s2 = ("Ah As Kc", "Kd Ks Kh 2d 3h", "Qc Qd Qh 7c 7d")
    result = outcome({1: s1, 2: s2})
    assert result.net == {1: 3, 2: -3}


def test_cp5_middle_straight_flush_plus_ten() -> None:
    """Seat 2 wins the front (AA-3 vs A-K-2): 1. Seat 1 wins the middle with a 6-high
    straight flush over QQQ: 1 + 10. Seat 2 wins the back with a king-high straight flush
    over seat 1's jack-high one: 1 + 5. Seat 1 11, seat 2 7: seat 1 nets +4."""
    s1 = ("Ac Kd 2c", "2d 3d 4d 5d 6d", "7s 8s 9s Ts Js")
    s2 = ("Ad Ah 3c", "Qc Qd Qs 4c 5c", "9h Th Jh Qh Kh")
    result = outcome({1: s1, 2: s2})
    assert result.net == {1: 4, 2: -4}


def test_cp5_middle_four_of_a_kind_plus_eight() -> None:
    """Seat 2 wins the front (AA vs 5-high): 1; seat 1 wins the middle (four sixes over
    QQQ22): 1 + 8; seat 2 wins the back (royal flush over four nines): 1 + 5. Seat 1 9,
    seat 2 7: seat 1 nets +2."""
    s1 = ("2c 3c 5d", "6c 6d 6h 6s 7c", "9c 9d 9h 9s 8c")
    s2 = ("Ah As Kc", "Qc Qs Qh 2d 2h", "Td Jd Qd Kd Ad")
    result = outcome({1: s1, 2: s2})
    assert result.net == {1: 2, 2: -2}


def test_cp5_middle_full_house_plus_two() -> None:
    """Seat 2 wins the front (AA vs 5-high): 1; seat 1 wins the middle (777-44 over KKK):
    1 + 2; seat 2 wins the back (four jacks over 888-55): 1 + 4. Seat 1 3, seat 2 6:
    seat 2 nets +3."""
    s1 = ("2c 3c 5d", "7c 7d 7h 4c 4d", "8c 8d 8h 5c 5h")
    s2 = ("Ac Ad Kc", "Kd Ks Kh 2d 3d", "Jc Jd Jh Js 9c")
    result = outcome({1: s1, 2: s2})
    assert result.net == {1: -3, 2: 3}


def test_cp5_front_three_of_a_kind_plus_three() -> None:
    """Seat 1 wins the front with 222 over AA-K: 1 + 3; seat 2 wins the middle (9-K
    straight over 333) and the back (spade flush over 666): 2. Seat 1 nets +2."""
    s1 = ("2c 2d 2h", "3c 3d 3h 4c 5c", "6c 6d 6h 7c 8c")
    s2 = ("Ac Ad Kc", "9c Td Jh Qs Kh", "2s 4s 7s 9s Js")
    result = outcome({1: s1, 2: s2})
    assert result.net == {1: 2, 2: -2}


def test_cp5_bonus_needs_the_segment_won() -> None:
    """Seat 1 holds four nines in the back but loses the back to a royal flush: no +4.
    Seat 2: front AA over 5-high, middle 2-6 heart straight flush over 666 (+10), back royal
    over four nines (+5): scoop 6 + 10 + 5 = 21."""
    s1 = ("2c 3c 5d", "6c 6d 6s 8c 7c", "9c 9d 9h 9s 8d")
    s2 = ("Ac Ad Kc", "2h 3h 4h 5h 6h", "Ts Js Qs Ks As")
    result = outcome({1: s1, 2: s2})
    assert result.net == {1: -21, 2: 21}


def test_cp5_standard_scoring_has_no_bonus() -> None:
    """The back-four-of-a-kind hands under standard scoring: seat 2 wins front and middle
    (2), seat 1 the back (1, no +4): seat 2 nets +1."""
    s1 = ("2c 3d 5h", "6c 6d 7h 8s 9s", "Jc Jd Jh Js 4c")
    s2 = ("Ah As Kc", "Kd Ks Kh 2d 3h", "Qc Qd Qh 7c 7d")
    result = outcome({1: s1, 2: s2}, config(scoring="standard"))
    assert result.net == {1: -1, 2: 1}


def test_cp5_point_value_multiplies() -> None:
    """CP-9: the 11-point scoop at 25 chips a point is 275 chips."""
    s1 = ("Qh Qd 2s", "Ac Ad 3s 4d 5h", "5c 6c 7c 8c 9c")
    s2 = ("Ah Kd 3c", "2h 2d 6d 7d 8s", "Tc Td Th Js Jd")
    result = outcome({1: s1, 2: s2}, config(point_value=25))
    assert result.net == {1: 275, 2: -275}


def test_cp2_three_card_hand_loses_to_five_with_more_kickers() -> None:
    """Front QQ-9 and middle QQ-9-3-2: same pair and first kicker, the middle has more
    kickers so it is stronger: a valid hand (no foul)."""
    s1 = ("Qc Qd 9h", "Qh Qs 9c 3d 2d", "Ac Ad Ah 4c 5c")
    s2 = ("2c 3c 5d", "Jc Jd 4d 5h 8d", "Kc Kd Kh 6c 7c")
    result = outcome({1: s1, 2: s2})
    assert "FOULED_HAND" not in codes(result)


def test_cp2_front_higher_kicker_than_middle_fouls() -> None:
    """Front QQ-9 against middle QQ-8-3-2: the front's 9 beats the middle's 8, so the front
    is stronger than the middle: foul."""
    s1 = ("Qc Qd 9h", "Qh Qs 8c 3d 2d", "Ac Ad Ah 4c 5c")
    s2 = ("2c 3c 5d", "Jc Jd 4d 5h 8d", "Kc Kd Kh 6c 7c")
    result = outcome({1: s1, 2: s2})
    assert "FOULED_HAND" in codes(result)


def test_cp2_front_straight_flush_shape_is_only_high_card() -> None:
    """Front A-K-Q of clubs counts as ace-high only, so the middle pair of twos is stronger:
    valid. (Were it a straight flush it would foul.)"""
    s1 = ("Ac Kc Qc", "2d 2h 5s 7d 9c", "3c 3d 3h 4c 5c")
    s2 = ("2c 3s 5d", "Jc Jd 4d 5h 8d", "Kd Ks Kh 6c 7c")
    result = outcome({1: s1, 2: s2})
    assert "FOULED_HAND" not in codes(result)


def test_cp3_wheel_is_the_lowest_straight() -> None:
    """Back A-2-3-4-5 behind a 6-high straight in the middle: the wheel is the lowest
    straight, so the middle beats the back: foul."""
    s1 = ("Kc Qd 2h", "2s 3s 4d 5d 6h", "Ac 2d 3h 4s 5c")
    s2 = ("2c 3c 5h", "Jc Jd 4c 5s 8d", "Kd Ks Kh 6c 7c")
    result = outcome({1: s1, 2: s2})
    assert "FOULED_HAND" in codes(result)
