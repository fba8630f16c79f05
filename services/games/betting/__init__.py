"""The betting engine shared by the pot games (Five Card Draw 7-A, Texas Hold'em).

- ``structures``: ``BettingConfig`` / ``RoundSpec`` / ``RuleIds``: a game's betting as data
  (structure, rounds and their bet units, blinds, antes, cap, rule IDs to cite).
- ``engine``: ``BettingHand``: replays recorded actions, reports ``Violation`` s, exposes
  ``legal_actions()``, ``to_act()``, round transitions and ``showdown_order()``.
- ``pots`` / ``showdown`` / ``rake`` / ``settlement``: side pots and uncalled bets, pot
  awards with the odd-chip rule, GEN-10 rake, and ``settle(...)`` for the expected net.
- ``findings``: violations as findings, with ``BettingSeverities`` from the game's profile.
"""

from services.games.betting.actions import (
    BETTING_KINDS,
    POST_KINDS,
    ActionKind,
    LegalActions,
    Violation,
    ViolationKind,
)
from services.games.betting.engine import BettingHand, OwedPost, RoundOverError
from services.games.betting.findings import violation_code, violation_findings
from services.games.betting.pots import Pot, PotBuild, build_pots
from services.games.betting.rake import (
    PotRakeHand,
    RakeMode,
    RakePolicy,
    pot_rake,
    rake_charges,
)
from services.games.betting.seating import blind_seats, clockwise_after, first_left_of
from services.games.betting.settlement import Settlement, settle
from services.games.betting.showdown import PotAward, award_pots, split_pot
from services.games.betting.structures import BettingConfig, RoundSpec, RuleIds, Structure
from services.games.pot_sections import (
    BettingSeverities,
    FeeFrom,
    PotGameRake,
    PotLimitReading,
    PotRakeCap,
    PotRakeSchedule,
)

__all__ = [
    "BETTING_KINDS",
    "POST_KINDS",
    "ActionKind",
    "BettingConfig",
    "BettingHand",
    "BettingSeverities",
    "FeeFrom",
    "LegalActions",
    "OwedPost",
    "Pot",
    "PotAward",
    "PotBuild",
    "PotGameRake",
    "PotLimitReading",
    "PotRakeCap",
    "PotRakeHand",
    "PotRakeSchedule",
    "RakeMode",
    "RakePolicy",
    "RoundOverError",
    "RoundSpec",
    "RuleIds",
    "Settlement",
    "Structure",
    "Violation",
    "ViolationKind",
    "award_pots",
    "blind_seats",
    "build_pots",
    "clockwise_after",
    "first_left_of",
    "pot_rake",
    "rake_charges",
    "settle",
    "split_pot",
    "violation_code",
    "violation_findings",
]
