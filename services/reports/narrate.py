"""Each event in plain words, for the dispute report's timeline.

Why words: the report must be understandable without pitwatch or the event contract, so
"wager seat=3 kind=ante amount=10" becomes "Seat 3 (player P-17) places an Ante of 10
chips". Cards are returned separately so the template can draw them; the words name the
cards too when that makes the sentence complete. Player ids and other free text are left
as data: the template escapes them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from services.events.contract import (
    ActionEvent,
    AutoWinDeclaredEvent,
    CardDealtEvent,
    CardExposedEvent,
    CardMovedEvent,
    ChipsChangedEvent,
    CollectionEvent,
    DealerChangedEvent,
    DealerReplacedCardEvent,
    DesignatedPlayerOfferEvent,
    DrawEvent,
    Event,
    HandDeadEvent,
    HandEndedEvent,
    HandSetEvent,
    HandStartedEvent,
    MisdealEvent,
    PayoutEvent,
    PlayerLeftEvent,
    PlayerSeatedEvent,
    RakeCollectedEvent,
    ShowdownEvent,
    ShufflerAlarmEvent,
    StubReshuffledEvent,
    TableConfiguredEvent,
    WagerCollectedEvent,
    WagerEvent,
)
from services.reports.cards import card_text

WAGER_NAME = {
    "ante": "Ante", "flush_bonus": "Flush bonus", "sf_bonus": "Straight-flush bonus",
    "raise": "Raise", "bet": "Bet", "insurance": "Insurance",
}
ACTION_WORDS = {
    "fold": "folds", "check": "checks", "call": "calls", "bet": "bets", "raise": "raises",
    "all_in": "goes all in", "stand": "stands (keeps the cards)", "play": "plays",
    "buy_dealer_game": "buys the dealer's game", "decline_dealer_game":
    "declines to buy the dealer's game", "declare_board": "declares the board",
    "post_small_blind": "posts the small blind", "post_big_blind": "posts the big blind",
    "post_ante": "posts the ante",
}
AUTO_WIN_WORDS = {
    "dragon": "a Dragon (13 different ranks)", "six_pairs": "six pairs",
    "three_flushes": "three flushes", "three_straights": "three straights",
}


@dataclass(frozen=True)
class Line:
    """One timeline entry: words, and the cards it shows (None: face down, unrecorded)."""

    text: str
    cards: tuple[str | None, ...] = ()
    cards_caption: str = ""


def chips(amount: int) -> str:
    """"1 chip", "1,158 chips": thousands separated, as the report's tables print them."""
    return f"{amount:,} chip" if amount == 1 else f"{amount:,} chips"


class Narrator:
    """Turns events into lines; remembers who sits where (from ``hand_started``)."""

    def __init__(self, players: dict[int, str] | None = None) -> None:
        self.players: dict[int, str] = dict(players or {})

    def who(self, seat: int | None) -> str:
        if seat is None:
            return "nobody"
        player = self.players.get(seat)
        return f"seat {seat} ({player})" if player else f"seat {seat}"

    def subject(self, seat: int | None) -> str:
        """``who`` at the start of a sentence (only the first letter raised: ids keep case)."""
        text = self.who(seat)
        return text[:1].upper() + text[1:]

    def place(self, target: str) -> str:
        """A payout source / collection target in words."""
        if target.startswith("seat:"):
            return self.who(int(target[5:]))
        return {"house": "the house", "designated": "the designated player (banker)",
                "pot": "the pot"}.get(target, target)

    def dealt_to(self, event: CardDealtEvent) -> str:
        """Who or what received a dealt card, in words."""
        d = event.data
        return {"seat": self.who(d.seat), "dealer": "the dealer", "board": "the board",
                "burn": "the burn pile", "set_aside": "the set-aside pile"}[d.to]

    def line(self, event: Event) -> Line:
        handler = _HANDLERS.get(type(event))
        if handler is None:  # pragma: no cover - every contract type has a handler
            return Line(f"{event.__struct_config__.tag}")
        return handler(self, event)


