"""The native PHH importer (``native/src/phh``) against the Python reference importer.

Where the native importer takes an import (``phh.native_import`` returns a result), its
events must be the reference's byte for byte and its account of every hand read the same,
skip reasons included (``assert_same_import``; the package's ``conftest`` checks every
other import of these tests the same way). Where it does not (a document outside its TOML
subset, a value it would read otherwise than the reference, ``seats``, a chip unit), the
import is the reference's own. Checked on the shared data (every Pluribus and WSOP file:
all of them natively), on hypothesis-built folders of hands (seating changes, half chips,
antes, heads-up, fixed limit, winnings, unknown cards, showdowns, comments, source
tables, labels, skipped hands; and files it must leave to Python), on each kind of hand
the reference skips, on a ``.phhs`` file and on each kind of file left to Python.
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from services.importers import phh
from services.importers.cli import import_app
from services.importers.phh import Declined, ImportOptions, ImportResult, import_phh, native_import
from services.importers.phh_source import expand
from tests.e2e.phh_support import unpack
from tests.unit.holdem.phh_differential import assert_same_import

CARDS = [rank + suit for rank in "23456789TJQKA" for suit in "cdhs"]
# Python writes O'Neil in double quotes (the native subset's "..." strings), Zoë in UTF-8.
NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "O'Neil Jr", "Zoë")


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return unpack(tmp_path_factory.mktemp("phh-native"))


def both(paths: list[Path], **options: object) -> tuple[phh.ImportResult, phh.ImportResult]:
    return (import_phh(paths, **options),  # type: ignore[arg-type]
            import_phh(paths, engine="python", **options))  # type: ignore[arg-type]


def test_every_pluribus_and_wsop_file_imports_natively_as_the_reference(data: Path) -> None:
    for folder in (data / "pluribus", data / "wsop"):
        native, reference = both([folder])
        assert native.engine == "native"
        assert_same_import(native, reference)
    assert native.skipped  # the WSOP event's other variants, skipped with the reason


def test_documents_outside_the_native_subset_are_the_references(data: Path) -> None:
    """The famous hands are written with multi-line arrays and comments inside them."""
    famous = sorted(data.glob("*.phh"))
    assert len(famous) == 5
    declined = native_import(famous, ImportOptions())
    assert isinstance(declined, Declined)
    assert declined.why.startswith(f"{famous[0]}:11: a line outside the one-line TOML")  # actions = [
    native, reference = both(famous)
    assert native.engine == reference.engine == "python"
    assert native.declined == declined.why and reference.declined == "--engine python"
    assert native.jsonl() == reference.jsonl() and native.skipped == reference.skipped


# ------------------------------------------------------------------ generated folders


@st.composite
def hand_document(draw: st.DrawFn, number: int) -> str:
    """One NT or FT hand: a plausible deal and betting (raises tracked by street), a
    settlement that returns what was put in (or random stacks), and the optional fields
    the native importer must read exactly as the reference does."""
    count = draw(st.integers(2, 6))
    players = draw(st.permutations(NAMES).map(lambda names: list(names[:count])))
    half = draw(st.booleans())
    starting = [draw(st.integers(40, 400)) for _ in range(count)]
    blinds = [1, 2] + [0] * (count - 2)
    antes = draw(st.sampled_from([[0] * count, [1] * count,
                                  [0, 2] + [0] * (count - 2) if count > 2 else [0, 2]]))
    deck = draw(st.permutations(CARDS))
    stacks, put = list(starting), [0] * count
    street = [0] * count
    for position, ante in enumerate(antes):
        stacks[position] -= ante
        put[position] += ante
    order = (1, 0) if count == 2 else (0, 1)
    for blind, position in zip(blinds[:2], order, strict=True):
        stacks[position] -= blind
        put[position] += blind
        street[position] += blind
    actions = [f"d dh p{i + 1} {deck[2 * i]}{deck[2 * i + 1]}"
               if draw(st.integers(0, 9)) else f"d dh p{i + 1} ????" for i in range(count)]
    folded: set[int] = set()
    board = iter(deck[2 * count:])
    for cards in (0, 3, 1, 1):
        if cards:
            actions.append("d db " + "".join(next(board) for _ in range(cards)))
            street = [0] * count
        for position in range(count):
            if position in folded or len(folded) == count - 1:
                continue
            move = draw(st.sampled_from(["f", "cc", "cc", "cbr"]))
            if move == "f":
                folded.add(position)
                actions.append(f"p{position + 1} f")
            elif move == "cc":
                chips = max(0, min(max(street) - street[position], stacks[position]))
                stacks[position] -= chips
                put[position] += chips
                street[position] += chips
                actions.append(f"p{position + 1} cc")
            else:
                to = max(street) + draw(st.integers(2, 8))
                chips = to - street[position]
                stacks[position] -= chips
                put[position] += chips
                street[position] = to
                actions.append(f"p{position + 1} cbr {to}")
    for position in range(count):
        if position not in folded and draw(st.booleans()):
            shown = draw(st.sampled_from(["", f" {deck[2 * position]}{deck[2 * position + 1]}",
                                          " ????"]))
            actions.append(f"p{position + 1} sm{shown}")
    if draw(st.booleans()):
        actions.append("p1 cbr 1000000")  # a bet beyond the stack, or after a fold
    returned = [s + p for s, p in zip(stacks, put, strict=True)]
    finishing = draw(st.sampled_from([returned, starting, [s + 1 for s in starting]]))

    def amounts(values: list[int]) -> str:
        return ", ".join(f"{v}.5" if half and i == 0 else str(v) for i, v in enumerate(values))

    variant = draw(st.sampled_from(["NT", "NT", "FT", "NS"]))
    lines = [f"variant = '{variant}'", f"antes = [{', '.join(map(str, antes))}]",
             f"blinds_or_straddles = {blinds}",
             f"starting_stacks = [{amounts(starting)}]", f"actions = {actions}",
             f"players = {players}"]
    if variant == "FT":
        lines += ["small_bet = 2", "big_bet = 4"]
    else:
        lines.append(f"min_bet = {draw(st.sampled_from([2] * 9 + [3]))}")
    label = draw(st.sampled_from([str(number)] * 6 + [f"'h{number}'", "7"]))
    lines.append(f"hand = {label}")
    if draw(st.booleans()):
        lines.append(f"finishing_stacks = [{amounts(finishing)}]  # the settlement")
    else:
        won = [max(0, f - s) for f, s in zip(finishing, stacks, strict=True)]
        lines.append(f"winnings = {won}")
    if draw(st.integers(0, 19)) == 0:  # read here as Python does not: left to Python
        lines.append("players_ids = [1, 'a']")
    if draw(st.integers(0, 5)) == 0:
        seats = sorted(draw(st.lists(st.integers(1, 9), min_size=count, max_size=count,
                                     unique=True)))
        turn = draw(st.integers(0, count - 1))
        lines.append(f"seats = {seats[turn:] + seats[:turn]}")  # clockwise, or not
    if draw(st.booleans()):
        lines.append(draw(st.sampled_from(["time = 00:00:09", "time = 23:59:59.5",
                                           "currency_symbol = '$'", "day = 22"])))
    if draw(st.integers(0, 3)) == 0:
        lines.append("table = 'Alpha'")
        lines.append(draw(st.sampled_from(["venue = 'Casino'", "", "venue = ''"])))
    lines.insert(draw(st.integers(0, len(lines))), "# a comment line")
    return "\n".join(lines) + "\n"


@st.composite
def folders(draw: st.DrawFn) -> list[tuple[str, str]]:
    out = []
    for session in range(draw(st.integers(1, 2))):
        for number in range(draw(st.integers(1, 4))):
            name = draw(st.sampled_from([f"{number}.phh", f"{number}.phh", f"h{number}.phh"]))
            text = draw(hand_document(number))
            out.append((f"s{session}/{name}", text))
            if draw(st.integers(0, 5)) == 0:  # the hand saved again: a copy, skipped
                out.append((f"s{session}/{name[:-4]} (copy).phh",
                            draw(st.sampled_from(["", "\ufeff"])) + text))
    return out


def test_generated_folders_import_natively_as_the_reference_or_not_at_all(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    """Each drawn folder is imported natively and compared, or left to Python whole, with
    each table's own scale or a chip unit; and the generator is not vacuous: many folders
    are native, some are not."""
    taken: list[bool] = []

    @settings(max_examples=150, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow])
    @given(files=folders(), unit=st.sampled_from([None, None, "1", "0.5", "0.01"]))
    def check(files: list[tuple[str, str]], unit: str | None) -> None:
        root = tmp_path_factory.mktemp("generated")
        for name, text in files:
            path = root / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        chip_unit = None if unit is None else Decimal(unit)
        reference = import_phh([root], engine="python", chip_unit=chip_unit)
        native = native_import(expand([root]), ImportOptions(chip_unit=chip_unit))
        taken.append(isinstance(native, ImportResult))
        if isinstance(native, ImportResult):
            assert_same_import(native, reference)
        else:
            assert import_phh([root], chip_unit=chip_unit).jsonl() == reference.jsonl()

    check()
    assert sum(taken) >= 20 and not all(taken), (sum(taken), len(taken))


# ------------------------------------------------------------------ left to Python


SIMPLE = ["d dh p1 AsAd", "d dh p2 KcKd", "d dh p3 7h2c", "p3 f", "p1 cbr 6", "p2 cc",
          "d db QsJd4c", "p1 cbr 10", "p2 f"]
BASE = ("variant = 'NT'\nantes = [0, 0, 0]\nblinds_or_straddles = [1, 2, 0]\nmin_bet = 2\n"
        f"starting_stacks = [100, 100, 100]\nactions = {SIMPLE}\nhand = 1\n"
        "players = ['Ann', 'Bob', 'Cat']\nfinishing_stacks = [106, 94, 100]\n")


@pytest.mark.parametrize(("case", "text"), [
    ("another variant", BASE.replace("'NT'", "'F7S'")),
    ("no variant", BASE.replace("variant = 'NT'\n", "")),
    ("a variant that is a number", BASE.replace("'NT'", "5")),
    ("a variant that is an array", BASE.replace("'NT'", "['NT']")),
    ("a copy of its neighbour", BASE.replace("hand = 1", "hand = 2")),
    ("a copy saved otherwise", "\ufeff# saved again\r\n" + BASE.replace(
        "hand = 1", "hand = 2").replace("min_bet = 2", "min_bet = 2.00").replace(
        "'p2 f'", "'p2 f # folds'").replace("\n", "\r\n")),
    ("a straddle", BASE.replace("[1, 2, 0]", "[1, 2, 4]")),
    ("no settlement", BASE.replace("finishing_stacks = [106, 94, 100]\n", "")),
    ("a stack not recorded", BASE.replace("[100, 100, 100]", "[100, inf, 100]")),
    ("a payout below zero", BASE.replace("[106, 94, 100]", "[80, 94, 100]")),
    ("a minimum bet other than the big blind", BASE.replace("min_bet = 2", "min_bet = 3")),
    ("amounts not whole at any scale", BASE.replace("[106, 94, 100]", "[106.001, 94, 100]")),
    ("more chips than JSON's exact integers", BASE.replace(
        "[100, 100, 100]", "[4503599627370496, 4503599627370496, 100]").replace(
        "[106, 94, 100]", "[4503599627370502, 4503599627370490, 100]")),
    ("a bet beyond JSON's exact integers", BASE.replace("cbr 10", "cbr 9007199254740992")),
    ("a bet of 10^23 chips", BASE.replace("cbr 10", "cbr 100000000000000000000000")),
    ("a bet beyond them once scaled", BASE.replace("cbr 10", "cbr 9007199254740991.5")),
    ("a settlement beyond them", BASE.replace("[106, 94, 100]",
                                              "[106, 94, 9007199254740992]")),
    ("a starting stack below zero", BASE.replace("[100, 100, 100]", "[100, -100, 100]")),
    ("a draw action", BASE.replace("'p2 f'", "'p2 sd 7h'")),
    ("fewer players than stacks", BASE.replace("'Ann', 'Bob', 'Cat'", "'Ann', 'Bob'")),
    ("a player named twice", BASE.replace("'Cat'", "'Ann'")),
    ("a hand number that is not an integer", BASE.replace("hand = 1", "hand = 2.0")),
    ("seats out of clockwise order", BASE + "seats = [5, 2, 7]\n"),
    ("a seat beyond 64", BASE + "seats = [2, 5, 65]\n"),
])
def test_hands_the_reference_skips_are_skipped_natively_with_its_reason(
        tmp_path: Path, case: str, text: str) -> None:
    """The native importer skips them where the reference does; the reference words why.
    A clean hand beside each shows the table goes on."""
    folder = tmp_path / "s"
    folder.mkdir()
    (folder / "1.phh").write_text(text, encoding="utf-8")
    (folder / "2.phh").write_text(BASE.replace("hand = 1", "hand = 2"), encoding="utf-8")
    native, reference = both([folder])
    assert native.engine == "native", case
    assert_same_import(native, reference)
    assert len(native.skipped) == 1 and native.hands == 1, case


def test_seats_and_times_of_the_source_are_read_natively(tmp_path: Path) -> None:
    folder = tmp_path / "s"
    folder.mkdir()
    (folder / "1.phh").write_text(BASE + "seats = [2, 5, 7]\ntime = 00:00:09\n", "utf-8")
    (folder / "2.phh").write_text(BASE.replace("hand = 1", "hand = 2"), "utf-8")
    native, reference = both([folder])
    assert native.engine == "native" and native.hands == 2
    assert_same_import(native, reference)


def test_a_phhs_file_with_skips_and_a_hand_listed_twice_is_native(tmp_path: Path) -> None:
    hand = BASE.replace("players", "table = 'T'\nplayers")
    razz = hand.replace("'NT'", "'FR'")
    fourth = hand.replace("hand = 1", "hand = 4")
    text = f"[1]\n{hand}[2]\n{hand}[3]\n{razz}[4]\n{fourth}"
    many = tmp_path / "many.phhs"
    many.write_text(text, encoding="utf-8")
    native, reference = both([many])
    assert native.engine == "native"
    assert_same_import(native, reference)
    assert native.hands == 2 and [why.split(":")[0] for _, why in native.skipped] == [
        "variant FR (fixed-limit razz)", "hand phh"]


@pytest.mark.parametrize(("case", "text"), [
    ("a time and a date", BASE + "when = 1979-05-27T07:32:00\n"),
    ("a local time out of range", BASE + "time = 24:00:09\n"),
    ("a multi-line array", BASE.replace("antes = [0, 0, 0]", "antes = [\n0, 0, 0]")),
    ("an exponent", BASE.replace("min_bet = 2", "min_bet = 2e0")),
    ("a bet size Python reads as a Decimal only", BASE.replace("cbr 10", "cbr 1_0")),
    ("a non-string player", BASE.replace("players = ['Ann', 'Bob', 'Cat']",
                                         "players = [1, 2, 3]")),
    ("an escape in a string", BASE.replace("'Cat'", '"C\\tat"')),
    ("a player name with a tab", BASE.replace("'Cat'", "'C\tat'")),
    ("a player name with U+0085", BASE.replace("'Cat'", "'C\x85at'")),
    ("an empty player name", BASE.replace("'Cat'", "''")),
    ("a player name of 201 characters", BASE.replace("'Cat'", f"'{'C' * 201}'")),
    ("a key outside every hand of a .phhs file", "x = 1\n[1]\n" + BASE),
    ("not UTF-8", None),
])
def test_what_the_native_importer_leaves_to_python(tmp_path: Path, case: str,
                                                   text: str | None) -> None:
    suffix = ".phhs" if case.endswith(".phhs file") else ".phh"
    path = tmp_path / "s" / f"1{suffix}"
    path.parent.mkdir()
    if text is None:
        path.write_bytes(BASE.replace("Ann", "An\xe9").encode("latin-1"))
    else:
        path.write_text(text, encoding="utf-8")
    declined = native_import([path], ImportOptions())
    assert isinstance(declined, Declined), case
    assert declined.why.startswith(str(path)), declined.why
    result = import_phh([path])
    assert result.engine == "python" and result.declined == declined.why
    assert result.jsonl() == import_phh([path], engine="python").jsonl()


def test_a_hand_id_beyond_the_contract_is_pythons(tmp_path: Path) -> None:
    """A file named with 210 characters makes a hand id longer than the contract's 200:
    the native importer leaves the import to Python, which skips that hand with why."""
    path = tmp_path / "s" / f"{'h' * 210}.phh"
    path.parent.mkdir()
    path.write_text(BASE, encoding="utf-8")
    (path.parent / "2.phh").write_text(BASE.replace("hand = 1", "hand = 2"), "utf-8")
    declined = native_import([path, path.parent / "2.phh"], ImportOptions())
    assert isinstance(declined, Declined)
    assert declined.why == f"{path}: a hand id the v1 contract does not take"
    result = import_phh([path.parent])
    assert result.engine == "python" and result.hands == 1
    [(where, why)] = result.skipped
    assert where == str(path) and "longer than 200 characters" in why


PHHS = Path(__file__).parents[2] / "fixtures" / "phhs"
HANDHQ_SHAPED = "".join(f"""[{n}]
variant = 'NT'
ante_trimming_status = false
antes = [0.25, 0.25, 0.25]
blinds_or_straddles = [0.50, 1, 0]
min_bet = 1
starting_stacks = [80.60, 197, 201.30]
actions = ['d dh p1 ????', 'd dh p2 ????', 'd dh p3 ????', 'p3 f', 'p1 cbr 3.00', 'p2 f']
venue = 'Casino'
time = 00:0{n}:09
day = 1
month = 7
year = 2009
hand = 30172374{n}
seats = [6, 3, 5]
table = 'ELM ST'
players = ['Qx+1/a', 'Rb/2+c', 'Sz3d+=']
winnings = [2.75, 0, 0]
currency_symbol = '$'
time_zone_abbreviation = 'ET'

