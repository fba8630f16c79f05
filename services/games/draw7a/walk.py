"""The replay of one Five Card Draw 7-A hand, event by event: the deal (FCD-4), the
betting rounds on the shared engine, the draw and the reshuffle of the discards (FCD-6),
the showdown records, a player leaving (GEN-7).

``HandWalk`` keeps what the events say in the order they say it; the checks that need
the whole hand (``procedure``) and the showdown (``showdown``) read it afterwards.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from services.events.contract import (
    ActionEvent,
    CardDealtEvent,
    DrawEvent,
    Event,
    HandDeadEvent,
    HandStarted,
    MisdealEvent,
    PlayerLeftEvent,
    ShowdownEvent,
    StubReshuffledEvent,
)
from services.games.betting import BETTING_KINDS, POST_KINDS, BettingHand
from services.games.betting.pot_hand import Notes
from services.games.draw7a.profile import Draw7aProfile, Draw7aSeverities

Phase = Literal["before_draw", "draw", "after_draw"]


@dataclass
class DrawState:
    """The draw (FCD-6): who drew what, in which order, and the stub."""

    entrants: list[int] = field(default_factory=list)  # active when the draw began
    drawn: dict[int, int] = field(default_factory=dict)  # seat -> cards drawn
    order: list[int] = field(default_factory=list)  # entrants in the order they drew
    discards: set[str] = field(default_factory=set)  # discarded, not yet reshuffled
    stub: int = 0  # cards left in the stub
    stub_at_reshuffle: int | None = None  # stub size when the last reshuffle happened


@dataclass
class HandWalk:
    """State built while replaying the events of one hand, in order."""

    prof: Draw7aProfile
    started: HandStarted
    engine: BettingHand
    notes: Notes[Draw7aSeverities]
    hands: dict[int, list[str | None]] = field(default_factory=dict)
    deal_sequence: list[int] = field(default_factory=list)
    phase: Phase = "before_draw"
    draw: DrawState = field(default_factory=DrawState)
    showdowns: list[tuple[int, list[str] | None, bool]] = field(default_factory=list)
    dead_reason: str | None = None
    first_card_seq: int | None = None

    @property
    def sev(self) -> Draw7aSeverities:
        return self.prof.severity

    # -------------------------------------------------------------- dispatch

    def feed(self, event: Event) -> None:
        if isinstance(event, CardDealtEvent):
            self.card_dealt(event)
        elif isinstance(event, ActionEvent):
            self.action(event)
        elif isinstance(event, DrawEvent):
            self.drawn(event.data.seat, event.data.discarded, event.data.received, event.seq)
        elif isinstance(event, StubReshuffledEvent):
            self.reshuffled(event.data.cards, event.seq)
        elif isinstance(event, ShowdownEvent):
            if isinstance(event.data.seat, int):
                self.showdowns.append((event.data.seat, event.data.cards, event.data.mucked))
        elif isinstance(event, HandDeadEvent | MisdealEvent):
            self.dead_reason = event.data.reason
        elif isinstance(event, PlayerLeftEvent):
            self.walked_away(event.data.seat)

    def walked_away(self, seat: int) -> None:
        """GEN-7: leaving the table without acting on the hand folds it."""
        if seat in self.engine.active() and not self.engine.hand_over():
            self.engine.walk_away(seat)
            if (self.phase == "draw" and seat in self.draw.entrants
                    and seat not in self.draw.drawn):
                # FCD-6: it left before its turn to draw, so it had no draw to record.
                self.draw.entrants.remove(seat)
            self.notes.step("GEN-7", f"seat {seat} left the table during the "
                                     "hand: its hand is folded", seat)

    # -------------------------------------------------------------- the deal (FCD-4)

    def card_dealt(self, event: CardDealtEvent) -> None:
        data = event.data
        if self.first_card_seq is None:
            self.first_card_seq = event.seq
        self.draw.stub -= 1
        if data.to == "seat" and data.seat is not None:
            self.hands.setdefault(data.seat, []).append(data.card)
            self.deal_sequence.append(data.seat)

    # -------------------------------------------------------------- betting

    def action(self, event: ActionEvent) -> None:
        data = event.data
        if data.action == "stand":  # FCD-6: standing pat is a draw of no cards
            self.drawn(data.seat, [], [], event.seq)
            return
        if data.action not in BETTING_KINDS:
            self.notes.add("UNEXPECTED_ACTION", "FCD-2", self.sev.unexpected_action,
                           f"seat {data.seat} recorded '{data.action}', not an action of Five "
                           f"Card Draw (seq {event.seq})", seat=data.seat, amount=data.amount)
            self.engine.dead_chips(data.seat, data.amount or 0)
            return
        if data.action in POST_KINDS and self.first_card_seq is not None:
            self.notes.add("BLIND_AFTER_DEAL", "FCD-3", self.sev.blind_after_deal,
                           f"seat {data.seat} posted ({data.action}) after the first card was "
                           f"dealt (seq {event.seq}); blinds are posted before the deal",
                           seat=data.seat, amount=data.amount)
        if data.action not in POST_KINDS and self._could_act(data.seat):
            self._enter_second_round_if_due()
        self.engine.apply(data.seat, data.action, data.amount)

    def _could_act(self, seat: int) -> bool:
        """A seat dealt in, not folded, not all-in: only its action can be the first bet
        after the draw. Anything else is NOT_IN_HAND in the round it came in."""
        st = self.engine.seats.get(seat)
        return st is not None and not st.folded and not st.all_in

    def _enter_second_round_if_due(self) -> None:
        """The first bet after the draw opens the second round (FCD-7). A bet after a
        complete first round with no draw recorded means the table skipped recording
        it: the draw is taken as done (and reported missing per seat)."""
        if self.phase == "draw":
            self.engine.next_round()
            self.phase = "after_draw"
        elif (self.phase == "before_draw" and self.engine.betting_started
              and self.engine.round_complete() and not self.engine.hand_over()):
            self._begin_draw()
            self.engine.next_round()
            self.phase = "after_draw"

    # -------------------------------------------------------------- the draw (FCD-6)

    def _begin_draw(self) -> None:
        self.engine.close_round()
        self.draw.entrants = self.engine.active()
        self.phase = "draw"

    def drawn(self, seat: int, discarded: Sequence[str], received: Sequence[str],
              seq: int) -> None:
        if self.phase == "before_draw":
            self._begin_draw()
        elif self.phase == "after_draw":
            self.notes.add("DRAW_OUT_OF_PHASE", "FCD-6", self.sev.draw_out_of_phase,
                           f"seat {seat} drew after the second betting round began (seq {seq})",
                           seat=seat)
        self._check_draw_turn(seat, seq)
        self._check_draw_size(seat, discarded, received, seq)
        self._check_reshuffle_timing(len(received), seq)
        hand = self.hands.setdefault(seat, [])
        not_held = take_discards(hand, discarded)
        if not_held:
            self.notes.add("DISCARD_NOT_HELD", "FCD-6", self.sev.discard_not_held,
                           f"seat {seat} discarded {' '.join(not_held)} (seq {seq}), which it "
                           "did not hold", seat=seat)
        hand.extend(received)
        self.draw.discards.update(discarded)
        self.draw.stub -= len(received)
        self.draw.drawn[seat] = self.draw.drawn.get(seat, 0) + len(received)

    def _check_draw_turn(self, seat: int, seq: int) -> None:
        """FCD-6: only active players draw, once each (the order is checked at the end,
        over the seats that did draw, so one missing draw is not also an order error)."""
        if seat not in self.draw.entrants:
            self.notes.add("DRAW_BY_INACTIVE", "FCD-6", self.sev.draw_by_inactive,
                           f"seat {seat} drew (seq {seq}) but is not in the hand", seat=seat)
        elif seat in self.draw.drawn:
            self.notes.add("DRAW_TWICE", "FCD-6", self.sev.draw_twice,
                           f"seat {seat} drew a second time (seq {seq})", seat=seat)
        else:
            self.draw.order.append(seat)

    def _check_draw_size(self, seat: int, discarded: Sequence[str],
                         received: Sequence[str], seq: int) -> None:
        """FCD-6: 0 to 5 cards, as many received as discarded."""
        if len(discarded) > self.prof.max_discard or len(received) != len(discarded):
            self.notes.add("DRAW_SIZE", "FCD-6", self.sev.draw_size,
                           f"seat {seat} discarded {len(discarded)} and received {len(received)} "
                           f"(seq {seq}); a player exchanges 0 to {self.prof.max_discard} cards "
                           "one for one", seat=seat, amount=len(received) - len(discarded))

    def reshuffled(self, cards: Sequence[str], seq: int) -> None:
        """FCD-6: only the discards go back, and only when the stub has run out."""
        stray = [c for c in cards if c not in self.draw.discards]
        if stray:
            self.notes.add("RESHUFFLE_NOT_DISCARDS", "FCD-6", self.sev.reshuffle_not_discards,
                           f"the reshuffle at seq {seq} put back cards that were not among "
                           f"the discards: {' '.join(stray)}")
        self.draw.discards.difference_update(cards)
        self.draw.stub_at_reshuffle = max(self.draw.stub, 0)
        self.draw.stub += len(cards)
        self.notes.step("FCD-6", f"stub ran out: {len(cards)} discards "
                                 "reshuffled as the new stub")

    def _check_reshuffle_timing(self, needed: int, seq: int) -> None:
        before = self.draw.stub_at_reshuffle
        self.draw.stub_at_reshuffle = None
        if before is not None and before >= needed:
            self.notes.add("EARLY_RESHUFFLE", "FCD-6", self.sev.early_reshuffle,
                           f"the discards were reshuffled with {before} cards still in the stub, "
                           f"enough for the next draw of {needed} (seq {seq})")

    # -------------------------------------------------------------- end of hand

    def finish_betting(self) -> None:
        """Close the final betting round. A draw with no betting after it still makes the
        second round the final one (FCD-7), e.g. when everyone is all-in. A hand that
        reaches the showdown went through the draw (FCD-6) even when the table recorded
        none: the draw begins here, so each missing draw is reported and the final round
        is the one after the draw (FCD-9: a bet before the draw does not decide who shows
        first)."""
        if self.phase == "before_draw" and not self.engine.hand_over():
            self._begin_draw()
        if self.phase == "draw":
            self.engine.next_round()
            self.phase = "after_draw"
        self.engine.close_round()


def take_discards(hand: list[str | None], discarded: Sequence[str]) -> list[str]:
    """FCD-6: remove the discards from the seat's cards; return those it did not hold.

    Each discarded card takes one card out of the hand, so a card listed twice is held
    only once. A card the shoe did not read (``None``) may be any card: a discard not
    among the read cards takes an unread one and is not reported.
    """
    not_held: list[str] = []
    for card in discarded:
        if card in hand:
            hand.remove(card)
        elif None in hand:
            hand.remove(None)
        else:
            not_held.append(card)
    return not_held
