"""The Russian Poker profile section: complete, typed, and guarded against bad readings."""

from __future__ import annotations

from typing import Any

import pytest

from services.games.profile import RuleProfile
from services.games.russian.profile import RussianProfile, posted_paytable
from services.simulator.handbuilder import table_config
from tests.profiles import HOUSE


def _section(**changes: Any) -> RussianProfile:
    base = HOUSE
    sections = {name: dict(values) for name, values in base.sections.items()}
    sections["russian"].update(changes)
    return RuleProfile(name="test", sections=sections).section("russian", RussianProfile)


def test_house_v1_posts_the_rp7_paytable() -> None:
    profile = _section()
    assert profile.paytable == {
        "royal_flush": 100, "straight_flush": 50, "four_of_a_kind": 20, "full_house": 7,
        "flush": 5, "straight": 4, "three_of_a_kind": 3, "two_pair": 2, "one_pair": 1,
        "ace_king": 1,
    }
    assert (profile.bet_antes, profile.buy_card_price_antes, profile.exchange_price_antes,
            profile.buy_dealer_game_price_antes) == (2, 1, 1, 1)


def test_a_missing_field_fails_at_load() -> None:
    base = HOUSE
    sections = {name: dict(values) for name, values in base.sections.items()}
    del sections["russian"]["bet_antes"]
    with pytest.raises(ValueError, match="bet_antes"):
        RuleProfile(name="broken", sections=sections).section("russian", RussianProfile)


def test_an_unknown_paytable_row_fails_at_load() -> None:
    with pytest.raises(ValueError, match="unknown rows"):
        _section(paytable={"five_aces": 500})


def test_second_combination_floor_cannot_go_below_ace_king() -> None:
    with pytest.raises(ValueError, match="second_combination_min_category"):
        _section(second_combination_min_category="nothing")


def test_table_posting_overrides_rows_and_keeps_the_others() -> None:
    import msgspec

    from services.events.contract import TableConfigured

    config = msgspec.convert(table_config("russian", paytables={"bet": {"flush": 6}}),
                             TableConfigured)
    table, findings = posted_paytable(_section(), config)
    assert table["flush"] == 6 and table["straight"] == 4
    assert findings == []


def test_a_paytable_missing_a_row_fails_at_load() -> None:
    """RP-7 names ten paid lines; a profile that posts only some cannot settle a royal
    flush (nor size the RP-4 insurance maximum): it must fail at load, not mid-hand."""
    with pytest.raises(ValueError, match="royal_flush"):
        _section(paytable={"flush": 5})
