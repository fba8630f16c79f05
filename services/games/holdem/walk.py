"""The replay of one Texas Hold'em hand, event by event: the betting on the shared engine
(TH-1), the hole-card deal (``deal``), the board (``board``), the showdown records and the
declarations of playing the board (TH-8), a misdeal or dead hand (GEN-6).

``HandWalk`` routes each event to the part of the hand it belongs to, keeping the betting
round in step with the board; ``adjudicate`` judges and settles what it collected.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from services.events.contract import (
    ActionEvent,
    CardDealtEvent,
    CardExposedEvent,
    CardMovedEvent,
    Event,
    HandDeadEvent,
    HandStarted,
    MisdealEvent,
    ShowdownEvent,
    StubReshuffledEvent,
    WagerEvent,
)
from services.games.betting import BETTING_KINDS, POST_KINDS
from services.games.betting.pot_hand import Notes
from services.games.holdem.betting import HoldemBetting
from services.games.holdem.board import Board
from services.games.holdem.deal import HoleDeal
from services.games.holdem.profile import HoldemProfile, HoldemSeverities
from services.games.holdem.showdown import Shown

LAST_ROUND = 3  # river


@dataclass
class HandWalk:
    """State built while replaying the events of one hand, in order."""

    prof: HoldemProfile
    started: HandStarted
    engine: HoldemBetting
    notes: Notes[HoldemSeverities]
    deal: HoleDeal
    board: Board
    shown: list[Shown] = field(default_factory=list)
    declared_board: dict[int, int] = field(default_factory=dict)
    antes: dict[int, int] = field(default_factory=dict)  # antes posted per seat
    dead_reason: str | None = None
    misdealt: bool = False

    # -------------------------------------------------------------- dispatch

    def feed(self, event: Event) -> None:
        event_type = type(event)  # exact-type tests: the contract's event classes are final
        if event_type is CardDealtEvent and event.data.to == "board":  # type: ignore[union-attr]
            self._first_board_activity()
            timely = self.board.run is not None or self._betting_complete()
            self.board.card(event.data.card, event.seq, timely)  # type: ignore[union-attr]
            return
        if self.board.run is not None:
            self.board.flush()
            self._sync_rounds()
        if event_type is ActionEvent:
            self.action(event)  # type: ignore[arg-type]
            return
        if event_type is CardDealtEvent:
            self.card_dealt(event)  # type: ignore[arg-type]
            return
        if isinstance(event, CardExposedEvent):
            self.card_exposed(event)
        elif isinstance(event, CardMovedEvent):
            self.card_moved(event)
        elif isinstance(event, StubReshuffledEvent):
            self.board.reshuffled(event.data.cards, event.seq, self._betting_complete())
        elif isinstance(event, ShowdownEvent):
            self.showdown(event)
        elif isinstance(event, MisdealEvent):
            self.misdealt = True
            self.dead_reason = f"misdeal: {event.data.reason}"
        elif isinstance(event, HandDeadEvent):
            self.dead_reason = event.data.reason
        elif isinstance(event, WagerEvent):
            self.notes.add("UNEXPECTED_ACTION", "TH-1", self.prof.severity.unexpected_action,
                           f"seat {event.data.seat} placed a table-game wager "
                           f"({event.data.kind}) at a hold'em table (seq {event.seq})",
                           seat=event.data.seat, amount=event.data.amount)

    def _betting_complete(self) -> bool:
        return self.engine.hand_over() or self.engine.round_complete()

    def _sync_rounds(self) -> None:
        """The engine's betting round follows the board: a street dealt after a complete
        round opens the next round."""
        target = min(self.board.betting_street, LAST_ROUND)
        while self.engine.round_index < target:
            self.engine.next_round()

    def _first_board_activity(self) -> None:
        """The deal is judged before the first burn or board card (TH-3 / TH-7 decide
        which card is the flop burn)."""
        if not self.deal.reviewed:
            self.deal.review(misdealt=False)
            self.board.credits = list(self.deal.credits)

    # -------------------------------------------------------------- cards

    def card_dealt(self, event: CardDealtEvent) -> None:
        data = event.data
        if data.to == "seat" and data.seat is not None:
            self.deal.card(data.seat, data.card, data.face_up, event.seq)
        elif data.to == "burn":
            self._first_board_activity()
            self.board.burn(data.card)
        elif data.to == "set_aside":
            self._first_board_activity()
            self.board.dealt_set_aside(data.card, event.seq, self._betting_complete())
        else:
            self.notes.add("CARD_TO_DEALER", "TH-1", self.prof.severity.card_to_dealer,
                           f"a card was dealt to '{data.to}' (seq {event.seq}); hold'em deals "
                           "hole cards, burns and the board only")

    def _not_dealt_in(self, seat: int, what: str, seq: int) -> bool:
        """An event naming a seat that is not dealt in: reported, and otherwise ignored
        (it cannot change how the seats dealt in are judged)."""
        if seat in self.deal.hands:
            return False
        self.notes.add("NOT_IN_HAND", "TH-1", self.prof.betting_severity.not_in_hand,
                       f"seat {seat} {what} (seq {seq}) but is not dealt in", seat=seat)
        return True

    def card_exposed(self, event: CardExposedEvent) -> None:
        data = event.data
        if data.seat is not None and self._not_dealt_in(data.seat, f"had {data.card} "
                                                        "exposed", event.seq):
            return
        if data.cause == "dealer_error" and data.seat is not None:
            self.deal.exposed(data.seat, data.card, event.seq)
        else:
            who = f"seat {data.seat}" if data.seat is not None else "the board or stub"
            self.notes.step("TH-3", f"{data.card} of {who} exposed ({data.cause}, seq "
                                    f"{event.seq}): not a dealer error during the deal")

    def card_moved(self, event: CardMovedEvent) -> None:
        data = event.data
        if data.from_.startswith("seat:"):
            self.deal.removed(int(data.from_[5:]), data.card, data.to, event.seq)
            if data.to == "board":
                self.board.card(data.card, event.seq, self._betting_complete())
        else:
            self.board.moved(data.card, data.from_, data.to, event.seq)

    def showdown(self, event: ShowdownEvent) -> None:
        data = event.data
        if isinstance(data.seat, int):
            if self._not_dealt_in(data.seat, "has a showdown record", event.seq):
                return
            cards = tuple(data.cards) if data.cards is not None else None
            self.shown.append(Shown(data.seat, cards, data.mucked, event.seq))

    # -------------------------------------------------------------- betting

    def action(self, event: ActionEvent) -> None:
        data = event.data
        if data.action == "declare_board":  # TH-8
            if self._not_dealt_in(data.seat, "declared playing the board", event.seq):
                return
            self.declared_board.setdefault(data.seat, event.seq)
            return
        if data.action not in BETTING_KINDS:
            self.notes.add("UNEXPECTED_ACTION", "TH-1", self.prof.severity.unexpected_action,
                           f"seat {data.seat} recorded '{data.action}', not an action of "
                           f"Texas Hold'em (seq {event.seq})", seat=data.seat,
                           amount=data.amount)
            return
        if data.action in POST_KINDS:
            if self.deal.first_seq is not None:
                self.notes.add("BLIND_AFTER_DEAL", "TH-1", self.prof.severity.blind_after_deal,
                               f"seat {data.seat} posted ({data.action}) after the first card "
                               f"was dealt (seq {event.seq}); blinds and antes come before the "
                               "deal", seat=data.seat, amount=data.amount)
            if data.action == "post_ante":
                self.antes[data.seat] = self.antes.get(data.seat, 0) + (data.amount or 0)
            self.engine.apply(data.seat, data.action, data.amount)
            return
        self.deal.betting_began()
        engine = self.engine
        if engine.to_act() is None and not engine.hand_over():  # the round is complete
            if self.board.pending():
                self.board.resumed(True)
                self._sync_rounds()
            if (engine.betting_started and engine.to_act() is None
                    and engine.round_index < LAST_ROUND):
                engine.next_round()  # the street was not recorded: the betting moved on
        engine.apply(data.seat, data.action, data.amount)

    # -------------------------------------------------------------- end of hand

    def finish(self) -> None:
        self.board.flush()
        self._sync_rounds()
        if self.dead_reason is not None:
            self.deal.review(misdealt=self.misdealt)
            return
        self.deal.review(misdealt=False)
        self.board.credits = list(self.deal.credits)
        self.board.finish(contested=len(self.engine.active()) > 1)
        self._sync_rounds()
        self.deal.check_counts()
        self.engine.close_round()
