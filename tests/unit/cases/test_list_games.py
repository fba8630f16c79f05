"""``cases list --game`` takes the games' names and refuses others (QA: ``--game poker``
and ``--game HCF`` listed "Cases (0)" and exit 0, as if the queue were clear, where the
README makes an unknown game exit 2 and ``--severity CRITICAL`` is refused)."""

from __future__ import annotations

from pathlib import Path

import orjson

from tests.unit.cases.test_cases import _one_case
from tests.unit.cli.helpers import assert_one_line_usage_error, pitwatch

# Written out by hand, as the README names them (not read from the code under test).
NAMES = "hcf, chinese, draw7a, russian, holdem"


def test_a_game_is_one_of_the_games_names_as_written(tmp_path: Path) -> None:
    url, _ = _one_case(tmp_path)
    for game in ("poker", "HCF", "Hcf", "hcf ", "texas"):
        ran = pitwatch("cases", "list", "--game", game, "--db", url, "--format", "json")
        assert_one_line_usage_error(ran, "--game", repr(game), NAMES)
    # The test ledger's hands are all High Card Flush: its two hand cases and the dealer's.
    listed = pitwatch("cases", "list", "--game", "hcf", "--db", url, "--format", "json")
    assert listed.code == 0, listed.stderr
    assert sorted(c["subject"] for c in orjson.loads(listed.stdout)) == [
        "dealer:D7", "hand:T1-000001", "hand:T1-000003"]
    none = pitwatch("cases", "list", "--game", "holdem", "--db", url, "--format", "json")
    assert (none.code, orjson.loads(none.stdout)) == (0, [])
    blank = pitwatch("cases", "list", "--game", " ", "--db", url)
    assert_one_line_usage_error(blank, "--game", "an empty value matches no case")
