"""Betting structures and the per-game configuration of the betting engine.

The engine is shared by Five Card Draw (two betting rounds) and Texas Hold'em (four), so
everything that differs between games is data here: how many rounds, the bet unit of each
round, the blinds and antes, the fixed-limit cap, the pot-limit reading, and the rule IDs
a violation cites (``FCD-5`` for Draw's first round, ``TH-1`` for Hold'em ...). The engine
itself never names a game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from services.games.pot_sections import PotLimitReading

Structure = Literal["fixed", "pot", "no"]


@dataclass(frozen=True)
class RoundSpec:
    """One betting round.

    ``bet_unit``: fixed limit, the size of every bet and raise in this round (small bet
    before the draw / on the flop, big bet after); pot and no limit, the minimum opening
    bet (the big blind). ``order_rule``: the rule cited when the round's order of action
    is broken (out of turn, a check facing a bet, the round closed early).
    """

    name: str
    bet_unit: int
    order_rule: str


@dataclass(frozen=True)
class RuleIds:
    """Rule IDs cited by violations that are not about the order of one round."""

    blinds: str  # who posts which blind or ante, and how much (FCD-3)
    sizes: str  # bet and raise sizes, the cap, reopening (FCD-8)
    stakes: str  # table stakes: chips beyond the stack (GEN-2)


@dataclass(frozen=True)
class BettingConfig:
    """Everything the engine needs to know about a table's betting.

    ``first_round_blinds``: the first round opens with the blinds (Draw, Hold'em); the
    first to act is then the player left of the big blind (FCD-5) and the big blind has
    the option. ``big_blind_counts_as_bet``: the big blind is the first of the
    ``max_bets_per_round`` bets of the first round in fixed limit (FCD-8).
    """

    structure: Structure
    rounds: tuple[RoundSpec, ...]
    small_blind: int
    big_blind: int
    ante: int
    first_round_blinds: bool
    max_bets_per_round: int
    big_blind_counts_as_bet: bool
    pot_limit_reading: PotLimitReading
    rules: RuleIds

    def __post_init__(self) -> None:
        if not self.rounds:
            raise ValueError("a betting configuration needs at least one round")
        if min(self.small_blind, self.big_blind, self.ante) < 0:
            raise ValueError("blinds and antes are never negative")
        if self.max_bets_per_round < 1:
            raise ValueError("the fixed-limit cap allows at least one bet")
