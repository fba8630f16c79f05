"""The engine is game-agnostic: a Hold'em-like table with four rounds, per-round bet
units (small bet pre-flop and flop, big bet turn and river), antes and blinds."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from services.games.betting import (
    BettingConfig,
    BettingHand,
    RakePolicy,
    RoundOverError,
    RoundSpec,
    RuleIds,
    Structure,
    settle,
)
from tests.unit.betting.generator import play_random_legal_hand
from tests.unit.betting.helpers import kinds, play


def holdem(structure: Structure, ante: int = 0) -> BettingConfig:
    return BettingConfig(
        structure=structure,
        rounds=(RoundSpec("pre-flop", 2, "TH-1"), RoundSpec("flop", 2, "TH-1"),
                RoundSpec("turn", 4, "TH-1"), RoundSpec("river", 4, "TH-1")),
        small_blind=1, big_blind=2, ante=ante, first_round_blinds=True,
        max_bets_per_round=4, big_blind_counts_as_bet=True,
        pot_limit_reading="raise_by_pot_after_call",
        rules=RuleIds(blinds="TH-1", sizes="FCD-8", stakes="GEN-2"))


def test_fixed_limit_units_per_round_and_rule_ids_are_the_games() -> None:
    """Button 1, SB 2, BB 3. Pre-flop and flop bets are 2, turn and river 4. A bet of 2 on
    the turn is the wrong amount; out-of-turn cites the game's TH-1."""
    hand = BettingHand(holdem("fixed"), {1: 100, 2: 100, 3: 100}, 1)
    for owed in hand.owed_posts():
        hand.apply(owed.seat, owed.kind, owed.amount)
    assert play(hand, [(1, "call", 2), (2, "call", 1), (3, "check", None)]) == []
    hand.next_round()
    assert play(hand, [(2, "bet", 2), (3, "call", 2), (1, "call", 2)]) == []
    hand.next_round()
    found = play(hand, [(2, "bet", 2)])
    assert kinds(found) == ["wrong_limit_amount"] and found[0].amount == -2
    found = hand.apply(1, "call", 2)
    assert kinds(found) == ["out_of_turn"] and found[0].rule == "TH-1"
    hand.next_round()
    hand.close_round()
    with pytest.raises(RoundOverError):
        hand.next_round()


@settings(max_examples=100, deadline=None)
@given(structure=st.sampled_from(["fixed", "pot", "no"]), ante=st.integers(0, 2),
       stacks=st.lists(st.integers(0, 80), min_size=2, max_size=9), data=st.data())
def test_random_legal_four_round_hands(structure: Structure, ante: int, stacks: list[int],
                                       data: st.DataObject) -> None:
    """Random legal play through four rounds: no violation, chips conserved."""
    seat_stacks = {i + 1: s for i, s in enumerate(stacks)}
    button = data.draw(st.sampled_from(sorted(seat_stacks)))
    hand, rounds = play_random_legal_hand(holdem(structure, ante), seat_stacks, button,
                                          lambda n: data.draw(st.integers(0, n - 1)))
    assert hand.violations == []
    assert len(rounds) <= 4
    result = settle(hand.contributions(), hand.folded(),
                    {s: data.draw(st.integers(0, 5)) for s in hand.active()}, button,
                    RakePolicy("all", 1, True, "stack"), hand.stacks_left())
    assert sum(result.net.values()) + result.house == 0
