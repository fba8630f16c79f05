"""CP-7 automatic wins (and CP-8 false declarations). Numbers worked out by hand."""

from __future__ import annotations

from tests.unit.chinese.scenario import codes, config, outcome

# A four-handed deal of all 52 cards.
DRAGON = ("Ac 2c 3c", "4d 5d 6d 7h 8h", "9h Ts Js Qs Ks")  # 13 ranks
SIX_PAIRS = ("Ad Ah 7c", "2d 2h 3d 3h 4c", "4h 5c 5h 6c 6h")
KINGS = ("Kc Kd 2s", "Jc Jd Jh 3s 4s", "Qc Qd Qh 5s 6s")  # KK / JJJ / QQQ
TENS_FULL = ("As Kh 7d", "9c 9d 9s 7s 8c", "Tc Td Th 8d 8s")  # A-high / 999 / TTT-88

# Seat 1 six pairs, seat 2 three flushes, seat 3 an ordinary hand (QQ / KK / AA).
SIX_PAIRS_B = ("Ad Ah 7c", "2d 2h 3s 3h 4c", "4s 5s 5h 6c 6s")
THREE_FLUSHES = ("2c 5c 9c", "3d 6d 8d Td Qd", "4h 7h 9h Jh Kh")
ORDINARY = ("Qc Qh 2s", "Kc Kd 3c 8c Ts", "As Ac 7d 8h 9s")


def test_dragon_against_six_pairs_against_two_normal_hands() -> None:
    """Dragon (seat 1) collects 13 from each of seats 2, 3, 4, the six-pairs hand included:
    +39. Six pairs (seat 2) collects 4 from seats 3 and 4 and pays the dragon 13: -5.
    Seat 3 vs 4: front KK > A-high, middle JJJ > 999, back QQQ < TTT-88: 2 - 1 = +1.
    Seat 3: -13 - 4 + 1 = -16; seat 4: -13 - 4 - 1 = -18."""
    result = outcome({1: DRAGON, 2: SIX_PAIRS, 3: KINGS, 4: TENS_FULL},
                     declarations=[(1, "dragon"), (2, "six_pairs")], unset=[1, 2])
    assert result.net == {1: 39, 2: -5, 3: -16, 4: -18}
    assert result.seat_rules[1] == "CP-7" and result.seat_rules[2] == "CP-7"
    assert "FOULED_HAND" not in codes(result)


def test_two_non_dragon_automatic_wins_push_and_both_collect() -> None:
    """Six pairs (seat 1) and three flushes (seat 2) push with each other; each collects 4
    from seat 3: +4, +4, -8."""
    result = outcome({1: SIX_PAIRS_B, 2: THREE_FLUSHES, 3: ORDINARY},
                     declarations=[(1, "six_pairs"), (2, "three_flushes")])
    assert result.net == {1: 4, 2: 4, 3: -8}


def test_three_straights_collects_four() -> None:
    """Seat 1: A-2-3 / 4-8 / 9-K is three straights (and a dragon, declared as three
    straights: the declared kind is scored). Collects 4 from seat 2."""
    three_straights = ("Ac 2c 3d", "4d 5h 6h 7c 8s", "9s Tc Jd Qh Kh")
    result = outcome({1: three_straights, 2: ORDINARY}, declarations=[(1, "three_straights")])
    assert result.net == {1: 4, 2: -4}


def test_two_dragons_push() -> None:
    """Two 13-rank hands (clubs and diamonds) push; each collects 13 from seat 3."""
    clubs = ("Ac 2c 3c", "4c 5c 6c 7c 8c", "9c Tc Jc Qc Kc")
    diamonds = ("Ad 2d 3d", "4d 5d 6d 7d 8d", "9d Td Jd Qd Kd")
    ordinary = ("Qh Qs 2s", "Kh Ks 3h 8h Ts", "As Ah 7s 8s 9s")
    result = outcome({1: clubs, 2: diamonds, 3: ordinary},
                     declarations=[(1, "dragon"), (2, "dragon")])
    assert result.net == {1: 13, 2: 13, 3: -26}


def test_undeclared_automatic_win_plays_as_set() -> None:
    """Seat 1 holds six pairs but does not declare: its set hand (AA-7 / 33-22 / 66-55)
    scoops seat 2 (QQ / KK / AA): 6, not 4."""
    six_pairs_set = ("Ad Ah 7c", "2d 2h 3s 3h 4c", "4s 5s 5h 6c 6s")
    result = outcome({1: six_pairs_set, 2: ORDINARY})
    assert result.net == {1: 6, 2: -6}
    assert any("did not declare" in step.message for step in result.trace)


def test_declared_six_pairs_collects_four_instead() -> None:
    """The same hand declared: 4 from seat 2 whatever the segments say."""
    six_pairs_set = ("Ad Ah 7c", "2d 2h 3s 3h 4c", "4s 5s 5h 6c 6s")
    result = outcome({1: six_pairs_set, 2: ORDINARY}, declarations=[(1, "six_pairs")])
    assert result.net == {1: 4, 2: -4}


def test_false_declaration_is_a_foul() -> None:
    """Seat 3's ordinary hand declared a dragon: a foul. Against seat 4 (A-high / 999 /
    TTT-88) it pays 6 + seat 4's bonus holdings (none: a back full house earns nothing) = 6."""
    result = outcome({3: KINGS, 4: TENS_FULL}, declarations=[(3, "dragon")])
    assert result.net == {3: -6, 4: 6}
    assert "FALSE_AUTO_WIN_DECLARATION" in codes(result)
    assert result.seat_rules[3] == "CP-8"


def test_automatic_win_against_a_foul_collects_the_automatic_points() -> None:
    """CP-8: against an automatic winner the automatic win's points apply: seat 1 (six pairs)
    collects 4 from fouled seat 2, not 6."""
    fouled = ("Qc Qh 2s", "Kc 3c 8c Ts 7d", "As Ac Kd 8h 9s")  # QQ front over K-high middle
    result = outcome({1: SIX_PAIRS_B, 2: fouled}, declarations=[(1, "six_pairs")])
    assert result.net == {1: 4, 2: -4}


def test_late_declaration_is_ignored_and_the_hand_plays_as_set() -> None:
    """Seat 1 declares six pairs after the hands were opened: ignored (finding), its set hand
    scoops seat 2 for 6."""
    result = outcome({1: SIX_PAIRS_B, 2: ORDINARY},
                     after_opening=[("auto_win_declared", {"seat": 1, "kind": "six_pairs"})])
    assert result.net == {1: 6, 2: -6}
    assert "LATE_AUTO_WIN_DECLARATION" in codes(result)


def test_automatic_win_scored_under_standard_scoring_too() -> None:
    """Automatic wins are always in play: standard scoring, dragon collects 13."""
    result = outcome({1: DRAGON, 2: KINGS}, config(scoring="standard"),
                     declarations=[(1, "dragon")], unset=[1])
    assert result.net == {1: 13, 2: -13}
