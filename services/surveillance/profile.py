"""Section ``surveillance`` of a rule profile: every SURV-2..SURV-8 threshold as data.

rules.md SURV: "Thresholds are configuration". The structs have no defaults, like every
profile section (``services.games.profile``): a threshold missing from
``profiles/<name>/surveillance.toml`` is a load error, never a constant taken from code.
docs/surveillance.md explains each field.
"""

from typing import Annotated, Literal

import msgspec

from services.events.contract import Severity
from services.games.profile import InvalidProfileError, Profiles, RuleProfile

Category = Literal["one_pair", "two_pair", "three_of_a_kind", "straight", "flush",
                   "full_house", "four_of_a_kind", "straight_flush"]


class _Section(msgspec.Struct, forbid_unknown_fields=True):
    pass


# The ranges a threshold means something in. Types alone let a profile through whose
# p-value of nan or 2 alerted on anything, of 0 on nothing, whose negative counts or
# evidence of 0 hands lost alerts and evidence without a word, and whose 0% look growth
# or 10**20 evidence hands stopped `surveil` with a traceback (QA, 2026-12-06).
PValue = Annotated[float, msgspec.Meta(gt=0.0, le=1.0)]  # a probability an alert is at
Count = Annotated[int, msgspec.Meta(ge=1, le=10**9)]  # of hands, decisions, events
Percent = Annotated[int, msgspec.Meta(ge=1, le=100_000)]  # a growth, in percent
BigBlinds = Annotated[int, msgspec.Meta(ge=0, le=10**9)]
Chips = Annotated[int, msgspec.Meta(ge=0, le=2**53)]
EvidenceHands = Annotated[int, msgspec.Meta(ge=1, le=100_000)]  # hands an alert cites
FlushCards = Annotated[int, msgspec.Meta(ge=1, le=7)]  # of HCF's seven cards


class Sweethearting(_Section):
    """SURV-2."""

    p_value: PValue
    min_count: Count
    severity: Severity


class Drift(_Section):
    """SURV-8."""

    p_value: PValue
    min_count: Count
    min_hands: Count
    severity: Severity


class Improbable(_Section):
    """SURV-6."""

    p_value: PValue
    min_count: Count
    severity: Severity
    hcf_flush_min_cards: FlushCards
    russian_min_category: Category


class Exposure(_Section):
    """SURV-7."""

    p_value: PValue
    min_count: Count
    severity: Severity


class ChipDumping(_Section):
    """SURV-3."""

    p_value: PValue
    min_fold_investment_big_blinds: BigBlinds
    min_fold_investment_big_blinds_fixed_limit: BigBlinds
    min_count: Count
    min_total_big_blinds: BigBlinds
    severity: Severity


class SoftPlay(_Section):
    """SURV-4."""

    p_value: PValue
    min_decisions: Count
    severity: Severity


class DecisionTest(_Section):
    """SURV-5, one kind of decision."""

    p_value: PValue
    min_decisions: Count
    severity: Severity


class Collusion(_Section):
    """SURV-5: the Russian Poker decisions tested for information sharing."""

    play_fold: DecisionTest
    insurance: DecisionTest
    buy_dealer_game: DecisionTest


class Looks(_Section):
    """Repeated looks at one instance (``services.surveillance.looks``)."""

    growth_percent: Percent


class SeverityRule(_Section):
    """How an alert's severity follows what is at stake (``services.surveillance.links``)."""

    raise_at_chips: Chips
    raise_at_p_value: PValue


class SurveillanceConfig(_Section):
    """``surveillance.toml``."""

    realert_growth_percent: Percent
    evidence_hands: EvidenceHands
    looks: Looks
    severity: SeverityRule
    sweethearting: Sweethearting
    drift: Drift
    improbable: Improbable
    exposure: Exposure
    chip_dumping: ChipDumping
    soft_play: SoftPlay
    collusion: Collusion


def check_surveillance_sections(profiles: Profiles) -> None:
    """Every profile's surveillance section checked, as ``read_profiles`` checks the game
    sections when a command starts (this one belongs to the layer above the games): a
    typo in a casino's ``surveillance.toml`` was accepted by every command that did not
    surveil under that very profile (QA). Raises ``InvalidProfileError``."""
    for name in profiles.names():
        profile = profiles.get(name)
        if "surveillance" in profile.sections:
            surveillance_config(profile)


def surveillance_config(profile: RuleProfile) -> SurveillanceConfig:
    """The profile's surveillance section; a wrong value in it is an
    ``InvalidProfileError`` (one line from every command, as for the game sections,
    which ``read_profiles`` checks: this section belongs to a layer above the games)."""
    try:
        return profile.section("surveillance", SurveillanceConfig)
    except ValueError as exc:
        raise InvalidProfileError(str(exc)) from None
