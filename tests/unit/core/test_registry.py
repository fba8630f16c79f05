"""The games registry and the rule profiles: every posted game has rules, an unknown game or
profile is a clear rejection, and the profile files are read by entry points only."""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import get_args

import pytest

from services.adjudicator import adjudicate
from services.adjudicator.embedded import adjudicate_lines
from services.events.contract import AdjudicationRecord, GameName
from services.games.profile import InvalidProfileError, Profiles, UnknownProfileError
from services.games.profiles import read_profile_folder, read_profiles
from services.games.registry import GAMES
from tests.profiles import HOUSE, PROFILES
from tests.unit.core.streams import hcf_stream, lines

SERVICES = Path(__file__).resolve().parents[3] / "services"
BUILTIN = SERVICES / "games" / "profiles" / "house-v1"

# The processes' entry points: each reads the profile files once, at start, and passes
# them in. Nothing else may (a rule, hand assembly, a report, the simulator); the Kafka
# services' own bootstraps live under services/pipeline/.
ENTRY_POINTS = {
    "services/cli.py",
    "services/demo.py",
    "services/reports/cli.py",
    "services/archive/cli.py",  # pitwatch replay, archive checkpoint
    "services/integrity.py",  # pitwatch verify (derives the table checkpoints again)
    "services/console/cli.py",  # pitwatch serve console (the dispute report replays hands)
    "services/importers/cli.py",  # `import phh --rule-profile`: checks the name exists
    "services/observability/replay.py",
    "services/adjudicator/faust_app.py",
    "services/surveillance/service.py",
}


def _records(stream: list[bytes], profiles: Profiles = PROFILES) -> list[AdjudicationRecord]:
    return [r for step in adjudicate_lines(stream, profiles) for r in step.records]


def test_every_game_the_contract_names_has_rules() -> None:
    assert sorted(GAMES) == sorted(get_args(GameName))
    assert {name: game.name for name, game in GAMES.items()} == {n: n for n in GAMES}
    assert GAMES["hcf"].rake_rule == "HCF-12"
    assert {g.rake_rule for name, g in GAMES.items() if name != "hcf"} == {"GEN-10"}


def test_a_game_without_rules_is_game_not_supported(monkeypatch: pytest.MonkeyPatch) -> None:
    """A table posting a game this build has no rules for: each hand ``rejected`` with one
    finding, GAME_NOT_SUPPORTED (GEN-5, critical), naming the game; nothing else."""
    monkeypatch.setattr(adjudicate, "GAMES", {k: v for k, v in GAMES.items() if k != "hcf"})
    records = _records(lines(hcf_stream("T1", hands=2)))
    assert [r.status for r in records] == ["rejected", "rejected"]
    for record in records:
        assert record.game == "hcf"
        assert [(f.code, f.rule, f.severity, f.message) for f in record.findings] == [
            ("GAME_NOT_SUPPORTED", "GEN-5", "critical",
             "this pitwatch build cannot adjudicate game 'hcf' yet")]


def test_an_unknown_rule_profile_is_named_with_those_there_are() -> None:
    only_other = Profiles({"casino-b": HOUSE})
    records = _records(lines(hcf_stream("T1", hands=1)), only_other)
    assert [(f.code, f.rule, f.message) for f in records[0].findings] == [
        ("UNKNOWN_RULE_PROFILE", "GEN-5",
         "unknown rule profile 'house-v1' (this run knows casino-b): set PITWATCH_PROFILES "
         "to the folder of the casino's own profiles and run it again")]
    with pytest.raises(UnknownProfileError, match=r"this run knows house-v1\): set PITWATCH"):
        PROFILES.get("casino-x")


def extending(folder: Path, **files: str) -> Path:
    """A profile folder that extends house-v1 with ``files`` (``hcf="..."``: hcf.toml)."""
    folder.mkdir()
    (folder / "profile.toml").write_text('extends = "house-v1"\n', "utf-8")
    for section, text in files.items():
        (folder / f"{section}.toml").write_text(text, "utf-8")
    return folder


def test_a_casino_folder_adds_profiles_and_replaces_none(tmp_path: Path) -> None:
    """``extra_dir``: each folder is a profile. One named like a built-in replaced it,
    and records saying "house-v1" were judged under the casino's numbers: it is refused
    (tests/unit/core/test_profile_checks.py has the message)."""
    extending(tmp_path / "casino-b", gen='mispay_severity = "warning"\n')
    profiles = read_profiles(tmp_path)
    assert profiles.names() == ["casino-b", "house-v1"]
    builtin_gen = read_profiles().get("house-v1").sections["gen"]
    assert builtin_gen["mispay_severity"] == "critical"
    assert profiles.get("casino-b").sections["gen"] == {**builtin_gen,
                                                        "mispay_severity": "warning"}
    replaced = tmp_path / "house-v1"
    shutil.copytree(BUILTIN, replaced)
    hcf = (replaced / "hcf.toml").read_text("utf-8")
    (replaced / "hcf.toml").write_text(hcf.replace("sf_ace_low = true", "sf_ace_low = false"),
                                       "utf-8")
    with pytest.raises(UnknownProfileError, match="named like the built-in profile"):
        read_profiles(tmp_path)
    assert read_profiles().get("house-v1").sections["hcf"]["sf_ace_low"] is True


