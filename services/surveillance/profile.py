"""Section ``surveillance`` of a rule profile: every SURV-2..SURV-8 threshold as data.

rules.md SURV: "Thresholds are configuration". The structs have no defaults, like every
profile section (``services.games.profile``): a threshold missing from
``profiles/<name>/surveillance.toml`` is a load error, never a constant taken from code.
docs/surveillance.md explains each field.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from services.events.contract import Severity
from services.games.profile import InvalidProfileError, RuleProfile

Category = Literal["one_pair", "two_pair", "three_of_a_kind", "straight", "flush",
                   "full_house", "four_of_a_kind", "straight_flush"]


class _Section(msgspec.Struct, forbid_unknown_fields=True):
    pass


class Sweethearting(_Section):
    """SURV-2."""

    p_value: float
    min_count: int
    severity: Severity


class Drift(_Section):
    """SURV-8."""

    p_value: float
    min_count: int
    min_hands: int
    severity: Severity


class Improbable(_Section):
    """SURV-6."""

    p_value: float
    min_count: int
    severity: Severity
    hcf_flush_min_cards: int
    russian_min_category: Category


class Exposure(_Section):
    """SURV-7."""

    p_value: float
    min_count: int
    severity: Severity


class ChipDumping(_Section):
    """SURV-3."""

    p_value: float
    min_fold_investment_big_blinds: int
    min_fold_investment_big_blinds_fixed_limit: int
    min_count: int
    min_total_big_blinds: int
    severity: Severity


class SoftPlay(_Section):
    """SURV-4."""

    p_value: float
    min_decisions: int
    severity: Severity


class DecisionTest(_Section):
    """SURV-5, one kind of decision."""

    p_value: float
    min_decisions: int
    severity: Severity


class Collusion(_Section):
    """SURV-5: the Russian Poker decisions tested for information sharing."""

    play_fold: DecisionTest
    insurance: DecisionTest
    buy_dealer_game: DecisionTest


class Looks(_Section):
    """Repeated looks at one instance (``services.surveillance.looks``)."""

    growth_percent: int


class SeverityRule(_Section):
    """How an alert's severity follows what is at stake (``services.surveillance.links``)."""

    raise_at_chips: int
    raise_at_p_value: float


class SurveillanceConfig(_Section):
    """``surveillance.toml``."""

    realert_growth_percent: int
    evidence_hands: int
    looks: Looks
    severity: SeverityRule
    sweethearting: Sweethearting
    drift: Drift
    improbable: Improbable
    exposure: Exposure
    chip_dumping: ChipDumping
    soft_play: SoftPlay
    collusion: Collusion


def surveillance_config(profile: RuleProfile) -> SurveillanceConfig:
    """The profile's surveillance section; a wrong value in it is an
    ``InvalidProfileError`` (one line from every command, as for the game sections,
    which ``read_profiles`` checks: this section belongs to a layer above the games)."""
    try:
        return profile.section("surveillance", SurveillanceConfig)
    except ValueError as exc:
        raise InvalidProfileError(str(exc)) from None
