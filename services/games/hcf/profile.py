"""Section ``hcf`` of a rule profile: every number and Reading of HCF-1..14 as data.

The struct has no defaults on purpose (``services.games.profile``): a value missing from
``profiles/<name>/hcf.toml`` is a load error, never a constant quietly taken from code.
``HcfRules`` is the profile resolved against one table's configuration (paytable
overrides, the posted bonus cap), computed once per hand.
"""

import re
from dataclasses import dataclass
from typing import Annotated, Literal

import msgspec

from services.events.contract import Severity, TableConfigured
from services.games.cards import RANK_VALUE
from services.games.profile import MAX_MULTIPLE, Multiple, Payout, RuleProfile, gen_section

Rank = Literal["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"]
SUIT_COUNT = 4
SUIT_CARDS = 13  # the longest flush or run there is: one suit of the 52-card deck (HCF-1)
# A hand, and a flush in it: at least one card; the DP's hand and a player's come out of
# one 52-card deck (HCF-1), so a hand is at most half of it.
HandCards = Annotated[int, msgspec.Meta(ge=1, le=26)]
FlushCards = Annotated[int, msgspec.Meta(ge=1, le=SUIT_CARDS)]


class RaiseCap(msgspec.Struct, forbid_unknown_fields=True):
    """HCF-4: a flush of at least ``min_flush_cards`` may raise up to this many Antes."""

    min_flush_cards: Annotated[int, msgspec.Meta(ge=0, le=SUIT_CARDS)]
    max_ante_multiple: Multiple


class HcfProfile(msgspec.Struct, forbid_unknown_fields=True):
    """``hcf.toml``; docs/rules/hcf.md explains every field."""

    cards_per_hand: HandCards
    dp_qualify_min_cards: FlushCards
    dp_qualify_min_high: Rank
    dp_qualify_any_high_cards: FlushCards
    raise_min_ante_multiple: Multiple
    raise_caps: Annotated[list[RaiseCap], msgspec.Meta(min_length=1)]
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
    # GEN-2 as HCF reads it: a raise of this many Antes must be covered (0: the Ante and
    # bonuses alone, a player may always fold).
    stake_cover_raise_multiple: Annotated[int, msgspec.Meta(ge=0, le=MAX_MULTIPLE)]
    # GEN-2 Reading: what the hand can require of a seat includes the HCF-12 fee it pays
    # (true); false: the wagers alone, and the fee expected in full (``procedure.
    # table_stakes``, ``settlement.fees_within_stacks``).
    stake_counts_fee: bool
    insufficient_stake_severity: Severity
    dp_rotation_skip_severity: Severity
    button_not_at_dp_severity: Severity
    card_count_severity: Severity
    dead_hand_settled_severity: Severity
    showdown_mismatch_severity: Severity
    walk_away_severity: Severity
    late_decision_severity: Severity
    settlement_order_severity: Severity  # HCF-5: the table settled in another order

    def __post_init__(self) -> None:
        """What the types cannot say, said when the profile is read, not by every hand
        that reaches it: a paytable key that is no length (``"four"``) rejected every
        hand judged under the profile, at run time."""
        for table, what in (("flush_bonus_paytable", "flush"),
                            ("sf_bonus_paytable", "straight-flush run")):
            _check_lengths(getattr(self, table), table, what,
                           min(self.cards_per_hand, SUIT_CARDS))
        shortest = -(-self.cards_per_hand // SUIT_COUNT)  # the flush every hand holds at least
        rows = sorted(cap.min_flush_cards for cap in self.raise_caps)
        twice = sorted({row for row in rows if rows.count(row) > 1})
        if twice:
            raise ValueError(f"raise_caps: two rows with min_flush_cards = {twice[0]}; one row "
                             "each, or the cap is a guess")
        if rows[0] > shortest:
            raise ValueError(f"raise_caps: no row covers a flush of {shortest} cards, and a "
                             f"hand of {self.cards_per_hand} cards may hold no longer one; "
                             "HCF-4 caps every hand: add a row with min_flush_cards = 0")
        low = [c.max_ante_multiple for c in self.raise_caps
               if c.max_ante_multiple < self.raise_min_ante_multiple]
        if low:
            raise ValueError(f"raise_caps: a cap of {low[0]}x Ante is below the smallest raise, "
                             f"raise_min_ante_multiple = {self.raise_min_ante_multiple}")


# A paytable key (HCF-8/9 rows): a number of cards written one way, "7", never "07", "+7"
# or " 7", so that no two keys of one table name one length and a key reads the same to
# the reference, the native core (``paytable_key``) and a person.
_LENGTH = re.compile(r"[1-9][0-9]?")


def paytable_length(key: str, longest: int) -> int | None:
    """The length ``key`` names, 1 to ``longest`` (the longest flush a hand holds), or None
    when it names none: ``"-5"`` or ``"0"`` once made a row every hand reached (a 3-card
    flush was paid its bonus), ``"four"`` rejected the hand, ``"05"`` read as 5 (QA)."""
    if not _LENGTH.fullmatch(key):
        return None
    length = int(key)
    return length if length <= longest else None


def _check_lengths(paytable: dict[str, int], table: str, what: str, longest: int) -> None:
    """Each key of a bonus paytable is a length a hand can hold (``paytable_length``)."""
    for key in paytable:
        if paytable_length(key, longest) is None:
            raise ValueError(f"{table}: key {key!r} is not a {what} length; a key is a number "
                             f"of cards, 1 to {longest}, such as \"4\"")


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


def _paytable(raw: dict[str, int], name: str, longest: int) -> dict[int, int]:
    """A paytable as length -> odds; a table that posted a key naming no length has no
    paytable pitwatch can read, and its hands are rejected (GEN-5: the paytable is posted
    by configuration, and this one names rows no hand can be paid by)."""
    from services.games.model import HandRejected  # the model's dataclasses: not at start-up

    rows: dict[int, int] = {}
    for key, odds in raw.items():
        length = paytable_length(key, longest)
        if length is None:
            raise HandRejected("GEN-5", f"the table's paytable {name!r} has key {key!r}, which "
                                        f"is not a length: a key is a number of cards, 1 to "
                                        f"{longest}, such as \"4\"")
        rows[length] = odds
    return rows


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
    longest = min(hcf.cards_per_hand, SUIT_CARDS)
    flush = _paytable(overrides.get("flush_bonus", hcf.flush_bonus_paytable), "flush_bonus",
                      longest)
    sf = _paytable(overrides.get("sf_bonus", hcf.sf_bonus_paytable), "sf_bonus", longest)
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
