"""GEN-2 reading ``stake_counts_fee`` (High Card Flush ``hcf.stake_counts_fee``, Chinese
Poker ``chinese.rake.stake_counts_fee``): is the participation fee a seat pays from its
own stack (HCF-12, GEN-10) part of what the hand can require of it?

``true`` (house-v1): a seat that starts the hand with less than its wagers to cover plus
its fee is ``INSUFFICIENT_STAKE`` (GEN-2), and the fee expected from a seat is never more
than it holds when the fee falls due (HCF: once the seat is settled; Chinese Poker: first,
before any point is paid); the chips it is short are that finding's, not a RAKE_UNDER.
``false``: today's reading, the fee expected in full whatever the seat holds.

Every number below is worked by hand in the docstrings, and every hand is adjudicated by
both engines: the Python reference's record and the core's are byte-identical. A profile
that leaves the field out is refused (profile fields have no defaults).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from services.events.contract import AdjudicationRecord
from services.games.chinese.profile import ChineseProfile
from services.games.hcf.profile import HcfProfile
from services.games.model import HandInput
from services.games.profile import Profiles, RuleProfile
from tests.profiles import HOUSE
from tests.unit.chinese import scenario as cp
from tests.unit.hcf import scenario as hcf
from tests.unit.native.rules_support import assert_refused_without, both_engines, house_with


def profiles(game: str, counts_fee: bool, **hcf_fields: Any) -> Profiles:
    """house-v1 with the game's ``stake_counts_fee`` as given."""
    change: dict[str, Any] = ({"stake_counts_fee": counts_fee, **hcf_fields} if game == "hcf"
                              else {"rake": {"stake_counts_fee": counts_fee}})
    return Profiles({HOUSE.name: house_with(game, change)})


ON, OFF = profiles("hcf", True), profiles("hcf", False)
CP_ON, CP_OFF = profiles("chinese", True), profiles("chinese", False)


def seen(record: AdjudicationRecord) -> tuple[dict[str, int], dict[str, int]]:
    assert record.expected is not None
    return record.expected.net, record.expected.rake


def codes(record: AdjudicationRecord) -> list[tuple[str, str, int | None, int | None]]:
    return [(f.code, f.rule, f.seat, f.amount) for f in record.findings]


def short(seat: int, amount: int) -> tuple[str, str, int, int]:
    return ("INSUFFICIENT_STAKE", "GEN-2", seat, amount)


# ------------------------------------------------------------------ High Card Flush

DP6 = "Ah Kh Qh 9h 5h 2h 3c"  # six hearts, A-K-Q-9: the DP qualifies (HCF-7)
LOSES6 = "Kd Qd 9d 8d 6d 5d Ac"  # six diamonds, K high: loses to the DP; raise cap 3x Ante
WINS6 = "Ad Kd Qd Jd 6d 5d 4c"  # six diamonds, A-K-Q-J: beats the DP's A-K-Q-9


def hcf_hand(mode: str, fee: int, stacks: dict[int, int], cards: str, raised: int | None,
             fees: dict[int, int]) -> HandInput:
    """DP seat 1, player seat 2 with an Ante of 10 and no bonus, raising ``raised`` (None:
    folds); settled as the rules say, then ``rake_collected`` from the stacks as
    ``fees``."""
    parts = [hcf.started(1, stacks), hcf.wager(2, "ante", 10), hcf.deal({1: DP6, 2: cards}, dp=1)]
    if raised is None:
        parts += [hcf.fold(2), hcf.collect(2, "ante", 10)]
    else:
        parts += [hcf.raise_(2, raised), hcf.show(1, DP6), hcf.show(2, cards)]
        if cards == LOSES6:
            parts += [hcf.collect(2, "ante", 10), hcf.collect(2, "raise", raised)]
        else:
            parts += [hcf.pay(2, 10 + raised)]
    parts += [hcf.rake(seat, amount) for seat, amount in fees.items()]
    return hcf.hand(hcf.config(mode, fee), *parts, hcf.ended())


