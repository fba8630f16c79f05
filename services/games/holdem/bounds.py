"""What a hold'em hand with unknown showdown cards can still prove about the pots (TH-9).

When a contender's cards are unknown (not read at the deal, not shown) nobody can say
who won, but TH-9 (as FCD-11: each pot goes to the best *eligible* hand) still fixes a
lot, whatever those cards are:

- a seat that folded, or was never in the hand, is eligible for no pot: it gets back at
  most its uncalled bet;
- a seat wins only the pots its contribution reaches (its eligibility);
- a pot whose eligible hands are all known is settled exactly as if every card were
  known (side pots between two known hands, the usual case after a short all-in);
- a pot with an unknown hand in it goes to one of its unknown hands or to the best of
  its known ones: a known hand beaten by another known hand eligible for the same pot
  cannot win any of it.

So each seat's net before rake lies between what it surely gets (refund + its share of
the fully known pots) and that plus every uncertain pot it could win. A recorded result
outside these bounds is a mispay whoever won; inside them the hand stays unverified, so
an honest table is never accused.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from services.games.betting import Settlement
from services.games.betting.pots import Pot
from services.games.betting.showdown import PotAward, pot_winners, split_pot


def net_bounds(result: Settlement, contributions: Mapping[int, int],
               ranks: Mapping[int, int | None], unknown: Sequence[int],
               button: int) -> dict[int, tuple[int, int]]:
    """Per seat of ``contributions``, the least and the most net before rake TH-9 allows
    whatever the ``unknown`` seats hold. ``result``: the hand settled with the pots as
    they are after any rake from the pot (its awards' amounts and eligibility do not
    depend on who won); ``ranks``: the known hands' strengths (None: no claim).

    A fee taken out of the pot (GEN-10 reading ``fee_from = "pot"``) is in the awards
    already, and no seat's own chips paid it: the comparison adds nothing back to the
    recorded net then (``adjudicate.own_fee``), so the bounds are of the net as it is."""
    low = {seat: result.refunds.get(seat, 0) for seat in contributions}
    high = dict(low)
    for award in result.awards:
        if not award.amount:
            continue
        if any(seat in unknown for seat in award.eligible):
            for seat in possible_winners(award.eligible, ranks, unknown):
                high[seat] = high.get(seat, 0) + award.amount
        else:
            for seat, share in known_shares(award, ranks, button).items():
                low[seat] = low.get(seat, 0) + share
                high[seat] = high.get(seat, 0) + share
    base = {seat: -contributions.get(seat, 0) for seat in low}
    return {seat: (low[seat] + base[seat], high[seat] + base[seat]) for seat in sorted(low)}


def known_shares(award: PotAward, ranks: Mapping[int, int | None],
                 button: int) -> dict[int, int]:
    """A pot whose eligible hands are all known: to the best of them, split with the odd
    chip left of the button (FCD-11), exactly as when every card is known."""
    winners = pot_winners(Pot(award.amount, award.eligible, 0), ranks)
    return split_pot(award.amount, winners, button)


def possible_winners(eligible: Sequence[int], ranks: Mapping[int, int | None],
                     unknown: Sequence[int]) -> list[int]:
    """Who may win a pot with an unknown hand in it: its unknown hands and its best known
    ones. Every eligible seat when no known hand has a claim (the pot may then be split
    among them all if the unknown hand has none either): a bound must never be too tight."""
    known = [ranks[s] for s in eligible if s not in unknown and ranks.get(s) is not None]
    if not known:
        return list(eligible)
    best = max(rank or 0 for rank in known)
    return [s for s in eligible if s in unknown or ranks.get(s) == best]
