"""Every CP reading toggled the other way from house-v1, plus edge cases of the segment
order (CP-2) and of the super bonus (CP-6). Numbers worked out by hand in each docstring."""

from __future__ import annotations

from typing import Any

from services.games.chinese.adjudicate import adjudicate
from services.games.model import GameOutcome
from services.games.profile import RuleProfile
from tests.profiles import HOUSE
from tests.unit.chinese.scenario import codes, config, make_hand, outcome
from tests.unit.chinese.test_fouls_super_bonus import BONUS_HAND, FOULED, TENS
from tests.unit.chinese.test_misdeal_conduct import PAIR
from tests.unit.chinese.test_scoring import H_B

DEAL = {1: BONUS_HAND, 2: FOULED, 3: TENS}


def _variant(**chinese: dict[str, Any]) -> RuleProfile:
    base = HOUSE
    sections = {k: dict(v) for k, v in base.sections.items()}
    sections["chinese"].update(chinese)
    return RuleProfile(name="variant", sections=sections)


def _with(profile: RuleProfile, settings: dict[int, tuple[str, str, str]],
          cfg: dict[str, Any] | None = None, **kwargs: Any) -> GameOutcome:
    return adjudicate(make_hand(settings, cfg, **kwargs), profile)


def test_cp8_unset_hand_reading_off_makes_the_hand_dead() -> None:
    """``fouls.unset_hand_is_foul = false``: seat 2 never set, so its hand is dead and
    takes no part: no points, no rake. Seat 1 vs 3 only: AAA > QQ-3 (+3), KKK-22 > JJJ
    (+2), straight flush > four tens (+5): scoop 6 + 10 = 16. Rake all, fee 2, from seats 1
    and 3 only: seat 1 16 - 2 = 14, seat 2 0, seat 3 -16 - 2 = -18, house 4."""
    profile = _variant(fouls={"unset_hand_is_foul": False})
    result = _with(profile, DEAL, config(rake_mode="all", fee=2), unset=[2])
    assert result.net == {1: 14, 2: 0, 3: -18}
    assert result.rake == {1: 2, 3: 2} and result.house == 4
    assert result.seat_rules[2] == "CP-1"
    assert "FOULED_HAND" not in codes(result)


def test_cp8_unset_hand_reading_on_is_a_foul() -> None:
    """house-v1 (``unset_hand_is_foul = true``), same deal: seat 2 fouls. Seat 1: 16 from
    seat 3 and 6 + 10 held bonuses = 16 from seat 2: +32; seat 3: -16 + (6 + 4 for its four
    tens) = -6; seat 2: -16 - 10 = -26. Rake all 2 each: 30, -28, -8."""
    result = outcome(DEAL, config(rake_mode="all", fee=2), unset=[2])
    assert result.net == {1: 30, 2: -28, 3: -8}
    assert result.rake == {1: 2, 2: 2, 3: 2}


def test_gen10_designated_reading_off_button_pays_for_the_others_only() -> None:
    """``rake.designated_counts_button = false``, designated mode, fee 2, button 3: seat 3
    pays 2 for each of the other two participants = 4. Points as in DEAL (+32, -26, -6):
    seat 3 -6 - 4 = -10; house 4."""
    profile = _variant(rake={"designated_counts_button": False, "stake_counts_fee": True})
    result = _with(profile, DEAL, config(rake_mode="designated", fee=2), button=3)
    assert result.rake == {3: 4}
    assert result.net == {1: 32, 2: -26, 3: -10} and result.house == 4


def test_cp11_uncalled_misdeal_reading_off_scores_the_hand() -> None:
    """``misdeal.uncalled_misdeal_voids_hand = false``: the dealer exposed five of seat 2's
    cards and nobody called a misdeal. Still MISDEAL_NOT_CALLED, but the hand is scored:
    seat 1 wins front and middle, loses the back: 2 - 1 = +1."""
    profile = _variant(misdeal={"exposed_cards": 5, "uncalled_misdeal_voids_hand": False})
    exposed = [("card_exposed", {"seat": 2, "card": c, "cause": "dealer_error"})
               for c in ["2c", "3c", "5d", "Jc", "Jd"]]
    result = _with(profile, PAIR, before_opening=exposed)
    assert "MISDEAL_NOT_CALLED" in codes(result)
    assert not result.dead and result.net == {1: 1, 2: -1}


def test_cp2_middle_equal_to_back_is_not_a_foul() -> None:
    """CP-2 "the back must be at least as strong as the middle": middle A-K-9-8-7 and back
    A-K-9-8-7 (other suits) are equal, so the hand stands. Against H_B: front K-Q-2 beats
    5-3-2 (seat 1), JJ beats A-high in the middle and TTT beats A-high in the back (seat 2):
    seat 2 nets 2 - 1 = +1."""
    level = ("Kc Qd 2h", "Ac Kd 9h 8s 7h", "Ad Kh 9c 8h 7s")
    result = outcome({1: level, 2: H_B})
    assert "FOULED_HAND" not in codes(result)
    assert result.net == {1: -1, 2: 1}