def test_hcf_all_mode_stack_exactly_enough_pays_its_fee_from_its_last_chip() -> None:
    """Mode all, fee 1. Seat 2 needs Ante 10 + 3 x 10 + its fee 1 = 41 and has 41: no
    finding. It raises 30 and loses 40, holding 1 when the fee falls due: pays 1. Seat 2
    -40 - 1 = -41, DP +40 - 1 = +39, house 2; 39 - 41 + 2 = 0. Either reading."""
    hand = hcf_hand("all", 1, {1: 500, 2: 41}, LOSES6, 30, {1: 1, 2: 1})
    for profs in (ON, OFF):
        record = both_engines(hand, profs)
        assert seen(record) == ({"1": 39, "2": -41, "house": 2}, {"1": 1, "2": 1})
        assert record.findings == [] and record.status == "ok"


def test_hcf_all_mode_one_chip_short_is_the_stake_finding_not_a_rake_under() -> None:
    """Mode all, fee 1, seat 2 has 40 = 41 - 1: it raises 30 and loses 40, holding 0.
    true: INSUFFICIENT_STAKE of 1; the fee expected from it is 0: seat 2 -40, DP +39,
    house 1; a table that takes nothing from seat 2 has no rake error. A table that takes
    1 anyway drives seat 2 to -1: WAGER_OVER_STACK (GEN-2) and RAKE_OVER 1.
    false (today): the full fee is expected, seat 2 -41 (a stack of -1), house 2, and the
    table that took nothing is RAKE_UNDER 1 with no GEN-2 finding at all."""
    took_none = hcf_hand("all", 1, {1: 500, 2: 40}, LOSES6, 30, {1: 1})
    record = both_engines(took_none, ON)
    assert seen(record) == ({"1": 39, "2": -40, "house": 1}, {"1": 1})
    assert codes(record) == [short(2, 1)]
    assert "fee of 1" in record.findings[0].message
    record = both_engines(hcf_hand("all", 1, {1: 500, 2: 40}, LOSES6, 30, {1: 1, 2: 1}), ON)
    assert codes(record) == [("WAGER_OVER_STACK", "GEN-2", 2, 1), short(2, 1),
                             ("RAKE_OVER", "HCF-12", 2, 1)]
    record = both_engines(took_none, OFF)
    assert seen(record) == ({"1": 39, "2": -41, "house": 2}, {"1": 1, "2": 1})
    assert codes(record) == [("RAKE_UNDER", "HCF-12", 2, -1)]


def test_hcf_one_chip_short_who_wins_pays_the_fee_from_its_winnings() -> None:
    """Mode all, fee 1, seat 2 has 40 (1 short: the finding stands, it is about the start
    of the hand). It raises 30 and wins Ante 10 + Raise 30 = 40, holding 80: pays 1.
    Seat 2 +39, DP -40 - 1 = -41, house 2."""
    record = both_engines(hcf_hand("all", 1, {1: 500, 2: 40}, WINS6, 30, {1: 1, 2: 1}), ON)
    assert seen(record) == ({"1": -41, "2": 39, "house": 2}, {"1": 1, "2": 1})
    assert codes(record) == [short(2, 1)]


def test_hcf_well_short() -> None:
    """Mode all, fee 1. Seat 2 has 10, needs 41: INSUFFICIENT_STAKE of 31. It folds and
    loses its Ante 10, holding 0: its fee expected is 0. Seat 2 -10, DP +10 - 1 = +9,
    house 1. false: the wagers alone are checked, 10 + 30 = 40, 30 short; the fee is
    expected in full: seat 2 -11, house 2, and the table that took nothing is RAKE_UNDER.
    Seat 2 with 25 (16 short) raising 10 and losing 20 still holds 5: pays its 1,
    seat 2 -21, DP +19, house 2."""
    folds = hcf_hand("all", 1, {1: 500, 2: 10}, LOSES6, None, {1: 1})
    record = both_engines(folds, ON)
    assert seen(record) == ({"1": 9, "2": -10, "house": 1}, {"1": 1})
    assert codes(record) == [short(2, 31)]
    record = both_engines(folds, OFF)
    assert seen(record) == ({"1": 9, "2": -11, "house": 2}, {"1": 1, "2": 1})
    assert codes(record) == [short(2, 30), ("RAKE_UNDER", "HCF-12", 2, -1)]
    record = both_engines(hcf_hand("all", 1, {1: 500, 2: 25}, LOSES6, 10, {1: 1, 2: 1}), ON)
    assert seen(record) == ({"1": 19, "2": -21, "house": 2}, {"1": 1, "2": 1})
    assert codes(record) == [short(2, 16)]


