"""PHH import on small hand-written files: the events a table would have recorded, the
recorded payouts from finishing stacks, half chips, seating, skips with reasons, the CLI."""

from __future__ import annotations

import itertools
import uuid
from pathlib import Path
from typing import Any

import orjson
from typer.testing import CliRunner

from services.adjudicator.embedded import adjudicate_lines
from services.events.canonical import event_hash
from services.events.contract import AdjudicationRecord
from services.importers.cli import import_app
from services.importers.phh import import_phh
from tests.profiles import PROFILES


def phh(variant: str = "NT", players: tuple[str, ...] = ("Ann", "Bob", "Cat"),
        starting: tuple[Any, ...] = (100, 100, 100), finishing: tuple[Any, ...] | None = None,
        actions: tuple[str, ...] = (), blinds: tuple[int, ...] | None = None,
        antes: tuple[int, ...] | None = None, hand: int = 1, extra: str = "") -> str:
    count = len(players)
    blinds = blinds if blinds is not None else (1, 2, *([0] * (count - 2)))
    antes = antes if antes is not None else (0,) * count
    lines = [
        f"variant = '{variant}'",
        f"antes = {list(antes)}",
        f"blinds_or_straddles = {list(blinds)}",
        "min_bet = 2",
        f"starting_stacks = [{', '.join(map(str, starting))}]",
        f"actions = {list(actions)}",
        f"hand = {hand}",
        f"players = {list(players)}",
    ]
    if finishing is not None:
        lines.append(f"finishing_stacks = [{', '.join(map(str, finishing))}]")
    return "\n".join(lines) + "\n" + extra


