"""Read one Russian Poker hand's events into what each box and the dealer did, and when.

The settlement (``settlement``) and the procedure checks (``procedure``)
both need the same facts: each box's cards, decisions, draws, fees and wagers, the
dealer's cards and replacement, and the position of every step in the event order
("before any card is sold", "after the dealer's cards are turned"). Reading the events
once, here, keeps the two from ever disagreeing about what happened.

How a table records Russian Poker (the event mapping this module reads; docs/rules/russian.md):

- Ante: ``wager`` kind ``ante``. Bet: ``wager`` kind ``bet`` (with ``action`` ``play``).
  Insurance: ``wager`` kind ``insurance``.
- Draw decision (RP-2): ``action`` ``stand`` (keep five) or ``fold``; buying a sixth card
  or exchanging is declared by paying its price, ``collection`` kind ``buy_card`` /
  ``exchange`` to the house. The card(s) served: ``draw``.
- Dealer's cards turned: ``showdown`` with seat ``dealer``. Buying the dealer's game:
  ``action`` ``buy_dealer_game`` / ``decline_dealer_game``, the dealer's new card:
  ``dealer_replaced_card``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from services.events.contract import (
    ActionEvent,
    CardDealtEvent,
    CollectionEvent,
    DealerReplacedCard,
    DealerReplacedCardEvent,
    DrawEvent,
    Event,
    HandDeadEvent,
    HandStarted,
    HandStartedEvent,
    MisdealEvent,
    PayoutEvent,
    PlayerLeftEvent,
    ShowdownEvent,
    WagerCollectedEvent,
    WagerEvent,
)
from services.games.model import HandRejected


@dataclass(frozen=True)
class Placed:
    """Chips a box put down (a wager or a fee), where it sits in the event order."""

    index: int
    seq: int
    amount: int
    kind: str


@dataclass(frozen=True)
class Served:
    """One ``draw``: cards the box gave back and the cards the dealer served it."""

    index: int
    seq: int
    discarded: tuple[str, ...]
    received: tuple[str, ...]

    @property
    def is_buy(self) -> bool:
        """RP-2 buy: one extra card, nothing given back."""
        return not self.discarded and len(self.received) == 1

    @property
    def is_exchange(self) -> bool:
        """RP-2 exchange (of any size; the 2-to-5 limit is checked separately)."""
        return bool(self.discarded) and len(self.discarded) == len(self.received)

    @property
    def fee_kind(self) -> str:
        """The ``collection`` kind its price is recorded under."""
        return "buy_card" if not self.discarded else "exchange"


@dataclass(frozen=True)
class Step:
    """An ``action`` of a box (``stand``, ``fold``, ``play``, ``buy_dealer_game`` ...)."""

    index: int
    seq: int
    action: str


@dataclass
class Box:
    """Everything one box did in the hand, in event order."""

    seat: int
    dealt: list[tuple[int, str | None, bool]] = field(default_factory=list)
    antes: list[Placed] = field(default_factory=list)
    bets: list[Placed] = field(default_factory=list)
    insurances: list[Placed] = field(default_factory=list)
    fees: list[Placed] = field(default_factory=list)
    draws: list[Served] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    foreign: list[Placed] = field(default_factory=list)
    bonus_payouts: list[Placed] = field(default_factory=list)
    # What the table moved for the box's wagers, split as the rules split a settlement:
    # the insurance (RP-4: payouts kind insurance, less the insurance it collected) and
    # everything else (payouts of other kinds, less the Ante and Bet it collected).
    recorded_insurance: int = 0
    recorded_other: int = 0
    shown: tuple[str, ...] | None = None
    left_at: int | None = None

    def first_step(self, *actions: str) -> Step | None:
        return next((s for s in self.steps if s.action in actions), None)

    def dealt_cards(self) -> list[str | None]:
        return [card for _, card, _ in self.dealt]


@dataclass(frozen=True)
class BankerMove:
    """A chip movement that names a banker other than the house (GEN-8)."""

    seq: int
    seat: int
    amount: int
    what: str


@dataclass
class RussianHand:
    """The facts of one hand; indexes are positions in ``HandInput.events``."""

    started: HandStarted
    boxes: dict[int, Box]
    dealer_dealt: list[tuple[int, str | None, bool]]
    dealer_shown: tuple[str, ...] | None
    dealer_showdowns: list[tuple[int, tuple[str, ...]]]
    dealer_turned_at: int | None
    first_card_at: int | None
    replacements: list[tuple[int, int, DealerReplacedCard]]
    banker_moves: list[BankerMove]
    dead_reason: str | None
    events: tuple[Event, ...]

    def seq_of(self, index: int) -> int:
        return self.events[index].seq


def read_hand(events: tuple[Event, ...]) -> RussianHand:
    """One pass over the hand's events; raises ``HandRejected`` without ``hand_started``."""
    started_event = next((e for e in events if isinstance(e, HandStartedEvent)), None)
    if started_event is None:
        raise HandRejected("RP-1", "the hand has no hand_started event: no boxes to settle")
    hand = RussianHand(
        started=started_event.data,
        boxes={s.seat: Box(seat=s.seat) for s in started_event.data.seats},
        dealer_dealt=[],
        dealer_shown=None,
        dealer_showdowns=[],
        dealer_turned_at=None,
        first_card_at=None,
        replacements=[],
        banker_moves=[],
        dead_reason=None,
        events=events,
    )
    for index, event in enumerate(events):
        _read_event(hand, index, event)
    return hand


