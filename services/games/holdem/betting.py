"""Hold'em betting on the shared engine: four rounds, blinds, antes or both (TH-1).

Everything Hold'em-specific about betting is configuration of ``services.games.betting``:
the four rounds and their bet units (small bet pre-flop and on the flop, big bet on the
turn and river in fixed limit; the big blind as the minimum bet in pot and no limit),
the blinds and the antes posted by the table, and the rule IDs findings cite.

One addition the engine does not know: the *big-blind ante* (one ante for the whole
table, posted by the big blind, as in WSOP events). ``HoldemBetting`` adds that single
ante to the posts the engine expects, without changing the engine itself. A table posts
it as ``limits.big_blind_ante`` once the v1 contract carries that optional field; until
then only ``limits.ante`` (every player antes) can be configured.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from services.events.contract import Limits, TableConfigured
from services.games.betting import BettingConfig, BettingHand, OwedPost, RoundSpec, RuleIds
from services.games.holdem.profile import HoldemProfile
from services.games.model import HandRejected

ROUND_NAMES = ("pre-flop", "flop", "turn", "river")
RULE = "TH-1"


@dataclass(frozen=True)
class Antes:
    """The antes a table posts: ``each`` from every player dealt in, ``big_blind`` once
    for the whole table by the big blind."""

    each: int
    big_blind: int


def posted_antes(limits: Limits) -> Antes:
    """TH-1: antes per the table configuration (``big_blind_ante`` when the contract has
    the field; absent, it is zero)."""
    big_blind_ante = getattr(limits, "big_blind_ante", None)
    return Antes(each=limits.ante or 0,
                 big_blind=int(big_blind_ante) if big_blind_ante is not None else 0)


def betting_config(config: TableConfigured, prof: HoldemProfile) -> BettingConfig:
    """The table's posted structure, blinds, antes and bet sizes as engine configuration.

    TH-1: blinds, antes or both per table configuration. The big blind is
    ``limits.big_blind`` (else ``small_bet``, else ``min_wager`` when the table posts a
    small blind); the small blind is posted or a fraction of the big blind. A table with
    antes and no blinds opens the first round left of the button.
    FCD-8 (via TH-1): fixed limit uses the small bet pre-flop and on the flop and the big
    bet (posted, or ``big_bet_multiple`` small bets) on the turn and river; pot and no
    limit use the big blind as the minimum bet of every round.
    """
    if config.structure is None:
        raise HandRejected(RULE, "the table configuration posts no betting structure")
    limits = config.limits
    has_blinds = limits.big_blind is not None or limits.small_blind is not None
    big_blind = _first_set(limits.big_blind, limits.small_bet, limits.min_wager) if has_blinds \
        else 0
    small_blind = (limits.small_blind if limits.small_blind is not None else
                   big_blind * prof.small_blind_numerator // prof.small_blind_denominator)
    small_bet = _first_set(limits.small_bet, big_blind or None, limits.min_wager)
    big_bet = _first_set(limits.big_bet, small_bet * prof.big_bet_multiple)
    if config.structure == "fixed":
        units = (small_bet, small_bet, big_bet, big_bet)
    else:
        minimum = big_blind or small_bet
        units = (minimum,) * 4
    return BettingConfig(
        structure=config.structure,
        rounds=tuple(RoundSpec(name, unit, RULE) for name, unit in zip(ROUND_NAMES, units,
                                                                     strict=True)),
        small_blind=small_blind,
        big_blind=big_blind,
        ante=posted_antes(limits).each,
        first_round_blinds=has_blinds,
        max_bets_per_round=prof.max_bets_per_round,
        big_blind_counts_as_bet=prof.big_blind_counts_as_bet,
        pot_limit_reading=prof.pot_limit_reading,
        rules=RuleIds(blinds=RULE, sizes=RULE, stakes="GEN-2"),
    )


def _first_set(*values: int | None) -> int:
    return next((v for v in values if v is not None), 0)


class HoldemBetting(BettingHand):
    """The shared engine plus the big-blind ante (posted first, as dead money, by the big
    blind; the big blind itself is then capped at what the seat has left)."""

    def __init__(self, config: BettingConfig, stacks: Mapping[int, int], button: int,
                 big_blind_ante: int = 0) -> None:
        super().__init__(config, stacks, button)
        if big_blind_ante > 0 and config.first_round_blinds:
            self._owe_big_blind_ante(big_blind_ante)

    def _owe_big_blind_ante(self, amount: int) -> None:
        seat = self.big_blind_seat
        stack = self.seats[seat].stack - self.config.ante
        ante = max(min(amount, stack), 0)
        owed: list[OwedPost] = []
        for post in self.owed:
            if post.kind == "post_big_blind" and post.seat == seat:
                post = OwedPost(post.kind, seat, max(min(post.amount, stack - ante), 0))
            owed.append(post)
        self.owed = [OwedPost("post_ante", seat, ante), *owed] if ante else owed
