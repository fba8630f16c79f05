"""How a simulated hold'em player decides: a rough strength of its cards (pairs and high
cards before the flop, the made hand after it) and a choice among the legal options the
betting engine offers (fold weak hands to bets, call and raise good ones, bluff now and
then)."""

from __future__ import annotations

import random

from services.games.betting import LegalActions
from services.games.cards import rank_of
from services.games.evaluation.standard import best_rank, category
from services.simulator.styles import Style


def hole_strength(cards: list[str]) -> float:
    """0..1, a rough pre-flop value of the first two hole cards: pairs and high cards."""
    high, low = sorted((rank_of(c) for c in cards[:2]), reverse=True)
    if high == low:
        return 0.55 + high / 30
    suited = 0.05 if cards[0][1] == cards[1][1] else 0.0
    return (high + low) / 30 + suited


def made_strength(cards: list[str], board: list[str]) -> float:
    """0..1 from the category of the best five of hole cards and board."""
    order = ("high_card", "one_pair", "two_pair", "three_of_a_kind", "straight", "flush",
             "full_house", "four_of_a_kind", "straight_flush")
    name = category(best_rank([*cards[:2], *board]))
    return (order.index(name) + 1) / len(order) if name in order else 0.5


def choose(options: LegalActions, strength: float, rng: random.Random) -> tuple[str, int]:
    """(action kind, chips) among the legal options."""
    if options.can_check:
        if options.can_raise and rng.random() < strength * 0.6:
            return _raise(options, strength, rng, "bet")
        return "check", 0
    if rng.random() > strength + 0.25:
        return "fold", 0
    if options.can_raise and rng.random() < strength * 0.35:
        return _raise(options, strength, rng, "raise")
    kind = "all_in" if options.call >= options.stack else "call"
    return kind, options.call


def _raise(options: LegalActions, strength: float, rng: random.Random,
           kind: str) -> tuple[str, int]:
    low, high = options.raise_min, options.raise_max
    chips = low if rng.random() < 0.6 else rng.randint(low, max(low, min(high, low * 3)))
    if strength > 0.8 and rng.random() < 0.15:
        chips = high
    return ("all_in" if chips >= options.stack else kind), chips


# What a made hand is worth to a styled player (0..1): a pair is a fair hand, two pair
# and better are strong, a straight or better is nearly always played on.
STYLED_MADE_STRENGTH = {"high_card": 0.1, "one_pair": 0.45, "two_pair": 0.7,
                        "three_of_a_kind": 0.8, "straight": 0.88, "flush": 0.9,
                        "full_house": 0.95, "four_of_a_kind": 1.0, "straight_flush": 1.0}


def styled_strength(cards: list[str], board: list[str]) -> float:
    """A styled player's reading of its hand: ``hole_strength`` before the flop, then the
    made hand on the scale above (the game's own players keep ``made_strength``)."""
    if not board:
        return min(hole_strength(cards), 1.0)
    return STYLED_MADE_STRENGTH.get(category(best_rank([*cards[:2], *board])), 0.5)


def choose_styled(options: LegalActions, strength: float, style: Style, rng: random.Random,
                  pot: int = 0, heads_up: bool = False) -> tuple[str, int]:
    """``choose`` for a player of a style (``services.simulator.styles``): looseness adds
    to the chance of continuing against a bet, and so does a cheap price (a small bet into
    a big ``pot``: the call's share of the pot after it, under a third adds, above takes
    away); aggression scales betting and raising, and heads-up with nothing to call a
    player bets more often (a heads-up pot is there to be taken); bluffs bet or raise
    whatever the cards. ``strength``: ``styled_strength``."""
    if options.can_check:
        bet = style.aggression * (0.1 + 0.6 * strength + 0.25 * heads_up) + style.bluff
        if options.can_raise and rng.random() < min(bet, 0.95):
            return _raise(options, strength, rng, "bet")
        return "check", 0
    price = options.call / (pot + options.call) if pot + options.call else 0.5
    odds = min(max(0.6 - 1.8 * price, -0.3), 0.55)
    if rng.random() > strength + style.looseness + odds and rng.random() >= style.bluff:
        return "fold", 0
    raise_chance = style.aggression * strength * 0.4 + style.bluff
    if options.can_raise and rng.random() < min(raise_chance, 0.9):
        return _raise(options, strength, rng, "raise")
    kind = "all_in" if options.call >= options.stack else "call"
    return kind, options.call
