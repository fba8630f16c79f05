"""Invariants, over generated hands: chips are conserved (GEN-8), dead money changes only
who can win it, and a fault-free simulated table is settled exactly as it paid."""

from __future__ import annotations

import random

import orjson
from hypothesis import given, settings
from hypothesis import strategies as st

from services.adjudicator.embedded import adjudicate_lines
from services.events.stream import TableStream
from services.games.betting import RakePolicy, settle
from services.games.holdem.settlement import settle_with_dead_money
from services.simulator.holdem import simulate_table
from tests.profiles import HOUSE, PROFILES

SEATS = [1, 2, 3, 4, 5, 6]


PotGame = tuple[dict[int, int], dict[int, int], frozenset[int], dict[int, int | None], int,
                RakePolicy]


@st.composite
def pot_games(draw: st.DrawFn) -> PotGame:
    seats = draw(st.lists(st.sampled_from(SEATS), min_size=2, max_size=6, unique=True))
    contributions = {s: draw(st.integers(0, 500)) for s in seats}
    dead = {s: draw(st.integers(0, contributions[s])) for s in seats if draw(st.booleans())}
    folded = frozenset(s for s in seats if draw(st.booleans()))
    if folded == frozenset(seats):
        folded = frozenset(seats[1:])
    strengths: dict[int, int | None] = {
        s: draw(st.one_of(st.none(), st.integers(0, 20))) for s in seats if s not in folded}
    button = draw(st.sampled_from(SEATS))
    mode = draw(st.sampled_from(["none", "all", "players", "designated"]))
    rake = RakePolicy(mode, draw(st.integers(0, 3)), draw(st.booleans()), "pot",  # type: ignore[arg-type]
                      all_charges_button=draw(st.booleans()))
    return contributions, dead, folded, strengths, button, rake


@given(pot_games())
@settings(max_examples=300, deadline=None)
def test_dead_money_settlement_conserves_chips(game: tuple) -> None:  # type: ignore[type-arg]
    """GEN-8: what the seats get back plus the rake is exactly what they put in."""
    contributions, dead, folded, strengths, button, rake = game
    result = settle_with_dead_money(contributions, dead, folded, strengths, button, rake)
    assert sum(result.net.values()) + result.house == 0
    assert all(v >= 0 for v in result.rake.values())
    for seat, net in result.net.items():
        assert net >= -contributions[seat]  # nobody loses more than it put in


@given(pot_games(), st.lists(st.integers(0, 50), min_size=6, max_size=6))
@settings(max_examples=300, deadline=None)
def test_rake_from_the_stacks_conserves_chips_and_never_overdraws(
        game: PotGame, behind: list[int]) -> None:
    """GEN-8 / GEN-10 ``fee_from = "stack"``: chips conserved, and no seat pays rake
    it does not hold: it ends with at least nothing (net >= -(put in + chips behind))."""
    contributions, dead, folded, strengths, button, rake = game
    from_stack = RakePolicy(rake.mode, rake.fee, rake.designated_counts_button, "stack",
                            all_charges_button=rake.all_charges_button)
    left = {seat: behind[i] for i, seat in enumerate(sorted(contributions))}
    result = settle_with_dead_money(contributions, dead, folded, strengths, button,
                                    from_stack, left)
    assert sum(result.net.values()) + result.house == 0
    for seat, net in result.net.items():
        assert net >= -(contributions[seat] + left[seat])
    without = settle_with_dead_money(contributions, dead, folded, strengths, button,
                                     RakePolicy("none", 0, True, "stack"), left)
    for seat, net in result.net.items():  # the rake is the only difference
        assert without.net[seat] - net == result.rake.get(seat, 0)


@given(pot_games())
@settings(max_examples=200, deadline=None)
def test_no_dead_money_is_the_engine_settlement(game: tuple) -> None:  # type: ignore[type-arg]
    contributions, _, folded, strengths, button, rake = game
    ours = settle_with_dead_money(contributions, {}, folded, strengths, button, rake)
    engine = settle(contributions, folded, strengths, button, rake)
    assert ours.net == engine.net
    assert ours.rake == engine.rake


@given(seed=st.integers(0, 10**6), table_index=st.integers(0, 11))
@settings(max_examples=12, deadline=None)
def test_fault_free_tables_are_settled_as_paid(seed: int, table_index: int) -> None:
    """Any fault-free simulated table: every hand's expected side equals the recorded
    side and sums to zero (chips conserved), whatever the structure, blinds, antes and
    rake mode of the table."""
    stream = TableStream("TP", random.Random(seed))
    labels = simulate_table(stream, 15, random.Random(seed), frozenset(), 0.0, table_index, HOUSE)
    assert labels == []
    lines = [orjson.dumps(e) for e in stream.events]
    records = [r for step in adjudicate_lines(lines, PROFILES) for r in step.records]
    assert len(records) == 15
    for record in records:
        assert record.status in ("ok", "dead"), record.findings
        assert record.expected is not None and record.recorded is not None
        assert sum(record.expected.net.values()) == 0
        assert record.expected.net == record.recorded.net
