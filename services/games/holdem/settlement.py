"""Settle a hold'em hand whose antes are dead money (TH-1, TH-9, GEN-10).

The shared ``services.games.betting.settle`` builds the pots from what each seat put in,
antes included, so an ante is "matched" like a bet. That is right for antes every player
posts (house-v1 reading ``antes_dead_money = false``), but not for a *big-blind ante*:
one player pays the whole table's ante, nobody can match it, and it is dead money that
goes into the main pot. Counting it as a contribution would return it to the big blind
as an "uncalled bet" whenever the big blind is all-in. This module settles with dead
money: the pots are built from the live chips (bets and blinds), the dead antes are
added to the main pot, and then the engine's own rake and award steps run as in
``settle`` (uncalled bets back, rake off the top, pots to the best hands with the odd
chip left of the button).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Set

from services.games.betting import Pot, RakePolicy, Settlement, build_pots
from services.games.betting.settlement import rake_and_award


def settle_with_dead_money(
    contributions: Mapping[int, int],
    dead: Mapping[int, int],
    folded: Set[int],
    strengths: Mapping[int, int | None],
    button: int,
    rake: RakePolicy,
    stacks_left: Mapping[int, int] | None = None,
) -> Settlement:
    """``contributions``: every chip each seat put in; ``dead``: the part of it that was
    dead money (antes), which joins the main pot instead of forming layers."""
    seats: Sequence[int] = sorted(contributions)
    contenders = [s for s in seats if s not in folded]
    live = {s: contributions[s] - dead.get(s, 0) for s in seats}
    build = build_pots(live, folded, contenders)
    pots = _with_dead_money(list(build.pots), sum(dead.values()), contenders)
    return rake_and_award(build, pots, contributions, strengths, button, rake, stacks_left)


def _with_dead_money(pots: list[Pot], dead: int, contenders: Sequence[int]) -> list[Pot]:
    """Dead money joins the main pot (or is the only pot when nobody bet live chips).
    A contender all-in on its ante alone (no live chip: no layer holds it) is eligible
    for the dead money all the same: it is then a pot of its own, first, every contender
    eligible, ahead of the live chips' pots (QA: a big blind all-in on a big-blind ante
    could win nothing, and its correct payout was a MISPAY)."""
    if not dead:
        return pots
    everyone = tuple(sorted(contenders))
    if not pots or set(everyone) - set(pots[0].eligible):
        return [Pot(dead, everyone, 0), *pots]
    main = pots[0]
    return [Pot(main.amount + dead, main.eligible, main.level), *pots[1:]]
