"""What SURV-3 and SURV-4 read from a poker hand (hold'em, Draw 7-A): every betting
decision with the situation it was taken in, what the decider could see, and what it
could not (the other players' cards, which the table's RFID log holds).

Why so much context: an honest player's choice depends on its situation and its cards,
not on who it faces. The per-decider null models (docs/surveillance.md, SURV-3 and SURV-4)
compare a player's decisions against one opponent with the same player's decisions
against the others *in the same situation*, so the situation is read here once:

- ``street``: the betting round (hold'em 0 pre-flop .. 3 river; Draw 7-A 0 before the
  draw, 1 after it); ``final``: the last round, where no card is to come; ``late``: at
  most one card to come (the turn too).
- ``facing``: chips to call; ``position``: ``first`` (no player still in the hand has
  acted on this street yet), ``checked_to`` (such a player checked before it),
  ``facing_blind`` (only the blinds to call: a spot to open, as the small blind's),
  ``facing`` (a bet or raise to call: a spot to defend, as the big blind's against a
  raise). An honest player opens far wider than it defends; with fixed seats it meets
  its right-hand neighbour heads-up in one of these spots and its left-hand one in the
  other, so the two in one stratum accused an honest pair of soft play (QA).
- ``can_raise``: the decider could bet or raise at all: it had chips beyond the call,
  and an opponent still in had chips left to answer with. A call of an all-in, or an
  all-in call for less, is no choice not to raise (QA: counted as one, it made soft play
  of a player facing all-ins).
- ``strength``: the decider's own hand class: its cards' category with the board (high
  card .. straight flush, 0..8); pre-flop hold'em, the two hole cards' class.
- ``price``: the pot odds of a call, in four classes (the call's share of the pot after
  it: under 1/8, 1/4, 1/3, or more).
- ``bettor``: the seat that made the bet or raise it faces (the last to raise the level
  on this street; a blind counts); ``ahead``: whether the decider's hand beats the
  bettor's at that moment (None when a card is unread).
- ``invested``: chips the decider had put in the hand before deciding (posts included).

Betting amounts are the chips each action adds (events.md ``action``). Blinds set the
pre-flop level; antes are dead money.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from services.events.contract import (
    ActionEvent,
    CardDealtEvent,
    CardMovedEvent,
    DrawEvent,
    HandStartedEvent,
)
from services.games.cards import rank_of
from services.games.draw7a import evaluation as short_deck
from services.games.evaluation.standard import best_rank

VOLUNTARY = frozenset({"fold", "check", "call", "bet", "raise", "all_in"})
POSTS = frozenset({"post_small_blind", "post_big_blind"})


class PokerDecision(NamedTuple):
    """One decision and its situation. A named tuple, not a frozen dataclass: a hold'em
    hand has about forty of them, and the dataclass's construction (a checked attribute
    write per field, sixteen fields) was a fifth of reading a hand's decisions."""

    seat: int
    game: str
    action: str
    street: int
    final: bool
    position: str  # "first", "checked_to", "facing"
    to_call: int
    put_in: int  # chips this action added
    invested: int  # chips in the hand before it
    pot: int  # chips in the pot before it
    live: tuple[int, ...]  # seats still in the hand before it (the decider included)
    aggressive: bool  # raised the bet level
    can_raise: bool  # chips beyond the call, and an opponent in with chips to answer
    strength: int
    bettor: int | None
    ahead: bool | None  # beats the bettor's hand now (facing decisions with every card read)
    beaten_by: frozenset[int]  # live opponents whose hand beats the decider's now

    @property
    def facing(self) -> bool:
        return self.to_call > 0

    @property
    def late(self) -> bool:
        """At most one card to come: the hold'em turn and river, Draw 7-A after the draw."""
        return self.final or self.street == 2

    @property
    def price(self) -> int:
        """Pot odds of calling, in four classes: the call's share of the pot after it,
        under 1/8, 1/4, 1/3, or more (0 cheap .. 3 dear; 0 with nothing to call)."""
        if not self.to_call:
            return 0
        share = self.to_call * 24 // (self.pot + self.to_call)
        return 0 if share < 3 else 1 if share < 6 else 2 if share < 8 else 3

    @property
    def opponent(self) -> int | None:
        """The other live seat when exactly two are left."""
        others = [s for s in self.live if s != self.seat]
        return others[0] if len(others) == 1 else None


