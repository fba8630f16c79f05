"""The betting engine's sections of a pot game's rule profile (Five Card Draw 7-A and
Texas Hold'em): ``[betting_severity]``, ``[rake]`` with ``[rake.pot]``, and the pot-limit
reading. The engine (``services.games.betting``) reads them and exports them too.

Why a module apart from the engine: a profile is loaded (``draw7a.profile``,
``holdem.profile``) by every run, which the native core's rules adjudicate whole; importing
the betting package for these few types was ~9 ms of the start-up of
``pitwatch adjudicate`` (its engine, pots, showdown and settlement modules).
"""

from typing import Annotated, Literal

import msgspec

from services.events.bounds import MAX_SAFE_INTEGER, MAX_SEATS
from services.events.contract import Severity

# FCD-8 pot limit. "raise_by_pot_after_call" (house-v1, the rule book's reading): the
# largest bet or raise is the pot after the call, so the raiser's total for the round is
# at most the current bet plus the pot after calling it. "total_at_most_pot_after_call":
# the raiser's whole total is capped at the pot after its call (a room posting that).
PotLimitReading = Literal["total_at_most_pot_after_call", "raise_by_pot_after_call"]

# The schedule's numbers stay within what a chip amount can be (bounds.py): a number of
# 10**20 was read, then could not reach the native core. (Their lower bounds are checked,
# with their own words, in ``PotRakeSchedule.__post_init__``.)
_Number = Annotated[int, msgspec.Meta(le=MAX_SAFE_INTEGER)]
FeeFrom = Literal["stack", "pot"]
Rounding = Literal["down", "nearest", "up"]


class PotRakeCap(msgspec.Struct, forbid_unknown_fields=True):
    """One row of a schedule's caps: at least ``min_players`` dealt in, at most ``cap``."""

    min_players: Annotated[int, msgspec.Meta(ge=0, le=MAX_SEATS)]
    cap: _Number


class PotRakeSchedule(msgspec.Struct, forbid_unknown_fields=True):
    """``[rake.pot]``: the pot rake a room posts (``services.games.betting.rake``).

    The rake is ``rate_numerator / rate_denominator`` of the pot (integers: chips and rates
    are never floats), rounded ``down`` / ``nearest`` (half up) / ``up`` to a multiple of
    ``unit`` chips, then capped by the first row of ``caps`` (rows in descending
    ``min_players``) whose ``min_players`` the players dealt in reach (no row reached, or
    no rows: no cap). No rake on a pot below ``minimum_pot``, nor, with
    ``no_flop_no_drop``, in a hand that ended before the flop (Five Card Draw: before the
    draw). ``rate_numerator = 0`` posts no pot rake."""

    rate_numerator: _Number
    rate_denominator: _Number
    unit: _Number
    rounding: Rounding
    minimum_pot: _Number
    no_flop_no_drop: bool
    caps: list[PotRakeCap]

    def __post_init__(self) -> None:
        if self.rate_numerator < 0 or self.rate_denominator <= 0:
            raise ValueError("rake.pot: the rate is rate_numerator / rate_denominator, a "
                             "numerator of 0 or more over a denominator of 1 or more")
        if self.rate_numerator > self.rate_denominator:
            raise ValueError("rake.pot: a rate above the whole pot")
        if self.unit < 1 or self.minimum_pot < 0:
            raise ValueError("rake.pot: unit is at least 1 chip, minimum_pot at least 0")
        rows = [row.min_players for row in self.caps]
        if rows != sorted(rows, reverse=True) or len(set(rows)) != len(rows):
            raise ValueError("rake.pot: caps rows go from the most players down, once each")
        if any(row.cap < 0 for row in self.caps):
            raise ValueError("rake.pot: a cap is 0 chips or more")

    @property
    def posted(self) -> bool:
        return self.rate_numerator > 0


class PotGameRake(msgspec.Struct, forbid_unknown_fields=True):
    """The ``[rake]`` table of a pot game's profile section: the GEN-10 readings.

    ``designated_counts_button``: in ``designated`` mode the button pays the fee for every
    participant including itself (true) or only for the others (false, the HCF-12 wording
    where the banker is not a participant). ``all_charges_button``: HCF-12 ``all`` reads
    "every participant pays, and so does the DP"; with the DP read as the button, false
    (house-v1) takes each fee as a participation fee, so the button pays only when it put
    chips in; true substitutes literally, so a button dealt in pays the fee even with
    nothing in the pot. ``fee_from``: where a fee comes from; ``pot``: the room's pot rake
    schedule (``services.games.betting.rake``)."""

    designated_counts_button: bool
    all_charges_button: bool
    fee_from: FeeFrom
    pot: PotRakeSchedule


class BettingSeverities(msgspec.Struct, forbid_unknown_fields=True):
    """Severity of each betting violation kind (see ``actions.ViolationKind``)."""

    out_of_turn: Severity
    not_in_hand: Severity
    check_facing_bet: Severity
    wrong_call_amount: Severity
    chips_with_fold: Severity
    not_a_raise: Severity
    all_in_not_whole_stack: Severity
    under_minimum: Severity
    over_pot: Severity
    wrong_limit_amount: Severity
    cap_exceeded: Severity
    not_reopened: Severity
    no_opponent_to_raise: Severity
    blind_wrong_seat: Severity
    blind_wrong_amount: Severity
    blind_missing: Severity
    blind_late: Severity
    last_player_folded: Severity
    round_incomplete: Severity

    def of(self, kind: str) -> Severity:
        severity: Severity = getattr(self, kind)
        return severity
