"""Texas Hold'em: rules TH-1..9 (rules.md), adjudicated from the table's own events.

``adjudicate(hand, profile)`` replays one hand in order: blinds, antes and betting through
the shared engine (``services.games.betting``, TH-1 structures), the hole-card deal with
its exposed and extra cards (``holdem_deal``: TH-1, TH-3, TH-7), the board with its burns,
redealt flops and premature turns (``holdem_board``: TH-1, TH-4, TH-5, TH-6), then the
showdown (``holdem_showdown``: TH-2, TH-8, TH-9) and the settlement with side pots, split
pots, the odd-chip rule and the posted rake (GEN-10). A misdeal correctly declared makes
the hand dead (GEN-6): everything goes back, no rake.

It returns the expected net per seat after rake, the rake per paying seat, the procedure
findings (each names the rule and what the dealer should have done) and the decision
path. GEN-1..5 are checked once for every game by ``services.adjudicator.integrity``.
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
    HandEndedEvent,
    HandStarted,
    HandStartedEvent,
    MisdealEvent,
    ShowdownEvent,
    StubReshuffledEvent,
    TableConfigured,
    WagerEvent,
)
from services.games.betting import (
    BETTING_KINDS,
    POST_KINDS,
    RakePolicy,
    settle,
    violation_findings,
)
from services.games.holdem.betting import HoldemBetting, betting_config, posted_antes
from services.games.holdem.board import Board
from services.games.holdem.deal import HoleDeal
from services.games.holdem.notes import Notes
from services.games.holdem.profile import SECTION, HoldemProfile
from services.games.holdem.settlement import settle_with_dead_money
from services.games.holdem.showdown import (
    ShowdownInput,
    Shown,
    check_order,
    settlement_trace,
    strengths,
)
from services.games.model import GameOutcome, HandInput, HandRejected, TraceStep
from services.games.profile import RuleProfile

LAST_ROUND = 3  # river


@dataclass
class HandWalk:
    """State built while replaying the events of one hand, in order."""

    prof: HoldemProfile
    started: HandStarted
    engine: HoldemBetting
    notes: Notes
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


# ---------------------------------------------------------------------------- outcome


def dead_outcome(walk: HandWalk, reason: str) -> GameOutcome:
    """GEN-6: a dead hand or misdeal returns every wager; nothing is paid or raked."""
    seats = [s.seat for s in walk.started.seats]
    return GameOutcome(
        net={seat: 0 for seat in seats},
        house=0,
        rake={},
        findings=walk.notes.findings,
        trace=[*walk.notes.trace, TraceStep("GEN-6", f"hand dead ({reason}): every chip "
                                                     "goes back, no rake")],
        seat_rules={seat: "GEN-6" for seat in seats},
        dead=True,
    )


def dead_antes(walk: HandWalk, config: TableConfigured) -> dict[int, int]:
    """Antes that are dead money in the main pot (TH-1 / TH-9 reading): every ante when
    ``antes_dead_money``, else only a big-blind ante (what the big blind posted in antes
    beyond the ante every player owes)."""
    if walk.prof.antes_dead_money:
        return {seat: amount for seat, amount in walk.antes.items() if amount}
    antes = posted_antes(config.limits)
    if not antes.big_blind:
        return {}
    seat = walk.engine.big_blind_seat
    dead = walk.antes.get(seat, 0) - min(antes.each, walk.antes.get(seat, 0))
    return {seat: dead} if dead > 0 else {}


def settle_hand(walk: HandWalk, config: TableConfigured) -> GameOutcome:
    """Pots to the best hands (TH-2, TH-8, TH-9), rake per the posted mode (GEN-10)."""
    engine = walk.engine
    contenders = engine.active()
    showdown = len(contenders) > 1
    data = ShowdownInput(contenders, walk.deal.hands, walk.board.cards, walk.shown,
                         walk.declared_board)
    ranks = strengths(data, walk.prof, walk.notes) if showdown else {}
    if showdown:
        check_order(engine, walk.shown, walk.notes)
    elif contenders:
        walk.notes.step("TH-9", f"seat {contenders[0]} wins without a showdown (every other "
                                "player folded)", contenders[0])
    rake = RakePolicy(config.rake.mode, config.rake.fee, walk.prof.designated_counts_button,
                      walk.prof.rake_source)
    dead = dead_antes(walk, config)
    if dead:
        result = settle_with_dead_money(engine.contributions(), dead, engine.folded(), ranks,
                                        engine.button, rake, engine.stacks_left())
    else:
        result = settle(engine.contributions(), engine.folded(), ranks, engine.button, rake,
                        engine.stacks_left())
    seat_rules = {seat: data.seat_rules.get(seat, "TH-9") for seat in result.net}
    return GameOutcome(
        net=result.net,
        house=result.house,
        rake=result.rake,
        findings=[*violation_findings(engine.violations, walk.prof.betting_severity),
                  *walk.notes.findings],
        trace=[*walk.notes.trace, *settlement_trace(result, ranks)],
        seat_rules=seat_rules,
    )


def start(hand: HandInput, prof: HoldemProfile) -> tuple[HandWalk, TableConfigured]:
    config = hand.table.config
    if config is None:
        raise HandRejected("GEN-5", "no table configuration")
    started = next((e.data for e in hand.events if isinstance(e, HandStartedEvent)), None)
    if started is None:
        raise HandRejected("TH-1", "the hand has no hand_started event")
    if len(started.seats) < 2:
        raise HandRejected("TH-1", f"{len(started.seats)} player(s) dealt in; a pot needs at "
                                   "least two")
    stacks = {s.seat: s.stack for s in started.seats}
    engine = HoldemBetting(betting_config(config, prof), stacks, started.button,
                           big_blind_ante=posted_antes(config.limits).big_blind)
    notes = Notes(prof.severity)
    seats = sorted(stacks)
    walk = HandWalk(prof, started, engine, notes, HoleDeal(prof, notes, seats, started.button),
                    Board(prof, notes))
    if started.deck != prof.deck_size:
        notes.add("WRONG_DECK", "TH-9", prof.severity.wrong_deck,
                  f"hand_started declares a {started.deck}-card deck; hold'em is dealt from "
                  f"one standard {prof.deck_size}-card deck", amount=started.deck)
    return walk, config


def adjudicate(hand: HandInput, profile: RuleProfile) -> GameOutcome:
    """The expected settlement of one Texas Hold'em hand, with its findings."""
    prof = profile.section(SECTION, HoldemProfile)
    walk, config = start(hand, prof)
    for event in hand.events:
        if isinstance(event, HandEndedEvent):
            break
        walk.feed(event)
    walk.finish()
    if walk.dead_reason is not None:
        return dead_outcome(walk, walk.dead_reason)
    cause = walk.deal.misdeal_cause
    if cause is not None and prof.undeclared_misdeal_settlement == "dead":
        return dead_outcome(walk, f"{cause.reason}: a misdeal was due ({cause.rule})")
    return settle_hand(walk, config)
