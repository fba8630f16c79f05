"""Five Card Draw, 7 to Ace (short deck): rules FCD-1..11 (rules.md), adjudicated.

``adjudicate(hand, profile)`` replays one hand's events: the deck and players (FCD-1),
blinds and betting through the shared engine (``services.games.betting``: FCD-3, FCD-5,
FCD-7, FCD-8), the deal (FCD-4), the draw and any reshuffle of the discards (FCD-6), the
showdown order (FCD-9), and settles the pots with the short-deck ranking (FCD-10,
FCD-11) and the posted rake (GEN-10). It returns the expected net per seat after rake,
the rake per paying seat, the procedure findings, and the decision path (``trace``).

GEN-1..5 (deck integrity, table stakes, chips during the hand, cash, authorisation) are
checked once for every game by ``services.adjudicator.integrity`` and are not repeated.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

import msgspec

from services.events.contract import (
    ActionEvent,
    CardDealtEvent,
    DrawEvent,
    Event,
    Finding,
    HandDeadEvent,
    HandEndedEvent,
    HandStarted,
    HandStartedEvent,
    MisdealEvent,
    PlayerLeftEvent,
    ShowdownEvent,
    StubReshuffledEvent,
    TableConfigured,
)
from services.games.betting import (
    BETTING_KINDS,
    POST_KINDS,
    BettingConfig,
    BettingHand,
    BettingSeverities,
    PotLimitReading,
    RakePolicy,
    RoundSpec,
    RuleIds,
    Settlement,
    clockwise_after,
    settle,
    violation_findings,
)
from services.games.cards import DECKS
from services.games.draw7a import evaluation as short_deck
from services.games.model import (
    GameOutcome,
    HandInput,
    HandRejected,
    TraceStep,
    finding,
)
from services.games.profile import RuleProfile

Sev = Literal["info", "warning", "critical"]

SECTION = "draw7a"
HAND_SIZE = 5  # FCD-4


class Draw7aSeverities(msgspec.Struct, forbid_unknown_fields=True):
    """Severities of the game's own findings (the betting ones are in BettingSeverities)."""

    wrong_deck: Sev  # FCD-1
    player_count: Sev  # FCD-1
    blind_after_deal: Sev  # FCD-3
    deal_order: Sev  # FCD-4
    wrong_card_count: Sev  # FCD-4
    draw_order: Sev  # FCD-6
    draw_size: Sev  # FCD-6
    discard_not_held: Sev  # FCD-6
    draw_by_inactive: Sev  # FCD-6
    draw_twice: Sev  # FCD-6
    draw_out_of_phase: Sev  # FCD-6
    draw_not_recorded: Sev  # FCD-6
    reshuffle_not_discards: Sev  # FCD-6
    early_reshuffle: Sev  # FCD-6
    showdown_order: Sev  # FCD-9
    shown_cards_mismatch: Sev  # FCD-9 / GEN-1
    unexpected_action: Sev  # FCD-2


class Draw7aProfile(msgspec.Struct, forbid_unknown_fields=True):
    """Section ``draw7a`` of a rule profile: every number and reading of FCD-1..11."""

    min_players: int  # FCD-1
    max_players: int  # FCD-1
    deck_size: int  # FCD-1: 7 through Ace
    sixes_added_with_players: int  # FCD-1: exactly this many dealt in -> 36 cards
    small_blind_numerator: int  # FCD-3: small blind = big blind * num / den (rounded
    small_blind_denominator: int  # down) unless the table posts small_blind
    big_bet_multiple: int  # FCD-8: big bet = small bet * this, unless posted
    max_bets_per_round: int  # FCD-8: bet, raise, re-raise, cap
    big_blind_counts_as_bet: bool  # FCD-8
    pot_limit_reading: PotLimitReading  # FCD-8
    max_discard: int  # FCD-6: 0 to 5
    rank_with_deck: Literal["dealt", "required"]  # FCD-10 when the deck was wrong
    irregular_hand_dead: bool  # a hand not of five cards at showdown cannot win
    designated_counts_button: bool  # GEN-10 designated mode
    rake_source: Literal["pot", "stack"]  # GEN-10 Reading: where the fee comes from
    severity: Draw7aSeverities
    betting_severity: BettingSeverities


