"""Russian Poker's section of a rule profile (``russian.toml``) and the posted paytable.

Every number of RP-1..10 and every **Reading** of rules.md for this game is a field here,
with no defaults, so a profile missing one fails at load time instead of silently using a
constant buried in code. The Bet paytable of RP-7 can be overridden per table by
``table_configured.paytables["bet"]`` (GEN-5: only an authorised configuration changes it).
"""

from __future__ import annotations

from typing import Literal

import msgspec

from services.events.contract import Finding, Severity, TableConfigured
from services.games.model import finding
from services.games.russian.evaluation import PAYTABLE_CATEGORIES

Category = Literal[
    "royal_flush", "straight_flush", "four_of_a_kind", "full_house", "flush", "straight",
    "three_of_a_kind", "two_pair", "one_pair", "ace_king", "nothing",
]

# The key of ``table_configured.paytables`` that overrides the RP-7 Bet paytable.
PAYTABLE_KEY = "bet"


class RussianProfile(msgspec.Struct, forbid_unknown_fields=True):
    """Section ``russian`` of a rule profile; field comments live in the TOML file."""

    deck_size: int
    cards_per_box: int
    dealer_cards: int
    buy_card_price_antes: int
    exchange_price_antes: int
    exchange_min_cards: int
    exchange_max_cards: int
    draws_per_box: int
    serving_order: Literal["ascending_seat", "left_of_button"]
    bet_antes: int
    wrong_bet_settlement: Literal["as_placed", "excess_returned"]
    insurance_min_category: Category
    insurance_min_antes: int
    insurance_max_royal_numerator: int
    insurance_max_royal_denominator: int
    insurance_odds: int
    insurance_when_game_bought: Literal["loses", "final_dealer_hand"]
    insurance_below_minimum: Literal["returned", "as_placed"]
    insurance_above_maximum: Literal["cut_to_maximum", "as_placed"]
    dealer_min_category: Category
    ante_odds_dealer_not_qualifying: int
    buy_dealer_game_price_antes: int
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
    paytable: dict[str, int]

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
        if self.insurance_max_royal_denominator <= 0:
            raise ValueError("russian insurance_max_royal_denominator must be positive")


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
