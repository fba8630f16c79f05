"""A stacked deck (the ``stacked_deck`` pattern): chosen cards moved to the places the
deal will give to the cheat, the rest of the shuffle untouched."""

from __future__ import annotations

import random
from collections.abc import Sequence

from services.games.cards import STANDARD_DECK

RANKS = "23456789TJQKA"
SUITS = "cdhs"


def place_cards(deck: list[str], positions: Sequence[int], cards: Sequence[str]) -> None:
    """Swap each card into its position (cards and positions distinct): every other card
    stays where the shuffle put it, or takes the place a chosen card left."""
    for position, card in zip(positions, cards, strict=True):
        where = deck.index(card)
        deck[position], deck[where] = deck[where], deck[position]


def straight_or_better(rng: random.Random) -> list[str]:
    """Five cards making a straight (of any suits: now and then a straight flush), in a
    random order: ten-high to ace-high, the wheel included."""
    low = rng.randrange(-1, len(RANKS) - 4)  # -1: the wheel A-2-3-4-5
    ranks = [RANKS[i] for i in range(low, low + 5)]  # RANKS[-1] is the ace
    cards = [rank + rng.choice(SUITS) for rank in ranks]
    rng.shuffle(cards)
    return cards


def flush_hand(rng: random.Random, size: int, flush: int,
               taken: Sequence[str] = ()) -> list[str] | None:
    """``size`` cards of which ``flush`` share a suit, none of ``taken``, in random order
    (None when the cards left cannot make one)."""
    free = [c for c in STANDARD_DECK if c not in set(taken)]
    suits = [s for s in SUITS if sum(c[1] == s for c in free) >= flush]
    if not suits:
        return None
    suit = rng.choice(suits)
    suited = [c for c in free if c[1] == suit]
    others = [c for c in free if c[1] != suit]
    if len(others) < size - flush:
        return None
    cards = rng.sample(suited, flush) + rng.sample(others, size - flush)
    rng.shuffle(cards)
    return cards