def write(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def adjudicate(events: list[dict[str, Any]]) -> list[AdjudicationRecord]:
    lines = [orjson.dumps(e) for e in events]
    return [r for step in adjudicate_lines(lines, PROFILES) for r in step.records]


def hand_events(events: list[dict[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    return [(e["type"], e["data"]) for e in events if e["hand_id"] is not None]


# Three players: Ann (p1, small blind, seat 1), Bob (p2, big blind, seat 2), Cat (p3,
# button, seat 3). Cat folds, Ann raises to 6 (adds 5), Bob calls 4. Flop Qs Jd 4c: Ann
# bets 10, Bob folds. Ann put in 16 and gets back her uncalled 10 and the pot of 12:
# finishing 100 - 16 + 22 = 106; Bob 100 - 6 = 94; Cat 100.
SIMPLE = ("d dh p1 AsAd", "d dh p2 KcKd", "d dh p3 7h2c", "p3 f", "p1 cbr 6", "p2 cc",
          "d db QsJd4c", "p1 cbr 10", "p2 f")


def test_a_hand_becomes_the_events_a_table_records(tmp_path: Path) -> None:
    path = write(tmp_path / "s1", "1.phh", phh(actions=SIMPLE, finishing=(106, 94, 100)))
    result = import_phh([path])
    assert result.skipped == [] and result.hands == 1
    events = hand_events(result.events)
    assert events[0][0] == "hand_started"
    assert events[0][1]["button"] == 3
    assert [s["player_id"] for s in events[0][1]["seats"]] == ["Ann", "Bob", "Cat"]
    dealt = [(d["seat"], d["card"]) for t, d in events if t == "card_dealt" and d["to"] == "seat"]
    assert dealt == [(1, "As"), (2, "Kc"), (3, "7h"), (1, "Ad"), (2, "Kd"), (3, "2c")]
    actions = [(d["seat"], d["action"], d.get("amount")) for t, d in events if t == "action"]
    assert actions == [(1, "post_small_blind", 1), (2, "post_big_blind", 2), (3, "fold", None),
                       (1, "raise", 5), (2, "call", 4), (1, "bet", 10), (2, "fold", None)]
    board = [(d["to"], d["card"]) for t, d in events if t == "card_dealt" and d["to"] != "seat"]
    assert board == [("burn", None), ("board", "Qs"), ("board", "Jd"), ("board", "4c")]
    payouts = [(d["seat"], d["amount"], d["kind"]) for t, d in events if t == "payout"]
    assert payouts == [(1, 10, "refund"), (1, 12, "pot")]
    records = adjudicate(result.events)
    assert [(r.status, r.findings) for r in records] == [("ok", [])]


def test_heads_up_positions(tmp_path: Path) -> None:
    """Heads-up, p1 is the big blind and p2 the button and small blind. p2 folds: p1
    gets its uncalled 1 back and wins the small blind: 101 / 99."""
    text = phh(players=("Ann", "Bob"), starting=(100, 100), finishing=(101, 99),
               actions=("d dh p1 AsAd", "d dh p2 KcKd", "p2 f"))
    result = import_phh([write(tmp_path / "hu", "1.phh", text)])
    events = hand_events(result.events)
    assert events[0][1]["button"] == 2
    posts = [(d["seat"], d["action"], d["amount"]) for t, d in events[1:3]]
    assert posts == [(2, "post_small_blind", 1), (1, "post_big_blind", 2)]
    first = next(d for t, d in events if t == "card_dealt")
    assert first["seat"] == 1  # left of the button
    assert [r.status for r in adjudicate(result.events)] == ["ok"]


def test_half_chips_make_the_half_chip_the_unit(tmp_path: Path) -> None:
    """Cat raises to 4, Ann folds her small blind, Bob calls: pot 1 + 4 + 4 = 9, split
    by two kings playing the board straight: 4.5 each (Bob and Cat finish at 100.5). The
    table is imported at scale 2: blinds 2 / 4, stacks 200, each gets 9 of the 18."""
    actions = ("d dh p1 AsAd", "d dh p2 KcKd", "d dh p3 KhKs", "p3 cbr 4", "p1 f", "p2 cc",
               "d db 5c6d7s", "p2 cc", "p3 cc", "d db 8s", "p2 cc", "p3 cc", "d db 9c",
               "p2 cc", "p3 cc", "p2 sm KcKd", "p3 sm KhKs")
    text = phh(actions=actions, finishing=(99, "100.5", "100.5"))
    result = import_phh([write(tmp_path / "half", "1.phh", text)])
    table = next(iter(result.scales))
    assert result.scales == {table: 2}
    config = next(e["data"] for e in result.events if e["type"] == "table_configured")
    assert (config["limits"]["small_blind"], config["limits"]["big_blind"]) == (2, 4)
    payouts = [(d["seat"], d["amount"]) for t, d in hand_events(result.events) if t == "payout"]
    assert sorted(payouts) == [(2, 9), (3, 9)]
    records = adjudicate(result.events)
    assert [(r.status, r.findings) for r in records] == [("ok", [])]
    assert records[0].expected is not None
    assert records[0].expected.net == {"1": -2, "2": 1, "3": 1, "house": 0}


def test_one_table_per_folder_with_fixed_seats(tmp_path: Path) -> None:
    """Two hands of one session: the players keep their seats, the button moves from
    seat 3 to seat 1, and a stack that changed between hands is a chips_changed."""
    folder = tmp_path / "session"
    write(folder, "1.phh", phh(actions=SIMPLE, finishing=(106, 94, 100)))
    second = ("d dh p1 KcKd", "d dh p2 7h2c", "d dh p3 AsAd", "p3 f", "p1 f")
    write(folder, "2.phh", phh(players=("Bob", "Cat", "Ann"), starting=(100, 100, 106),
                               finishing=(99, 101, 106), actions=second, hand=2))
    result = import_phh([folder])
    assert result.hands == 2
    types = [e["type"] for e in result.events]
    assert types.count("player_seated") == 3 and "player_left" not in types
    starts = [e["data"] for e in result.events if e["type"] == "hand_started"]
    assert [s["button"] for s in starts] == [3, 1]
    changed = [e["data"] for e in result.events if e["type"] == "chips_changed"]
    assert changed == [{"seat": 2, "amount": 6, "kind": "add"}]  # Bob: 94 -> 100
    assert [r.status for r in adjudicate(result.events)] == ["ok", "ok"]


def test_players_out_of_order_are_reseated(tmp_path: Path) -> None:
    folder = tmp_path / "moved"
    write(folder, "1.phh", phh(actions=SIMPLE, finishing=(106, 94, 100)))
    swapped = ("d dh p1 KcKd", "d dh p2 AsAd", "d dh p3 7h2c", "p3 f", "p1 f")
    write(folder, "2.phh", phh(players=("Ann", "Cat", "Bob"), starting=(106, 100, 94),
                               finishing=(105, 101, 94), actions=swapped, hand=2))
    result = import_phh([folder])
    types = [e["type"] for e in result.events]
    assert types.count("player_left") == 3 and types.count("player_seated") == 6
    assert [r.status for r in adjudicate(result.events)] == ["ok", "ok"]


def test_hands_that_cannot_be_imported_are_reported(tmp_path: Path) -> None:
    folder = tmp_path / "mixed"
    write(folder, "1.phh", phh(variant="FO/8", finishing=(100, 100, 100)))
    write(folder, "2.phh", phh(actions=SIMPLE))
    write(folder, "3.phh", phh(actions=SIMPLE, finishing=(106, 94, 100), blinds=(1, 2, 4)))
    write(folder, "4.phh", "variant = 'NT\n")
    write(folder, "5.phh", phh(actions=(*SIMPLE[:3], "p3 sd 7h"), finishing=(100, 100, 100)))
    write(folder, "6.phh", phh(actions=SIMPLE, finishing=(80, 94, 100)))
    write(folder, "7.phh", phh(actions=SIMPLE, finishing=(106, 94, 100), antes=(1, 0, 2)))
    write(folder, "8.phh", phh(actions=(*SIMPLE[:4], "p1 cbr 6d", *SIMPLE[5:]),
                               finishing=(106, 94, 100)))
    write(folder, "9.phh", phh(actions=(*SIMPLE[:4], "p1 cbr inf", *SIMPLE[5:]),
                               finishing=(106, 94, 100)))
    write(folder, "10.phh", phh(actions=SIMPLE, starting=(100, -100, 100),
                                finishing=(106, 94, 100)))
    write(folder, "11.phh", phh(actions=(*SIMPLE[:3], "p\u00b3 f", *SIMPLE[4:]),
                                finishing=(106, 94, 100)))
    write(folder, "12.phh", phh(actions=(*SIMPLE[:3], "p\u0663 f", *SIMPLE[4:]),
                                finishing=(106, 94, 100)))
    write(folder, "13.phh", phh(actions=SIMPLE, starting=(
        "100.00000000000000000000000000001", 100, 100), finishing=(106, 94, 100)))
    write(folder, "14.phh", phh(actions=SIMPLE, finishing=(106, 94, 100)).replace(
        "players = ['Ann', 'Bob', 'Cat']", "players = 5"))
    result = import_phh([folder])
    assert result.hands == 0 and result.events == []
    reasons = {Path(p).name: r for p, r in result.skipped}
    assert "variant FO/8" in reasons["1.phh"]
    assert "finishing_stacks" in reasons["2.phh"]
    assert "straddle" in reasons["3.phh"]
    assert "not a valid PHH" in reasons["4.phh"]
    assert "not a hold'em betting or showdown action" in reasons["5.phh"]
    assert "below what they kept" in reasons["6.phh"]
    assert "antes" in reasons["7.phh"]
    # Once a traceback (a bet size that is no number stopped the whole import) and events
    # the intake refused (a stack below zero): each is now its hand's reason.
    assert reasons["8.phh"] == "action 'p1 cbr 6d': '6d' is not an amount"
    assert reasons["9.phh"] == "action 'p1 cbr inf': 'inf' is not an amount"
    assert reasons["10.phh"] == "the starting stack of p2 is -100: below zero"
    # A player written with a digit that is not ASCII: p³ (superscript three) was a
    # traceback from int(); p٣ (Arabic-Indic three) was read as player 3.
    assert reasons["11.phh"] == "action 'p\u00b3 f': 'p\u00b3' is not a player"
    assert reasons["12.phh"] == "action 'p\u0663 f': 'p\u0663' is not a player"
    # 31 significant digits: Decimal's 28-digit arithmetic rounded the stack to a whole 100
    # chips and the hand was imported, the source's last digit dropped without a word.
    assert reasons["13.phh"] == "amounts are not whole chips at any scale up to 100"
    # Not a list: it was read as no names given (p1..p3) and the hand imported (QA)
    assert reasons["14.phh"] == "'players' is not a list of names"


def test_file_names_of_digits_that_are_not_ascii_sort_as_text(tmp_path: Path) -> None:
    """A hand's file name orders it (natural order: numbers by value, other names after
    them). A name of superscript digits (``\u00b2.phh``) counts as a digit for
    ``str.isdigit`` but not for ``int``, and stopped both importers with a traceback; it
    is a name like any other now, after the numbered files. (Three hands that differ in
    Cat's folded cards: the same record in two files is one hand saved twice.)"""
    folder = tmp_path / "s9"
    for name, cat in (("\u00b2.phh", "7h2c"), ("10.phh", "7h2d"), ("9.phh", "7h3c")):
        actions = tuple(a.replace("7h2c", cat) for a in SIMPLE)
        write(folder, name, phh(actions=actions, finishing=(106, 94, 100), hand=0))
    for engine in ("native", "python"):
        result = import_phh([folder], engine=engine)
        assert result.hands == 3 and not result.skipped
        hands = [e["hand_id"] for e in result.events if e["type"] == "hand_started"]
        assert [h.rsplit("#", 1)[1] for h in hands] == ["9", "10", "\u00b2"]


def test_import_is_deterministic_and_hash_chained(tmp_path: Path) -> None:
    folder = tmp_path / "chain"
    write(folder, "1.phh", phh(actions=SIMPLE, finishing=(106, 94, 100)))
    first = import_phh([folder]).events
    assert import_phh([folder]).events == first
    for previous, event in itertools.pairwise(first):
        assert event["prev_hash"] == event_hash(previous)
        assert event["seq"] == previous["seq"] + 1
    for event in first:
        assert uuid.UUID(event["event_id"]).version == 4


def test_cli_writes_jsonl_and_reports_skips(tmp_path: Path) -> None:
    folder = tmp_path / "cli"
    write(folder, "1.phh", phh(actions=SIMPLE, finishing=(106, 94, 100)))
    write(folder, "2.phh", phh(variant="F7S", finishing=(100, 100, 100)))
    target = tmp_path / "events.jsonl"
    outcome = CliRunner().invoke(import_app, ["phh", str(folder), "-o", str(target)])
    assert outcome.exit_code == 0, outcome.output
    lines = target.read_bytes().splitlines()
    assert next(orjson.loads(line)["type"] for line in lines) == "table_configured"
    assert "imported 1 hand(s)" in outcome.stderr
    assert "skipped 1 hand(s)" in outcome.stderr


def test_amounts_beyond_exact_json_integers_skip_their_hand(tmp_path: Path) -> None:
    """A bet of 21e925 chips (an exponent: the reference importer reads it) once stopped
    the import with a traceback, as orjson cannot write the integer; a bet of 2^53 chips
    was written into the events, which the intake then refused. Each skips its hand with
    the reason (2^53 - 1 is the largest integer JSON carries exactly); the clean hand of
    the same table imports and is ok."""
    folder = tmp_path / "huge"
    write(folder, "1.phh", phh(actions=(*SIMPLE[:7], "p1 cbr 21e925", "p2 f"),
                               finishing=(106, 94, 100)))
    write(folder, "2.phh", phh(actions=(*SIMPLE[:7], "p1 cbr 9007199254740992", "p2 f"),
                               finishing=(106, 94, 100), hand=2))
    write(folder, "3.phh", phh(actions=SIMPLE, finishing=(106, 94, 100), hand=3))
    target = tmp_path / "events.jsonl"
    outcome = CliRunner().invoke(import_app, ["phh", str(folder), "-o", str(target)])
    assert outcome.exit_code == 0, outcome.output
    result = import_phh([folder])
    assert result.hands == 1 and target.read_bytes() == result.jsonl()
    reasons = {Path(p).name: r for p, r in result.skipped}
    assert reasons == {
        "1.phh": "an amount of 2.1E+926 chips exceeds 9007199254740991, the largest exact "
                 "JSON integer",
        "2.phh": "an amount of 9007199254740992 chips exceeds 9007199254740991, the largest "
                 "exact JSON integer"}
    assert [r.status for r in adjudicate(result.events)] == ["ok"]


def test_names_the_contract_would_refuse_skip_their_hand(tmp_path: Path) -> None:
    """Player names and hand ids come from the source; the v1 contract takes 1 to 200
    characters of one line of text. A player named with a tab, with DEL or with the C1
    control U+0085 (raw, in a TOML literal string), a player named '' or with 201
    characters, and a hand in a folder whose name makes its id longer than 200 characters
    were once written into events the intake refused (every event of the hand
    dead-lettered). Each is now skipped with the reason; a player named with 200
    characters is a name like any other and imports ok."""
    folder = tmp_path / "names"
    cases = {"1.phh": "Ann\tB", "2.phh": "Ann\x7fB", "3.phh": "Ann\x85B", "4.phh": "",
             "5.phh": "A" * 201, "6.phh": "A" * 200}
    for file, name in cases.items():
        text = phh(players=("NAME", "Bob", "Cat"), actions=SIMPLE, finishing=(106, 94, 100),
                   hand=int(file[0]))
        write(folder, file, text.replace("NAME", name))
    long_folder = tmp_path / ("F" * 200)
    write(long_folder, "7.phh", phh(actions=SIMPLE, finishing=(106, 94, 100)))
    [(_, long_id)] = import_phh([long_folder]).skipped  # phh:<tmp_path's name>/FFF...F#7
    assert long_id.startswith("hand id 'phh:") and "'...: longer than 200 characters (" in long_id
    result = import_phh([folder])
    reasons = {Path(p).name: r for p, r in result.skipped}
    assert reasons == {
        "1.phh": "player name 'Ann\\tB': a control character (U+0009)",
        "2.phh": "player name 'Ann\\x7fB': a control character (U+007F)",
        "3.phh": "player name 'Ann\\x85B': a control character (U+0085)",
        "4.phh": "player name '': empty",
        "5.phh": f"player name '{'A' * 57}'...: longer than 200 characters (201)"}
    assert result.hands == 1
    [record] = adjudicate(result.events)
    assert record.status == "ok" and record.players is not None
    assert record.players["1"] == "A" * 200


def test_cli_fails_when_nothing_is_imported(tmp_path: Path) -> None:
    path = write(tmp_path / "none", "1.phh", phh(variant="FR", finishing=(100, 100, 100)))
    outcome = CliRunner().invoke(import_app, ["phh", str(path), "-o",
                                              str(tmp_path / "out.jsonl")])
    assert outcome.exit_code == 1


def test_seats_given_by_the_file(tmp_path: Path) -> None:
    """``seats = [2, 5, 7]``: Ann on seat 2 (small blind), Bob on 5, Cat on 7 (button)."""
    text = phh(actions=SIMPLE, finishing=(106, 94, 100), extra="seats = [2, 5, 7]\n")
    result = import_phh([write(tmp_path / "seated", "1.phh", text)])
    start = next(e["data"] for e in result.events if e["type"] == "hand_started")
    assert start["button"] == 7
    assert [(s["seat"], s["player_id"]) for s in start["seats"]] == [(2, "Ann"), (5, "Bob"),
                                                                     (7, "Cat")]
    assert [r.status for r in adjudicate(result.events)] == ["ok"]


def test_seats_out_of_clockwise_order_are_reported(tmp_path: Path) -> None:
    text = phh(actions=SIMPLE, finishing=(106, 94, 100), extra="seats = [5, 2, 7]\n")
    result = import_phh([write(tmp_path / "badseats", "1.phh", text)])
    assert result.hands == 0
    assert "clockwise" in result.skipped[0][1]


def test_a_folder_without_hand_histories_is_a_usage_error(tmp_path: Path) -> None:
    """It said "read 0 hand(s): 0 imported, 0 skipped" and exited 1, as if hands had been
    looked at; a wrong folder is a usage error saying what was looked for (QA,
    2026-12-06). The output is left as it was."""
    from tests.unit.cli.helpers import assert_one_line_usage_error, pitwatch

    empty = tmp_path / "histories"
    (empty / "sub").mkdir(parents=True)
    (empty / "sub" / "notes.txt").write_text("not a hand history", "utf-8")
    out = tmp_path / "out.jsonl"
    out.write_bytes(b"kept\n")
    ran = pitwatch("import", "phh", str(empty), "-o", str(out))
    assert_one_line_usage_error(ran, "found no .phh or .phhs file in", str(empty))
    assert out.read_bytes() == b"kept\n"


def test_a_stack_not_recorded_is_counted_under_its_own_words(tmp_path: Path) -> None:
    """A ``nan`` stack was counted as "not recorded (inf)" in the summary (QA)."""
    from tests.unit.cli.helpers import pitwatch

    folder = tmp_path / "odd"
    write(folder, "1.phh", phh(actions=SIMPLE, starting=(100, "nan", 100),
                               finishing=(106, 94, 100)))
    write(folder, "2.phh", phh(actions=SIMPLE, starting=(100, "inf", 100),
                               finishing=(106, 94, 100)))
    result = import_phh([folder])
    reasons = {Path(p).name: r for p, r in result.skipped}
    assert reasons["1.phh"].startswith("the starting stack of p2 is NaN (not recorded)")
    assert reasons["2.phh"].startswith("the starting stack of p2 is Infinity (not recorded)")
    ran = pitwatch("import", "phh", str(folder), "-o", str(tmp_path / "out.jsonl"))
    assert ("2 a starting stack not recorded (inf or nan): the chips at stake are unknown"
            in " ".join(ran.stderr.split())), ran.stderr


def test_a_file_that_is_not_utf8_says_so_in_words(tmp_path: Path) -> None:
    """The reason was Python's codec text ("'utf-8' codec can't decode byte 0xe9 ...")."""
    folder = tmp_path / "latin"
    folder.mkdir()
    text = phh(actions=SIMPLE, finishing=(106, 94, 100)).replace("Ann", "An\xe9")
    (folder / "1.phh").write_bytes(text.encode("latin-1"))
    offset = text.index("\xe9")
    [(_, why)] = import_phh([folder]).skipped
    assert why == (f"not UTF-8 text (byte 0xe9 at offset {offset:,}): PHH files are UTF-8; "
                   "save it as UTF-8")


def test_tables_in_different_chip_units_are_warned_of(tmp_path: Path) -> None:
    """QA: the default unit is each table's own, and 7 of the 92 Pluribus sessions came in
    half chips; the ledger then added half chips to whole ones in one player's balance.
    A half-chip session (the hand above: finishing 100.5) beside a whole one is imported
    with a warning naming the unit that makes them one (0.5, the finer); with
    ``--chip-unit 0.5`` both are in half chips and nothing is warned of."""
    actions = ("d dh p1 AsAd", "d dh p2 KcKd", "d dh p3 KhKs", "p3 cbr 4", "p1 f", "p2 cc",
               "d db 5c6d7s", "p2 cc", "p3 cc", "d db 8s", "p2 cc", "p3 cc", "d db 9c",
               "p2 cc", "p3 cc", "p2 sm KcKd", "p3 sm KhKs")
    write(tmp_path / "data" / "half", "1.phh",
          phh(actions=actions, finishing=(99, "100.5", "100.5")))
    write(tmp_path / "data" / "whole", "1.phh", phh(actions=actions, finishing=(99, 101, 100)))
    runner = CliRunner()
    out = tmp_path / "events.jsonl"
    ran = runner.invoke(import_app, ["phh", str(tmp_path / "data"), "-o", str(out)])
    assert ran.exit_code == 0, ran.output
    said = " ".join(ran.output.split())
    assert ("warning: the tables are in 2 different chip units (the source's unit, 1/2 of "
            "the source's unit (half chips)): a chip is not the same money at every table, "
            "and a ledger adds them together (balances, drop, rake); import with --chip-unit "
            "0.5 to count every table in one unit") in said
    ran = runner.invoke(import_app, ["phh", str(tmp_path / "data"), "-o", str(out),
                                     "--chip-unit", "0.5"])
    assert ran.exit_code == 0, ran.output
    assert "warning" not in ran.output
    assert "chip unit 1/2 of the source's unit (half chips) at 2 table(s)" in ran.output


def test_a_linked_folder_passed_over_is_said(tmp_path: Path) -> None:
    """QA: a folder of hands linked into the folder named was left out without a word
    (and, alone, gave "found no .phh file"). The import still does not follow it, and
    names it, in the summary and in the usage error."""
    import os

    from tests.unit.cli.helpers import assert_one_line_usage_error, pitwatch

    text = phh(actions=SIMPLE, finishing=(106, 94, 100))
    write(tmp_path / "kept" / "session", "1.phh", text)
    root = tmp_path / "data"
    write(root / "own", "1.phh", text)
    os.symlink(tmp_path / "kept" / "session", root / "linked")
    ran = CliRunner().invoke(import_app, ["phh", str(root), "-o", str(tmp_path / "o.jsonl")])
    assert ran.exit_code == 0, ran.output
    said = " ".join(ran.output.split())
    assert "read 1 hand(s): 1 imported" in said
    assert (f"warning: 1 link(s) to a folder passed over, not followed so that no file is "
            f"read twice: {root / 'linked'}; name a linked folder itself to import it") in said
    only_link = tmp_path / "only"
    only_link.mkdir()
    os.symlink(tmp_path / "kept" / "session", only_link / "linked")
    ran_cli = pitwatch("import", "phh", str(only_link), "-o", str(tmp_path / "p.jsonl"))
    assert_one_line_usage_error(ran_cli, "found no .phh or .phhs file in",
                                "1 link(s) to a folder passed over")
