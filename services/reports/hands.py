"""Each seat's final hand and its rank in words, read from the events of any game.

Why generic: the cards a seat ends with follow from the same few events in every game
(``card_dealt``, ``draw``, ``card_moved`` away from a seat, ``hand_set``, ``showdown``,
``dealer_replaced_card``), so one tracker serves all five games. Only the words for the
rank are game-specific, and they come from the game's evaluator (``describers``). A game
with no describer here, or a hand the evaluator cannot rank (too few cards, a card dealt
face down and never read), is shown as its list of cards: never guessed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from services.events.contract import (
    ActionEvent,
    CardDealtEvent,
    CardMovedEvent,
    DealerReplacedCardEvent,
    DrawEvent,
    Event,
    HandSetEvent,
    HandStartedEvent,
    ShowdownEvent,
)
from services.games.chinese import evaluation as chinese
from services.games.draw7a import evaluation as short_deck
from services.games.evaluation import standard
from services.games.hcf import evaluation as flush
from services.games.russian import evaluation as russian_eval


@dataclass
class FinalHand:
    """One holder's cards at the end of the hand and what they make."""

    holder: str  # "seat 3", "dealer", "board"
    seat: int | None
    player: str | None
    cards: list[str | None]
    segments: dict[str, list[str]] = field(default_factory=dict)  # Chinese: front/middle/back
    shown: list[str] | None = None
    folded: bool = False
    description: str | None = None
    best_five: tuple[str, ...] = ()


@dataclass
class _Tracker:
    seats: dict[int, list[str | None]] = field(default_factory=dict)
    players: dict[int, str] = field(default_factory=dict)
    dealer: list[str | None] = field(default_factory=list)
    board: list[str] = field(default_factory=list)
    segments: dict[int, dict[str, list[str]]] = field(default_factory=dict)
    shown: dict[int | str, list[str]] = field(default_factory=dict)
    folded: set[int] = field(default_factory=set)
    designated: int | None = None
    deck: int = 52

    def feed(self, event: Event) -> None:
        if isinstance(event, HandStartedEvent):
            self.players = {s.seat: s.player_id for s in event.data.seats}
            self.designated = event.data.designated_player
            self.deck = event.data.deck
        elif isinstance(event, CardDealtEvent):
            self._dealt(event)
        elif isinstance(event, DrawEvent):
            held = self.seats.setdefault(event.data.seat, [])
            for card in event.data.discarded:
                _remove(held, card)
            held.extend(event.data.received)
        elif isinstance(event, CardMovedEvent):
            self._moved(event)
        elif isinstance(event, DealerReplacedCardEvent):
            _remove(self.dealer, event.data.removed)
            self.dealer.append(event.data.received)
        elif isinstance(event, HandSetEvent):
            d = event.data
            self.segments[d.seat] = {"front": list(d.front), "middle": list(d.middle),
                                     "back": list(d.back)}
        elif isinstance(event, ShowdownEvent) and event.data.cards:
            key: int | str = event.data.seat
            if key == "designated" and self.designated is not None:
                key = self.designated
            self.shown[key] = list(event.data.cards)
        elif isinstance(event, ActionEvent) and event.data.action == "fold":
            self.folded.add(event.data.seat)

    def _dealt(self, event: CardDealtEvent) -> None:
        d = event.data
        if d.to == "seat" and d.seat is not None:
            self.seats.setdefault(d.seat, []).append(d.card)
        elif d.to == "dealer":
            self.dealer.append(d.card)
        elif d.to == "board" and d.card is not None:
            self.board.append(d.card)

    def _moved(self, event: CardMovedEvent) -> None:
        d = event.data
        if d.from_.startswith("seat:"):
            _remove(self.seats.get(int(d.from_[5:]), []), d.card)
        elif d.from_ == "board" and d.card in self.board:
            self.board.remove(d.card)
        if d.to == "board":
            self.board.append(d.card)


