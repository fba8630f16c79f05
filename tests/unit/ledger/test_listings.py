"""Ledger listings: players in natural order, each once, and every listing as a table,
JSON or CSV (``--format``).

The ledger here: ``hcf_seat1_wins`` with seat 1 = P0-10, seat 3 = P0-2 (P0-10 +9, P0-2
-10, house:rake +1, builders.py) and ``hcf_dp_collects`` with seat 2 = P0-9, seat 3 = P0-2
(P0-9 -5, P0-2 +3, house:rake +2). So P0-2 = -10 + 3 = -7, P0-9 = -5, P0-10 = +9,
house:rake = 3, the two layouts 0; total 0. Text order would put P0-10 before P0-2."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from services.ledger.cli import ledger_app
from services.ledger.db import open_ledger
from services.ledger.listing import Column, Listing, natural_key
from services.ledger.posting import post_many
from tests.unit.ledger.builders import hcf_dp_collects, hcf_seat1_wins, record

runner = CliRunner()


@pytest.fixture
def db(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path}/ledger.sqlite"
    engine = open_ledger(url)
    one = hcf_seat1_wins()
    two = hcf_dp_collects()
    post_many(engine, [
        record(one.hand_id, one.movements, players={"1": "P0-10", "3": "P0-2"}),
        record(two.hand_id, two.movements, players={"2": "P0-9", "3": "P0-2"},
               rake_mode="designated"),
    ])
    engine.dispose()
    return url


def _out(args: list[str]) -> str:
    result = runner.invoke(ledger_app, args)
    assert result.exit_code == 0, result.output
    return result.stdout


def test_natural_key_orders_numbers_by_value() -> None:
    names = ["P0-10", "P0-2", "P1-1", "P0-1", "T10", "T9", "P07", "P7"]
    assert sorted(names, key=natural_key) == [
        "P0-1", "P0-2", "P0-10", "P1-1", "P07", "P7", "T9", "T10"]


def test_natural_key_reads_ascii_digits_as_numbers_and_other_digits_as_text() -> None:
    """An id is text from the table's events. ``1\u00b2`` (a superscript two) stopped a
    listing with a traceback (``str.isdigit`` took it, ``int`` refused it); ``P\u0663``
    (Arabic-Indic three) sorted as P3. Only ASCII digits are numbers now."""
    names = ["P10", "P\u0663", "1\u00b2", "P2", "\u00b2"]
    assert sorted(names, key=natural_key) == ["P2", "P10", "P\u0663", "\u00b2", "1\u00b2"]


def test_csv_text_that_starts_like_a_formula_gets_a_quote_and_numbers_do_not() -> None:
    listing = Listing("t", [Column("text"), Column("chips", chips=True)], rows=[
        ("=1+2", -500), ("+x", 0), ("-x", 1), ("@SUM(A1)", 2), ("\tx", 3), ("\rx", 4),
        ("plain", None), ("a=b", 5)])
    assert list(csv.reader(io.StringIO(listing.csv(), newline=""))) == [
        ["text", "chips"], ["'=1+2", "-500"], ["'+x", "0"], ["'-x", "1"], ["'@SUM(A1)", "2"],
        ["'\tx", "3"], ["'\rx", "4"], ["plain", ""], ["a=b", "5"]]
    assert listing.records()[0] == {"text": "=1+2", "chips": -500}  # JSON: as typed


def test_balances_table_lists_players_naturally_and_once(db: str) -> None:
    lines = _out(["balances", "--db", db]).splitlines()
    players = [line.split("│")[1].strip() for line in lines if "│ P0-" in line]
    assert players == ["P0-2", "P0-9", "P0-10"]  # once each, P0-2 before P0-10
    assert not any("player:P0-" in line for line in lines)  # not again as accounts
    summary = next(line for line in lines if "players (3, listed above)" in line)
    assert summary.rstrip(" │").endswith(" -3")  # -7 - 5 + 9
    assert any("house:rake" in line and line.rstrip(" │").endswith(" 3") for line in lines)
    assert any("total" in line and line.rstrip(" │").endswith(" 0") for line in lines)


def test_balances_json(db: str) -> None:
    value = json.loads(_out(["balances", "--db", db, "--format", "json"]))
    assert value["players"] == [{"player": "P0-2", "balance": -7},
                                {"player": "P0-9", "balance": -5},
                                {"player": "P0-10", "balance": 9}]
    accounts = {a["account"]: a["balance"] for a in value["accounts"]}
    assert accounts == {"house:rake": 3, "layout:T1:1": 0, "layout:T1:2": 0}
    assert value["total"] == 0


def test_balances_csv_has_every_account_once(db: str) -> None:
    rows = list(csv.DictReader(io.StringIO(_out(["balances", "--db", db, "--format",
                                                 "csv"]))))
    assert [r["account"] for r in rows] == [
        "house:rake", "layout:T1:1", "layout:T1:2", "player:P0-2", "player:P0-9",
        "player:P0-10"]
    assert {r["account"]: int(r["balance"]) for r in rows}["player:P0-2"] == -7
    assert sum(int(r["balance"]) for r in rows) == 0


def test_players_only_as_json(db: str) -> None:
    value = json.loads(_out(["balances", "--db", db, "--players", "--format", "json"]))
    assert list(value) == ["players"] and len(value["players"]) == 3


def test_rake_and_totals_as_json_and_csv(db: str) -> None:
    """Rake 1 (mode players, hand 1) and 2 (designated, hand 2) at T1 on 2024-05-01;
    drop 5 + 5 + 5 = 15, payouts 10, rake 3, house bank 0."""
    rake = json.loads(_out(["rake", "--db", db, "--format", "json"]))
    assert rake == [
        {"table": "T1", "day": "2024-05-01", "mode": "designated", "hands": 1, "rake": 2},
        {"table": "T1", "day": "2024-05-01", "mode": "players", "hands": 1, "rake": 1}]
    totals = list(csv.reader(io.StringIO(_out(["totals", "--db", db, "--format", "csv"]))))
    # house win: rake 3 + house bank 0, the daily report's win (it was the bank alone, QA)
    assert totals == [["table", "day", "hands", "drop", "payouts", "rake", "house bank",
                       "house win"],
                      ["T1", "2024-05-01", "2", "15", "10", "3", "0", "3"]]


def test_hand_as_json_and_csv(db: str) -> None:
    value = json.loads(_out(["hand", "T1-000002", "--db", db, "--format", "json"]))
    assert value["hand_id"] == "T1-000002" and value["ledger_status"] == "posted"
    # per event (seq 11, 12, 13), leg 0 the source, leg 1 the target
    assert [(p["account"], p["amount"]) for p in value["postings"]] == [
        ("player:P0-9", -5), ("layout:T1:2", 5), ("layout:T1:2", -5), ("player:P0-2", 5),
        ("player:P0-2", -2), ("house:rake", 2)]
    postings = list(csv.DictReader(io.StringIO(_out(["hand", "T1-000002", "--db", db,
                                                     "--format", "csv"]))))
    assert sum(int(p["amount"]) for p in postings) == 0 and len(postings) == 6


def test_unknown_format_is_a_usage_error(db: str) -> None:
    assert runner.invoke(ledger_app, ["rake", "--db", db, "--format", "xml"]).exit_code == 2