def _box(hand: RussianHand, seat: int) -> Box:
    """The box of ``seat``; a seat not dealt in still gets one so nothing is lost."""
    if seat not in hand.boxes:
        hand.boxes[seat] = Box(seat=seat)
    return hand.boxes[seat]


def _read_event(hand: RussianHand, index: int, event: Event) -> None:
    if isinstance(event, WagerEvent):
        _read_wager(hand, index, event)
    elif isinstance(event, CardDealtEvent):
        _read_card(hand, index, event)
    elif isinstance(event, CollectionEvent):
        c = event.data
        _box(hand, c.seat).fees.append(Placed(index, event.seq, c.amount, c.kind))
        if c.to != "house":
            hand.banker_moves.append(BankerMove(event.seq, c.seat, c.amount,
                                                f"a {c.kind} price paid to {c.to}"))
    elif isinstance(event, WagerCollectedEvent):
        _read_collected(hand, event)
    elif isinstance(event, DrawEvent):
        d = event.data
        _box(hand, d.seat).draws.append(
            Served(index, event.seq, tuple(d.discarded), tuple(d.received))
        )
    elif isinstance(event, ActionEvent):
        _box(hand, event.data.seat).steps.append(Step(index, event.seq, event.data.action))
    elif isinstance(event, ShowdownEvent):
        _read_showdown(hand, index, event)
    elif isinstance(event, DealerReplacedCardEvent):
        hand.replacements.append((index, event.seq, event.data))
    elif isinstance(event, PayoutEvent):
        _read_payout(hand, index, event)
    elif isinstance(event, PlayerLeftEvent):
        box = hand.boxes.get(event.data.seat)
        if box is not None and box.left_at is None:
            box.left_at = index
    elif isinstance(event, MisdealEvent | HandDeadEvent) and hand.dead_reason is None:
        hand.dead_reason = event.data.reason


def _read_collected(hand: RussianHand, event: WagerCollectedEvent) -> None:
    w = event.data
    box = _box(hand, w.seat)
    if w.kind == "insurance":
        box.recorded_insurance -= w.amount
    else:
        box.recorded_other -= w.amount
    if w.to != "house":
        hand.banker_moves.append(BankerMove(event.seq, w.seat, w.amount,
                                            f"a losing {w.kind} taken to {w.to}"))


