"""The simulator's options: the floor's dealer pool, player styles and the injected
patterns with their truth labels (``services.simulator.options``, ``patterns``)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import msgspec
import orjson
import pytest
from typer.testing import CliRunner

from services.adjudicator.embedded import adjudicate_lines
from services.cli import app
from services.events.stream import DEFAULT_START, TableStream
from services.simulator.options import DealerPool, PatternSpec, SimulationOptions
from services.simulator.patterns import UnknownPatternError, parse_pattern, place_patterns
from services.simulator.poker_play import fixed_room
from services.simulator.run import simulate
from services.simulator.styles import STYLE_ORDER, style_for
from services.simulator.truth import TruthLabel, encode_label
from tests.profiles import HOUSE, PROFILES


def test_the_pool_never_puts_a_dealer_at_two_tables() -> None:
    """Eight dealers, six tables: at every half hour of a day the six dealers differ, and
    each dealer comes back to table 0 every eight shifts."""
    pool = DealerPool(8)
    stream = TableStream("T", __import__("random").Random(0))
    for shift in range(48):
        stream.clock = DEFAULT_START + timedelta(seconds=1800 * shift + 5)
        dealers = [pool.dealer(i, stream) for i in range(6)]
        assert len(set(dealers)) == 6
        assert dealers[0] == f"D{shift % 8 + 1:02d}"


def strip(events: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """An event without what a dealer id changes (the dealer, and so the hash chain)."""
    out = []
    for e in events:
        data = {k: v for k, v in e["data"].items() if k != "dealer_id"}
        out.append((e["event_id"], e["ts"], e["seq"], e["type"], orjson.dumps(data)))
    return out


def test_the_pool_changes_only_who_deals_at_holdem() -> None:
    """A hold'em log with a dealer pool is the log without one, event for event, but for
    the dealer ids (and the hashes that chain them): the pool draws no random number."""
    legacy = simulate(["holdem"], 2, 40, seed=5, profile=HOUSE)
    pooled = simulate(["holdem"], 2, 40, seed=5, profile=HOUSE,
                      options=SimulationOptions(dealers=3))
    assert strip(pooled.events) == strip(legacy.events)
    dealers = {e["data"]["dealer_id"] for e in pooled.events if e["type"] == "hand_started"}
    assert dealers <= {"D01", "D02", "D03"} and len(dealers) >= 2


def test_mixed_styles_give_a_five_handed_table_all_five() -> None:
    mixed = [style_for("mixed", p, 3) for p in range(5)]
    assert {s.name for s in mixed if s is not None} == set(STYLE_ORDER)
    assert style_for(None, 0, 0) is None
    maniac = style_for("maniac", 4, 1)
    assert maniac is not None and maniac.name == "maniac"


def test_patterns_are_parsed_and_placed() -> None:
    assert parse_pattern("soft_play=0.5") == PatternSpec("soft_play", 0.5)
    assert parse_pattern("dealer_drift") == PatternSpec("dealer_drift", 1.0)
    for bad in ("nothing=1", "soft_play=x", "soft_play=2"):
        with pytest.raises(UnknownPatternError):
            parse_pattern(bad)
    specs = (PatternSpec("soft_play", 1), PatternSpec("fold_dumping", 1),
             PatternSpec("sweetheart_overpay", 1))
    # Tables: hcf, holdem, hcf, holdem: each pattern on its own table while one is free.
    assert place_patterns(["hcf", "holdem", "hcf", "holdem"], specs) == {
        0: (specs[2],), 1: (specs[0],), 3: (specs[1],)}
    with pytest.raises(UnknownPatternError):
        place_patterns(["hcf"], (PatternSpec("soft_play", 1),))


@pytest.mark.parametrize("game", ["hcf", "holdem", "draw7a", "russian", "chinese"])
def test_sweetheart_overpays_are_labelled_and_only_they_are_mispaid(game: str) -> None:
    """In every game the friend's overpaid wins are labelled (players, dealer, strength)
    and each is a favourable MISPAY of one chip on the friend's seat; no other hand has a
    favourable MISPAY (the simulators' own faults are off)."""
    log = simulate([game], 1, 150, seed=2, profile=HOUSE, options=SimulationOptions(
        dealers=2, patterns=(PatternSpec("sweetheart_overpay", 1.0),)))
    labels = [t for t in log.truth if t.fault == "sweetheart_overpay"]
    assert labels, "the friend never won with the sweetheart dealer"
    assert {(t.players and t.players[0], t.dealer, t.strength) for t in labels} == {
        (labels[0].players[0] if labels[0].players else None, labels[0].dealer, 1.0)}
    records = [r for step in adjudicate_lines((orjson.dumps(e) for e in log.events),
                                              PROFILES) for r in step.records]
    favourable = {(r.hand_id, f.seat) for r in records for f in r.findings
                  if f.code == "MISPAY" and (f.amount or 0) > 0}
    assert favourable == {(t.hand_id, t.seat) for t in labels}
    amounts = {f.amount for r in records for f in r.findings
               if f.code == "MISPAY" and (f.amount or 0) > 0}
    assert amounts == {1}


@pytest.mark.parametrize(("game", "pattern", "styles"), [
    ("holdem", "soft_play", "tight"), ("holdem", "fold_dumping", "mixed"),
    ("draw7a", "showdown_dumping", "tight"), ("russian", "information_sharing", None),
    ("hcf", "stacked_deck", None), ("russian", "stacked_deck", None),
    ("chinese", "dealer_drift", None),
])
def test_every_pattern_labels_its_hands_with_its_cast(game: str, pattern: str,
                                                      styles: str | None) -> None:
    """(Soft play is labelled where a bet into the partner was held back: at a table of
    tight players, where pairs are often heads-up; so is a showdown dump, which acts only
    heads-up after the draw: at a mixed Draw table the loose players limp in and the pair
    is rarely alone late in the hand.)"""
    log = simulate([game], 1, 400, seed=3, profile=HOUSE, options=SimulationOptions(
        dealers=2, styles=styles, players=5, patterns=(PatternSpec(pattern, 0.5),)))
    labels = [t for t in log.truth if t.fault == pattern]
    assert labels
    assert all(t.strength == 0.5 and t.codes for t in labels)
    assert all(t.players or t.dealer for t in labels)


def test_a_fault_label_is_the_same_bytes_as_before_patterns() -> None:
    label = TruthLabel(table_id="T", hand_id="h", fault="mispay", codes=["MISPAY"], seat=2)
    assert encode_label(label) == (b'{"table_id":"T","hand_id":"h","fault":"mispay",'
                                   b'"codes":["MISPAY"],"seat":2,"detail":""}')
    pattern = TruthLabel(table_id="T", hand_id="h", fault="soft_play", codes=["SOFT_PLAY"],
                         players=["A", "B"], strength=1.0)
    assert msgspec.json.decode(encode_label(pattern), type=TruthLabel) == pattern


@pytest.mark.parametrize(("args", "says"), [
    (["--pattern", "bogus=1"], "unknown pattern 'bogus'"),
    (["--pattern", "soft_play=1"], "pattern soft_play needs a table of draw7a, holdem"),
    (["--dealers", "1", "--tables", "2"], "1 dealers cannot deal 2 tables at once"),
    (["--styles", "wild"], "unknown style 'wild'"),
])
def test_bad_options_are_one_line_usage_errors(tmp_path: Path, args: list[str],
                                               says: str) -> None:
    result = CliRunner().invoke(app, ["simulate", "--game", "hcf", "-o",
                                      str(tmp_path / "e.jsonl"), *args])
    assert result.exit_code == 2
    assert says in result.output
    assert "Traceback" not in result.output


def test_a_fixed_limit_dump_leaves_the_taker_a_bet_to_fold_to() -> None:
    """Fixed limit: four bets a round. Draw 7-A, big blind 4: 4 x (4 + 8) = 48 chips in
    all, less the last round's bet of 8 = 40 (10 big blinds); hold'em, big blind 2:
    4 x (2 + 2 + 4 + 4) = 48, less 4 = 44 (22 big blinds, room for the 10..12)."""
    assert fixed_room([4, 8], 4) == 40
    assert fixed_room([2, 2, 4, 4], 4) == 44


def test_fold_dumps_at_fixed_limit_draw_complete_at_the_strength() -> None:
    """The host Draw 7-A table (the first: fixed limit, big blind 4) can hold 12 big
    blinds per player, so every dump folds exactly 10 (40 chips) to the taker; a dump
    another player's raise spoiled is tried again on the next hand, so the completed
    dumps are near the strength's share of the 600 hands (30; 20 with this seed, 7
    before the fix), not the 0.4% of hands
    that completed when the target was drawn from 10..12 and never retried."""
    log = simulate(["draw7a"], 1, 600, seed=5, profile=HOUSE, options=SimulationOptions(
        dealers=2, styles="mixed", players=5, patterns=(PatternSpec("fold_dumping", 0.05),)))
    labels = [t for t in log.truth if t.fault == "fold_dumping"]
    assert len(labels) >= 20
    assert all(" folds 40 chips to seat " in t.detail for t in labels)
