"""GEN-10 reading ``[rake] all_charges_button`` (Five Card Draw 7-A and Texas Hold'em):
in ``all`` mode, does the player on the button pay when it put nothing in the pot?

HCF-12 ``all`` says "every participant pays, and so does the DP"; GEN-10 reads the DP as
the player on the button. ``false`` (house-v1): each fee is a participation fee, so a
button that folds with nothing in pays nothing. ``true`` (the literal substitution): a
button dealt in pays the fee all the same; a button on a seat nobody was dealt from has
no player and pays nothing.

Every scenario is worked by hand below and adjudicated by both engines: the Python
reference's record and the core's are byte-identical. A profile that leaves the field
out is refused (profile fields have no defaults).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from services.events.contract import AdjudicationRecord
from services.games.draw7a.profile import Draw7aProfile
from services.games.holdem.profile import HoldemProfile
from services.games.model import HandInput
from services.games.profile import Profiles, RuleProfile
from services.simulator.handbuilder import EventSpec, build_hand
from tests.profiles import HOUSE
from tests.unit.draw7a import builder as draw
from tests.unit.holdem import builder as holdem
from tests.unit.holdem import scenario as s
from tests.unit.native.rules_support import assert_refused_without, both_engines, house_with


def profiles(game: str, all_charges_button: bool, fee_from: str = "stack") -> Profiles:
    """house-v1 with the game's ``[rake]`` reading and fee source as given."""
    change = {"rake": {"all_charges_button": all_charges_button, "fee_from": fee_from}}
    return Profiles({HOUSE.name: house_with(game, change)})


def seen(record: AdjudicationRecord) -> tuple[dict[str, int], dict[str, int], str]:
    assert record.expected is not None
    return record.expected.net, record.expected.rake, record.status


def codes(record: AdjudicationRecord) -> list[tuple[str, str, int | None, int | None]]:
    return [(f.code, f.rule, f.seat, f.amount) for f in record.findings]


# ------------------------------------------------------------------ Texas Hold'em

def holdem_hand(button: int, fees: list[EventSpec], winner_paid: int = 8,
                fee_first: bool = False) -> HandInput:
    """The reference hand (``tests/unit/holdem/scenario.py``), mode ``all``, fee 1: blinds
    1 and 2 by seats 1 and 2, seat 3 folds before putting anything in; seats 1 and 2 put
    in 4 each; the aces (seat 1) win. ``button`` 3 (seat 3, dealt in) or 4 (a seat
    nobody was dealt from: the blinds, the deal and every turn are the same). ``fees``:
    the table's ``rake_collected``, after the payout (from the stacks) or, with
    ``fee_first``, before it (from the pot)."""
    payout = holdem.payout(1, winner_paid)
    ending = [holdem.show(1, s.CARDS[1]), holdem.show(2, s.CARDS[2]),
              *(fees + [payout] if fee_first else [payout] + fees)]
    parts = [holdem.blinds(1, 2), holdem.deal(s.CARDS, button), *s.preflop(),
             holdem.street(*s.FLOP), *s.flop_betting(), holdem.street(s.TURN), *s.checks(),
             holdem.street(s.RIVER), *s.checks(), ending]
    return holdem.hand_input(s.STACKS, button, *parts, cfg=holdem.config(mode="all", fee=1))


def test_holdem_button_with_nothing_in_pays_only_under_the_literal_reading() -> None:
    """Fees from the stacks. Seat 1 wins the pot of 8 (+4), seat 2 loses 4, seat 3 (the
    button) put in nothing.

    - false (house-v1): seats 1 and 2 pay 1 each: +3, -5, 0; house 2. A table that also
      takes 1 from seat 3 over-collects it: RAKE_OVER seat 3, 1 (GEN-10).
    - true: seat 3 pays 1 from its 100 as well: +3, -5, -1; house 3; 3 - 5 - 1 + 3 = 0.
      A table that takes only seats 1 and 2's fees under-collects seat 3's:
      RAKE_UNDER seat 3, 1."""
    two = [holdem.rake(1, 1), holdem.rake(2, 1)]
    three = [*two, holdem.rake(3, 1)]
    off, on = profiles("holdem", False), profiles("holdem", True)
    record = both_engines(holdem_hand(3, two), off)
    assert seen(record) == ({"1": 3, "2": -5, "3": 0, "house": 2}, {"1": 1, "2": 1}, "ok")
    record = both_engines(holdem_hand(3, three), off)
    assert codes(record) == [("RAKE_OVER", "GEN-10", 3, 1)]
    record = both_engines(holdem_hand(3, three), on)
    assert seen(record) == ({"1": 3, "2": -5, "3": -1, "house": 3},
                            {"1": 1, "2": 1, "3": 1}, "ok")
    assert record.findings == []
    record = both_engines(holdem_hand(3, two), on)
    assert codes(record) == [("RAKE_UNDER", "GEN-10", 3, -1)]


