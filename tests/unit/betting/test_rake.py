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