def _remove(held: list[str | None], card: str) -> None:
    """Take ``card`` out of a holding (a face-down unread card stands in for it)."""
    if card in held:
        held.remove(card)
    elif None in held:
        held.remove(None)


Describer = Callable[[FinalHand, list[str], int], None]


def _known(cards: list[str | None]) -> list[str] | None:
    """The cards when every one of them was read, else None."""
    return None if any(c is None for c in cards) else [c for c in cards if c is not None]


def _describe_best_five(hand: FinalHand, board: list[str], deck: int) -> None:
    cards = _known(hand.cards)
    if cards is None or not 5 <= len(cards + board) <= 7:
        return
    code, five = standard.best_five(cards + board)
    hand.description, hand.best_five = standard.describe(code), five


def _describe_russian(hand: FinalHand, board: list[str], deck: int) -> None:
    cards = _known(hand.cards)
    if cards is None:
        return
    if len(cards) == 6:  # RP-8: the best five and the best other five
        best, second = russian_eval.two_combinations(cards)
        hand.best_five = best
        hand.description = standard.describe(standard.rank5(best))
        if second is not None:
            hand.description += (" and, second combination (RP-8), "
                                 + standard.describe(standard.rank5(second)))
        return
    _describe_best_five(hand, [], deck)


def _describe_draw7a(hand: FinalHand, board: list[str], deck: int) -> None:
    cards = _known(hand.cards)
    if cards is None or len(cards) != 5 or deck not in (32, 36):
        return
    hand.description = short_deck.describe(short_deck.rank5(cards, deck))
    hand.best_five = tuple(cards)


def _describe_chinese(hand: FinalHand, board: list[str], deck: int) -> None:
    if not hand.segments:
        return
    hand.description = "; ".join(
        f"{name}: {chinese.describe(chinese.segment_rank(cards))}"
        for name, cards in hand.segments.items()
    )


def _describe_hcf(hand: FinalHand, board: list[str], deck: int) -> None:
    """HCF-6: the longest flush counts; described by the HCF module's own evaluator."""
    cards = _known(hand.cards)
    if cards is None or not cards:
        return
    hand.description = flush.describe_flush(flush.flush_value(cards))

DESCRIBERS: dict[str, Describer] = {
    "hcf": _describe_hcf,
    "russian": _describe_russian,
    "chinese": _describe_chinese,
    "draw7a": _describe_draw7a,
    "holdem": _describe_best_five,
}


def final_hands(events: list[Event], game: str | None) -> list[FinalHand]:
    """Every seat's (and the dealer's, and the board's) final cards, described."""
    tracker = _Tracker()
    for event in events:
        tracker.feed(event)
    hands: list[FinalHand] = []
    for seat in sorted(set(tracker.seats) | set(tracker.segments)):
        dealt = tracker.seats.get(seat, [])
        shown = tracker.shown.get(seat)
        cards: list[str | None] = list(shown) if shown and _known(dealt) is None else dealt
        hands.append(FinalHand(holder=f"seat {seat}", seat=seat,
                               player=tracker.players.get(seat), cards=cards,
                               segments=tracker.segments.get(seat, {}), shown=shown,
                               folded=seat in tracker.folded))
    if tracker.dealer or "dealer" in tracker.shown:
        shown = tracker.shown.get("dealer")
        dealer_cards = tracker.dealer
        cards = list(shown) if shown and _known(dealer_cards) is None else dealer_cards
        hands.append(FinalHand(holder="dealer", seat=None, player=None, cards=cards,
                               shown=shown))
    describe = DESCRIBERS.get(game or "")
    for hand in hands:
        if describe is not None:
            try:
                describe(hand, tracker.board if game == "holdem" else [], tracker.deck)
            except ValueError:  # cards the evaluator rejects (e.g. a duplicate): list them
                hand.description, hand.best_five = None, ()
    if tracker.board:
        hands.append(FinalHand(holder="board", seat=None, player=None,
                               cards=list(tracker.board)))
    return hands