@dataclass
class _Reading:
    game: str
    deck: int
    hole: dict[int, list[str | None]] = field(default_factory=dict)
    board: list[str] = field(default_factory=list)
    street: int = 0
    total: dict[int, int] = field(default_factory=dict)
    in_street: dict[int, int] = field(default_factory=dict)
    level: int = 0
    raiser: int | None = None
    level_posted: bool = False  # the level is a blind's (no bet or raise on this street)
    stacks: dict[int, int] = field(default_factory=dict)  # at hand_started
    acted: set[int] = field(default_factory=set)
    folded: set[int] = field(default_factory=set)
    dealt_in: tuple[int, ...] = ()
    out: list[PokerDecision] = field(default_factory=list)
    values: dict[int, int | None] = field(default_factory=dict)  # until a card moves

    # ------------------------------------------------------------ cards

    def dealt(self, e: CardDealtEvent) -> None:
        self.values.clear()
        d = e.data
        if d.to == "seat" and d.seat is not None:
            self.hole.setdefault(d.seat, []).append(d.card)
        elif d.to == "board" and d.card is not None:
            self.board.append(d.card)
            self._street(_holdem_street(len(self.board)))

    def moved(self, e: CardMovedEvent) -> None:
        self.values.clear()
        source = e.data.from_
        if source == "board" and e.data.card in self.board:
            self.board.remove(e.data.card)
        elif source.startswith("seat:"):
            cards = self.hole.get(int(source[5:]), [])
            if e.data.card in cards:
                cards.remove(e.data.card)

    def drew(self, e: DrawEvent) -> None:
        self.values.clear()
        cards = self.hole.setdefault(e.data.seat, [])
        for card in e.data.discarded:
            if card in cards:
                cards.remove(card)
        cards.extend(e.data.received)
        self._street(1)

    def _street(self, street: int) -> None:
        if street != self.street:
            self.street, self.in_street, self.level = street, {}, 0
            self.raiser, self.acted, self.level_posted = None, set(), False

    # ------------------------------------------------------------ values

    def value(self, seat: int) -> int | None:
        """Rank code of the seat's hand now (higher is better), None if a card is unread."""
        values = self.values
        if seat in values:
            return values[seat]
        value = values[seat] = self._value(seat)
        return value

    def _value(self, seat: int) -> int | None:
        cards = self.hole.get(seat, [])
        if any(c is None for c in cards) or not cards:
            return None
        known = [c for c in cards if c is not None]
        if self.game == "draw7a":
            return short_deck.rank5(known, self.deck) if len(known) == 5 else None
        if len(known) != 2:
            return None
        if len(self.board) < 3:
            return _preflop_value(known)
        return best_rank([*known, *self.board])

    def strength(self, seat: int) -> int:
        value = self.value(seat)
        if value is None:
            return -1
        if self.game == "holdem" and len(self.board) < 3:
            return _preflop_class(value)
        return value >> 20  # the category, 0 high card .. 8 straight flush

    # ------------------------------------------------------------ betting

    def action(self, e: ActionEvent) -> None:
        seat, kind, chips = e.data.seat, e.data.action, e.data.amount or 0
        if kind == "post_ante":
            self.total[seat] = self.total.get(seat, 0) + chips
            return
        if kind in POSTS:
            self._put(seat, chips)
            if self.in_street[seat] > self.level:
                self.level, self.raiser, self.level_posted = self.in_street[seat], seat, True
            return
        if kind == "stand" and self.game == "draw7a":
            self._street(1)
            return
        if kind not in VOLUNTARY:
            return
        self._decide(seat, kind, chips)

    def _decide(self, seat: int, kind: str, chips: int) -> None:
        to_call = max(self.level - self.in_street.get(seat, 0), 0)
        live = tuple(s for s in self.dealt_in if s not in self.folded)
        acted = self.acted
        others_acted = any(s != seat and s in acted for s in live)
        position = (("facing_blind" if self.level_posted else "facing") if to_call
                    else ("checked_to" if others_acted else "first"))
        can_raise = self._behind(seat) > to_call and any(
            self._behind(s) > 0 for s in live if s != seat)
        mine = self.value(seat)
        bettor = self.raiser if to_call and self.raiser != seat else None
        ahead = None
        theirs = self.value(bettor) if bettor is not None else None
        if mine is not None and theirs is not None:
            ahead = mine > theirs
        beaten = frozenset(s for s in live if s != seat and mine is not None
                           and (v := self.value(s)) is not None and v > mine)
        invested = self.total.get(seat, 0)
        pot = sum(self.total.values())
        self._put(seat, chips)
        raised = self.in_street.get(seat, 0) > self.level
        if raised:
            self.level, self.raiser, self.level_posted = self.in_street[seat], seat, False
        self.out.append(PokerDecision(
            seat=seat, game=self.game, action=kind, street=self.street, final=self._final(),
            position=position, to_call=to_call, put_in=chips, invested=invested, pot=pot, live=live,
            aggressive=raised and kind != "fold", can_raise=can_raise,
            strength=self.strength(seat),
            bettor=bettor, ahead=ahead, beaten_by=beaten))
        self.acted.add(seat)
        if kind == "fold":
            self.folded.add(seat)

    def _behind(self, seat: int) -> int:
        """Chips the seat has not put in the hand yet (antes and posts included)."""
        return self.stacks.get(seat, 0) - self.total.get(seat, 0)

    def _put(self, seat: int, chips: int) -> None:
        self.total[seat] = self.total.get(seat, 0) + chips
        self.in_street[seat] = self.in_street.get(seat, 0) + chips

    def _final(self) -> bool:
        return self.street == (1 if self.game == "draw7a" else 3)


