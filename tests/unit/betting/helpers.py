"""Shared builders for the betting-engine tests: a Draw-like two-round table."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from services.games.betting import (
    BettingConfig,
    BettingHand,
    PotLimitReading,
    RoundSpec,
    RuleIds,
    Structure,
    Violation,
)

RULES = RuleIds(blinds="FCD-3", sizes="FCD-8", stakes="GEN-2")

Step = tuple[int, str, int | None]


def config(
    structure: Structure,
    small_blind: int = 1,
    big_blind: int = 2,
    small_bet: int = 2,
    big_bet: int = 4,
    ante: int = 0,
    cap: int = 4,
    reading: PotLimitReading = "raise_by_pot_after_call",
) -> BettingConfig:
    """Two rounds (pre-draw FCD-5, post-draw FCD-7); fixed limit uses small/big bet,
    pot and no limit use the big blind as the minimum bet in both rounds."""
    units = (small_bet, big_bet) if structure == "fixed" else (big_blind, big_blind)
    return BettingConfig(
        structure=structure,
        rounds=(RoundSpec("pre-draw", units[0], "FCD-5"),
                RoundSpec("post-draw", units[1], "FCD-7")),
        small_blind=small_blind,
        big_blind=big_blind,
        ante=ante,
        first_round_blinds=True,
        max_bets_per_round=cap,
        big_blind_counts_as_bet=True,
        pot_limit_reading=reading,
        rules=RULES,
    )


def new_hand(cfg: BettingConfig, stacks: Mapping[int, int], button: int,
             post_blinds: bool = True) -> BettingHand:
    hand = BettingHand(cfg, stacks, button)
    if post_blinds:
        for owed in hand.owed_posts():
            assert hand.apply(owed.seat, owed.kind, owed.amount) == []
    return hand


def play(hand: BettingHand, steps: Iterable[Step]) -> list[Violation]:
    found: list[Violation] = []
    for seat, kind, amount in steps:
        found += hand.apply(seat, kind, amount)
    return found


def kinds(violations: Iterable[Violation]) -> list[str]:
    return [v.kind for v in violations]
