"""A casino's rule profiles are checked whole when they are read (QA, with profile folders
under PITWATCH_PROFILES): each fault below passed the start-up check and was found only by
the hands judged under the profile (every one "rejected", a critical case each in the
append-only database), or was never found at all (a file ignored, a built-in replaced).
Now each is one line when the profiles are read, and from the command line exit 2."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from services.games.chinese.profile import ChineseProfile
from services.games.profile import InvalidProfileError, RuleProfile, UnknownProfileError
from services.games.profiles import PROFILES_ENV, read_profile_folder, read_profiles
from tests.profiles import HOUSE
from tests.unit.cli.helpers import assert_one_line_usage_error, pitwatch
from tests.unit.core.streams import hcf_stream, lines

BUILTIN = Path(__file__).resolve().parents[3] / "services" / "games" / "profiles" / "house-v1"


def profile(root: Path, name: str, extends: str | None = "house-v1", **files: str) -> Path:
    """A profile folder ``root/name``; ``files``: file name -> text (``hcf_toml`` is
    ``hcf.toml``, a name with no ``_toml`` is taken as it is)."""
    folder = root / name
    folder.mkdir(parents=True)
    if extends is not None:
        (folder / "profile.toml").write_text(f'extends = "{extends}"\n', "utf-8")
    for file, text in files.items():
        (folder / file.replace("_toml", ".toml")).write_text(text, "utf-8")
    return folder


def refusal(root: Path) -> str:
    with pytest.raises(UnknownProfileError) as raised:
        read_profiles(root)
    message = str(raised.value)
    assert "\n" not in message
    return message


def adjudicate_under(root: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                     *words: str) -> None:
    """``pitwatch adjudicate`` with PITWATCH_PROFILES=root: exit 2, one line, no traceback."""
    log = tmp_path / "log.jsonl"
    log.write_bytes(b"\n".join(lines(hcf_stream())) + b"\n")
    monkeypatch.setenv(PROFILES_ENV, str(root))
    assert_one_line_usage_error(pitwatch("adjudicate", str(log)), *words)


# ---------------------------------------------------------------- 1. a profile without gen

def test_a_profile_standing_alone_without_gen_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Only hcf.toml and no ``extends``: every hand was rejected at run time with "rule
    profile 'onlyhcf' has no section 'gen'"."""
    root = tmp_path / "profiles"
    folder = profile(root, "onlyhcf", extends=None,
                     hcf_toml=(BUILTIN / "hcf.toml").read_text("utf-8"))
    assert refusal(root) == (
        "rule profile 'onlyhcf' has no gen.toml and extends no profile: every hand is "
        "judged with section 'gen' (GEN-1..5); add gen.toml, or put extends = \"house-v1\" "
        f"in profile.toml (the profile's folder: {folder})")
    adjudicate_under(root, monkeypatch, tmp_path, "rule profile 'onlyhcf' has no gen.toml",
                     str(folder))


def test_a_profile_may_cover_one_game(tmp_path: Path) -> None:
    """gen and hcf alone stand: a casino posting only High Card Flush needs no other game's
    section. A hand of another game under it is refused by name, with the sections it has."""
    root = tmp_path / "profiles"
    profile(root, "hcf-only", extends=None, gen_toml=(BUILTIN / "gen.toml").read_text("utf-8"),
            hcf_toml=(BUILTIN / "hcf.toml").read_text("utf-8"))
    mine = read_profiles(root).get("hcf-only")
    assert sorted(mine.sections) == ["gen", "hcf"]
    with pytest.raises(UnknownProfileError) as raised:
        mine.section("chinese", ChineseProfile)
    assert str(raised.value) == ("rule profile 'hcf-only' has no section 'chinese' "
                                 "(its sections: gen, hcf)")


# ---------------------------------------------------------------- 2. values checked lazily