def _table_configured(n: Narrator, e: TableConfiguredEvent) -> Line:
    d = e.data
    who = f"authorised by {d.authorized_by}" if d.authorized_by else "WITHOUT authorisation"
    return Line(f"Table configured for {d.game}: wagers {d.limits.min_wager}-"
                f"{d.limits.max_wager}, rake mode {d.rake.mode} (fee {d.rake.fee}), "
                f"rule profile {d.rule_profile}, {who}.")


def _player_seated(n: Narrator, e: PlayerSeatedEvent) -> Line:
    return Line(f"Player {e.data.player_id} sits at seat {e.data.seat} with "
                f"{chips(e.data.stack)}.")


def _player_left(n: Narrator, e: PlayerLeftEvent) -> Line:
    return Line(f"Player {e.data.player_id} leaves seat {e.data.seat} with "
                f"{chips(e.data.stack)}.")


def _chips_changed(n: Narrator, e: ChipsChangedEvent) -> Line:
    d = e.data
    verb = "added to" if d.amount >= 0 else "removed from"
    return Line(f"{chips(abs(d.amount))} {verb} the stack of {n.who(d.seat)} "
                f"({d.kind.replace('_', ' ')}).")


def _dealer_changed(n: Narrator, e: DealerChangedEvent) -> Line:
    return Line(f"Dealer {e.data.dealer_id} takes over the table.")


def _offer(n: Narrator, e: DesignatedPlayerOfferEvent) -> Line:
    answer = "accepts" if e.data.accepted else "declines"
    return Line(f"{n.subject(e.data.seat)} {answer} the designated-player position.")


def _hand_started(n: Narrator, e: HandStartedEvent) -> Line:
    d = e.data
    n.players = {s.seat: s.player_id for s in d.seats}
    seats = ", ".join(f"seat {s.seat} {s.player_id} ({chips(s.stack)})" for s in d.seats)
    dp = f", designated player seat {d.designated_player}" if d.designated_player else ""
    return Line(f"Hand starts. Dealer {d.dealer_id}, button seat {d.button}{dp}, "
                f"{d.deck}-card deck. In the hand: {seats}.")


def _wager(n: Narrator, e: WagerEvent) -> Line:
    d = e.data
    name = WAGER_NAME[d.kind]
    article = "an" if name[0] in "AEIOU" else "a"
    return Line(f"{n.subject(d.seat)} places {article} {name} of "
                f"{chips(d.amount)}.")


def _card_dealt(n: Narrator, e: CardDealtEvent) -> Line:
    d = e.data
    face = "face up" if d.face_up else "face down"
    what = card_text(d.card) if d.card else "a card (not read by the shoe)"
    return Line(f"Card {what} dealt {face} to {n.dealt_to(e)}.", (d.card,))


def _card_exposed(n: Narrator, e: CardExposedEvent) -> Line:
    d = e.data
    holder = n.who(d.seat) if d.seat is not None else "the dealer"
    cause = {"dealer_error": "by a dealer error", "player": "by the player",
             "dealer_upcard": "as the dealer's up-card"}[d.cause]
    return Line(f"Card {card_text(d.card)} of {holder} exposed {cause}.", (d.card,))


def _action(n: Narrator, e: ActionEvent) -> Line:
    d = e.data
    amount = f" {chips(d.amount)}" if d.amount else ""
    return Line(f"{n.subject(d.seat)} {ACTION_WORDS[d.action]}{amount}.")


def _draw(n: Narrator, e: DrawEvent) -> Line:
    d = e.data
    out = " ".join(card_text(c) for c in d.discarded) or "nothing"
    got = " ".join(card_text(c) for c in d.received) or "nothing"
    return Line(f"{n.subject(d.seat)} discards {out} and receives {got}.",
                tuple(d.received), "received")


def _card_moved(n: Narrator, e: CardMovedEvent) -> Line:
    d = e.data
    source = n.place(d.from_) if d.from_.startswith("seat:") else f"the {d.from_}"
    return Line(f"Card {card_text(d.card)} moved from {source} to the "
                f"{d.to.replace('_', '-')}.", (d.card,))


def _stub_reshuffled(n: Narrator, e: StubReshuffledEvent) -> Line:
    return Line(f"{len(e.data.cards)} card(s) shuffled back into the stub: {e.data.reason}.",
                tuple(e.data.cards))