def test_holdem_button_fee_from_the_pot_under_the_literal_reading() -> None:
    """Fees from the pot, true: 1 each for seats 1, 2 and 3 off the pot of 8, booked to
    them; seat 1 is paid 8 - 3 = 5: +1; seat 2 -4; seat 3 0 (its fee came out of the pot,
    not its stack); house 3; 1 - 4 + 0 + 3 = 0. false: 8 - 2 = 6 to seat 1, +2, -4, 0,
    house 2."""
    pot_fees = [holdem.rake(seat, 1, "pot") for seat in (1, 2, 3)]
    record = both_engines(holdem_hand(3, pot_fees, 5, fee_first=True),
                          profiles("holdem", True, "pot"))
    assert seen(record) == ({"1": 1, "2": -4, "3": 0, "house": 3},
                            {"1": 1, "2": 1, "3": 1}, "ok")
    record = both_engines(holdem_hand(3, pot_fees[:2], 6, fee_first=True),
                          profiles("holdem", False, "pot"))
    assert seen(record) == ({"1": 2, "2": -4, "3": 0, "house": 2}, {"1": 1, "2": 1}, "ok")


def test_holdem_dead_button_pays_nothing_under_either_reading() -> None:
    """The button on seat 4, where nobody was dealt: no player to charge. Seat 3 folded
    with nothing in and is not the button, so it pays nothing either: +3, -5, 0, house 2
    under both readings."""
    fees = [holdem.rake(1, 1), holdem.rake(2, 1)]
    for value in (False, True):
        record = both_engines(holdem_hand(4, fees), profiles("holdem", value))
        assert seen(record) == ({"1": 3, "2": -5, "3": 0, "house": 2},
                                {"1": 1, "2": 1}, "ok")


# ------------------------------------------------------------------ Five Card Draw 7-A

DRAW_CARDS = {1: ["Ah", "Kh", "9h", "8h", "7h"], 2: ["Ac", "Ad", "As", "Kc", "Kd"],
              3: ["7c", "7d", "8c", "8d", "Tc"]}


def draw_hand(fees: list[tuple[int | None, int]], rake_from: str = "stack",
              winner_paid: int = 4) -> HandInput:
    """Three-handed, button 1, blinds 1 (seat 2) and 2 (seat 3), mode ``all``, fee 1.
    Before the draw seat 1 folds with nothing in, seat 2 completes 1, seat 3 checks (pot
    4); seats 2 and 3 stand pat and check after the draw; seat 2 shows first (the first
    left of the button, nobody bet), its full house beats seat 3's two pair: it wins 4."""
    events = draw.narrate({1: 100, 2: 100, 3: 100}, 1, DRAW_CARDS,
                          before=[(1, "fold", None), (2, "call", 1), (3, "check", None)],
                          draws=draw.stand_pat(2, 3),
                          after=[(2, "check", None), (3, "check", None)],
                          showdown=[(2, DRAW_CARDS[2]), (3, DRAW_CARDS[3])],
                          payouts=[(2, winner_paid, "pot")], rake=fees, rake_from=rake_from)
    return build_hand(draw.config("no", mode="all", fee=1), events)


def test_draw_button_with_nothing_in_pays_only_under_the_literal_reading() -> None:
    """Fees from the stacks. Seat 2 wins 4 (+2), seat 3 loses 2, seat 1 (the button) put
    in nothing. false (house-v1): seats 2 and 3 pay 1 each: 0, +1, -3, house 2. true:
    seat 1 pays 1 from its 100 too: -1, +1, -3, house 3; -1 + 1 - 3 + 3 = 0. From the
    pot, true: 4 - 3 = 1 to seat 2: seat 1 0, seat 2 -1, seat 3 -2, house 3."""
    two: list[tuple[int | None, int]] = [(2, 1), (3, 1)]
    three: list[tuple[int | None, int]] = [(1, 1), *two]
    record = both_engines(draw_hand(two), profiles("draw7a", False))
    assert seen(record) == ({"1": 0, "2": 1, "3": -3, "house": 2}, {"2": 1, "3": 1}, "ok")
    record = both_engines(draw_hand(three), profiles("draw7a", True))
    assert seen(record) == ({"1": -1, "2": 1, "3": -3, "house": 3},
                            {"1": 1, "2": 1, "3": 1}, "ok")
    assert record.findings == []
    record = both_engines(draw_hand(two), profiles("draw7a", True))
    assert codes(record) == [("RAKE_UNDER", "GEN-10", 1, -1)]
    record = both_engines(draw_hand(three, "pot", 1), profiles("draw7a", True, "pot"))
    assert seen(record) == ({"1": 0, "2": -1, "3": -2, "house": 3},
                            {"1": 1, "2": 1, "3": 1}, "ok")