@pytest.mark.parametrize(("text", "said"), [
    ('flush_bonus_paytable = { "four" = 3 }\n',
     "flush_bonus_paytable: key 'four' is not a flush length; a key is a number of cards, "
     "1 to 7, such as \"4\""),
    ('flush_bonus_paytable = { "7" = 200, "07" = 100 }\n',
     "flush_bonus_paytable: key '07' is not a flush length; a key is a number of cards, "
     "1 to 7, such as \"4\""),
    ('flush_bonus_paytable = { " 5" = 10 }\n',
     "flush_bonus_paytable: key ' 5' is not a flush length; a key is a number of cards, "
     "1 to 7, such as \"4\""),
    ('sf_bonus_paytable = { "0" = 8 }\n',
     "sf_bonus_paytable: key '0' is not a straight-flush run length; a key is a number of "
     "cards, 1 to 7, such as \"4\""),
    ('sf_bonus_paytable = { "8" = 8 }\n',
     "sf_bonus_paytable: key '8' is not a straight-flush run length; a key is a number of "
     "cards, 1 to 7, such as \"4\""),
    ('raise_caps = [{ min_flush_cards = 5, max_ante_multiple = 2 }]\n',
     "raise_caps: no row covers a flush of 2 cards, and a hand of 7 cards may hold no "
     "longer one; HCF-4 caps every hand: add a row with min_flush_cards = 0"),
    ('raise_caps = [{ min_flush_cards = 0, max_ante_multiple = 1 }, '
     '{ min_flush_cards = 0, max_ante_multiple = 3 }]\n',
     "raise_caps: two rows with min_flush_cards = 0; one row each, or the cap is a guess"),
    ('raise_min_ante_multiple = 2\n',
     "raise_caps: a cap of 1x Ante is below the smallest raise, raise_min_ante_multiple = 2"),
])
def test_an_hcf_value_a_hand_would_trip_on_is_refused_when_read(
        tmp_path: Path, text: str, said: str) -> None:
    """``{ "four" = 3 }`` passed, then every hand was "HAND_REJECTED ... paytable
    'flush_bonus' has a key that is not a length: invalid literal for int()"."""
    folder = profile(tmp_path, "typo", hcf_toml=text)
    assert refusal(tmp_path) == (f"rule profile 'typo', section 'hcf': {said} "
                                 f"(the profile's folder: {folder})")


def assert_section_refused(tmp_path: Path, file: str, text: str, said: str) -> None:
    """A profile 'typo' whose ``file`` holds ``text`` is refused, naming its section and
    folder, with ``said``."""
    folder = profile(tmp_path, "typo", **{file.replace(".toml", "_toml"): text})
    section = file.removesuffix(".toml")
    assert refusal(tmp_path) == (f"rule profile 'typo', section '{section}': {said} "
                                 f"(the profile's folder: {folder})")


@pytest.mark.parametrize(("file", "text", "said"), [
    # The betting engine refused max_bets_per_round < 1 per hand; a denominator of 0
    # divided by zero in every hand that posted no small blind.
    ("holdem.toml", "max_bets_per_round = 0\n",
     "Expected `int` >= 1 - at `$.max_bets_per_round`"),
    ("draw7a.toml", "small_blind_denominator = 0\n",
     "Expected `int` >= 1 - at `$.small_blind_denominator`"),
    ("draw7a.toml", "small_blind_numerator = 3\n",
     "small blind 3/2 of the big blind is more than the big blind (FCD-3: the small blind "
     "is a part of it)"),
    ("draw7a.toml", "min_players = 4\nmax_players = 3\n",
     "min_players = 4 is more than max_players = 3: no hand could have a legal player count"),
    # FCD-1 and the short-deck ranking (FCD-10) know a deck of 32 or 36 cards only.
    ("draw7a.toml", "deck_size = 40\n",
     "Invalid enum value 40 - at `$.deck_size`, which takes 32 or 36"),
    # FCD-1: the sixes on top of a 36-card deck asked for 40 cards; 6 players from 32
    # 7 players (35 cards) from 32 were short of cards to deal (every such hand a deck
    # finding).
    ("draw7a.toml", "deck_size = 36\n",
     "deck_size = 36 already holds the sixes, so sixes_added_with_players = 5 would ask "
     "for 40 cards (FCD-1: 7 to Ace and the sixes are 36); set deck_size = 32, or "
     "sixes_added_with_players = 0 to never add them"),
    ("draw7a.toml", "max_players = 7\n",
     "7 players need 35 cards and the deck for them holds 32 (FCD-1, FCD-4): lower "
     "max_players, or add the sixes at 7 players (sixes_added_with_players)"),
    ("holdem.toml", "board_cards = 4\n",
     "board_cards = 4 is not the flop's 3 cards and one each for the turn and the river "
     "(TH-1): 5"),
    ("holdem.toml", "hole_cards = 1\nflop_cards = 1\nboard_cards = 3\n",
     "1 hole cards and 3 board cards make no five-card hand (TH-2)"),
    ("russian.toml", "exchange_min_cards = 4\nexchange_max_cards = 3\n",
     "russian exchange_min_cards = 4 is more than exchange_max_cards = 3: no exchange could "
     "be right (RP-2)"),
    ("chinese.toml", "cards_per_hand = 12\n",
     "Invalid enum value 12 - at `$.cards_per_hand`, which takes 13"),
])
def test_other_games_values_a_hand_would_trip_on_are_refused_when_read(
        tmp_path: Path, file: str, text: str, said: str) -> None:
    assert_section_refused(tmp_path, file, text, said)


