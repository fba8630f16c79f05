"""Betting actions, the legal options of the player to act, and rule violations.

Amounts are always the chips an action adds from the seat's stack to the pot, exactly
as the ``action`` event records them (events.md), never a "raise to" total: one number
means one thing everywhere, from the event to the engine to the finding.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

ActionKind = Literal[
    "fold",
    "check",
    "call",
    "bet",
    "raise",
    "all_in",
    "post_small_blind",
    "post_big_blind",
    "post_ante",
]
POST_KINDS: frozenset[str] = frozenset({"post_small_blind", "post_big_blind", "post_ante"})
BETTING_KINDS: frozenset[str] = frozenset(
    {"fold", "check", "call", "bet", "raise", "all_in"} | POST_KINDS
)

# What can be wrong with one recorded action (or with a round as a whole). The game maps
# each kind to a finding code (upper case of the kind) and a severity from its profile.
ViolationKind = Literal[
    "out_of_turn",  # not this seat's turn, or no action was due at all
    "not_in_hand",  # a folded, all-in or never dealt-in seat acted
    "check_facing_bet",  # checked although chips were owed (incl. first to act pre-draw)
    "wrong_call_amount",  # a call/check whose chips are not the amount owed
    "chips_with_fold",  # a fold that put chips in
    "not_a_raise",  # a bet/raise whose chips do not go above the bet to call
    "all_in_not_whole_stack",  # an all-in that left chips behind
    "under_minimum",  # no/pot limit: bet or raise below the minimum
    "over_pot",  # pot limit: bet or raise above the pot-limit maximum
    "wrong_limit_amount",  # fixed limit: bet or raise not exactly one bet unit
    "cap_exceeded",  # fixed limit: a bet beyond the cap
    "not_reopened",  # a raise by a player a short all-in did not reopen the betting to
    "no_opponent_to_raise",  # a raise no opponent could call (all-in or short of the bet)
    "over_stack",  # more chips than the seat had (table stakes)
    "blind_wrong_seat",  # a blind posted by a seat that does not owe it
    "blind_wrong_amount",  # a blind or ante of the wrong size
    "blind_missing",  # betting began without a blind or ante owed
    "blind_late",  # a blind or ante posted after the betting began
    "last_player_folded",  # the only player left folded (ignored)
    "round_incomplete",  # the round was closed with players still to act
]


@dataclass(frozen=True)
class Violation:
    """One rule broken by a recorded action, with the rule it breaks."""

    kind: ViolationKind
    rule: str
    seat: int | None
    round_index: int
    message: str
    amount: int | None = None


@dataclass(frozen=True)
class LegalActions:
    """What the player to act may do, in chips added from their stack.

    ``call`` is the chips a call adds (capped at the stack: a short call is all-in);
    ``can_check`` when nothing is owed. ``raise_min``/``raise_max`` are the chips a
    legal bet or raise adds (both capped at the stack, so ``raise_max == stack`` means
    all-in is the largest); ``can_raise`` is False when the cap is reached, the betting
    was not reopened to this player, every opponent is all-in, or the stack does not go
    beyond the call. ``raise_min`` may equal the stack for a short all-in raise.
    """

    seat: int
    stack: int
    call: int
    can_check: bool
    can_raise: bool
    raise_min: int
    raise_max: int