# ---------------------------------------------------------------------------- set-up


def required_deck(players: int, prof: Draw7aProfile) -> int:
    """FCD-1: 32 cards; the four sixes are added when exactly five are dealt in."""
    return prof.deck_size + 4 if players == prof.sixes_added_with_players else prof.deck_size


def betting_config(config: TableConfigured, prof: Draw7aProfile) -> BettingConfig:
    """The table's posted structure, blinds and bet sizes as engine configuration.

    FCD-3: the big blind is the minimum bet (``limits.big_blind``, else ``small_bet``,
    else ``min_wager``); the small blind is posted or a fraction of the big blind.
    FCD-8: in fixed limit the small bet (= big blind unless posted) before the draw and
    the big bet (posted, or ``big_bet_multiple`` small bets) after it; in pot and no limit
    the big blind is the minimum bet of both rounds.
    """
    if config.structure is None:
        raise HandRejected("FCD-2", "the table configuration posts no betting structure")
    limits = config.limits
    big_blind = _first_set(limits.big_blind, limits.small_bet, limits.min_wager)
    small_blind = (limits.small_blind if limits.small_blind is not None else
                   big_blind * prof.small_blind_numerator // prof.small_blind_denominator)
    small_bet = _first_set(limits.small_bet, big_blind)
    big_bet = _first_set(limits.big_bet, small_bet * prof.big_bet_multiple)
    before, after = (small_bet, big_bet) if config.structure == "fixed" else (
        big_blind, big_blind)
    return BettingConfig(
        structure=config.structure,
        rounds=(RoundSpec("before the draw", before, "FCD-5"),
                RoundSpec("after the draw", after, "FCD-7")),
        small_blind=small_blind,
        big_blind=big_blind,
        ante=0,
        first_round_blinds=True,
        max_bets_per_round=prof.max_bets_per_round,
        big_blind_counts_as_bet=prof.big_blind_counts_as_bet,
        pot_limit_reading=prof.pot_limit_reading,
        rules=RuleIds(blinds="FCD-3", sizes="FCD-8", stakes="GEN-2"),
    )


def _first_set(*values: int | None) -> int:
    return next(v for v in values if v is not None)


# ---------------------------------------------------------------------------- the walk

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
    findings: list[Finding] = field(default_factory=list)
    trace: list[TraceStep] = field(default_factory=list)
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

    def add(self, code: str, rule: str, severity: Sev, message: str,
            seat: int | None = None, amount: int | None = None) -> None:
        self.findings.append(finding(code, rule, severity, message, seat=seat, amount=amount))

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
            self.trace.append(TraceStep("GEN-7", f"seat {seat} left the table during the "
                                                 "hand: its hand is folded", seat))

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
            self.add("UNEXPECTED_ACTION", "FCD-2", self.sev.unexpected_action,
                     f"seat {data.seat} recorded '{data.action}', not an action of Five "
                     f"Card Draw (seq {event.seq})", seat=data.seat, amount=data.amount)
            self.engine.dead_chips(data.seat, data.amount or 0)
            return
        if data.action in POST_KINDS and self.first_card_seq is not None:
            self.add("BLIND_AFTER_DEAL", "FCD-3", self.sev.blind_after_deal,
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
            self.add("DRAW_OUT_OF_PHASE", "FCD-6", self.sev.draw_out_of_phase,
                     f"seat {seat} drew after the second betting round began (seq {seq})",
                     seat=seat)
        self._check_draw_turn(seat, seq)
        self._check_draw_size(seat, discarded, received, seq)
        self._check_reshuffle_timing(len(received), seq)
        hand = self.hands.setdefault(seat, [])
        not_held = take_discards(hand, discarded)
        if not_held:
            self.add("DISCARD_NOT_HELD", "FCD-6", self.sev.discard_not_held,
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
            self.add("DRAW_BY_INACTIVE", "FCD-6", self.sev.draw_by_inactive,
                     f"seat {seat} drew (seq {seq}) but is not in the hand", seat=seat)
        elif seat in self.draw.drawn:
            self.add("DRAW_TWICE", "FCD-6", self.sev.draw_twice,
                     f"seat {seat} drew a second time (seq {seq})", seat=seat)
        else:
            self.draw.order.append(seat)

    def _check_draw_size(self, seat: int, discarded: Sequence[str],
                         received: Sequence[str], seq: int) -> None:
        """FCD-6: 0 to 5 cards, as many received as discarded."""
        if len(discarded) > self.prof.max_discard or len(received) != len(discarded):
            self.add("DRAW_SIZE", "FCD-6", self.sev.draw_size,
                     f"seat {seat} discarded {len(discarded)} and received {len(received)} "
                     f"(seq {seq}); a player exchanges 0 to {self.prof.max_discard} cards "
                     "one for one", seat=seat, amount=len(received) - len(discarded))

    def reshuffled(self, cards: Sequence[str], seq: int) -> None:
        """FCD-6: only the discards go back, and only when the stub has run out."""
        stray = [c for c in cards if c not in self.draw.discards]
        if stray:
            self.add("RESHUFFLE_NOT_DISCARDS", "FCD-6", self.sev.reshuffle_not_discards,
                     f"the reshuffle at seq {seq} put back cards that were not among "
                     f"the discards: {' '.join(stray)}")
        self.draw.discards.difference_update(cards)
        self.draw.stub_at_reshuffle = max(self.draw.stub, 0)
        self.draw.stub += len(cards)
        self.trace.append(TraceStep("FCD-6", f"stub ran out: {len(cards)} discards "
                                             "reshuffled as the new stub"))

    def _check_reshuffle_timing(self, needed: int, seq: int) -> None:
        before = self.draw.stub_at_reshuffle
        self.draw.stub_at_reshuffle = None
        if before is not None and before >= needed:
            self.add("EARLY_RESHUFFLE", "FCD-6", self.sev.early_reshuffle,
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


# ---------------------------------------------------------------------------- checks


def check_players_and_deck(walk: HandWalk) -> None:
    """FCD-1: 2 to 5 players; 32 cards, 36 when exactly five are dealt in."""
    players = len(walk.started.seats)
    prof = walk.prof
    if not prof.min_players <= players <= prof.max_players:
        walk.add("PLAYER_COUNT", "FCD-1", walk.sev.player_count,
                 f"{players} players dealt in; the game takes {prof.min_players} to "
                 f"{prof.max_players}", amount=players)
    required = required_deck(players, prof)
    if walk.started.deck != required:
        walk.add("WRONG_DECK", "FCD-1", walk.sev.wrong_deck,
                 f"hand_started declares a {walk.started.deck}-card deck with {players} "
                 f"players dealt in; FCD-1 requires {required} cards", amount=walk.started.deck)
    walk.trace.append(TraceStep("FCD-1", f"{players} players dealt in: {required}-card deck "
                                         f"required, {walk.started.deck} declared"))


def check_deal(walk: HandWalk) -> None:
    """FCD-4: five cards each, one at a time, clockwise starting left of the button."""
    seats = [s.seat for s in walk.started.seats]
    order = clockwise_after(seats, walk.started.button)
    expected = order * HAND_SIZE
    if walk.deal_sequence[: len(expected)] != expected and walk.deal_sequence:
        walk.add("DEAL_ORDER", "FCD-4", walk.sev.deal_order,
                 "the cards were not dealt one at a time clockwise starting left of the "
                 f"button (expected seat order {' '.join(map(str, order))}, five times)")
    for seat in seats:
        count = walk.deal_sequence.count(seat)
        if count != HAND_SIZE:
            walk.add("WRONG_CARD_COUNT", "FCD-4", walk.sev.wrong_card_count,
                     f"seat {seat} was dealt {count} cards; each player receives five",
                     seat=seat, amount=count - HAND_SIZE)


def check_draw_order(walk: HandWalk) -> None:
    """FCD-6: the draw starts with the first active player left of the button and goes
    clockwise; the first seat that drew before a seat due ahead of it is reported."""
    due = [s for s in clockwise_after(walk.draw.entrants, walk.started.button)
           if s in walk.draw.order]
    for drew, expected in zip(walk.draw.order, due, strict=True):
        if drew != expected:
            walk.add("DRAW_ORDER", "FCD-6", walk.sev.draw_order,
                     f"seat {drew} drew before seat {expected}; the draw goes clockwise "
                     "from the button's left", seat=drew)
            return


def check_draw_recorded(walk: HandWalk) -> None:
    """FCD-6: how many cards each player drew is public, so every draw is recorded."""
    for seat in walk.draw.entrants:
        if seat not in walk.draw.drawn:
            walk.add("DRAW_NOT_RECORDED", "FCD-6", walk.sev.draw_not_recorded,
                     f"seat {seat} was in the hand at the draw but no draw or stand pat "
                     "was recorded for it", seat=seat)


def check_showdown_order(walk: HandWalk) -> None:
    """FCD-9: the last bettor or raiser of the final round shows first, else the first
    active player left of the button."""
    order = walk.engine.showdown_order()
    shown = [seat for seat, cards, mucked in walk.showdowns if seat in order]
    if len(order) < 2 or not shown:
        return
    walk.trace.append(TraceStep("FCD-9", f"showdown order {' '.join(map(str, order))}; "
                                         f"seat {order[0]} shows first", order[0]))
    if shown[0] != order[0]:
        walk.add("SHOWDOWN_ORDER", "FCD-9", walk.sev.showdown_order,
                 f"seat {shown[0]} showed first; seat {order[0]} had to show first",
                 seat=shown[0])


# ---------------------------------------------------------------------------- strength


def ranking_deck(walk: HandWalk, cards: Sequence[str]) -> int:
    """The deck whose ranking applies (FCD-10: the ace-low straight depends on it).

    ``rank_with_deck = "dealt"``: the deck the hand was declared dealt from; "required":
    the deck FCD-1 requires. Cards that do not belong to the chosen deck (a six in a
    32-card hand, already a GEN-1 finding) are ranked with the 36-card deck.
    """
    players = len(walk.started.seats)
    chosen = walk.started.deck if walk.prof.rank_with_deck == "dealt" else required_deck(
        players, walk.prof)
    if chosen in (32, 36) and all(c in DECKS[chosen] for c in cards):
        return chosen
    return 36


def final_hand(walk: HandWalk, seat: int) -> list[str] | None:
    """The seat's cards at showdown: what was dealt and drawn (cards speak); the shown
    cards only when the deal was not read. A mismatch is reported (a switched card)."""
    tracked = walk.hands.get(seat, [])
    shown = next((cards for s, cards, _ in walk.showdowns if s == seat and cards), None)
    known = [c for c in tracked if c is not None]
    if (shown is not None and tracked and len(known) == len(tracked)
            and sorted(shown) != sorted(known)):
        walk.add("SHOWN_CARDS_MISMATCH", "FCD-9", walk.sev.shown_cards_mismatch,
                 f"seat {seat} showed {' '.join(shown)} but was dealt and drew "
                 f"{' '.join(known)}; the cards dealt speak", seat=seat)
    if len(known) == len(tracked) and tracked:
        return known
    return list(shown) if shown is not None else None


def strengths(walk: HandWalk, contenders: Sequence[int]) -> dict[int, int | None]:
    """Short-deck rank code per contender (FCD-10); None when it cannot win: mucked, or
    (``irregular_hand_dead``) not holding exactly five cards."""
    mucked = {seat for seat, _, was_mucked in walk.showdowns if was_mucked}
    out: dict[int, int | None] = {}
    for seat in contenders:
        cards = final_hand(walk, seat)
        if seat in mucked:
            out[seat] = None
            continue
        if cards is None:
            raise HandRejected("FCD-9", f"seat {seat} reached the showdown but its cards "
                                        "are unknown (not read at the deal, not shown)")
        if len(cards) != HAND_SIZE and (walk.prof.irregular_hand_dead or len(cards) < 5
                                        or len(cards) > 7):
            out[seat] = None
            walk.trace.append(TraceStep("FCD-4", f"seat {seat} holds {len(cards)} cards: "
                                                 "its hand cannot win", seat))
            continue
        try:
            out[seat] = short_deck.best_rank(cards, ranking_deck(walk, cards))
        except ValueError as exc:
            raise HandRejected("GEN-1", f"seat {seat}: {exc}") from exc
    return out


# ---------------------------------------------------------------------------- outcome


def _describe(code: int | None) -> str:
    return "no hand" if code is None else short_deck.describe(code)


def settlement_trace(walk: HandWalk, result: Settlement,
                     ranks: dict[int, int | None]) -> list[TraceStep]:
    steps: list[TraceStep] = []
    for seat, amount in sorted(result.refunds.items()):
        steps.append(TraceStep("FCD-9", f"seat {seat}'s uncalled {amount} returned", seat))
    for seat, amount in sorted(result.rake.items()):
        steps.append(TraceStep("GEN-10", f"rake {amount} charged to seat {seat}, taken "
                                         "from the pot", seat))
    for award in result.awards:
        name = "main pot" if award.index == 0 else f"side pot {award.index}"
        eligible = " ".join(map(str, award.eligible))
        hands = "; ".join(f"seat {s}: {_describe(ranks.get(s))}" for s in award.eligible
                          if s in ranks)
        shares = ", ".join(f"seat {s} {v}" for s, v in award.shares.items())
        split = " (split, odd chip left of the button)" if len(award.winners) > 1 else ""
        steps.append(TraceStep("FCD-11", f"{name} {award.amount} after rake, eligible "
                                         f"{eligible}{'; ' + hands if hands else ''}: "
                                         f"{shares}{split}"))
    return steps


def dead_outcome(walk: HandWalk) -> GameOutcome:
    """GEN-6: a dead hand or misdeal returns every wager; nothing is paid or raked."""
    seats = [s.seat for s in walk.started.seats]
    return GameOutcome(
        net={seat: 0 for seat in seats},
        house=0,
        rake={},
        findings=walk.findings,
        trace=[*walk.trace, TraceStep("GEN-6", f"hand dead ({walk.dead_reason}): every "
                                               "chip goes back, no rake")],
        seat_rules={seat: "GEN-6" for seat in seats},
        dead=True,
    )


def _start(hand: HandInput, prof: Draw7aProfile) -> HandWalk:
    config = hand.table.config
    if config is None:
        raise HandRejected("GEN-5", "no table configuration")
    started = next((e.data for e in hand.events if isinstance(e, HandStartedEvent)), None)
    if started is None:
        raise HandRejected("FCD-1", "the hand has no hand_started event")
    if len(started.seats) < 2:
        raise HandRejected("FCD-1", f"{len(started.seats)} player(s) dealt in; a pot needs "
                                    "at least two")
    engine = BettingHand(betting_config(config, prof),
                         {s.seat: s.stack for s in started.seats}, started.button)
    walk = HandWalk(prof=prof, started=started, engine=engine)
    walk.draw.stub = started.deck
    return walk


def adjudicate(hand: HandInput, profile: RuleProfile) -> GameOutcome:
    """The expected settlement of one Five Card Draw 7-A hand, with its findings."""
    prof = profile.section(SECTION, Draw7aProfile)
    walk = _start(hand, prof)
    config = hand.table.config
    assert config is not None
    check_players_and_deck(walk)
    for event in hand.events:
        if isinstance(event, HandEndedEvent):
            break
        walk.feed(event)
    if walk.dead_reason is not None:
        return dead_outcome(walk)
    walk.finish_betting()
    check_deal(walk)
    if walk.draw.entrants:
        check_draw_order(walk)
        check_draw_recorded(walk)
    engine = walk.engine
    contenders = engine.active()
    showdown = len(contenders) > 1
    ranks = strengths(walk, contenders) if showdown else {}
    if showdown:
        check_showdown_order(walk)
    else:
        walk.trace.append(TraceStep("FCD-9", f"seat {contenders[0]} wins without a showdown "
                                             "(every other player folded)", contenders[0]))
    rake = RakePolicy(config.rake.mode, config.rake.fee, prof.designated_counts_button,
                      prof.rake_source)
    result = settle(engine.contributions(), engine.folded(), ranks, engine.button, rake,
                    engine.stacks_left())
    rule = "FCD-11" if showdown else "FCD-9"
    return GameOutcome(
        net=result.net,
        house=result.house,
        rake=result.rake,
        findings=[*violation_findings(engine.violations, prof.betting_severity),
                  *walk.findings],
        trace=[*walk.trace, *settlement_trace(walk, result, ranks)],
        seat_rules={seat: rule for seat in result.net},
    )
