"""Five Card Draw 7-A betting on the shared engine: the deck the player count requires
(FCD-1), the blinds (FCD-3) and the bet sizes of the two rounds (FCD-5, FCD-7, FCD-8).

Everything draw-specific about betting is configuration of ``services.games.betting``.
"""

from __future__ import annotations

from services.events.contract import TableConfigured
from services.games.betting import BettingConfig, RoundSpec, RuleIds
from services.games.draw7a.profile import Draw7aProfile
from services.games.model import HandRejected


def required_deck(players: int, prof: Draw7aProfile) -> int:
    """FCD-1: 32 cards; the four sixes are added when exactly five are dealt in."""
    return prof.deck_size + 4 if players == prof.sixes_added_with_players else prof.deck_size


def betting_config(config: TableConfigured, prof: Draw7aProfile) -> BettingConfig:
    """The table's posted structure, blinds and bet sizes as engine configuration.

    FCD-3: the big blind is the minimum bet (``limits.big_blind``, else ``small_bet``,
    else ``min_wager``); the small blind is posted or a fraction of the big blind.
    FCD-8: in fixed limit the small bet (= big blind unless posted) before the draw and
    the big bet (posted, or ``big_bet_multiple`` small bets) after it; in pot and no limit
    the big blind is the minimum bet of both rounds.
    """
    if config.structure is None:
        raise HandRejected("FCD-2", "the table configuration posts no betting structure")
    limits = config.limits
    big_blind = _first_set(limits.big_blind, limits.small_bet, limits.min_wager)
    small_blind = (limits.small_blind if limits.small_blind is not None else
                   big_blind * prof.small_blind_numerator // prof.small_blind_denominator)
    small_bet = _first_set(limits.small_bet, big_blind)
    big_bet = _first_set(limits.big_bet, small_bet * prof.big_bet_multiple)
    before, after = (small_bet, big_bet) if config.structure == "fixed" else (
        big_blind, big_blind)
    return BettingConfig(
        structure=config.structure,
        rounds=(RoundSpec("before the draw", before, "FCD-5"),
                RoundSpec("after the draw", after, "FCD-7")),
        small_blind=small_blind,
        big_blind=big_blind,
        ante=0,
        first_round_blinds=True,
        max_bets_per_round=prof.max_bets_per_round,
        big_blind_counts_as_bet=prof.big_blind_counts_as_bet,
        pot_limit_reading=prof.pot_limit_reading,
        rules=RuleIds(blinds="FCD-3", sizes="FCD-8", stakes="GEN-2"),
    )


def _first_set(*values: int | None) -> int:
    return next(v for v in values if v is not None)
