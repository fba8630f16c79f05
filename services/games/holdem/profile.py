"""Section ``holdem`` of a rule profile: every number and reading of TH-1..9 as data.

The game module declares the struct with no defaults so a value missing from the posted
profile is a load error, never a constant hidden in code (``services.games.profile``).
"""

from typing import Annotated, Literal

import msgspec

from services.events.bounds import MAX_SAFE_INTEGER
from services.events.contract import Severity
from services.games.pot_sections import BettingSeverities, PotGameRake, PotLimitReading
from services.games.profile import MAX_MULTIPLE, Multiple

SECTION = "holdem"
FIVE = 5  # TH-2: a hand is the best five cards of the hole cards and the board
Cards = Annotated[int, msgspec.Meta(ge=1, le=FIVE)]


class HoldemSeverities(msgspec.Struct, forbid_unknown_fields=True):
    """Severities of the game's own findings (the betting ones are in BettingSeverities)."""

    wrong_deck: Severity  # TH-9: one standard 52-card deck
    deal_order: Severity  # TH-1: hole cards clockwise from the button's left, one at a time
    wrong_card_count: Severity  # TH-1: two hole cards each
    blind_after_deal: Severity  # TH-1: blinds and antes before the deal
    missing_burn: Severity  # TH-1 / TH-6: a burn due before a street was not made
    extra_burn: Severity  # TH-1 / TH-3 / TH-5 / TH-6 / TH-7: a burn that was not due
    board_card_count: Severity  # TH-1: 3 + 1 + 1 board cards
    board_dealt_early: Severity  # TH-1: a board card before the betting round completed
    unexpected_action: Severity  # TH-1: an action that is not hold'em betting
    misdeal_required: Severity  # TH-3 / TH-7: play went on after a misdeal was required
    misdeal_not_required: Severity  # TH-3 / TH-7: misdeal declared where the deal goes on
    exposed_card_not_replaced: Severity  # TH-3: the exposed card was kept
    exposed_card_replaced_early: Severity  # TH-3: replaced before the deal was completed
    exposed_card_not_burned: Severity  # TH-3: the exposed card was not the next burn
    flop_not_redealt: Severity  # TH-4 / TH-5: a flop that had to be redealt was kept
    redeal_not_reshuffled: Severity  # TH-5: the flop cards did not go back into the stub
    burn_not_kept: Severity  # TH-5 / TH-6: the burn card went back into the stub
    premature_turn_not_set_aside: Severity  # TH-6: the premature turn card stayed in play
    set_aside_not_reshuffled: Severity  # TH-6: the set-aside card not shuffled back in time
    extra_card_not_burned: Severity  # TH-7: the extra hole card was kept or not the burn
    showdown_order: Severity  # TH-9 (FCD-9)
    shown_cards_mismatch: Severity  # TH-9: the cards shown are not the cards dealt
    board_declared_late: Severity  # TH-8: declared playing the board after mucking
    wrong_card_removed: Severity  # TH-3 / TH-7: a card taken from a seat that was not the one
    card_to_dealer: Severity  # TH-1: hold'em deals no dealer hand
    # TH-9: a contender's cards are unknown (an imported record): who won cannot be said;
    # at "info" the hand is "unverified" when nothing else is wrong.
    showdown_unknown: Severity


class HoldemProfile(msgspec.Struct, forbid_unknown_fields=True):
    """Every number and reading of rules.md TH-1..9 for one posted profile."""

    hole_cards: Cards  # TH-1: two hole cards each
    flop_cards: Cards  # TH-1: a three-card flop
    board_cards: Cards  # TH-1: flop + turn + river
    # TH-9: one standard 52-card deck: the deck the hands must declare; another is a
    # WRONG_DECK finding on each hand, never a ranking, so the profile may post another
    # (the differential suites post 53, which no hand declares); never no cards, nor a
    # number the native core cannot hold.
    deck_size: Annotated[int, msgspec.Meta(ge=1, le=MAX_SAFE_INTEGER)]
    # TH-1 blinds: small blind = big blind * num / den (rounded down) unless posted: a
    # part of the big blind, never nothing, never more than it (FCD-3).
    small_blind_numerator: Annotated[int, msgspec.Meta(ge=1, le=MAX_MULTIPLE)]
    small_blind_denominator: Annotated[int, msgspec.Meta(ge=1, le=MAX_MULTIPLE)]
    big_bet_multiple: Multiple  # TH-1 / FCD-8: big bet = small bet * this unless posted
    max_bets_per_round: Multiple  # FCD-8: bet, raise, re-raise, cap
    big_blind_counts_as_bet: bool  # FCD-8: the big blind is the first bet pre-flop
    pot_limit_reading: PotLimitReading  # FCD-8
    # TH-3 / TH-7 reading: when a misdeal was required but the hand was played out, the
    # hand is settled "as_played" (the finding says a misdeal was due) or as "dead".
    undeclared_misdeal_settlement: Literal["as_played", "dead"]
    # TH-3 reading: exposures count towards "during the deal" until the first voluntary
    # betting action of the hand ("first_action") or only until the last hole card
    # ("last_hole_card").
    deal_phase_ends: Literal["first_action", "last_hole_card"]
    # TH-1 reading: a hand that does not hold exactly two hole cards at the showdown
    # cannot win (Robert's Rules: a hand with the wrong number of cards is dead).
    irregular_hand_dead: bool
    # TH-9 reading: a contender that neither showed nor mucked: its dealt cards (read at
    # the deal) speak ("cards_speak"), or it has no claim ("no_claim").
    unshown_contender: Literal["cards_speak", "no_claim"]
    # TH-1 / TH-9 reading: antes posted by every player count as each player's own
    # contribution in the side pots (false), or are dead money in the main pot (true).
    # A big-blind ante (one player antes for the table) is always dead money.
    antes_dead_money: bool
    # TH-1 reading: the hand ended with several players still in and fewer than five
    # board cards, so no hand can be ranked: "split" shows the pot split among them as
    # the expected side (with a critical BOARD_CARD_COUNT finding), "reject" rejects.
    unfinished_board_pot: Literal["split", "reject"]
    rake: PotGameRake  # GEN-10: the readings of the posted rake ([rake])
    severity: HoldemSeverities
    betting_severity: BettingSeverities

    def __post_init__(self) -> None:
        """What the types cannot say (a profile is read once, before any hand)."""
        if self.board_cards != self.flop_cards + 2:
            raise ValueError(f"board_cards = {self.board_cards} is not the flop's "
                             f"{self.flop_cards} cards and one each for the turn and the river "
                             f"(TH-1): {self.flop_cards + 2}")
        if self.hole_cards + self.board_cards < FIVE:
            raise ValueError(f"{self.hole_cards} hole cards and {self.board_cards} board cards "
                             "make no five-card hand (TH-2)")
        if self.small_blind_numerator > self.small_blind_denominator:
            raise ValueError(f"small blind {self.small_blind_numerator}/"
                             f"{self.small_blind_denominator} of the big blind is more than "
                             "the big blind (TH-1 / FCD-3: the small blind is a part of it)")
