"""What SURV-5 reads from a Russian Poker hand: each box's decisions, what the box could
see when it made them, and the hidden outcome each decision met.

Three decisions (docs/surveillance.md, SURV-5):

- ``play_fold`` (RP-3): "yes" = fold; outcome = the dealer qualifies (RP-5). Stratum: the
  dealer's up-card rank and the box's RP-7 paytable line when it decided.
- ``insurance`` (RP-4): among playing boxes of three of a kind or better, "yes" = the box
  placed an insurance wager; outcome = the dealer does not qualify (insurance wins exactly
  then). Stratum: the up-card rank and the box's paytable line.
- ``buy_dealer_game`` (RP-6): among boxes choosing after a non-qualifying dealer, "yes" =
  bought; outcome = "buying won": after the replacement the dealer qualifies and the box's
  best five beat him. Observable only when the dealer did replace a card (some box
  bought); a box that declined is scored against that same new hand. The box sees the
  dealer's five cards, so its stratum is its own line and its exact chance of winning by
  buying: ``w/m``, where ``m`` counts the cards it has not seen that the dealer would keep
  (a card of the replaced rank that completes no combination is burned, RP-6) and ``w``
  those that make him qualify with a hand the box beats. Decisions with equal chances
  meet the outcome with equal probability whatever else the box saw, so an honest rule,
  however it reads the dealer's cards, is independent of the outcome within a stratum.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Literal

from services.events.contract import (
    ActionEvent,
    CardDealtEvent,
    DealerReplacedCardEvent,
    DrawEvent,
    Event,
    WagerEvent,
)
from services.games.cards import STANDARD_DECK, rank_of
from services.games.evaluation.standard import rank5
from services.games.russian.dealer_game import highest_card, new_dealer_cards
from services.games.russian.evaluation import (
    compare,
    dealer_qualifies,
    paytable_category,
)
from services.games.russian.profile import PAYTABLE_CATEGORIES

DecisionKind = Literal["play_fold", "insurance", "buy_dealer_game"]
DECISION_KINDS: tuple[DecisionKind, ...] = ("play_fold", "insurance", "buy_dealer_game")
# RP-4: insurance is open to three of a kind or better.
INSURABLE = frozenset(PAYTABLE_CATEGORIES[:PAYTABLE_CATEGORIES.index("three_of_a_kind") + 1])


@dataclass(frozen=True)
class Decision:
    kind: DecisionKind
    seat: int
    chose: bool  # folded / insured / bought
    outcome: bool  # dealer qualified / dealer did not qualify / buying won
    stratum: tuple[str, ...]


def best_five(cards: Sequence[str]) -> tuple[str, ...] | None:
    """The box's five cards, or the best five of six (RP-2 bought sixth card)."""
    if len(cards) == 5:
        return tuple(cards)
    if len(cards) == 6:
        return max(combinations(cards, 5), key=rank5)
    return None


@dataclass
class _Hand:
    """One pass over the events: the boxes' cards and choices, the dealer's cards."""

    holding: dict[int, list[str]] = field(default_factory=dict)
    seen: dict[int, set[str]] = field(default_factory=dict)  # every card a box held
    dealer: list[str | None] = field(default_factory=list)
    up: list[str] = field(default_factory=list)
    play_fold: dict[int, tuple[bool, str]] = field(default_factory=dict)  # folded, line
    insured: set[int] = field(default_factory=set)
    buying: dict[int, tuple[bool, tuple[str, ...], frozenset[str]]] = field(
        default_factory=dict)  # bought, best five, cards seen
    replaced: DealerReplacedCardEvent | None = None

    def read(self, e: Event) -> None:
        if isinstance(e, CardDealtEvent):
            self._dealt(e)
        elif isinstance(e, DrawEvent):
            cards = self.holding.setdefault(e.data.seat, [])
            for card in e.data.discarded:
                if card in cards:
                    cards.remove(card)
            cards.extend(e.data.received)
            self.seen.setdefault(e.data.seat, set()).update(e.data.received)
        elif isinstance(e, ActionEvent):
            self._action(e.data.seat, e.data.action)
        elif (isinstance(e, WagerEvent) and e.data.kind == "insurance"
              and e.data.seat is not None):
            self.insured.add(e.data.seat)  # RP-4 (late or not: LATE_INSURANCE is per hand)
        elif isinstance(e, DealerReplacedCardEvent) and self.replaced is None:
            self.replaced = e

    def _dealt(self, e: CardDealtEvent) -> None:
        if e.data.to == "dealer" and len(self.dealer) < 5:
            self.dealer.append(e.data.card)
            if e.data.face_up and e.data.card is not None:
                self.up.append(e.data.card)
        elif e.data.to == "seat" and e.data.seat is not None and e.data.card is not None:
            self.holding.setdefault(e.data.seat, []).append(e.data.card)
            self.seen.setdefault(e.data.seat, set()).add(e.data.card)

    def _action(self, seat: int, action: str) -> None:
        five = best_five(self.holding.get(seat, []))
        if five is None:
            return
        if action in ("fold", "play") and seat not in self.play_fold and len(self.up) == 1:
            self.play_fold[seat] = (action == "fold", paytable_category(five))  # RP-3
        elif action in ("buy_dealer_game", "decline_dealer_game") and seat not in self.buying:
            self.buying[seat] = (action == "buy_dealer_game", five,
                                 frozenset(self.seen.get(seat, ())))  # RP-6


def buying_chances(box: Sequence[str], dealer: Sequence[str],
                   seen: Iterable[str]) -> tuple[int, int]:
    """(w, m): of the ``m`` cards the box has not seen that the dealer would keep as his
    replacement, ``w`` make him qualify with a hand the box's five beat (RP-6)."""
    removed = highest_card(tuple(dealer))
    rest = [c for c in dealer if c != removed]
    unseen = set(STANDARD_DECK) - set(seen) - set(dealer)
    wins = possible = 0
    for card in sorted(unseen):
        hand = (*rest, card)
        if rank_of(card) == rank_of(removed) and not dealer_qualifies(hand):
            continue  # burned and another drawn (RP-6)
        possible += 1
        wins += dealer_qualifies(hand) and compare(box, hand) > 0
    return wins, possible


def russian_decisions(events: Iterable[Event]) -> list[Decision]:
    """The boxes' play/fold, insurance and buying decisions in one hand; none unless the
    dealer's five cards and his one up card are all known."""
    hand = _Hand()
    for e in events:
        hand.read(e)
    if len(hand.dealer) != 5 or len(hand.up) != 1 or any(c is None for c in hand.dealer):
        return []
    dealer = tuple(c for c in hand.dealer if c is not None)
    qualifies = dealer_qualifies(dealer)
    up_rank = hand.up[0][0]
    out = [Decision("play_fold", seat, folded, qualifies, (up_rank, line))
           for seat, (folded, line) in hand.play_fold.items()]
    out += [Decision("insurance", seat, seat in hand.insured, not qualifies, (up_rank, line))
            for seat, (folded, line) in hand.play_fold.items()
            if not folded and line in INSURABLE]
    if not qualifies and hand.replaced is not None:
        new = new_dealer_cards(dealer, hand.replaced.data)
        won = dealer_qualifies(new)
        for seat, (bought, five, seen) in hand.buying.items():
            wins, possible = buying_chances(five, dealer, seen)
            out.append(Decision("buy_dealer_game", seat, bought,
                                won and compare(five, new) > 0,
                                (paytable_category(five), f"{wins}/{possible}")))
    return out