# ------------------------------------------------------------------ no default


def without_the_field(game: str) -> RuleProfile:
    sections = {name: dict(body) for name, body in HOUSE.sections.items()}
    rake = dict(sections[game]["rake"])
    del rake["all_charges_button"]
    sections[game] = {**sections[game], "rake": rake}
    return RuleProfile(HOUSE.name, sections)


@pytest.mark.parametrize(("game", "struct"), [("holdem", HoldemProfile),
                                               ("draw7a", Draw7aProfile)])
def test_a_profile_without_the_reading_is_refused(game: str, struct: type[Any],
                                                  tmp_path: Path) -> None:
    """The field has no default: the section does not load (the error names it), a
    profile folder without it is refused when read, and the core does not judge such a
    hand (it leaves it to the reference, whose record it gives unchanged)."""
    hand = holdem_hand(3, []) if game == "holdem" else draw_hand([])
    assert_refused_without("all_charges_button", game, struct, without_the_field(game), hand,
                           tmp_path)


# ------------------------------------------------------------------ fees from the pot, compared


def test_a_button_fee_the_table_forgot_to_take_from_the_pot_is_a_rake_finding_only() -> None:
    """Fees from the pot, true (the button pays): the table takes seats 1 and 2's fees from
    the pot of 8 but not the button's (seat 3) and pays seat 1 8 - 2 = 6. Recorded: seat 1
    6 - 4 = +2, seat 2 -4, seat 3 0 (as due: its fee was never its stack's), house 2.
    Expected +1, -4, 0, house 3. Seat 1 got the button's fee chip: MISPAY +1; the fee not
    taken: RAKE_UNDER seat 3, 1. Seat 3's chips are right, so no MISPAY of seat 3: each
    chip is claimed once (the comparison once added the button's pot fee to its expected
    result before rake and claimed the chip a second time, QA)."""
    pot_fees = [holdem.rake(seat, 1, "pot") for seat in (1, 2)]
    record = both_engines(holdem_hand(3, pot_fees, 6, fee_first=True),
                          profiles("holdem", True, "pot"))
    assert record.recorded is not None
    assert record.recorded.net == {"1": 2, "2": -4, "3": 0, "house": 2}
    assert codes(record) == [("MISPAY", "TH-9", 1, 1), ("RAKE_UNDER", "GEN-10", 3, -1)]


def test_draw_fees_from_the_pot_compared_seat_by_seat() -> None:
    """Fees from the pot, true; the pot of 4 won by seat 2; due 0, -1, -2, house 3 (above).

    - The button's fee forgotten: seats 2 and 3's fees taken from the pot, seat 2 paid
      4 - 2 = 2: recorded 0, 0, -2, house 2. Seat 2 got the chip: MISPAY +1 (FCD-11);
      RAKE_UNDER seat 1, 1; seat 1's chips are right, no MISPAY of seat 1.
    - Each fee taken from its payer's stack instead (the house-v1 way): seat 2 paid 4:
      recorded -1, +1, -3, house 3. The button lost a chip the posted rake takes from the
      pot (MISPAY -1), seat 2 was paid the whole pot and paid its own fee (+2 - 1 - (-1) =
      +2), seat 3 paid its fee on top (-1); the rake per seat is as posted."""
    on_pot = profiles("draw7a", True, "pot")
    record = both_engines(draw_hand([(2, 1), (3, 1)], "pot", 2), on_pot)
    assert record.recorded is not None
    assert record.recorded.net == {"1": 0, "2": 0, "3": -2, "house": 2}
    assert codes(record) == [("MISPAY", "FCD-11", 2, 1), ("RAKE_UNDER", "GEN-10", 1, -1)]
    record = both_engines(draw_hand([(1, 1), (2, 1), (3, 1)], "stack", 4), on_pot)
    assert record.recorded is not None
    assert record.recorded.net == {"1": -1, "2": 1, "3": -3, "house": 3}
    assert codes(record) == [("MISPAY", "FCD-11", 1, -1), ("MISPAY", "FCD-11", 2, 2),
                             ("MISPAY", "FCD-11", 3, -1)]