def test_a_36_card_house_for_two_to_seven_players_can_be_written(tmp_path: Path) -> None:
    """FCD-1: a house that deals 36 cards at every count, 2 to 7 players. Every count
    from 2 to 7 was a count the sixes were added at (40 cards: refused), and the advice
    to set ``sixes_added_with_players`` outside 2..7 named a value its bound refused (QA).
    0 adds them never: 7 players x 5 = 35 cards from 36."""
    from services.games.draw7a.profile import Draw7aProfile

    profile(tmp_path, "short36", draw7a_toml="deck_size = 36\nmax_players = 7\n"
                                             "sixes_added_with_players = 0\n")
    section = read_profiles(tmp_path).get("short36").section("draw7a", Draw7aProfile)
    assert (section.deck_size, section.max_players, section.sixes_added_with_players) == (
        36, 7, 0)


def test_the_command_line_says_a_bad_paytable_key_in_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "profiles"
    folder = profile(root, "typo", hcf_toml='flush_bonus_paytable = { "four" = 3 }\n')
    adjudicate_under(root, monkeypatch, tmp_path, "rule profile 'typo', section 'hcf'",
                     "key 'four' is not a flush length", str(folder))


# ---------------------------------------------------------------- 3. unknown section files

@pytest.mark.parametrize("name", ["HCF.toml", "highcardflush.toml", "hcf.TOML"])
def test_a_file_named_as_no_section_is_refused(tmp_path: Path, name: str) -> None:
    """It was ignored: a what-if replay under it said "0 differ"."""
    folder = tmp_path / "what-if"
    folder.mkdir()
    (folder / "profile.toml").write_text('extends = "house-v1"\n', "utf-8")
    (folder / name).write_text('flush_bonus_paytable = { "4" = 3 }\n', "utf-8")
    expected = (f"rule profile 'what-if': {folder / name} is no section file; a profile's "
                "files are chinese.toml, draw7a.toml, gen.toml, hcf.toml, holdem.toml, "
                "russian.toml, surveillance.toml and profile.toml (rename it, or move it out "
                "of the folder)")
    with pytest.raises(InvalidProfileError) as raised:
        read_profile_folder(folder)
    assert str(raised.value) == expected
    assert refusal(tmp_path) == expected


@pytest.mark.parametrize("name", ["hcf.json", "hcf.yaml", "HCF.yml", "profile.json"])
def test_a_section_in_another_format_is_refused(tmp_path: Path, name: str) -> None:
    """It was passed over: the profile judged with house-v1's fields and said nothing (QA).
    A file of the casino's own (a README) stays."""
    folder = tmp_path / "what-if"
    folder.mkdir()
    (folder / "profile.toml").write_text('extends = "house-v1"\n', "utf-8")
    (folder / "README.md").write_text("our posted rules, 2026\n", "utf-8")
    (folder / name).write_text('{"flush_bonus_paytable": {"4": 3}}\n', "utf-8")
    expected = (f"rule profile 'what-if': {folder / name} is a profile file in another "
                f"format; profiles are TOML: write it as {name.split('.')[0].lower()}.toml "
                "(or move it out of the folder)")
    with pytest.raises(InvalidProfileError) as raised:
        read_profile_folder(folder)
    assert str(raised.value) == expected
    (folder / name).unlink()
    assert read_profile_folder(folder).sections == HOUSE.sections


def test_a_section_saved_with_a_byte_order_mark_reads_as_its_text(tmp_path: Path) -> None:
    """Notepad's "UTF-8 with BOM": the mark is the encoding's, not the file's content
    (tomllib refused it as a syntax error at line 1, column 1, QA)."""
    folder = tmp_path / "venue"
    folder.mkdir()
    (folder / "profile.toml").write_text('extends = "house-v1"\n', "utf-8")
    (folder / "hcf.toml").write_bytes(b"\xef\xbb\xbfsf_ace_low = false\n")
    assert read_profile_folder(folder).sections["hcf"]["sf_ace_low"] is False


