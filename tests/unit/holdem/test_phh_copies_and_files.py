"""PHH import, QA findings of 2026-12-06: a session's hand saved twice under two file
names was imported twice (its payouts counted twice); an import of nothing emptied the
output file it was to replace; a file starting with a UTF-8 byte order mark was refused
as not TOML; ``variant = 5`` was reported as "no 'variant' field". Each is checked with
both importers (the package's ``conftest`` also compares every native import with the
reference's, byte for byte)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import orjson
import pytest

from services.importers.phh import ImportResult, import_phh
from tests.unit.cli.helpers import pitwatch
from tests.unit.holdem.phh_differential import assert_same_import
from tests.unit.holdem.test_phh_import import SIMPLE, phh, write

FINISHING = (106, 94, 100)  # SIMPLE: Ann wins Bob's 6 (Cat folded), from 100 each
COPY_KIND = "a hand the source holds twice at its table (the same record in two places)"


def both(paths: list[Path]) -> tuple[ImportResult, ImportResult]:
    native, reference = import_phh(paths), import_phh(paths, engine="python")
    assert native.engine == "native", native.declined
    assert_same_import(native, reference)
    return native, reference


def copy_reason(first_id: str, first_file: Path | str) -> str:
    return (f"the same hand as {first_id} (read at {first_file}): its record is the same, "
            "field for field, so it is imported once")


def hand_ids(result: ImportResult) -> list[str]:
    return [e["hand_id"] for e in result.events if e["type"] == "hand_started"]


# ------------------------------------------------------------ a hand saved twice


def test_a_session_hand_saved_twice_under_another_name_is_imported_once(
        tmp_path: Path) -> None:
    """The tester's steps: hands 1 and 2 of a session, and hand 2 again as
    ``2 (copy).phh``: 3 read, 2 imported, the copy skipped naming the first."""
    sess = tmp_path / "x" / "sess"
    write(sess, "1.phh", phh(actions=SIMPLE, finishing=FINISHING, hand=1))
    second = phh(actions=SIMPLE, starting=FINISHING, finishing=(112, 88, 100), hand=2)
    write(sess, "2.phh", second)
    write(sess, "2 (copy).phh", second)
    native, _ = both([sess])
    assert (native.read, native.hands) == (3, 2)
    assert hand_ids(native) == ["phh:x/sess#1", "phh:x/sess#2"]
    assert native.skipped == [(str(sess / "2 (copy).phh"),
                               copy_reason("phh:x/sess#2", sess / "2.phh"))]
    assert native.kinds[native.skipped[0][1]] == COPY_KIND
    payouts = [e["data"]["amount"] for e in native.events if e["type"] == "payout"]
    # Ann is paid her finishing stack less what she kept after her 16 in: 106 - 84 in
    # hand 1, 112 - 90 in hand 2 (a refund of 10 and a pot of 12 each), hand 2 once.
    assert sum(payouts) == 22 + 22


def test_a_copy_written_otherwise_is_still_the_same_hand(tmp_path: Path) -> None:
    """Saved again by an editor: a byte order mark, Windows line ends, a comment, the keys
    in another order, ``100.0`` for ``100``, a comment after an action. The record is the
    same, so the file sorted after it (by name: no ``hand`` number) is the copy."""
    sess = tmp_path / "x" / "s"
    original = phh(actions=SIMPLE, finishing=FINISHING).replace("hand = 1\n", "")
    lines = original.splitlines()
    resaved = ("\ufeff# saved again\r\n" + "\r\n".join(reversed(lines)) + "\r\n").replace(
        "[100, 100, 100]", "[100.0, 100, 100.00]").replace("'p2 f'", "'p2 f # gives up'")
    write(sess, "a.phh", original)
    (sess / "b.phh").write_bytes(resaved.encode("utf-8"))
    native, _ = both([sess])
    assert native.hands == 1 and hand_ids(native) == ["phh:x/s#a"]
    assert native.skipped == [(str(sess / "b.phh"), copy_reason("phh:x/s#a", sess / "a.phh"))]


def test_distinct_hands_of_a_session_are_never_taken_for_copies(tmp_path: Path) -> None:
    """Only a record the same in every field is a copy: the same play under another
    ``hand`` number, one card other, one chip other, or a number written as a string,
    are other hands, each imported (6 files, 6 hands)."""
    sess = tmp_path / "s"
    base = phh(actions=SIMPLE, finishing=FINISHING, hand=1)
    variants = {
        "1.phh": base,
        "2.phh": base.replace("hand = 1", "hand = 2"),  # the same play, the next hand
        "3.phh": base.replace("hand = 1", "hand = 3").replace("7h2c", "7h2d"),
        "4.phh": base.replace("hand = 1", "hand = 4").replace(
            "[100, 100, 100]", "[100, 101, 99]").replace("[106, 94, 100]", "[106, 95, 99]"),
        "5.phh": base.replace("hand = 1", "hand = '1'"),  # a label, not the number 1
        "6.phh": base.replace("hand = 1\n", ""),  # no number at all
    }
    for name, text in variants.items():
        write(sess, name, text)
    native, _ = both([sess])
    assert (native.read, native.hands, native.skipped) == (6, 6, [])


def test_one_hand_number_with_two_records_is_two_hands(tmp_path: Path) -> None:
    """Two sessions put in one folder number their hands alike: hand 1 of each is a
    different record, and both are imported (the folder's order: number, then name)."""
    sess = tmp_path / "x" / "s"
    write(sess, "a1.phh", phh(actions=SIMPLE, finishing=FINISHING, hand=1))
    write(sess, "b1.phh", phh(actions=SIMPLE, finishing=FINISHING, hand=1,
                              players=("Dan", "Eve", "Fay")))
    native, _ = both([sess])
    assert native.hands == 2 and hand_ids(native) == ["phh:x/s#a1", "phh:x/s#b1"]


def test_a_phhs_file_holding_an_unnumbered_hand_twice_imports_it_once(
        tmp_path: Path) -> None:
    """Without ``hand`` numbers the hands are named by their ``[n]``: the second listing
    of the same record was a second hand."""
    hand = phh(actions=SIMPLE, finishing=FINISHING).replace("hand = 1\n", "")
    other = hand.replace("7h2c", "7h2d")
    path = tmp_path / "x" / "s" / "day.phhs"
    path.parent.mkdir(parents=True)
    path.write_text(f"[1]\n{hand}[2]\n{other}[3]\n{hand}", encoding="utf-8")
    native, _ = both([path])
    assert native.hands == 2 and hand_ids(native) == ["phh:x/s#day.1", "phh:x/s#day.2"]
    assert native.skipped == [(f"{path}[3]", copy_reason("phh:x/s#day.1", f"{path}[1]"))]


# ------------------------------------------------------------ the output file


@pytest.mark.parametrize("engine", ["native", "python"])
@pytest.mark.parametrize("bad", ["truncated", "another variant"])
def test_an_import_of_nothing_leaves_the_output_as_it_was(tmp_path: Path, engine: str,
                                                          bad: str) -> None:
    """``-o keep.jsonl`` once held a good import; importing a file with no hand to import
    to it exits 1 and left it empty. Now it is left byte for byte, with no partial file
    beside it, and a file that did not exist is not created. "another variant" is a file
    the native importer reads itself; "truncated" one it leaves to Python."""
    good = write(tmp_path / "in", "1.phh", phh(actions=SIMPLE, finishing=FINISHING))
    text = good.read_text("utf-8")
    broken = write(tmp_path / "bad", "1.phh", text[:text.index("actions") + 20]
                   if bad == "truncated" else text.replace("'NT'", "'FR'"))
    out = tmp_path / "out"
    out.mkdir()
    keep = out / "keep.jsonl"
    first = pitwatch("import", "phh", str(good), "-o", str(keep), "--engine", engine)
    assert first.code == 0, first.stderr
    before = keep.read_bytes()
    assert before.count(b"\n") > 0
    ran = pitwatch("import", "phh", str(broken), "-o", str(keep), "--engine", engine)
    assert ran.code == 1, ran.stderr
    assert keep.read_bytes() == before
    assert f"nothing written: {keep} left as it was" in ran.stderr
    fresh = out / "new.jsonl"
    ran = pitwatch("import", "phh", str(broken), "-o", str(fresh), "--engine", engine)
    assert ran.code == 1 and f"nothing written: {fresh} not created" in ran.stderr
    assert sorted(p.name for p in out.iterdir()) == ["keep.jsonl"]


# ------------------------------------------------------------ a byte order mark


def test_a_file_with_a_byte_order_mark_reads_as_without(tmp_path: Path) -> None:
    """Windows Notepad saves UTF-8 with EF BB BF first (and CRLF line ends): the file was
    "not a valid PHH (TOML) file ... at line 1, column 1". It imports as the same file
    without them, natively, with the same events (only the session's name differs)."""
    text = phh(actions=SIMPLE, finishing=FINISHING)
    plain = write(tmp_path / "x" / "plain", "1.phh", text)
    notepad = tmp_path / "x" / "notepad"
    notepad.mkdir()
    (notepad / "1.phh").write_bytes(b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode())
    native, _ = both([notepad / "1.phh"])
    assert (native.hands, native.skipped) == (1, [])
    expected = import_phh([plain])
    assert hand_ids(native) == ["phh:x/notepad#1"] and hand_ids(expected) == ["phh:x/plain#1"]
    assert [(e["type"], e["data"]) for e in native.events] == [
        (e["type"], e["data"]) for e in expected.events]
    finishing = tomllib.loads(text)["finishing_stacks"][0]
    paid = [(e["data"]["seat"], e["data"]["amount"]) for e in native.events
            if e["type"] == "payout"]
    assert sum(a for _, a in paid) == finishing - (100 - 16) == 22  # all to Ann, seat 1
    assert {seat for seat, _ in paid} == {1}
    assert orjson.loads(native.jsonl().splitlines()[0])["type"] == "table_configured"


def test_a_byte_order_mark_inside_a_file_is_still_not_toml(tmp_path: Path) -> None:
    """Only a leading mark is passed over, as in an event log."""
    path = write(tmp_path / "s", "1.phh",
                 "# a comment first\n\ufeff" + phh(actions=SIMPLE, finishing=FINISHING))
    result = import_phh([path])
    [(_, why)] = result.skipped
    assert why.startswith("not a valid PHH (TOML) file: ")


# ------------------------------------------------------------ variant not a string


@pytest.mark.parametrize(("written", "said"), [
    ("5", "5"), ("5.0", "5.0"), ("true", "true"), ("['NT']", "an array")])
def test_a_variant_that_is_not_a_string_is_said_to_be_there(tmp_path: Path, written: str,
                                                            said: str) -> None:
    folder = tmp_path / "s"
    write(folder, "1.phh", phh(actions=SIMPLE, finishing=FINISHING).replace(
        "variant = 'NT'", f"variant = {written}"))
    write(folder, "2.phh", phh(actions=SIMPLE, finishing=FINISHING, hand=2))
    native, _ = both([folder])
    assert native.hands == 1
    assert native.skipped == [(str(folder / "1.phh"), f"'variant' is {said}, not a string "
                                                       "('NT': the game's code in quotes)")]
    assert set(native.kinds.values()) == {
        "'variant' is not a string ('NT': the game's code in quotes)"}


def test_a_missing_variant_is_still_no_variant_field(tmp_path: Path) -> None:
    folder = tmp_path / "s"
    write(folder, "1.phh", phh(actions=SIMPLE, finishing=FINISHING).replace(
        "variant = 'NT'\n", ""))
    native, _ = both([folder])
    assert native.skipped == [(str(folder / "1.phh"), "no 'variant' field")]


def test_an_empty_file_is_said_to_be_empty(tmp_path: Path) -> None:
    """QA: an empty ``.phh`` (or one of comments only) was "no 'variant' field", as if one
    field were amiss; both importers now say it holds none."""
    folder = tmp_path / "s"
    write(folder, "1.phh", "")
    write(folder, "2.phh", "# a comment, and nothing else\n")
    write(folder, "3.phh", phh(actions=SIMPLE, finishing=FINISHING, hand=3))
    native, _ = both([folder])
    assert native.hands == 1
    empty = "no PHH field at all (an empty file, or comments only)"
    assert native.skipped == [(str(folder / "1.phh"), empty), (str(folder / "2.phh"), empty)]
