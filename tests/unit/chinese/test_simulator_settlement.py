"""The Chinese Poker simulator's own settlement, against amounts worked out by hand from
rules.md (CP-4..CP-10, GEN-10). Every expected number below is computed in the comment
beside it, not taken from either implementation."""

from __future__ import annotations

import ast
from pathlib import Path

from services.games.chinese.evaluation import segment_rank
from services.games.chinese.profile import ChineseProfile, chinese_profile
from services.simulator import chinese as chinese_simulator
from services.simulator import chinese_settlement
from services.simulator.chinese_settlement import (
    Payment,
    Verdict,
    fees,
    pair_points,
    payment_order,
    settle_table,
)
from tests.profiles import HOUSE

CP: ChineseProfile = chinese_profile(HOUSE)


def set_hand(seat: int, front: str, middle: str, back: str) -> Verdict:
    ranks = tuple(segment_rank(part.split()) for part in (front, middle, back))
    return Verdict(seat, "set", ranks=(ranks[0], ranks[1], ranks[2]))


# A strong hand: pair of queens in front, king-high flush in the middle, a straight flush
# in the back (bonus +5 in the back under Mandarin scoring, CP-5).
STRONG = ("Qc Qd 2h", "2c 5c 7c 9c Jc", "9s Ts Js Qs Ks")
# A weak hand every strong segment beats: ace high, a pair of fours, a pair of fives.
WEAK = ("2d 3h 4s", "4c 4d 6s 8h Th", "5s 5h 9h Qh Ah")
# Wins the front (ace high over five high) and the middle (pair of threes over a pair of
# twos) against SPLIT_LOSER, loses the back (a pair of aces under a straight flush).
SPLIT_WINNER = ("Ac Kd Qh", "3c 3h 4d 6s 8c", "As Ad 7s 6c 5d")
SPLIT_LOSER = ("2c 3d 5h", "2h 2s 7c 8d 9h", "9s Ts Js Qs Ks")


def test_two_of_three_against_a_back_straight_flush() -> None:
    """CP-4 / CP-5: seat 2 wins front and middle, 1 + 1 = 2; seat 1 wins the back with a
    straight flush, 1 + 5 = 6 (rules.md's worked example); seat 2 pays 6 - 2 = 4."""
    hands = {1: set_hand(1, *SPLIT_LOSER), 2: set_hand(2, *SPLIT_WINNER)}
    assert pair_points(hands, CP, "mandarin") == {(1, 2): 4}


def test_scoop_with_a_straight_flush_in_back() -> None:
    """CP-5: scoop 6 + back straight flush 5 = 11 (rules.md); no super bonus two-handed.
    Standard scoring: scoop 3, no bonuses."""
    hands = {1: set_hand(1, *STRONG), 2: set_hand(2, *WEAK)}
    assert pair_points(hands, CP, "mandarin") == {(1, 2): 11}
    assert pair_points(hands, CP, "standard") == {(1, 2): 3}


def test_super_bonus_four_handed() -> None:
    """CP-6: seat 1 scoops all three opponents: 9 instead of 6, plus the back straight
    flush bonus 5 = 14 from each; the three identical weak hands push among themselves."""
    hands = {1: set_hand(1, *STRONG), **{s: set_hand(s, *WEAK) for s in (2, 3, 4)}}
    assert pair_points(hands, CP, "mandarin") == {(1, 2): 14, (1, 3): 14, (1, 4): 14}


def test_a_foul_pays_six_plus_the_other_hands_bonuses() -> None:
    """CP-8: a fouled hand pays 6 plus every bonus of the other hand (straight flush in
    back, 5) = 11; two fouls push. Four-handed, a foul counts as scooped: seat 1 scoops
    seats 3 and 4 and seat 2 fouled, so the super bonus 9 replaces the foul's 6: 9 + 5 =
    14 from seat 2, 9 + 5 = 14 from seats 3 and 4."""
    two = {1: set_hand(1, *STRONG), 2: Verdict(2, "foul")}
    assert pair_points(two, CP, "mandarin") == {(1, 2): 11}
    assert pair_points({1: Verdict(1, "foul"), 2: Verdict(2, "foul")}, CP, "mandarin") == {}
    four = {**two, 3: set_hand(3, *WEAK), 4: set_hand(4, *WEAK)}
    points = pair_points(four, CP, "mandarin")
    assert points[(1, 2)] == 14 and points[(1, 3)] == 14 and points[(1, 4)] == 14
    # seats 3 and 4 each beat the foul of seat 2: 6 plus their own bonuses (none) = 6
    assert points[(3, 2)] == 6 and points[(4, 2)] == 6