def test_hcf_players_mode() -> None:
    """Mode players, fee 1: the player pays, the DP does not. Seat 2 with 40 (needs 41)
    raises 30 and loses 40: INSUFFICIENT_STAKE 1, fee 0; seat 2 -40, DP +40, house 0.
    false: seat 2 -41, house 1."""
    hand = hcf_hand("players", 1, {1: 500, 2: 40}, LOSES6, 30, {})
    record = both_engines(hand, ON)
    assert seen(record) == ({"1": 40, "2": -40, "house": 0}, {})
    assert codes(record) == [short(2, 1)]
    record = both_engines(hand, OFF)
    assert seen(record) == ({"1": 40, "2": -41, "house": 1}, {"2": 1})


def test_hcf_designated_mode_the_dp_pays_the_player_covers_wagers_only() -> None:
    """Mode designated, fee 2, one player: the player pays no fee, so 40 = 10 + 30
    covers it (no finding); the DP can owe 2 x 1 = 2. DP with 2: no finding. DP with 1:
    INSUFFICIENT_STAKE of 1 on seat 1. Either way the player raises 30 and loses 40, the
    DP holds 42 or 41 when the fee falls due and pays 2: seat 2 -40, DP +38, house 2.
    false: no finding for the DP with 1."""
    exact = hcf_hand("designated", 2, {1: 2, 2: 40}, LOSES6, 30, {1: 2})
    record = both_engines(exact, ON)
    assert seen(record) == ({"1": 38, "2": -40, "house": 2}, {"1": 2})
    assert record.findings == []
    dp_short = hcf_hand("designated", 2, {1: 1, 2: 40}, LOSES6, 30, {1: 2})
    record = both_engines(dp_short, ON)
    assert seen(record) == ({"1": 38, "2": -40, "house": 2}, {"1": 2})
    assert codes(record) == [short(1, 1)]
    assert record.findings[0].message.startswith("the designated player (seat 1)")
    assert both_engines(dp_short, OFF).findings == []


def test_hcf_dp_that_banked_with_its_fee_is_short_when_the_fee_falls_due() -> None:
    """Mode designated, fee 2, ``dp_funds_reserve_rake = false``: the DP's funds are its
    stack, 21. Seat 2 (100 chips) raises 10 and wins 20 <= 21: paid; the DP holds 1 when
    its fee of 2 falls due. true: it pays 1, DP -21, seat 2 +20, house 1, and the chip
    short is INSUFFICIENT_STAKE of 1 on the DP (it had its fee at the start, 21 >= 2,
    and banked with it). false: DP -22 (a stack of -1), house 2, no finding."""
    hand = hcf_hand("designated", 2, {1: 21, 2: 100}, WINS6, 10, {1: 1})
    record = both_engines(hand, profiles("hcf", True, dp_funds_reserve_rake=False))
    assert seen(record) == ({"1": -21, "2": 20, "house": 1}, {"1": 1})
    assert codes(record) == [short(1, 1)]
    record = both_engines(hand, profiles("hcf", False, dp_funds_reserve_rake=False))
    assert seen(record) == ({"1": -22, "2": 20, "house": 2}, {"1": 2})
    assert codes(record) == [("RAKE_UNDER", "HCF-12", 1, -1)]


