"""GEN-10 rake at pot tables: modes, participants, the cap, main pot first."""

import pytest

from services.games.betting import Pot, RakePolicy, rake_charges, settle
from services.games.betting.rake import cap_charges, take_from_pots

SEATS = [1, 2, 3]


def test_modes() -> None:
    """Fee 1, participants 1, 2, 3, button 1: all -> each pays 1; players -> all but the
    button; designated -> the button pays 3 (counting itself) or 2 (not counting it)."""
    assert rake_charges(RakePolicy("all", 1, True, "stack"), SEATS, SEATS, 1) == {1: 1, 2: 1, 3: 1}
    assert rake_charges(RakePolicy("players", 1, True, "stack"), SEATS, SEATS, 1) == {2: 1, 3: 1}
    assert rake_charges(RakePolicy("designated", 1, True, "stack"), SEATS, SEATS, 1) == {1: 3}
    assert rake_charges(RakePolicy("designated", 1, False, "stack"), SEATS, SEATS, 1) == {1: 2}
    assert rake_charges(RakePolicy("none", 1, True, "stack"), SEATS, SEATS, 1) == {}


def test_designated_button_pays_even_if_it_put_nothing_in_dead_button_pays_nothing() -> None:
    """Participants 2 and 3 only; button 1 (dealt in) pays 2 x 2 = 4. A button on empty
    seat 4 has no player: no rake."""
    assert rake_charges(RakePolicy("designated", 2, True, "stack"), [2, 3], SEATS, 1) == {1: 4}
    assert rake_charges(RakePolicy("designated", 2, True, "stack"), [2, 3], SEATS, 4) == {}


def test_all_mode_charges_the_button_with_nothing_in_only_under_the_literal_reading() -> None:
    """GEN-10 reading ``all_charges_button``, mode all, fee 2, seats 1 2 3 dealt in, seats
    1 and 2 put chips in. Button 3 (nothing in): false, seats 1 and 2 pay 2 each; true,
    seat 3 pays 2 as well. A button on seat 4 (nobody dealt from it) pays nothing either
    way; a button that put chips in (seat 1) pays once. Button 1 with participants 2 and
    3: seats 1, 2, 3 pay, in seat order."""
    off = RakePolicy("all", 2, True, "stack", all_charges_button=False)
    on = RakePolicy("all", 2, True, "stack", all_charges_button=True)
    assert rake_charges(off, [1, 2], SEATS, 3) == {1: 2, 2: 2}
    assert rake_charges(on, [1, 2], SEATS, 3) == {1: 2, 2: 2, 3: 2}
    assert rake_charges(on, [1, 2], SEATS, 4) == {1: 2, 2: 2}
    assert rake_charges(on, [1, 2], SEATS, 1) == {1: 2, 2: 2}
    assert list(rake_charges(on, [2, 3], SEATS, 1).items()) == [(1, 2), (2, 2), (3, 2)]
    assert rake_charges(on, [], SEATS, 1) == {}
    assert rake_charges(RakePolicy("players", 2, True, "stack", all_charges_button=True),
                        [1, 2], SEATS, 3) == {1: 2, 2: 2}


def test_all_mode_button_fee_from_its_stack_or_the_pot() -> None:
    """Mode all, fee 1, button 3 folded with nothing in; seats 1 and 2 put in 10 each,
    seat 1 wins 20. Literal reading, from the stacks: seat 1 +10 - 1 = +9, seat 2 holds
    0 (all-in, lost) and pays nothing: -10, seat 3 pays 1 of its 50: -1; house 2. From
    the pot: 20 - 3 = 17 to seat 1: +7, seat 2 -10, seat 3 0 (the fee came out of the
    pot, booked to it); house 3; 7 - 10 + 0 + 3 = 0."""
    from_stack = settle({1: 10, 2: 10, 3: 0}, {3}, {1: 5, 2: 4}, 3,
                        RakePolicy("all", 1, True, "stack", all_charges_button=True),
                        {1: 90, 2: 0, 3: 50})
    assert from_stack.net == {1: 9, 2: -10, 3: -1}
    assert from_stack.rake == {1: 1, 3: 1} and from_stack.house == 2
    from_pot = settle({1: 10, 2: 10, 3: 0}, {3}, {1: 5, 2: 4}, 3,
                      RakePolicy("all", 1, True, "pot", all_charges_button=True))
    assert from_pot.net == {1: 7, 2: -10, 3: 0}
    assert from_pot.rake == {1: 1, 2: 1, 3: 1} and from_pot.house == 3


def test_cap_and_main_pot_first() -> None:
    """Charges 2 + 2 + 2 against a pot of 5: clockwise from button 3 seats 1 and 2 pay
    2 each, seat 3 the last 1. Rake 4 from pots 3 and 10 takes 3 then 1."""
    assert cap_charges({1: 2, 2: 2, 3: 2}, 5, 3) == {1: 2, 2: 2, 3: 1}
    assert take_from_pots([Pot(3, (1, 2), 1), Pot(10, (2,), 6)], 4) == [
        Pot(0, (1, 2), 1), Pot(9, (2,), 6)]


def test_settlement_with_rake_from_the_pot_is_after_rake() -> None:
    """Seats 1 and 2 put in 10 each, seat 3 put in 2 and folded; mode all, fee 1: the three
    participants pay 1 each from the pot of 22 (``fee_from = "pot"``); seat 1 wins 19. Net: 1 = 19 - 10 = +9,
    2 = -10, 3 = -2; house 3; 9 - 10 - 2 + 3 = 0."""
    result = settle({1: 10, 2: 10, 3: 2}, {3}, {1: 5, 2: 4}, 3, RakePolicy("all", 1, True, "pot"))
    assert result.net == {1: 9, 2: -10, 3: -2}
    assert result.rake == {1: 1, 2: 1, 3: 1} and result.house == 3


def test_rake_from_the_stacks_after_the_award() -> None:
    """Source ``stack``, mode all, fee 1: seats 1 and 2 put in 10, seat 3 put in 2 and
    folded; nothing comes off the pot, seat 1 wins all 22 (+12 before rake). Each
    participant then pays 1 from what it holds: seat 1 holds 90 + 22 = 112, pays 1: +11;
    seat 2 went all-in and lost (holds 0): pays nothing, -10; seat 3 holds 98, pays 1: -3.
    House 2; 11 - 10 - 3 + 2 = 0."""
    result = settle({1: 10, 2: 10, 3: 2}, {3}, {1: 5, 2: 4}, 3,
                    RakePolicy("all", 1, True, "stack"), {1: 90, 2: 0, 3: 98})
    assert result.net == {1: 11, 2: -10, 3: -3}
    assert result.rake == {1: 1, 3: 1} and result.house == 2


def test_designated_rake_from_the_button_stack() -> None:
    """Source ``stack``, designated, fee 1, button 3 counted: 3 participants, the button
    pays 3 from its 98 behind: seat 3 -2 - 3 = -5; seat 1 +12, seat 2 -10; house 3."""
    result = settle({1: 10, 2: 10, 3: 2}, {3}, {1: 5, 2: 4}, 3,
                    RakePolicy("designated", 1, True, "stack"), {1: 90, 2: 0, 3: 98})
    assert result.net == {1: 12, 2: -10, 3: -5}
    assert result.rake == {3: 3}


def test_rake_from_the_stacks_needs_the_stacks() -> None:
    with pytest.raises(ValueError, match="chips behind"):
        settle({1: 10, 2: 10}, set(), {1: 5, 2: 4}, 2, RakePolicy("all", 1, True, "stack"))