def test_the_command_line_says_an_unknown_file_in_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "profiles"
    folder = profile(root, "venue", HCF_toml="sf_ace_low = false\n")
    adjudicate_under(root, monkeypatch, tmp_path, f"{folder / 'HCF.toml'} is no section file",
                     "hcf.toml")


# ---------------------------------------------------------------- 4. a built-in's name

def test_a_casino_profile_named_like_a_built_in_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """It replaced house-v1, and records still said "house-v1" though judged under the
    casino's numbers."""
    root = tmp_path / "profiles"
    shutil.copytree(BUILTIN, root / "house-v1")
    hcf = root / "house-v1" / "hcf.toml"
    hcf.write_text(hcf.read_text("utf-8").replace('"4" = 2 }', '"4" = 3 }'), "utf-8")
    expected = (f"the profile folder {root / 'house-v1'} is named like the built-in profile "
                "'house-v1': give the casino's profile a name of its own (records name the "
                "profile a hand was judged under), with extends = \"house-v1\" in its "
                "profile.toml to start from the built-in one")
    assert refusal(root) == expected
    with pytest.raises(UnknownProfileError) as raised:
        read_profile_folder(root / "house-v1")  # a what-if copy of it, changed
    assert str(raised.value) == expected
    assert read_profile_folder(BUILTIN).sections == HOUSE.sections  # the built-in itself
    adjudicate_under(root, monkeypatch, tmp_path, "is named like the built-in profile "
                     "'house-v1'")


# ---------------------------------------------------------------- 5. the words said

@pytest.mark.parametrize(("text", "said"), [
    ('over_cap_raise_plays = "capped"\n',
     "Invalid enum value 'capped' - at `$.over_cap_raise_plays`, which takes 'cap' or "
     "'as_placed'"),
    ('card_count_severity = "loud"\n',
     "Invalid enum value 'loud' - at `$.card_count_severity`, which takes 'info', 'warning' "
     "or 'critical'"),
    ("bonus_settlement = 1\n",
     "Expected `str`, got `int` - at `$.bonus_settlement`, which takes 'paytable_alone' or "
     "'against_dp'"),
    ('flush_bonus_paytable = { "7" = 200, "4" = -2 }\n',
     "Expected `int` >= 0 - at `$.flush_bonus_paytable['4']`"),
    ('sf_bonus_paytable = { "3" = "eight" }\n',
     "Expected `int`, got `str` - at `$.sf_bonus_paytable['3']`"),
    ("raise_caps = []\n", "Expected `array` of length >= 1 - at `$.raise_caps`"),
    ("cards_per_hand = 0\n", "Expected `int` >= 1 - at `$.cards_per_hand`"),
    ("stake_cover_raise_multiple = -1\n",
     "Expected `int` >= 0 - at `$.stake_cover_raise_multiple`"),
    ("stake_cover_raise_multiple = 100000000000000000000\n",
     "Expected `int` <= 1000 - at `$.stake_cover_raise_multiple`"),
    ("raise_min_ante_multiple = 0\n", "Expected `int` >= 1 - at `$.raise_min_ante_multiple`"),
    ("raise_caps = [{ min_flush_cards = 0, max_ante_multiple = 0 }]\n",
     "Expected `int` >= 1 - at `$.raise_caps[0].max_ante_multiple`"),
])
def test_a_wrong_value_is_said_with_what_the_field_takes(tmp_path: Path, text: str,
                                                         said: str) -> None:
    folder = profile(tmp_path, "typo", hcf_toml=text)
    assert refusal(tmp_path) == (f"rule profile 'typo', section 'hcf': {said} "
                                 f"(the profile's folder: {folder})")