def test_hcf_dead_hand_takes_no_fee_and_raises_no_stake_finding() -> None:
    """GEN-6: the table declares a misdeal after the deal; seat 2 had 10 (31 short under
    true) but a dead hand requires nothing and takes no fee: every net 0, no rake, only
    the DEAD_HAND info."""
    hand = hcf.hand(hcf.config("all", 1), hcf.started(1, {1: 500, 2: 10}),
                    hcf.wager(2, "ante", 10), hcf.deal({1: DP6, 2: LOSES6}, dp=1),
                    [("misdeal", {"reason": "dealer error"})], hcf.ended())
    record = both_engines(hand, ON)
    assert seen(record) == ({"1": 0, "2": 0, "house": 0}, {})
    assert [f.code for f in record.findings] == ["DEAD_HAND"] and record.status == "dead"


# ------------------------------------------------------------------ Chinese Poker

SCOOP = ("Qh Qd 2s", "Ac Ad 3s 4d 5h", "5c 6c 7c 8c 9c")  # seat 1: scoop + back SF, 11 points
LOSER = ("Ah Kd 3c", "2h 2d 6d 7d 8s", "Tc Td Th Js Jd")


def cp_hand(mode: str, stack: int, button: int, fees: dict[int, int],
            paid: int = 0, **kwargs: Any) -> HandInput:
    """Point value 10, fee 10: seat 1 (1000 chips) wins 11 points = 110 chips from seat 2
    (``stack`` chips). The table takes ``fees`` first and then seat 2 pays ``paid``."""
    payments = [cp.rake(seat, amount) for seat, amount in fees.items()]
    if paid:
        payments.append(cp.pay(2, 1, paid))
    return cp.make_hand({1: SCOOP, 2: LOSER}, cp.config(point_value=10, rake_mode=mode, fee=10),
                        stacks={1: 1000, 2: stack}, button=button, payments=payments, **kwargs)


def test_chinese_all_mode_exactly_one_short_and_well_short() -> None:
    """Mode all, fee 10, seat 2 owes 110. The fee is taken first, then seat 2 pays as far
    as its chips go (CP-10).
    - 10 chips (exactly its fee): pays 10, has 0, pays no point. Seat 1 -10, seat 2 -10,
      house 20; no finding, either reading.
    - 9 (1 short): true: INSUFFICIENT_STAKE 1, fee 9: seat 1 -10, seat 2 -9, house 19;
      the table that took 9 is right. false (today): fee 10, seat 2 -10 (a stack of -1),
      house 20, and the table that took 9 is RAKE_UNDER 1.
    - 3 (7 short): true: INSUFFICIENT_STAKE 7, fee 3: seat 1 -10, seat 2 -3, house 13."""
    for profs in (CP_ON, CP_OFF):
        record = both_engines(cp_hand("all", 10, 1, {1: 10, 2: 10}), profs)
        assert seen(record) == ({"1": -10, "2": -10, "house": 20}, {"1": 10, "2": 10})
        assert record.findings == []
    one_short = cp_hand("all", 9, 1, {1: 10, 2: 9})
    record = both_engines(one_short, CP_ON)
    assert seen(record) == ({"1": -10, "2": -9, "house": 19}, {"1": 10, "2": 9})
    assert codes(record) == [short(2, 1)]
    record = both_engines(one_short, CP_OFF)
    assert seen(record) == ({"1": -10, "2": -10, "house": 20}, {"1": 10, "2": 10})
    assert codes(record) == [("RAKE_UNDER", "GEN-10", 2, -1)]
    record = both_engines(cp_hand("all", 3, 1, {1: 10, 2: 3}), CP_ON)
    assert seen(record) == ({"1": -10, "2": -3, "house": 13}, {"1": 10, "2": 3})
    assert codes(record) == [short(2, 7)]