def test_automatic_wins() -> None:
    """CP-7: a dragon takes 13 even from another automatic winner; two non-dragon
    automatic wins push; six pairs takes 4 from a set hand and from a foul."""
    hands = {1: Verdict(1, "auto", auto="dragon"), 2: Verdict(2, "auto", auto="six_pairs"),
             3: Verdict(3, "auto", auto="three_flushes"), 4: set_hand(4, *STRONG)}
    assert pair_points(hands, CP, "mandarin") == {
        (1, 2): 13, (1, 3): 13, (1, 4): 13, (2, 4): 4, (3, 4): 4}
    assert pair_points({1: Verdict(1, "auto", auto="six_pairs"), 2: Verdict(2, "foul")},
                       CP, "standard") == {(1, 2): 4}


def test_cap_and_payment_order() -> None:
    """CP-9 / CP-10, standard scoring, point value 5, button 3 (order 1, 2, 3):
    seat 1 scoops seats 2 and 3: 3 points = 15 chips each, capped at seat 1's starting
    10. Seat 2 holds 3 chips: pays 3 of its 10. Seat 3 pays 10. Seats 2 and 3 push."""
    hands = {1: set_hand(1, *STRONG), 2: set_hand(2, *WEAK), 3: set_hand(3, *WEAK)}
    result = settle_table(hands, (1, 2, 3), {1: 10, 2: 3, 3: 50}, button=3, point_value=5,
                          rake={}, cp=CP, scoring="standard")
    assert result.transfers == [Payment(2, 1, 10, 3), Payment(3, 1, 10, 10)]
    assert result.net == {1: 13, 2: -3, 3: -10}
    uncapped = settle_table(hands, (1, 2, 3), {1: 10, 2: 3, 3: 50}, button=3, point_value=5,
                            rake={}, cp=CP, scoring="standard", cap=False)
    assert uncapped.net == {1: 18, 2: -3, 3: -15}


def test_rake_first_then_payments() -> None:
    """GEN-10: rake 2 each (mode all) comes off first: seat 2 holds 10, pays 2 rake, has
    8 left for the 15 it owes; net seat 2 = -2 - 8 = -10, seat 1 = -2 + 8 = +6."""
    hands = {1: set_hand(1, *STRONG), 2: set_hand(2, *WEAK)}
    rake = fees((1, 2), 1, "all", 2, CP)
    assert rake == {1: 2, 2: 2}
    result = settle_table(hands, (1, 2), {1: 100, 2: 10}, button=1, point_value=5,
                          rake=rake, cp=CP, scoring="standard")
    assert result.net == {1: 6, 2: -10}
    assert result.transfers == [Payment(2, 1, 15, 8)]


def test_fees_by_mode() -> None:
    """GEN-10: players = all but the button; designated = the button pays for everyone
    (itself included in house-v1); with the button seat not dealt in, the first
    participant clockwise from it pays."""
    assert fees((1, 2, 4), 2, "players", 3, CP) == {1: 3, 4: 3}
    assert fees((1, 2, 4), 2, "designated", 3, CP) == {2: 9}
    assert fees((1, 2, 4), 3, "designated", 3, CP) == {4: 9}
    assert fees((1, 2, 4), 3, "none", 3, CP) == {}
    assert payment_order((1, 2, 3, 4), 2, CP) == [3, 4, 1, 2]


def test_the_simulator_does_not_import_the_adjudicators_settlement() -> None:
    """The point of this module: the table's settlement is not the code it checks."""
    for module in (chinese_settlement, chinese_simulator):
        tree = ast.parse(Path(str(module.__file__)).read_text("utf-8"))
        imported = {node.module for node in ast.walk(tree)
                    if isinstance(node, ast.ImportFrom) and node.module}
        borrowed = {m for m in imported if m.startswith("services.games")
                    and ("scoring" in m or "settlement" in m)}
        assert borrowed == set(), module.__name__
