"""CP-6 super bonus and CP-8 fouls. Numbers worked out by hand in each docstring."""

from __future__ import annotations

from tests.unit.chinese.scenario import codes, config, outcome

# A four-handed deal using all 52 cards.
# Seat 1: AAA front (+3), four kings middle (+8), 5-9 spade straight flush back (+5).
MONSTER = ("Ac Ad Ah", "Kc Kd Kh Ks 2c", "5s 6s 7s 8s 9s")
# Seat 2: QQ-2 / JJJ / four tens (+4 when it wins the back).
QUADS_T = ("Qc Qd 2d", "Jc Jd Jh 3c 4c", "Tc Td Th Ts 3d")
# Seat 3: QQ-2 / 999 / 888-44.
NINES = ("Qh Qs 2h", "9c 9d 9h 3h 4d", "8c 8d 8h 4h 4s")
# Seat 4: A-J-2 / 777 / 555-66.
SEVENS = ("As Js 2s", "7c 7d 7h 6h 3s", "5c 5d 5h 6c 6d")
# Seat 4 fouled with the same cards: full house in the middle, trips behind it.
SEVENS_FOULED = ("As Js 2s", "5c 5d 5h 6c 6d", "7c 7d 7h 6h 3s")


def test_cp6_super_bonus_four_handed() -> None:
    """Seat 1 scoops all three: 9 (super bonus, not 6) + 3 + 8 + 5 = 25 from each: +75.
    Seat 2 vs 3: front QQ-2 push, middle JJJ > 999, back TTTT > 888-44 (+4): 2 + 4 = 6.
    Seat 2 vs 4: scoop 6 + back quads 4 = 10. Seat 3 vs 4: QQ > A-high, 999 > 777,
    888-44 > 555-66: scoop 6, no bonus.
    Seat 2: -25 + 6 + 10 = -9; seat 3: -25 - 6 + 6 = -25; seat 4: -25 - 10 - 6 = -41."""
    result = outcome({1: MONSTER, 2: QUADS_T, 3: NINES, 4: SEVENS})
    assert result.net == {1: 75, 2: -9, 3: -25, 4: -41}
    assert result.seat_rules[1] == "CP-6"
    assert any(step.rule == "CP-6" and "super bonus" in step.message for step in result.trace)


def test_cp6_no_super_bonus_three_handed() -> None:
    """Without seat 4 the table is three-handed: seat 1 takes scoop 6 + 16 = 22 from each
    (+44). Seat 2 vs 3 as before: +6. Seat 2: -22 + 6 = -16; seat 3: -22 - 6 = -28."""
    result = outcome({1: MONSTER, 2: QUADS_T, 3: NINES})
    assert result.net == {1: 44, 2: -16, 3: -28}


def test_cp6_foul_counts_as_scooped_for_the_super_bonus() -> None:
    """Seat 4 fouls (full house middle, trips back). Seat 1 scooped seats 2 and 3 and seat 4
    fouled: super bonus 9 + 16 = 25 from each, seat 4 included (+75). Seat 4 pays seat 2
    6 + every bonus seat 2's hand holds (four tens in the back, 4) = 10 and seat 3 6 (no
    bonus holding). Seat 2 vs 3 as before: +6. Nets as in the unfouled deal:
    seat 2 -25 + 6 + 10 = -9, seat 3 -25 - 6 + 6 = -25, seat 4 -25 - 10 - 6 = -41."""
    result = outcome({1: MONSTER, 2: QUADS_T, 3: NINES, 4: SEVENS_FOULED})
    assert result.net == {1: 75, 2: -9, 3: -25, 4: -41}
    assert result.seat_rules[4] == "CP-8"
    assert "FOULED_HAND" in codes(result)


def test_cp6_super_bonus_is_mandarin_only() -> None:
    """Standard scoring, four-handed: seat 1 scoops all three for 3 each (+9); seat 2 vs 3:
    front push, 2 segments to seat 2: +2; seat 2 vs 4: 3; seat 3 vs 4: 3.
    Seat 2: -3 + 2 + 3 = 2; seat 3: -3 - 2 + 3 = -2; seat 4: -3 - 3 - 3 = -9."""
    result = outcome({1: MONSTER, 2: QUADS_T, 3: NINES, 4: SEVENS}, config(scoring="standard"))
    assert result.net == {1: 9, 2: 2, 3: -2, 4: -9}


