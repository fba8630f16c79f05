"""Russian Poker's section of a rule profile (``russian.toml``) and the posted paytable.

Every number of RP-1..10 and every **Reading** of rules.md for this game is a field here,
with no defaults, so a profile missing one fails at load time instead of silently using a
constant buried in code. The Bet paytable of RP-7 can be overridden per table by
``table_configured.paytables["bet"]`` (GEN-5: only an authorised configuration changes it).
"""

from typing import Annotated, Literal

import msgspec

from services.events.bounds import MAX_SAFE_INTEGER
from services.events.contract import Finding, Severity, TableConfigured
from services.games.profile import MAX_MULTIPLE, Multiple, Payout, Price

Category = Literal[
    "royal_flush", "straight_flush", "four_of_a_kind", "full_house", "flush", "straight",
    "three_of_a_kind", "two_pair", "one_pair", "ace_king", "nothing",
]

# RP-7 paytable lines, best first (here, not beside the evaluator: a profile checks its
# rows at every start, and the evaluators are only needed once a hand is judged).
PAYTABLE_CATEGORIES: tuple[str, ...] = (
    "royal_flush",
    "straight_flush",
    "four_of_a_kind",
    "full_house",
    "flush",
    "straight",
    "three_of_a_kind",
    "two_pair",
    "one_pair",
    "ace_king",
    "nothing",
)

# The key of ``table_configured.paytables`` that overrides the RP-7 Bet paytable.
PAYTABLE_KEY = "bet"
# RP-1: five cards to each box; RP-7 ranks five cards, RP-8 six: a box is dealt five or
# six. The dealer's hand is five (RP-5 qualifies it, RP-6 replaces a card of it).
BoxCards = Annotated[int, msgspec.Meta(ge=5, le=6)]
ExchangeCards = Annotated[int, msgspec.Meta(ge=1, le=6)]  # RP-2: 2 to 5, at most a box
# The deck the hands must declare (RP-1: 52 cards); another is a finding on each
# hand, never a ranking, so the profile may post another (the differential suites post
# one no hand declares); never no cards, nor a number the native core cannot hold.
DeckSize = Annotated[int, msgspec.Meta(ge=1, le=MAX_SAFE_INTEGER)]


class RussianProfile(msgspec.Struct, forbid_unknown_fields=True):
    """Section ``russian`` of a rule profile; field comments live in the TOML file."""

    deck_size: DeckSize
    cards_per_box: BoxCards
    dealer_cards: Literal[5]
    buy_card_price_antes: Price
    exchange_price_antes: Price
    exchange_min_cards: ExchangeCards
    exchange_max_cards: ExchangeCards
    draws_per_box: Annotated[int, msgspec.Meta(ge=0, le=MAX_MULTIPLE)]
    serving_order: Literal["ascending_seat", "left_of_button"]
    bet_antes: Multiple
    wrong_bet_settlement: Literal["as_placed", "excess_returned"]
    insurance_min_category: Category
    insurance_min_antes: Price  # 0: no minimum
    # RP-4: at most numerator / denominator of the royal flush payout (a part of it)
    insurance_max_royal_numerator: Annotated[int, msgspec.Meta(ge=1, le=MAX_MULTIPLE)]
    insurance_max_royal_denominator: Annotated[int, msgspec.Meta(ge=1, le=MAX_MULTIPLE)]
    insurance_odds: Payout
    insurance_when_game_bought: Literal["loses", "final_dealer_hand"]
    insurance_below_minimum: Literal["returned", "as_placed"]
    insurance_above_maximum: Literal["cut_to_maximum", "as_placed"]
    dealer_min_category: Category
    ante_odds_dealer_not_qualifying: Payout
    buy_dealer_game_price_antes: Price
    pay_two_combinations: bool
    second_combination_min_category: Category
    late_wager_settlement: Literal["void", "kept_if_losing"]
    deal_error_severity: Severity
    draw_procedure_severity: Severity
    fee_error_severity: Severity
    bet_error_severity: Severity
    insurance_error_severity: Severity
    dealer_game_error_severity: Severity
    late_wager_severity: Severity
    cards_after_bet_severity: Severity
    bonus_order_severity: Severity
    paytable_config_severity: Severity
    banker_error_severity: Severity
    insufficient_stake_severity: Severity
    paytable: dict[str, Payout]

    def __post_init__(self) -> None:
        unknown = sorted(set(self.paytable) - set(PAYTABLE_CATEGORIES))
        if unknown:
            raise ValueError(f"russian paytable: unknown rows {unknown}")
        # RP-7: every paid line must be posted (the royal flush also sizes RP-4 insurance).
        missing = [row for row in PAYTABLE_CATEGORIES if row != "nothing"
                   and row not in self.paytable]
        if missing:
            raise ValueError(f"russian paytable: missing rows {missing}")
        if not at_least(self.second_combination_min_category, "ace_king"):
            raise ValueError(
                "russian second_combination_min_category: the RP-8 evaluation never offers "
                "a second combination below ace_king; the profile may only raise the floor"
            )
        if self.exchange_max_cards > self.cards_per_box:
            raise ValueError(f"russian exchange_max_cards = {self.exchange_max_cards} is more "
                             f"than a box holds, cards_per_box = {self.cards_per_box} (RP-2)")
        if self.exchange_min_cards > self.exchange_max_cards:
            raise ValueError(f"russian exchange_min_cards = {self.exchange_min_cards} is more "
                             f"than exchange_max_cards = {self.exchange_max_cards}: no exchange "
                             "could be right (RP-2)")


def category_strength(category: str) -> int:
    """0 for the best paytable line (royal flush) and larger for weaker ones."""
    return PAYTABLE_CATEGORIES.index(category)


def at_least(category: str, floor: str) -> bool:
    """True when ``category`` is ``floor`` or better in the RP-7 paytable order."""
    return category_strength(category) <= category_strength(floor)


def posted_paytable(
    profile: RussianProfile, config: TableConfigured | None
) -> tuple[dict[str, int], list[Finding]]:
    """The Bet paytable in force: the profile's rows, overridden by the table's posting.

    An override row that names no paytable line cannot be applied: a GEN-5 finding, the
    posted row is ignored (the profile value stays).
    """
    from services.games.model import finding  # the model's dataclasses: not at start-up

    table = dict(profile.paytable)
    findings: list[Finding] = []
    overrides = (config.paytables or {}).get(PAYTABLE_KEY, {}) if config else {}
    for row, odds in sorted(overrides.items()):
        if row in PAYTABLE_CATEGORIES and row != "nothing":
            table[row] = odds
        else:
            findings.append(
                finding("UNKNOWN_PAYTABLE_ROW", "GEN-5", profile.paytable_config_severity,
                        f"table_configured paytables.{PAYTABLE_KEY} names {row!r}, which is "
                        "no Russian Poker paytable line; it was ignored")
            )
    return table, findings