@pytest.mark.parametrize(("file", "text", "words"), [
    ("hcf.toml", "cards_per_hand = \"7\"\n", ("rule profile 'typo'", "section 'hcf'",
                                                "Expected `int`, got `str`",
                                                "$.cards_per_hand")),
    ("gen.toml", "mispay_severity = \"loud\"\n", ("section 'gen'", "$.mispay_severity")),
    ("holdem.toml", "no_such_reading = 1\n", ("section 'holdem'", "no_such_reading")),
    ("russian.toml", "[[[\n", ("rule profile 'typo'", "russian.toml is not TOML")),
    # A bonus that pays less than nothing (QA, 2026-12-06: it was loaded and judged by)
    ("hcf.toml", 'flush_bonus_paytable = { "5" = 10, "4" = -3 }\n',
     ("section 'hcf'", "Expected `int` >= 0", "$.flush_bonus_paytable")),
    ("chinese.toml", '[scoring.mandarin.bonus.front]\nthree_of_a_kind = -3\n',
     ("section 'chinese'", "Expected `int` >= 0", "bonus.front")),
])
def test_a_wrong_value_stops_the_reading_of_the_profiles(
        tmp_path: Path, file: str, text: str, words: tuple[str, ...]) -> None:
    """Once every hand judged under such a profile came out "rejected" with a critical
    ADJUDICATION_ERROR finding, and the run went on: a typo in a casino's profile read as
    thousands of hands needing review. Now the profiles are not read at all, and the
    error names the profile, its folder, the section and the field."""
    typo = extending(tmp_path / "typo", **{file.removesuffix(".toml"): text})
    with pytest.raises(InvalidProfileError) as raised:
        read_profiles(tmp_path)
    for word in words:
        assert word in str(raised.value), (word, str(raised.value))
    assert str(typo) in str(raised.value)  # the folder, or the file in it


def test_the_command_line_says_it_in_one_line(tmp_path: Path) -> None:
    typo = extending(tmp_path / "typo", hcf='cards_per_hand = "7"\n')
    log = tmp_path / "log.jsonl"
    log.write_bytes(b"\n".join(lines(hcf_stream())) + b"\n")
    done = subprocess.run(
        [sys.executable, "-c", "from services.cli import main; main()", "adjudicate", str(log)],
        cwd=SERVICES.parent, env={**os.environ, "PITWATCH_PROFILES": str(tmp_path)},
        capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 2 and done.stdout == "", done.stderr
    assert done.stderr.splitlines() == [
        f"error: rule profile 'typo', section 'hcf': Expected `int`, got `str` - at "
        f"`$.cards_per_hand` (the profile's folder: {typo})"]


def test_a_profile_folder_is_read_without_its_neighbours(tmp_path: Path) -> None:
    """``pitwatch replay --profile FOLDER`` read every folder beside FOLDER as a profile
    too, and failed when one was not (a sibling with no TOML file in it)."""
    what_if = extending(tmp_path / "what-if", gen='mispay_severity = "warning"\n')
    (tmp_path / "notes").mkdir()
    profile = read_profile_folder(what_if)
    assert profile.name == "what-if"
    assert profile.sections["gen"]["mispay_severity"] == "warning"
    with pytest.raises(UnknownProfileError):
        read_profiles(tmp_path)  # the whole folder is read as profiles: notes is none



def test_a_file_named_as_the_profiles_folder_is_said_to_be_a_file(tmp_path: Path) -> None:
    """It was said not to exist, which sent its owner looking for a typo."""
    a_file = tmp_path / "profiles.toml"
    a_file.write_text("", encoding="utf-8")
    with pytest.raises(UnknownProfileError, match=r"profiles\.toml is a file, not a folder"):
        read_profiles(a_file)
    with pytest.raises(UnknownProfileError, match=r"profiles\.toml is a file, not a folder"):
        read_profile_folder(a_file)
    with pytest.raises(UnknownProfileError, match="nowhere does not exist"):
        read_profile_folder(tmp_path / "nowhere")


def _calls_read_profiles(path: Path) -> bool:
    tree = ast.parse(path.read_text("utf-8"))
    return any(isinstance(node, ast.Name) and node.id == "read_profiles"
               for node in ast.walk(tree))


def test_only_entry_points_read_the_profile_files() -> None:
    readers = {str(p.relative_to(SERVICES.parent)) for p in SERVICES.rglob("*.py")
               if _calls_read_profiles(p)}
    readers -= {"services/games/profiles/__init__.py"}
    assert {r for r in readers if not r.startswith("services/pipeline/")} <= ENTRY_POINTS


def test_no_game_module_opens_a_file() -> None:
    """The rules receive a profile; only the profiles package reads the TOML files."""
    reading = {"tomllib", "importlib.resources", "pathlib", "io", "os"}
    for path in (SERVICES / "games").rglob("*.py"):
        if path.parent.name == "profiles":
            continue
        tree = ast.parse(path.read_text("utf-8"))
        imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import)
                    for alias in node.names}
        imported |= {node.module or "" for node in ast.walk(tree)
                     if isinstance(node, ast.ImportFrom)}
        called = {node.func.id for node in ast.walk(tree)
                  if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)}
        assert not imported & reading and "open" not in called, path
