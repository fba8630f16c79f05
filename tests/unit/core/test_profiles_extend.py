"""Rule profiles a casino posts: its own folder (``PITWATCH_PROFILES``), and a profile that
extends another, changing only the readings it names (issue #21: a venue's pot rake)."""

from __future__ import annotations

from pathlib import Path

import pytest

from services.games.betting import PotRakeCap
from services.games.holdem.profile import SECTION, HoldemProfile
from services.games.profile import UnknownProfileError
from services.games.profiles import PROFILES_ENV, merged, read_profiles
from tests.profiles import HOUSE

VENUE_HOLDEM = """
[rake.pot]
rate_numerator = 5
unit = 5
caps = [{ min_players = 3, cap = 300 }, { min_players = 2, cap = 100 }]
"""


def venue(root: Path, name: str = "venue", extends: str = "house-v1",
          holdem: str = VENUE_HOLDEM) -> Path:
    folder = root / name
    folder.mkdir(parents=True)
    (folder / "profile.toml").write_text(f'extends = "{extends}"\n', "utf-8")
    (folder / "holdem.toml").write_text(holdem, "utf-8")
    return root


def test_a_profile_extending_house_v1_changes_only_what_it_names(tmp_path: Path) -> None:
    profiles = read_profiles(venue(tmp_path))
    assert "house-v1" in profiles.names() and "venue" in profiles.names()
    mine = profiles.get("venue").section(SECTION, HoldemProfile)
    base = HOUSE.section(SECTION, HoldemProfile)
    assert (mine.rake.pot.rate_numerator, mine.rake.pot.unit) == (5, 5)
    assert mine.rake.pot.rate_denominator == base.rake.pot.rate_denominator == 100
    assert mine.rake.pot.caps == [PotRakeCap(3, 300), PotRakeCap(2, 100)]
    assert mine.rake.fee_from == base.rake.fee_from
    assert mine.severity == base.severity
    assert profiles.get("venue").sections["hcf"] == HOUSE.sections["hcf"]


def test_the_folder_comes_from_the_environment(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(PROFILES_ENV, str(venue(tmp_path)))
    assert "venue" in read_profiles().names()
    monkeypatch.setenv(PROFILES_ENV, str(tmp_path / "nowhere"))
    with pytest.raises(UnknownProfileError, match="does not exist"):
        read_profiles()


def test_bad_extensions_are_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(UnknownProfileError, match="extends 'house-v9', which does not exist"):
        read_profiles(venue(tmp_path / "a", extends="house-v9"))
    root = venue(tmp_path / "b", name="x", extends="y")
    venue(root, name="y", extends="x")
    with pytest.raises(UnknownProfileError, match="in a circle"):
        read_profiles(root)


def test_merge_is_by_table_and_key() -> None:
    assert merged({"a": {"b": 1, "c": [1]}, "d": 2}, {"a": {"c": [2]}, "e": 3}) == {
        "a": {"b": 1, "c": [2]}, "d": 2, "e": 3}