def _hand_set(n: Narrator, e: HandSetEvent) -> Line:
    d = e.data
    parts = "; ".join(f"{name} {' '.join(card_text(c) for c in cards)}"
                      for name, cards in (("front", d.front), ("middle", d.middle),
                                          ("back", d.back)))
    return Line(f"{n.subject(d.seat)} sets the hand: {parts}.",
                (*d.front, *d.middle, *d.back), "front | middle | back")


def _auto_win(n: Narrator, e: AutoWinDeclaredEvent) -> Line:
    return Line(f"{n.subject(e.data.seat)} declares an automatic win: "
                f"{AUTO_WIN_WORDS[e.data.kind]}.")


def _dealer_replaced(n: Narrator, e: DealerReplacedCardEvent) -> Line:
    d = e.data
    burned = " ".join(card_text(c) for c in d.burned) or "none"
    return Line(f"The dealer replaces {card_text(d.removed)} with {card_text(d.received)} "
                f"(burned: {burned}).", (d.removed, d.received), "removed, received")


def _alarm(n: Narrator, e: ShufflerAlarmEvent) -> Line:
    return Line(f"Shuffler alarm: {e.data.detail}.")


def _misdeal(n: Narrator, e: MisdealEvent) -> Line:
    return Line(f"Misdeal declared: {e.data.reason}.")


def _hand_dead(n: Narrator, e: HandDeadEvent) -> Line:
    return Line(f"Hand declared dead: {e.data.reason}.")


def _showdown(n: Narrator, e: ShowdownEvent) -> Line:
    d = e.data
    who = {"dealer": "The dealer", "designated": "The designated player"}.get(
        str(d.seat), n.subject(d.seat if isinstance(d.seat, int) else None))
    if d.mucked:
        return Line(f"{who} mucks (does not show).")
    if not d.cards:
        return Line(f"{who} is called to show.")
    return Line(f"{who} shows {' '.join(card_text(c) for c in d.cards)}.", tuple(d.cards))


def _wager_collected(n: Narrator, e: WagerCollectedEvent) -> Line:
    d = e.data
    return Line(f"The {WAGER_NAME[d.kind]} of {n.who(d.seat)} ({chips(d.amount)}) is "
                f"collected by {n.place(d.to)}.")


def _payout(n: Narrator, e: PayoutEvent) -> Line:
    d = e.data
    return Line(f"{n.subject(d.seat)} is paid {chips(d.amount)} ({d.kind}) by "
                f"{n.place(d.source)}.")


def _collection(n: Narrator, e: CollectionEvent) -> Line:
    d = e.data
    return Line(f"{n.subject(d.seat)} pays {chips(d.amount)} to {n.place(d.to)} "
                f"({d.kind.replace('_', ' ')}).")


def _rake(n: Narrator, e: RakeCollectedEvent) -> Line:
    d = e.data
    source = "from the pot" if d.from_ == "pot" else f"from the stack of {n.who(d.seat)}"
    return Line(f"Rake of {chips(d.amount)} taken {source}.")


def _hand_ended(n: Narrator, e: HandEndedEvent) -> Line:
    return Line("Hand ends; chips still on the layouts go back to their players.")


_HANDLERS: dict[type[Any], Callable[[Narrator, Any], Line]] = {
    TableConfiguredEvent: _table_configured, PlayerSeatedEvent: _player_seated,
    PlayerLeftEvent: _player_left, ChipsChangedEvent: _chips_changed,
    DealerChangedEvent: _dealer_changed, DesignatedPlayerOfferEvent: _offer,
    HandStartedEvent: _hand_started, WagerEvent: _wager, CardDealtEvent: _card_dealt,
    CardExposedEvent: _card_exposed, ActionEvent: _action, DrawEvent: _draw,
    CardMovedEvent: _card_moved, StubReshuffledEvent: _stub_reshuffled,
    HandSetEvent: _hand_set, AutoWinDeclaredEvent: _auto_win,
    DealerReplacedCardEvent: _dealer_replaced, ShufflerAlarmEvent: _alarm,
    MisdealEvent: _misdeal, HandDeadEvent: _hand_dead, ShowdownEvent: _showdown,
    WagerCollectedEvent: _wager_collected, PayoutEvent: _payout,
    CollectionEvent: _collection, RakeCollectedEvent: _rake, HandEndedEvent: _hand_ended,
}