def _read_payout(hand: RussianHand, index: int, event: PayoutEvent) -> None:
    p = event.data
    box = _box(hand, p.seat)
    if p.kind == "insurance":
        box.recorded_insurance += p.amount
    else:
        box.recorded_other += p.amount
    if p.kind == "bonus":
        _box(hand, p.seat).bonus_payouts.append(Placed(index, event.seq, p.amount, "bonus"))
    if p.source != "house":
        hand.banker_moves.append(BankerMove(event.seq, p.seat, p.amount,
                                            f"a {p.kind} payout from {p.source}"))


def _read_wager(hand: RussianHand, index: int, event: WagerEvent) -> None:
    w = event.data
    placed = Placed(index, event.seq, w.amount, w.kind)
    box = _box(hand, w.seat)
    if w.kind == "ante":
        box.antes.append(placed)
    elif w.kind == "bet":
        box.bets.append(placed)
    elif w.kind == "insurance":
        box.insurances.append(placed)
    else:
        # flush_bonus / sf_bonus / raise are other games' wagers: void at this table.
        box.foreign.append(placed)


def _read_card(hand: RussianHand, index: int, event: CardDealtEvent) -> None:
    d = event.data
    if hand.first_card_at is None:
        hand.first_card_at = index
    if d.to == "dealer":
        hand.dealer_dealt.append((index, d.card, d.face_up))
    elif d.to == "seat" and d.seat is not None:
        _box(hand, d.seat).dealt.append((index, d.card, d.face_up))


def _read_showdown(hand: RussianHand, index: int, event: ShowdownEvent) -> None:
    s = event.data
    if s.seat == "dealer":
        if hand.dealer_turned_at is None:
            hand.dealer_turned_at = index
        if s.cards:
            hand.dealer_shown = tuple(s.cards)
            hand.dealer_showdowns.append((index, tuple(s.cards)))
    elif isinstance(s.seat, int) and s.cards:
        _box(hand, s.seat).shown = tuple(s.cards)


def box_cards(box: Box) -> tuple[str, ...] | None:
    """The cards the box holds after its draws, or None when they were never read.

    Dealt cards (all read by the shoe) with every ``draw`` applied; when a dealt card was
    not read, the cards the box showed at the end.
    """
    dealt = box.dealt_cards()
    if dealt and all(card is not None for card in dealt):
        held = [card for card in dealt if card is not None]
        for served in box.draws:
            for card in served.discarded:
                if card in held:
                    held.remove(card)
            held.extend(served.received)
        return tuple(held)
    return box.shown


def rankable(cards: tuple[str, ...], whose: str) -> tuple[str, ...]:
    """``cards`` unchanged when they can be ranked; ``HandRejected`` when one repeats.

    GEN-1: the same card twice in one hand means a card was added or switched. The
    integrity check flags it for every hand; a hand that needs those cards ranked (a box
    that plays, the dealer facing one) cannot be settled at all, so it is rejected with
    the reason instead of failing inside the card evaluator.
    """
    repeated = sorted({card for card in cards if cards.count(card) > 1})
    if repeated:
        raise HandRejected("GEN-1", f"{whose} holds {' '.join(repeated)} twice "
                           f"({' '.join(cards)}): a card was added or switched, the hand "
                           "cannot be ranked")
    return cards


def first_five(box: Box) -> tuple[str, ...] | None:
    """The box's cards before any draw (RP-9 judges a bonus on these), if all were read."""
    dealt = box.dealt_cards()
    if dealt and all(card is not None for card in dealt):
        return tuple(card for card in dealt if card is not None)
    return None


def dealer_cards(hand: RussianHand) -> tuple[str, ...] | None:
    """The dealer's five cards as dealt, or as turned when a dealt card was not read."""
    dealt = [card for _, card, _ in hand.dealer_dealt]
    if dealt and all(card is not None for card in dealt):
        return tuple(card for card in dealt if card is not None)
    return hand.dealer_shown