def hand_class(d: PokerDecision) -> str:
    """weak / fair / strong: pre-flop, a non-pair below class 5 / a better non-pair / a
    pair; after it, high card / one pair / two pair or better. Few classes on purpose: a
    per-decider test compares a player with itself in the same class, and a baseline
    split into many classes fills in slowly (and a pattern's own decisions then make
    most of their stratum, which hides them)."""
    if d.street == 0 and d.strength >= 0 and d.game == "holdem":
        return "strong" if d.strength >= 10 else "fair" if d.strength >= 5 else "weak"
    return "strong" if d.strength >= 2 else "fair" if d.strength == 1 else "weak"


def _holdem_street(board_cards: int) -> int:
    return 0 if board_cards < 3 else min(board_cards - 2, 3)


def _preflop_value(cards: Sequence[str]) -> int:
    """A class of two hole cards, higher is better: pairs above every non-pair, then
    the higher card, the lower one and suitedness (what a player sees before the flop)."""
    high, low = sorted((rank_of(c) for c in cards), reverse=True)
    if high == low:
        return 100 + high
    return high * 4 + (low >= 10) * 2 + (cards[0][1] == cards[1][1])


def _preflop_class(value: int) -> int:
    """Ten classes of ``_preflop_value``: four of pairs (2-3, 4-7, 8-J, Q-A), six of the
    two cards' rank sum (a coarse scale, as a player judges a starting hand)."""
    if value >= 100:
        return 10 + (value - 100) // 4
    high, low_is_ten_up = value // 4, value % 4 >= 2
    return min((high + (10 if low_is_ten_up else 5)) // 4, 6)


def poker_decisions(events: Iterable[object], game: str) -> list[PokerDecision]:
    """Every voluntary betting decision of one hold'em or Draw 7-A hand, in order."""
    reading: _Reading | None = None
    for e in events:
        if isinstance(e, HandStartedEvent):
            reading = _Reading(game, e.data.deck,
                               dealt_in=tuple(sorted(s.seat for s in e.data.seats)),
                               stacks={s.seat: s.stack for s in e.data.seats})
        elif reading is not None:
            # By the event's exact type (the contract's structs are never subclassed): one
            # lookup where a chain of isinstance tests ran for each of a hand's events.
            read = _READERS.get(type(e))
            if read is not None:
                read(reading, e)
    return reading.out if reading is not None else []


_READERS: dict[type, Callable[[_Reading, Any], None]] = {
    ActionEvent: _Reading.action,
    CardDealtEvent: _Reading.dealt,
    CardMovedEvent: _Reading.moved,
    DrawEvent: _Reading.drew,
}
