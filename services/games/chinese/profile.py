"""Section ``chinese`` of a rule profile: every number and reading of CP-1..12 as data.

No field has a default: a value missing from the posted profile is a load error, never a
constant quietly buried in code (``services.games.profile``).
"""

from typing import Annotated, Literal

import msgspec

from services.events.contract import Severity
from services.games.evaluation.categories import STANDARD_CATEGORIES
from services.games.profile import MAX_MULTIPLE, MAX_ODDS, Payout, RuleProfile

Scoring = Literal["standard", "mandarin"]
AutoWin = Literal["dragon", "six_pairs", "three_flushes", "three_straights"]
Segment = Literal["front", "middle", "back"]
SEGMENTS: tuple[Segment, Segment, Segment] = ("front", "middle", "back")
# CP-1: 13 cards to each of the four seats from one 52-card deck: at most four seats, two
# to have a game; CP-2 sets 3 + 5 + 5 = 13 cards, so 13 is the only hand there is.
Seats = Annotated[int, msgspec.Meta(ge=2, le=4)]
HandSize = Literal[13]


class _Strict(msgspec.Struct, forbid_unknown_fields=True):
    pass


class AutoWinPoints(_Strict):
    """CP-7: points an automatic winner collects from each other player."""

    dragon: Payout
    six_pairs: Payout
    three_flushes: Payout
    three_straights: Payout

    def of(self, kind: AutoWin) -> int:
        points: int = getattr(self, kind)
        return points


class SegmentBonuses(_Strict):
    """CP-5: bonus for winning a segment, by the winning hand's category."""

    front: dict[str, Payout]
    middle: dict[str, Payout]
    back: dict[str, Payout]

    def __post_init__(self) -> None:
        """A misspelt category would silently pay no bonus: only evaluator names load."""
        for segment in SEGMENTS:
            unknown = sorted(set(getattr(self, segment)) - set(STANDARD_CATEGORIES))
            if unknown:
                raise ValueError(f"{segment} bonus: unknown hand categor"
                                 f"{'y' if len(unknown) == 1 else 'ies'} {', '.join(unknown)} "
                                 f"(known: {', '.join(STANDARD_CATEGORIES)})")

    def of(self, segment: Segment, category: str) -> int:
        table: dict[str, int] = getattr(self, segment)
        return table.get(category, 0)


class ScoringRules(_Strict):
    """CP-5 / CP-6 / CP-8 values of one scoring (``standard`` or ``mandarin``).

    ``foul_points`` is its own field, not the scoop: CP-8 names 6 points for a foul under
    either scoring, while a standard scoop is worth 3 (CP-4)."""

    scoop_points: Payout
    foul_points: Payout
    super_bonus_points: Payout  # 0: no super bonus
    super_bonus_players: Seats
    bonus: SegmentBonuses


class ScoringTable(_Strict):
    standard: ScoringRules
    mandarin: ScoringRules

    def of(self, scoring: Scoring) -> ScoringRules:
        return self.standard if scoring == "standard" else self.mandarin


class FoulRules(_Strict):
    unset_hand_is_foul: bool


class PaymentRules(_Strict):
    order_starts: Literal["left_of_button", "button"]


class MisdealRules(_Strict):
    exposed_cards: Annotated[int, msgspec.Meta(ge=1, le=13)]  # of one 13-card hand
    uncalled_misdeal_voids_hand: bool


class BuyInRules(_Strict):
    min_points: Annotated[int, msgspec.Meta(ge=0, le=MAX_ODDS)]
    short_buys_per_full_buy: Annotated[int, msgspec.Meta(ge=0, le=MAX_MULTIPLE)]


class RakeRules(_Strict):
    """GEN-10 readings. ``stake_counts_fee`` (GEN-2 Reading): the fee a seat pays is what
    the hand can require of it (a seat starting with less is ``INSUFFICIENT_STAKE``), and
    the fee expected is never more than the seat's stack (``settlement.fees_within_stacks``);
    false: no GEN-2 check, the fee expected in full."""

    designated_counts_button: bool
    stake_counts_fee: bool


class Severities(_Strict):
    foul: Severity
    false_auto_win: Severity
    late_auto_win: Severity
    hand_changed_after_opening: Severity
    set_cards_not_dealt: Severity
    hand_opened_early: Severity
    hand_shown_early: Severity
    misdeal_not_called: Severity
    misdeal_without_cause: Severity
    dead_seat_played: Severity
    new_player_first_hand: Severity
    new_player_button: Severity
    buy_in_below_minimum: Severity
    short_buy_not_allowed: Severity
    payment_routing: Severity
    insufficient_stake: Severity  # GEN-2 with ``rake.stake_counts_fee``


class ChineseProfile(_Strict):
    """The ``chinese`` section (``profiles/<name>/chinese.toml``)."""

    table_seats: Seats
    cards_per_hand: HandSize
    segment_points: Annotated[int, msgspec.Meta(ge=1, le=MAX_ODDS)]  # a segment won is won
    default_scoring: Scoring
    auto_win_points: AutoWinPoints
    scoring: ScoringTable
    fouls: FoulRules
    payments: PaymentRules
    misdeal: MisdealRules
    buy_in: BuyInRules
    rake: RakeRules
    severity: Severities


def chinese_profile(profile: RuleProfile) -> ChineseProfile:
    return profile.section("chinese", ChineseProfile)