def test_chinese_table_taking_the_full_fee_from_a_short_seat() -> None:
    """Mode all, fee 10, seat 2 with 9; the table takes 10 from it: its stack goes to -1,
    WAGER_OVER_STACK 1 (GEN-2), and against the fee expected, 9, RAKE_OVER 1."""
    record = both_engines(cp_hand("all", 9, 1, {1: 10, 2: 10}), CP_ON)
    assert codes(record) == [("WAGER_OVER_STACK", "GEN-2", 2, 1), short(2, 1),
                             ("RAKE_OVER", "GEN-10", 2, 1)]


def test_chinese_players_mode_the_button_pays_no_fee_and_needs_none() -> None:
    """Mode players, fee 10, button on seat 2 (3 chips): seat 2 pays no fee, so it is not
    short; it pays seat 1 the 3 chips it has. Seat 1 pays 10: seat 1 -10 + 3 = -7,
    seat 2 -3, house 10. No finding."""
    record = both_engines(cp_hand("players", 3, 2, {1: 10}, paid=3), CP_ON)
    assert seen(record) == ({"1": -7, "2": -3, "house": 10}, {"1": 10})
    assert record.findings == []


def test_chinese_designated_mode_the_button_needs_the_fee_for_everyone() -> None:
    """Mode designated, fee 10, button seat 2 pays for both participants: 20.
    - 25 chips: no finding; pays 20, then 5 of the 110 it owes: seat 1 +5, seat 2 -25,
      house 20.
    - 15 chips (5 short): INSUFFICIENT_STAKE 5; fee 15, nothing left for points: seat 1
      0, seat 2 -15, house 15. false: fee 20, seat 2 -20 (a stack of -5)."""
    record = both_engines(cp_hand("designated", 25, 2, {2: 20}, paid=5), CP_ON)
    assert seen(record) == ({"1": 5, "2": -25, "house": 20}, {"2": 20})
    assert record.findings == []
    record = both_engines(cp_hand("designated", 15, 2, {2: 15}), CP_ON)
    assert seen(record) == ({"1": 0, "2": -15, "house": 15}, {"2": 15})
    assert codes(record) == [short(2, 5)]
    record = both_engines(cp_hand("designated", 15, 2, {2: 15}), CP_OFF)
    assert seen(record) == ({"1": 0, "2": -20, "house": 20}, {"2": 20})


def test_chinese_misdeal_takes_no_fee_and_raises_no_stake_finding() -> None:
    """CP-11: a misdeal called before anybody set: nothing scored, no rake; seat 2 with 3
    chips is short of nothing. Nets 0, no rake, no INSUFFICIENT_STAKE."""
    hand = cp_hand("all", 3, 1, {}, unset=[1, 2], open_hands=False,
                   before_opening=[("misdeal", {"reason": "hands given to wrong seats"})])
    record = both_engines(hand, CP_ON)
    assert seen(record) == ({"1": 0, "2": 0, "house": 0}, {})
    assert "INSUFFICIENT_STAKE" not in [f.code for f in record.findings]
    assert record.status == "dead"


# ------------------------------------------------------------------ no default


def without_the_field(game: str) -> RuleProfile:
    sections = {name: dict(body) for name, body in HOUSE.sections.items()}
    if game == "hcf":
        del sections["hcf"]["stake_counts_fee"]
    else:
        rake = dict(sections["chinese"]["rake"])
        del rake["stake_counts_fee"]
        sections["chinese"]["rake"] = rake
    return RuleProfile(HOUSE.name, sections)


@pytest.mark.parametrize(("game", "struct"), [("hcf", HcfProfile), ("chinese", ChineseProfile)])
def test_a_profile_without_the_reading_is_refused(game: str, struct: type[Any],
                                                  tmp_path: Path) -> None:
    """The field has no default: the section does not load (the error names it), a
    profile folder without it is refused when read, and the core leaves such a hand to
    the reference (which rejects it)."""
    hand = (hcf_hand("all", 1, {1: 500, 2: 41}, LOSES6, 30, {1: 1, 2: 1}) if game == "hcf"
            else cp_hand("all", 10, 1, {1: 10, 2: 10}))
    assert_refused_without("stake_counts_fee", game, struct, without_the_field(game), hand,
                           tmp_path)