# Four-handed: seat 1 would scoop everyone, but seat 4 declares six pairs.
MONSTER = ("Ac Ad Ah", "Kc Kd Kh Ks 2c", "5s 6s 7s 8s 9s")
TENS_JACKS = ("Qh 4s 2d", "Th Ts 3d 4d 6d", "Jh Js 3h 4h 6h")
TRIPS_BACK = ("As Qs 3s", "2h 2s 4c 6c 7h", "5c 5d 5h 8h 9h")
SIX_PAIRS = ("Qc Qd 3c", "8c 8d 7c 7d 9c", "Jc Jd Tc Td 9d")


def test_cp6_no_super_bonus_when_one_opponent_holds_an_automatic_win() -> None:
    """Seat 4 declares six pairs: it collects 4 from each of seats 1, 2, 3 (+12) and cannot
    be scooped, so seat 1 has no super bonus. Seat 1 scoops seats 2 and 3 (AAA, four kings,
    straight flush): 6 + 3 + 8 + 5 = 22 from each. Seat 2 vs 3: front Q-4-2 < A-Q-3, middle
    TT > 22, back JJ < 555: seat 3 nets 2 - 1 = +1.
    Seat 1: 22 + 22 - 4 = +40; seat 2: -22 - 1 - 4 = -27; seat 3: -22 + 1 - 4 = -25."""
    settings = {1: MONSTER, 2: TENS_JACKS, 3: TRIPS_BACK, 4: SIX_PAIRS}
    result = outcome(settings, declarations=[(4, "six_pairs")])
    assert result.net == {1: 40, 2: -27, 3: -25, 4: 12}
    assert not any(step.rule == "CP-6" for step in result.trace)


def test_cp6_same_deal_undeclared_gives_the_super_bonus() -> None:
    """Seat 4 does not declare: its set hand (QQ / 88-77 / JJ-TT) is scooped by seat 1 too,
    so seat 1 takes the super bonus 9 + 16 = 25 from each: +75. Seat 2 vs 4: Q-high < QQ,
    TT < 88-77, JJ-xx < JJ-TT: seat 4 scoops, 6. Seat 3 vs 4: A-Q-3 < QQ, 22 < 88-77,
    555 > JJ-TT: seat 4 nets 2 - 1 = 1. Seat 2 vs 3: seat 3 +1.
    Seat 2: -25 - 6 - 1 = -32; seat 3: -25 - 1 + 1 = -25; seat 4: -25 + 6 + 1 = -18."""
    settings = {1: MONSTER, 2: TENS_JACKS, 3: TRIPS_BACK, 4: SIX_PAIRS}
    result = outcome(settings)
    assert result.net == {1: 75, 2: -32, 3: -25, 4: -18}


def test_cp5_bonus_table_with_an_unknown_category_is_a_profile_error() -> None:
    """A misspelt bonus category ("four_of_kind") would otherwise silently pay no bonus:
    loading the section must fail and name it."""
    import pytest

    from services.games.chinese.profile import chinese_profile

    base = HOUSE
    sections = {k: dict(v) for k, v in base.sections.items()}
    scoring = dict(sections["chinese"]["scoring"])
    mandarin = dict(scoring["mandarin"])
    mandarin["bonus"] = {**mandarin["bonus"], "back": {"four_of_kind": 4}}
    scoring["mandarin"] = mandarin
    sections["chinese"] = {**sections["chinese"], "scoring": scoring}
    with pytest.raises(ValueError, match="four_of_kind"):
        chinese_profile(RuleProfile(name="typo", sections=sections))


def test_cp2_front_trips_over_middle_two_pair_fouls() -> None:
    """CP-2 compares 3- and 5-card hands by category first: front 777 (three of a kind)
    beats middle AA-KK-2 (two pair), so the front is stronger than the middle: foul.
    Against H_B seat 1 pays 6 + H_B's held bonuses (TTT-6-7 back: none) = 6."""
    trips_front = ("7s 7d 7h", "As Ad Ks Kd 2s", "3h 4h 8h 9h Jh")
    result = outcome({1: trips_front, 2: H_B})
    assert "FOULED_HAND" in codes(result)
    assert result.net == {1: -6, 2: 6}


def test_cp2_front_a23_is_ace_high_not_a_straight() -> None:
    """Front A-2-3 counts as ace-high (no straights in the front), which beats a king-high
    middle K-Q-9-8-6: the front is stronger than the middle: foul."""
    ace_front = ("Ah 2d 3h", "Ks Qd 9h 8s 6h", "4s 5s 7s Ts Js")
    result = outcome({1: ace_front, 2: H_B})
    assert "FOULED_HAND" in codes(result)
