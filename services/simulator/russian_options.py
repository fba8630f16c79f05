"""A simulated Russian Poker table with ``pitwatch simulate``'s options: the dealer pool,
sweethearting and drift (payout edits), a box shown the dealer's cards
(``information_sharing``) and a stacked deck (``stacked_deck``). Without options none
of these hooks draws a random number or changes an event.

Information sharing, as the box plays it when it sees (with the pattern's strength per
hand): it plays exactly when the dealer does not qualify or its hand beats the dealer's
(RP-3), insures its three of a kind or better exactly when the dealer does not qualify
(RP-4), and buys the dealer's game exactly when the replacement card (which it is shown
too) makes the dealer qualify with a hand it beats (RP-6).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from services.games.cards import rank_of
from services.games.evaluation.standard import best_five
from services.games.russian.evaluation import compare, paytable_category
from services.simulator.options import TableOptions
from services.simulator.patterns import TablePatterns
from services.simulator.stacking import place_cards, straight_or_better

if TYPE_CHECKING:
    from services.simulator.russian import Box, HandRun

# RP-4: insurance is open to three of a kind or better (the paytable order, best first).
INSURABLE = ("royal_flush", "straight_flush", "four_of_a_kind", "full_house", "flush",
             "straight", "three_of_a_kind")


@dataclass
class RussianExtras:
    options: TableOptions
    patterns: TablePatterns
    sees: bool = False  # this hand, the cheat is shown the dealer's cards


def extras_for(options: TableOptions, table_id: str,
               seated: list[str]) -> RussianExtras | None:
    if not options.patterns:
        return None
    patterns = TablePatterns(options, table_id)
    for player in seated:
        patterns.seated(player)
    return RussianExtras(options, patterns)


def _qualifies(cards: list[str]) -> bool:
    return paytable_category(cards) != "nothing"


def _best(cards: list[str]) -> tuple[str, ...]:
    return best_five(cards)[1]


class Cheat:
    """The box that is shown the dealer's cards, for one hand."""

    def __init__(self, extras: RussianExtras, run: HandRun, box: Box) -> None:
        self.extras, self.run, self.box = extras, run, box

    def plays(self) -> bool:
        dealer = self.run.dealer
        return not _qualifies(dealer) or compare(_best(self.box.cards), dealer) > 0

    def insures(self) -> bool:
        return (paytable_category(_best(self.box.cards)) in INSURABLE
                and not _qualifies(self.run.dealer))

    def buys(self) -> bool:
        """Whether the replacement the dealer would draw (RP-6) wins for the box."""
        dealer, deck = self.run.dealer, list(self.run.deck)
        removed = max(dealer, key=rank_of)
        rest = [c for c in dealer if c != removed]
        while deck:
            received = deck.pop()
            if rank_of(received) != rank_of(removed) or _qualifies([*rest, received]):
                new = [*rest, received]
                return _qualifies(new) and compare(_best(self.box.cards), new) > 0
        return False


def start_hand(extras: RussianExtras | None, run: HandRun, hand_id: str,
               dealer: str) -> Cheat | None:
    """The hand's cheat, if the cheat's box is dealt in and sees this hand; stacks the
    deck for the stacked-deck cheat."""
    if extras is None:
        return None
    patterns = extras.patterns
    patterns.dealing(dealer)
    cheat_id = patterns.player(0)
    box = next((b for b in run.boxes if b.player_id == cheat_id), None)
    if box is None:
        return None
    if (patterns.active("stacked_deck")
            and patterns.rng.random() < patterns.strength("stacked_deck")):
        _stack(run, box, patterns, hand_id)
    if (patterns.active("information_sharing")
            and patterns.rng.random() < patterns.strength("information_sharing")):
        patterns.label("information_sharing", hand_id, box.seat,
                       f"seat {box.seat} sees the dealer's cards", [box.player_id])
        return Cheat(extras, run, box)
    return None


def _stack(run: HandRun, box: Box, patterns: TablePatterns, hand_id: str) -> None:
    """RP-1 deals one card at a time, boxes then the dealer: the box's cards are the
    pops ``round * (boxes + 1) + index`` from the end of the deck."""
    cards = straight_or_better(patterns.rng)
    index = run.boxes.index(box)
    positions = [len(run.deck) - 1 - (r * (len(run.boxes) + 1) + index) for r in range(5)]
    place_cards(run.deck, positions, cards)
    patterns.label("stacked_deck", hand_id, box.seat,
                   f"seat {box.seat} dealt {' '.join(cards)}", [box.player_id])


def finish_hand(extras: RussianExtras | None, hand_id: str, dealer: str,
                seats: dict[int, str], events: list[tuple[str, dict[str, Any]]]) -> None:
    if extras is not None:
        extras.patterns.edit_payouts(hand_id, dealer, seats, events)
