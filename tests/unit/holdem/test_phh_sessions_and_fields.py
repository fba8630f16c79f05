"""PHH import, QA findings of 2026-12-07: a session's table id depended on the other
folders named with it (the same hands booked under two table ids by two imports); a hand
naming one player twice was imported with the two seats merged (and adjudicated as 16
procedure faults the table never made); ``hand = 2.0`` sorted that hand before hands 0
and 1. Each is checked with both importers (``both`` compares them byte for byte)."""

from __future__ import annotations

from pathlib import Path

import pytest

from services.importers.phh import SessionNameClash, import_phh
from tests.unit.cli.helpers import assert_one_line_usage_error, pitwatch
from tests.unit.holdem.test_phh_copies_and_files import FINISHING, both, hand_ids
from tests.unit.holdem.test_phh_import import SIMPLE, phh, write


def tables(paths: list[Path]) -> set[str]:
    native, _ = both(paths)
    return {e["table_id"] for e in native.events}


# ------------------------------------------------------------ a session's name


def test_a_session_is_named_by_its_folder_and_the_folder_it_is_in(tmp_path: Path) -> None:
    """QA's four imports of one session gave it three names (``phh:pluribus/100``,
    ``phh:data/pluribus/100``, ``phh:phhx/data/pluribus/100``); it has one now."""
    data = tmp_path / "phhx" / "data"
    for session in ("100", "101"):
        write(data / "pluribus" / session, "1.phh", phh(actions=SIMPLE, finishing=FINISHING))
    write(data / "wsop" / "2023", "1.phh", phh(actions=SIMPLE, finishing=FINISHING))
    alone = write(data, "dwan-ivey-2009.phh", phh(actions=SIMPLE, finishing=FINISHING))
    pluribus = {"phh:pluribus/100", "phh:pluribus/101"}
    assert tables([data / "pluribus"]) == pluribus
    assert tables([data / "pluribus", data / "wsop"]) == pluribus | {"phh:wsop/2023"}
    assert tables([data]) == pluribus | {"phh:wsop/2023", "phh:phhx/data"}
    assert tables([data / "pluribus" / "100", alone]) == {"phh:pluribus/100", "phh:phhx/data"}
    assert tables([data / "pluribus" / "100" / "1.phh"]) == {"phh:pluribus/100"}
    assert hand_ids(both([data / "pluribus" / "100"])[0]) == ["phh:pluribus/100#1"]


def test_sessions_of_one_name_in_two_data_sets_keep_their_own_names(tmp_path: Path) -> None:
    """Two ``100`` folders, of two data sets: two tables."""
    for dataset in ("pluribus", "wsop"):
        write(tmp_path / dataset / "100", "1.phh", phh(actions=SIMPLE, finishing=FINISHING))
    assert tables([tmp_path]) == {"phh:pluribus/100", "phh:wsop/100"}


@pytest.mark.parametrize("engine", ["native", "python"])
def test_two_sessions_that_would_share_a_name_are_refused(tmp_path: Path, engine: str) -> None:
    """``a/pluribus/100`` and ``b/pluribus/100`` would both be ``phh:pluribus/100``: one
    table of two sessions' hands. The import is refused, naming both folders."""
    first, second = (tmp_path / copy / "pluribus" / "100" for copy in ("a", "b"))
    for folder in (first, second):
        write(folder, "1.phh", phh(actions=SIMPLE, finishing=FINISHING))
    with pytest.raises(SessionNameClash, match="phh:pluribus/100"):
        import_phh([first, second], engine=engine)
    out = tmp_path / "events.jsonl"
    ran = pitwatch("import", "phh", str(tmp_path), "-o", str(out), "--engine", engine,
                   columns=400)
    assert_one_line_usage_error(ran, "two sessions would both be table phh:pluribus/100",
                                str(first), str(second))
    assert not out.exists()


# ------------------------------------------------------------ a player named twice


def test_a_hand_naming_a_player_twice_is_skipped_and_listed(tmp_path: Path) -> None:
    """It was imported with the two seats merged (four hole cards for one seat)."""
    folder = tmp_path / "x" / "s"
    write(folder, "1.phh", phh(actions=SIMPLE, finishing=FINISHING,
                               players=("Ann", "Bob", "Ann")))
    write(folder, "2.phh", phh(actions=SIMPLE, finishing=FINISHING, hand=2))
    native, _ = both([folder])
    reason = "player 'Ann' named twice in one hand (players 1 and 3)"
    assert (native.read, native.hands) == (2, 1)
    assert hand_ids(native) == ["phh:x/s#2"]
    assert native.skipped == [(str(folder / "1.phh"), reason)]
    assert native.kinds[reason] == "a player named twice in one hand"
    ran = pitwatch("import", "phh", str(folder), "-o", str(tmp_path / "e.jsonl"),
                   "--list-skipped", columns=400)
    assert ran.code == 0
    assert "       1  a player named twice in one hand" in ran.stderr
    assert f"  {folder / '1.phh'}: {reason}" in ran.stderr.splitlines()


# ------------------------------------------------------------ a hand number not an integer


@pytest.mark.parametrize("written", ["2.0", "2.5", "inf"])
def test_a_hand_number_that_is_not_an_integer_is_skipped(tmp_path: Path, written: str) -> None:
    """QA's session: hands 0, 1 and ``hand = 2.0``, which sorted first (its stacks then
    ran on to hand 0's). PHH's ``hand`` is an integer; another number is skipped."""
    folder = tmp_path / "x" / "s"
    write(folder, "0.phh", phh(actions=SIMPLE, finishing=FINISHING, hand=0))
    write(folder, "1.phh", phh(actions=SIMPLE, starting=FINISHING, finishing=(112, 88, 100),
                               hand=1))
    write(folder, "2.phh", phh(actions=SIMPLE, starting=(112, 88, 100),
                               finishing=(118, 82, 100)).replace("hand = 1", f"hand = {written}"))
    native, _ = both([folder])
    shown = "Infinity" if written == "inf" else written
    reason = f"'hand' is {shown}, not an integer (the hand's number)"
    assert hand_ids(native) == ["phh:x/s#0", "phh:x/s#1"]
    assert [e["type"] for e in native.events].count("chips_changed") == 0  # stacks run on
    assert native.skipped == [(str(folder / "2.phh"), reason)]
    assert native.kinds[reason] == "'hand' is not an integer (the hand's number)"
    ran = pitwatch("import", "phh", str(folder), "-o", str(tmp_path / "e.jsonl"),
                   "--list-skipped", columns=400)
    assert ran.code == 0 and f"  {folder / '2.phh'}: {reason}" in ran.stderr.splitlines()