""" for n in (1, 2))


def test_a_chip_unit_imports_natively_as_the_reference(data: Path, tmp_path: Path) -> None:
    """A chip unit (HandHQ's cents: ``--chip-unit 0.01``) once left the whole import to
    Python, about five times slower. The native importer takes it: the same bytes, the
    same scale at every table, and a hand not whole in the unit skipped with the
    reference's reason. A unit finer than 1/10^12 is still Python's."""
    session = data / "pluribus" / "100"
    for unit in ("1", "0.5", "0.25", "0.01"):
        native, reference = both([session], chip_unit=Decimal(unit))
        assert native.engine == "native", native.declined
        assert_same_import(native, reference)
        assert set(native.scales.values()) == {int(1 / Decimal(unit))}
    native, reference = both(sorted(PHHS.glob("*.phhs")), chip_unit=Decimal("0.01"))
    assert native.engine == "native", native.declined
    assert_same_import(native, reference)
    assert native.hands > 0 and set(native.scales.values()) == {100}
    handhq = tmp_path / "venue" / "one-OBFUSCATED.phhs"  # every key of a HandHQ hand
    handhq.parent.mkdir()
    handhq.write_text(HANDHQ_SHAPED, encoding="utf-8")
    native, reference = both([handhq], chip_unit=Decimal("0.01"))
    assert native.engine == "native", native.declined
    assert_same_import(native, reference)
    assert native.hands == 2 and native.scales == {"phh:Casino/ELM ST": 100}
    path = tmp_path / "s" / "1.phh"
    path.parent.mkdir()
    path.write_text(BASE, encoding="utf-8")
    (path.parent / "2.phh").write_text(
        BASE.replace("hand = 1", "hand = 2").replace("cbr 10", "cbr 10.5").replace(
            "[106, 94, 100]", "[106.5, 94, 100]"), "utf-8")
    native, reference = both([path.parent], chip_unit=Decimal("1"))
    assert native.engine == "native"
    assert_same_import(native, reference)
    assert native.hands == 1 and native.skipped == [
        (str(path.parent / "2.phh"), "amounts are not whole multiples of the chip unit 1")]
    finer = import_phh([path], chip_unit=Decimal("1e-13"))
    assert finer.engine == "python" and finer.declined == "--chip-unit 1E-13: finer than 1/1,000,000,000,000"
    with pytest.raises(ValueError, match="no import engine 'rust'"):
        import_phh([path], engine="rust")


def test_the_cli_writes_the_same_file_with_either_engine(tmp_path: Path) -> None:
    path = tmp_path / "s" / "1.phh"
    path.parent.mkdir()
    path.write_text(BASE, encoding="utf-8")
    runner = CliRunner()
    for engine in ("native", "python"):
        result = runner.invoke(import_app, ["phh", str(path), "-o", str(tmp_path / engine),
                                            "--engine", engine])
        assert result.exit_code == 0, result.output
        assert ("importer: native" if engine == "native"
                else "importer: Python (--engine python)") in result.output
    assert (tmp_path / "native").read_bytes() == (tmp_path / "python").read_bytes()
    bad = runner.invoke(import_app, ["phh", str(path), "-o", str(tmp_path / "x"),
                                     "--engine", "rust"])
    assert bad.exit_code == 2 and "not an import engine" in bad.output