# A three-handed deal for fouls against a hand that holds bonuses.
# Seat 1: AAA front (+3), KKK-22 middle (+2), 5-9 spade straight flush back (+5): holds 10.
BONUS_HAND = ("Ac Ad Ah", "Kc Kd Kh 2c 2d", "5s 6s 7s 8s 9s")
# Seat 2 fouled: QQ-4 front beats the 99 middle.
FOULED = ("Qh Qs 4h", "9c 9d 3h 4s 6c", "8c 8d 8h 7c 7d")
# Seat 3: QQ-3 / JJJ / four tens (holds +4).
TENS = ("Qc Qd 3c", "Jc Jd Jh 3d 4c", "Tc Td Th Ts 4d")


def test_cp8_foul_against_a_scoop_with_bonuses() -> None:
    """Seat 1 vs 2 (foul): 6 + 3 + 2 + 5 = 16. Seat 1 vs 3: AAA > QQ, KKK-22 > JJJ, straight
    flush > four tens: scoop 6 + 10 = 16. Seat 3 vs 2 (foul): 6 + 4 (four tens held) = 10.
    Seat 1 +32, seat 2 -16 - 10 = -26, seat 3 -16 + 10 = -6."""
    result = outcome({1: BONUS_HAND, 2: FOULED, 3: TENS})
    assert result.net == {1: 32, 2: -26, 3: -6}
    assert result.seat_rules[2] == "CP-8"
    fouls = [f for f in result.findings if f.code == "FOULED_HAND"]
    assert [f.seat for f in fouls] == [2] and fouls[0].severity == "info"


def test_cp8_foul_under_standard_scoring_still_pays_six() -> None:
    """rules.md CP-8: "The fouler pays every non-fouled opponent 6 points" (no scoring named;
    standard scoring has no bonuses to add). Standard scoring:
    seat 1 vs 2 (foul): 6. Seat 1 vs 3: AAA > QQ-3, KKK-22 > JJJ, straight flush > four tens:
    a standard scoop, 3 x 1 = 3. Seat 3 vs 2 (foul): 6.
    Seat 1 6 + 3 = +9, seat 2 -6 - 6 = -12, seat 3 -3 + 6 = +3."""
    result = outcome({1: BONUS_HAND, 2: FOULED, 3: TENS}, config(scoring="standard"))
    assert result.net == {1: 9, 2: -12, 3: 3}


def test_cp8_two_fouls_push() -> None:
    """Seats 2 and 3 both foul: they push against each other, each pays seat 1 6 + 10 = 16."""
    tens_fouled = ("Tc Td Th", "Jc Jd Qc Qd 3c", "Ts 4d 3d 4c Jh")
    result = outcome({1: BONUS_HAND, 2: FOULED, 3: tens_fouled})
    assert result.net == {1: 32, 2: -16, 3: -16}


def test_cp8_wrong_segment_size_fouls() -> None:
    """Seat 2 puts four cards in front and four in the middle: fouled, pays seat 1 16."""
    wrong = ("Qh Qs 4h 9c", "9d 3h 4s 6c", "8c 8d 8h 7c 7d")
    result = outcome({1: BONUS_HAND, 2: wrong})
    assert result.net == {1: 16, 2: -16}
    assert any("front has 4 cards" in f.message for f in result.findings)


def test_cp8_hand_never_set_is_a_foul() -> None:
    """Seat 2 was dealt in but never set its hand (and declared nothing): fouled, pays 16."""
    result = outcome({1: BONUS_HAND, 2: FOULED}, unset=[2])
    assert result.net == {1: 16, 2: -16}
    assert any("never set" in f.message for f in result.findings)


def test_decision_path_cites_the_bonus_rule_inside_a_foul_and_a_super_bonus() -> None:
    """Issue #20: the decision path names every rule that decided an amount. In the foul
    deal above seat 2 pays seat 1 6 + 10 bonus points (CP-8 with CP-5) and seat 3 6 + 4
    (four tens); in the four-handed deal seat 1's 25 from each opponent is the super bonus
    9 (CP-6) plus its 16 bonus points (CP-5)."""
    fouls = outcome({1: BONUS_HAND, 2: FOULED, 3: TENS})
    assert [(s.seat, s.message) for s in fouls.trace if s.rule == "CP-5"
            and s.message.startswith("of which")] == [
        (1, "of which 10 bonus point(s) for seat 1's hand"),
        (3, "of which 4 bonus point(s) for seat 3's hand")]
    super_bonus = outcome({1: MONSTER, 2: QUADS_T, 3: NINES, 4: SEVENS})
    assert [(s.seat, s.message) for s in super_bonus.trace if s.rule == "CP-5"
            and s.message.startswith("of which")] == [
        (1, "of which 16 bonus point(s) for seat 1's hand")] * 3