@pytest.mark.parametrize(("file", "text", "said"), [
    ("russian.toml", "[paytable]\nflush = -5\n", "Expected `int` >= 0 - at `$.paytable['flush']`"),
    ("russian.toml", "bet_antes = 0\n", "Expected `int` >= 1 - at `$.bet_antes`"),
    ("russian.toml", "insurance_max_royal_denominator = 0\n",
     "Expected `int` >= 1 - at `$.insurance_max_royal_denominator`"),
    ("russian.toml", "cards_per_box = 4\n", "Expected `int` >= 5 - at `$.cards_per_box`"),
    ("russian.toml", "dealer_cards = 6\n",
     "Invalid enum value 6 - at `$.dealer_cards`, which takes 5"),
    ("russian.toml", "exchange_max_cards = 6\n",
     "russian exchange_max_cards = 6 is more than a box holds, cards_per_box = 5 (RP-2)"),
    ("chinese.toml", "table_seats = 5\n", "Expected `int` <= 4 - at `$.table_seats`"),
    ("chinese.toml", "[misdeal]\nexposed_cards = 0\n",
     "Expected `int` >= 1 - at `$.misdeal.exposed_cards`"),
    ("chinese.toml", "[auto_win_points]\ndragon = -13\n",
     "Expected `int` >= 0 - at `$.auto_win_points.dragon`"),
    ("draw7a.toml", "max_discard = 6\n", "Expected `int` <= 5 - at `$.max_discard`"),
    ("holdem.toml", "deck_size = 0\n", "Expected `int` >= 1 - at `$.deck_size`"),
    ("holdem.toml", "[rake.pot]\nminimum_pot = 100000000000000000000\n",
     "Expected `int` <= 9007199254740991 - at `$.rake.pot.minimum_pot`"),
    ("holdem.toml", "[rake.pot]\ncaps = [{ min_players = -2, cap = 100 }]\n",
     "Expected `int` >= 0 - at `$.rake.pot.caps[0].min_players`"),
])
def test_nonsense_numbers_of_the_other_games_are_refused(tmp_path: Path, file: str, text: str,
                                                         said: str) -> None:
    assert_section_refused(tmp_path, file, text, said)


def test_the_command_line_says_what_an_enum_takes_in_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "profiles"
    profile(root, "typo", hcf_toml='over_cap_raise_plays = "capped"\n')
    adjudicate_under(root, monkeypatch, tmp_path, "which takes 'cap' or 'as_placed'")


def test_a_section_file_that_is_a_folder_or_a_dangling_link_is_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """It was "Is a directory: .../hcf.toml", naming no profile."""
    root = tmp_path / "profiles"
    folder = profile(root, "odd")
    (folder / "hcf.toml").mkdir()
    assert refusal(root) == f"rule profile 'odd': {folder / 'hcf.toml'} is a folder, not a TOML file"
    adjudicate_under(root, monkeypatch, tmp_path, "rule profile 'odd'", "is a folder")
    (folder / "hcf.toml").rmdir()
    (folder / "hcf.toml").symlink_to(tmp_path / "gone.toml")
    assert refusal(root) == (f"rule profile 'odd': {folder / 'hcf.toml'} is a link to "
                             f"{tmp_path / 'gone.toml'}, which does not exist")
    (folder / "hcf.toml").unlink()
    (folder / "profile.toml").unlink()
    (folder / "profile.toml").mkdir()
    assert refusal(root) == (f"rule profile 'odd': {folder / 'profile.toml'} is a folder, not "
                             "a TOML file")


def test_a_profile_folder_that_is_a_dangling_link_is_named(tmp_path: Path) -> None:
    """It was skipped: the tables naming it were told the profile did not exist."""
    root = tmp_path / "profiles"
    root.mkdir()
    (root / "venue").symlink_to(tmp_path / "moved")
    assert refusal(root) == (f"the profiles folder {root} holds venue, a link to "
                             f"{tmp_path / 'moved'}, which does not exist")


def test_house_v1_holds_to_every_bound() -> None:
    """The bounds refuse nonsense, not the rule book: every built-in value reads."""
    for section in ("gen", "hcf", "chinese", "draw7a", "russian", "holdem"):
        assert section in HOUSE.sections
    assert read_profile_folder(BUILTIN).name == "house-v1"
    plain = RuleProfile("copy", {k: dict(v) for k, v in HOUSE.sections.items()})
    assert plain.section("chinese", ChineseProfile).cards_per_hand == 13


# ---------------------------------------------------------------- the surveillance section

def test_a_typo_in_surveillance_toml_stops_the_commands_that_judge_or_surveil(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """It was refused only by ``surveil --profile`` of that very profile: ``adjudicate``
    and ``surveil`` under house-v1 ran on, the casino's thresholds wrong (QA)."""
    root = tmp_path / "profiles"
    surveillance = (BUILTIN / "surveillance.toml").read_text("utf-8")
    profile(root, "venue", surveillance_toml=surveillance + "thresholdz = 1\n")
    adjudicate_under(root, monkeypatch, tmp_path, "rule profile 'venue', section "
                     "'surveillance'", "thresholdz")
    ran = pitwatch("surveil", str(tmp_path / "log.jsonl"))
    assert_one_line_usage_error(ran, "rule profile 'venue', section 'surveillance'")
