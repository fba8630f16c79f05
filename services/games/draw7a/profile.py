"""Section ``draw7a`` of a rule profile: every number and reading of FCD-1..11 as data.

The struct has no defaults on purpose (``services.games.profile``): a value missing from
``profiles/<name>/draw7a.toml`` is a load error, never a constant quietly taken from code.
"""

from typing import Annotated, Literal

import msgspec

from services.events.contract import Severity
from services.games.pot_sections import BettingSeverities, PotGameRake, PotLimitReading
from services.games.profile import MAX_MULTIPLE, Multiple

SECTION = "draw7a"
HAND_SIZE = 5  # FCD-4
LARGEST_DECK = 36  # FCD-1: 7 through Ace and the four sixes
Players = Annotated[int, msgspec.Meta(ge=2, le=LARGEST_DECK // HAND_SIZE)]  # five cards each


class Draw7aSeverities(msgspec.Struct, forbid_unknown_fields=True):
    """Severities of the game's own findings (the betting ones are in BettingSeverities)."""

    wrong_deck: Severity  # FCD-1
    player_count: Severity  # FCD-1
    blind_after_deal: Severity  # FCD-3
    deal_order: Severity  # FCD-4
    wrong_card_count: Severity  # FCD-4
    draw_order: Severity  # FCD-6
    draw_size: Severity  # FCD-6
    discard_not_held: Severity  # FCD-6
    draw_by_inactive: Severity  # FCD-6
    draw_twice: Severity  # FCD-6
    draw_out_of_phase: Severity  # FCD-6
    draw_not_recorded: Severity  # FCD-6
    reshuffle_not_discards: Severity  # FCD-6
    early_reshuffle: Severity  # FCD-6
    showdown_order: Severity  # FCD-9
    shown_cards_mismatch: Severity  # FCD-9 / GEN-1
    unexpected_action: Severity  # FCD-2


class Draw7aProfile(msgspec.Struct, forbid_unknown_fields=True):
    """Section ``draw7a`` of a rule profile: every number and reading of FCD-1..11."""

    min_players: Players  # FCD-1
    max_players: Players  # FCD-1
    # FCD-1: 7 through Ace (32); the short-deck ranking (FCD-10) knows 32 and 36 cards only
    deck_size: Literal[32, 36]
    # FCD-1: exactly this many dealt in -> the sixes added (32 + 4 = 36 cards); 0 never
    # (a house dealing 36 cards at every count: deck_size = 36)
    sixes_added_with_players: Annotated[int, msgspec.Meta(ge=0, le=LARGEST_DECK // HAND_SIZE)]
    # FCD-3: small blind = big blind * num / den (rounded down) unless the table posts
    # small_blind: a part of the big blind, never nothing, never more than it.
    small_blind_numerator: Annotated[int, msgspec.Meta(ge=1, le=MAX_MULTIPLE)]
    small_blind_denominator: Annotated[int, msgspec.Meta(ge=1, le=MAX_MULTIPLE)]
    big_bet_multiple: Multiple  # FCD-8: big bet = small bet * this, unless posted
    max_bets_per_round: Multiple  # FCD-8: bet, raise, re-raise, cap
    big_blind_counts_as_bet: bool  # FCD-8
    pot_limit_reading: PotLimitReading  # FCD-8
    max_discard: Annotated[int, msgspec.Meta(ge=0, le=HAND_SIZE)]  # FCD-6: 0 to 5
    rank_with_deck: Literal["dealt", "required"]  # FCD-10 when the deck was wrong
    irregular_hand_dead: bool  # a hand not of five cards at showdown cannot win
    rake: PotGameRake  # GEN-10: the readings of the posted rake ([rake])
    severity: Draw7aSeverities
    betting_severity: BettingSeverities

    def __post_init__(self) -> None:
        """What the types cannot say (a profile is read once, before any hand)."""
        if self.min_players > self.max_players:
            raise ValueError(f"min_players = {self.min_players} is more than max_players = "
                             f"{self.max_players}: no hand could have a legal player count")
        self._check_deck_per_player_count()
        if self.small_blind_numerator > self.small_blind_denominator:
            raise ValueError(f"small blind {self.small_blind_numerator}/"
                             f"{self.small_blind_denominator} of the big blind is more than "
                             "the big blind (FCD-3: the small blind is a part of it)")

    def _check_deck_per_player_count(self) -> None:
        """FCD-1: every legal player count must have a deck that exists and deals them all.
        The sixes on top of 36 cards asked for 40, which no deck holds, and 6 or 7 players
        from 32 cards were short of cards to deal: every such hand was a deck finding
        against the dealer. ``sixes_added_with_players = 0`` (or any count outside
        min..max_players) adds the sixes never."""
        for players in range(self.min_players, self.max_players + 1):
            sixes = players == self.sixes_added_with_players
            deck = self.deck_size + 4 if sixes else self.deck_size
            if deck > LARGEST_DECK:
                raise ValueError(
                    f"deck_size = {self.deck_size} already holds the sixes, so "
                    f"sixes_added_with_players = {self.sixes_added_with_players} would ask "
                    f"for {deck} cards (FCD-1: 7 to Ace and the sixes are {LARGEST_DECK}); "
                    "set deck_size = 32, or sixes_added_with_players = 0 to never add them")
            if deck < HAND_SIZE * players:
                raise ValueError(
                    f"{players} players need {HAND_SIZE * players} cards and the deck for "
                    f"them holds {deck} (FCD-1, FCD-4): lower max_players, or add the "
                    f"sixes at {players} players (sixes_added_with_players)")
