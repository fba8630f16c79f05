"""Section ``hcf`` of a rule profile: every number and Reading of HCF-1..14 as data.

The struct has no defaults on purpose (``services.games.profile``): a value missing from
``profiles/<name>/hcf.toml`` is a load error, never a constant quietly taken from code.
``HcfRules`` is the profile resolved against one table's configuration (paytable
overrides, the posted bonus cap), computed once per hand.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import msgspec

from services.events.contract import Severity, TableConfigured
from services.games.cards import RANK_VALUE
from services.games.model import HandRejected
from services.games.profile import Payout, RuleProfile, gen_section

Rank = Literal["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"]


class RaiseCap(msgspec.Struct, forbid_unknown_fields=True):
    """HCF-4: a flush of at least ``min_flush_cards`` may raise up to this many Antes."""

    min_flush_cards: int
    max_ante_multiple: int


class HcfProfile(msgspec.Struct, forbid_unknown_fields=True):
    """``hcf.toml``; docs/rules/hcf.md explains every field."""

    cards_per_hand: int
    dp_qualify_min_cards: int
    dp_qualify_min_high: Rank
    dp_qualify_any_high_cards: int
    raise_min_ante_multiple: int
    raise_caps: list[RaiseCap]
    over_cap_raise_severity: Severity
    over_cap_raise_plays: Literal["cap", "as_placed"]
    under_min_raise_severity: Severity
    flush_bonus_paytable: dict[str, Payout]
    sf_bonus_paytable: dict[str, Payout]
    sf_ace_low: bool
    sf_wraparound: bool
    bonus_cap_rounding: Literal["largest_remainder", "floor"]
    bonus_settlement: Literal["paytable_alone", "against_dp"]
    dp_short_funds: Literal["dead_hand", "pay_to_extent"]
    bankroll_check: Literal["gross", "net"]
    folded_wagers_join_funds: Literal["at_fold", "in_order"]
    dp_funds_reserve_rake: bool
    dp_rake_needs_participant: bool
    past_posting_severity: Severity
    past_posted_wager_void: bool
    wager_not_in_game_severity: Severity
    stake_cover_raise_multiple: int
    insufficient_stake_severity: Severity
    dp_rotation_skip_severity: Severity
    button_not_at_dp_severity: Severity
    card_count_severity: Severity
    dead_hand_settled_severity: Severity
    showdown_mismatch_severity: Severity
    walk_away_severity: Severity
    late_decision_severity: Severity
    settlement_order_severity: Severity  # HCF-5: the table settled in another order


@dataclass(frozen=True)
class HcfRules:
    """The profile as it applies at one table: paytables as length -> odds lookups."""

    profile: HcfProfile
    dp_min_high_rank: int
    flush_odds: tuple[int, ...]  # indexed by flush length: odds of the highest row reached
    sf_odds: tuple[int, ...]  # indexed by straight-flush run length
    caps: tuple[tuple[int, int], ...]  # (min_flush_cards, max_ante_multiple), longest first
    bonus_cap: int | None
    limits_severity: Severity  # GEN-5 wager outside the posted limits (section ``gen``)

    def raise_cap(self, flush_cards: int, ante: int) -> int:
        """HCF-4: the largest Raise allowed for a flush of ``flush_cards`` cards."""
        for min_cards, multiple in self.caps:
            if flush_cards >= min_cards:
                return multiple * ante
        return 0


def odds_by_length(paytable: dict[int, int], longest: int = 14) -> tuple[int, ...]:
    """HCF-8/9 notes, "only the highest qualifying hand is paid": for every length the odds
    of the highest paytable row it reaches (0 below the lowest row)."""
    out = []
    for length in range(longest + 1):
        rows = [k for k in paytable if k <= length]
        out.append(paytable[max(rows)] if rows else 0)
    return tuple(out)


def _paytable(raw: dict[str, int], name: str) -> dict[int, int]:
    try:
        return {int(length): odds for length, odds in raw.items()}
    except ValueError as exc:
        raise HandRejected("GEN-5", f"paytable {name!r} has a key that is not a length: {exc}") \
            from exc


# (profile, config) -> rules. The entry keeps both objects alive, so their ids cannot be
# reused by other objects while the entry exists; identity is re-checked on every hit.
_RESOLVED: dict[tuple[int, int], tuple[RuleProfile, TableConfigured, HcfRules]] = {}


def resolve_rules(profile: RuleProfile, config: TableConfigured) -> HcfRules:
    """The profile resolved against the table's posted paytables and bonus cap.

    Cached per (profile, configuration) pair: a stream reuses one configuration for
    thousands of hands, and this is pure data.
    """
    key = (id(profile), id(config))
    hit = _RESOLVED.get(key)
    if hit is not None and hit[0] is profile and hit[1] is config:
        return hit[2]
    hcf = profile.section("hcf", HcfProfile)
    overrides = config.paytables or {}
    flush = _paytable(overrides.get("flush_bonus", hcf.flush_bonus_paytable), "flush_bonus")
    sf = _paytable(overrides.get("sf_bonus", hcf.sf_bonus_paytable), "sf_bonus")
    caps = tuple(sorted(((c.min_flush_cards, c.max_ante_multiple) for c in hcf.raise_caps),
                        reverse=True))
    rules = HcfRules(
        profile=hcf,
        dp_min_high_rank=RANK_VALUE[hcf.dp_qualify_min_high],
        flush_odds=odds_by_length(flush),
        sf_odds=odds_by_length(sf),
        caps=caps,
        bonus_cap=config.limits.bonus_cap_per_hand,
        limits_severity=gen_section(profile).wager_outside_limits_severity,
    )
    if len(_RESOLVED) >= 256:
        _RESOLVED.clear()
    _RESOLVED[key] = (profile, config, rules)
    return rules
