"""GEN rules every game shares, checked once for every hand (rules.md, GEN-1..5).

Game modules do not repeat these: deck integrity (GEN-1), stacks never going below zero
(GEN-2), chips in or out during the hand (GEN-3), cash in play (GEN-4) and hands played
under a configuration nobody authorised (GEN-5).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from services.events.contract import (
    ActionEvent,
    CardDealtEvent,
    CardMovedEvent,
    ChipsChangedEvent,
    CollectionEvent,
    DealerReplacedCardEvent,
    DrawEvent,
    Event,
    Finding,
    HandStartedEvent,
    PayoutEvent,
    RakeCollectedEvent,
    StubReshuffledEvent,
    WagerCollectedEvent,
    WagerEvent,
)
from services.games.cards import DECKS
from services.games.model import HandInput, finding
from services.games.profile import GenProfile, RuleProfile, gen_section


def common_findings(hand: HandInput, profile: RuleProfile) -> list[Finding]:
    gen = gen_section(profile)
    deck, stacks, chips = _scan(hand.events, gen)
    out: list[Finding] = [*deck, *stacks, *chips]
    if not hand.table.config_authorized:
        # GEN-5: limits, game, paytables and rake change only with a named supervisor.
        out.append(
            finding("UNAUTHORISED_CONFIGURATION", "GEN-5", gen.unauthorised_config_severity,
                    "hand played under a table_configured event that names no authorising "
                    "supervisor (authorized_by)")
        )
    return out


class _Scan:
    """GEN-1, GEN-2 and GEN-3/4 state for one walk over a hand's events.

    WHY one walk: these checks run on every hand of every table; visiting each event once,
    dispatching on its exact type (a dict lookup instead of a chain of ``isinstance``),
    is what keeps them off the embedded pipeline's profile. Each check still keeps its own
    list of findings, so the order of findings is what three separate walks would give.
    """

    def __init__(self, events: tuple[Event, ...], gen: GenProfile) -> None:
        started = next((e for e in events if type(e) is HandStartedEvent), None)
        assert started is None or isinstance(started, HandStartedEvent)
        self.gen = gen
        self.deck = DECKS[started.data.deck] if started else DECKS[52]
        self.out_of_stub: set[str] = set()
        self.held: set[str] = set()
        self.deck_found: list[Finding] = []
        self.stack_found: list[Finding] = []
        self.chips_found: list[Finding] = []
        # GEN-2 needs the seats' starting stacks; without hand_started there is no check.
        self.track_stacks = started is not None
        self.banker_seat = started.data.designated_player if started else None
        self.stacks = {s.seat: s.stack for s in started.data.seats} if started else {}

    # -- GEN-1
    def entering(self, event: Event, card: str) -> None:
        if card not in self.deck:
            self.deck_found.append(
                finding("FOREIGN_CARD", "GEN-1", self.gen.deck_integrity_severity,
                        f"{card} (seq {event.seq}) is not in this game's "
                        f"{len(self.deck)}-card deck: a card was added or switched")
            )
        elif card in self.out_of_stub:
            self.deck_found.append(
                finding("DUPLICATE_CARD", "GEN-1", self.gen.deck_integrity_severity,
                        f"{card} appears twice in the hand (again at seq {event.seq}): "
                        "a card was added or switched")
            )
        self.out_of_stub.add(card)

    # -- GEN-2
    def stack_delta(self, event: Event, seat: int | None, delta: int) -> None:
        if not self.track_stacks or seat not in self.stacks:
            return
        stacks = self.stacks
        before = stacks[seat]
        stacks[seat] += delta
        if delta < 0 and stacks[seat] < 0 and not _is_banker_payout(event, seat,
                                                                     self.banker_seat):
            self.stack_found.append(
                finding("WAGER_OVER_STACK", "GEN-2", self.gen.wager_over_stack_severity,
                        f"seat {seat} put in {-delta} chips at seq {event.seq} with only "
                        f"{max(before, 0)} left on the table", seat=seat,
                        amount=-stacks[seat])
            )
            stacks[seat] = 0


def _scan_card_dealt(scan: _Scan, event: Any) -> None:
    card = event.data.card
    if card is not None:
        scan.entering(event, card)
        if event.data.to in ("seat", "dealer", "board"):
            scan.held.add(card)


def _scan_draw(scan: _Scan, event: Any) -> None:
    for card in event.data.received:
        scan.entering(event, card)
    scan.held.difference_update(event.data.discarded)
    scan.held.update(event.data.received)


def _scan_replaced(scan: _Scan, event: Any) -> None:
    d = event.data
    scan.entering(event, d.received)
    for card in d.burned:
        scan.entering(event, card)
    scan.held.discard(d.removed)
    scan.held.add(d.received)


def _scan_reshuffled(scan: _Scan, event: Any) -> None:
    for card in event.data.cards:
        if card in scan.held:
            scan.deck_found.append(
                finding("RESHUFFLED_CARD_IN_PLAY", "GEN-1", scan.gen.deck_integrity_severity,
                        f"{card} was shuffled back into the stub at seq {event.seq} while "
                        "dealt to a hand (folded or not) or on the board, not discarded")
            )
            continue
        scan.out_of_stub.discard(card)


def _scan_card_moved(scan: _Scan, event: Any) -> None:
    d = event.data
    if d.to == "stub":
        scan.out_of_stub.discard(d.card)
    if d.to == "board":
        scan.held.add(d.card)
    else:
        scan.held.discard(d.card)


def _scan_stack_moves(scan: _Scan, event: Any) -> None:
    for seat, delta in _stack_deltas(event, scan.banker_seat):
        scan.stack_delta(event, seat, delta)


def _scan_wager(scan: _Scan, event: Any) -> None:
    scan.stack_delta(event, event.data.seat, -event.data.amount)


def _scan_action(scan: _Scan, event: Any) -> None:
    scan.stack_delta(event, event.data.seat, -(event.data.amount or 0))


def _scan_chips_changed(scan: _Scan, event: Any) -> None:
    """GEN-3 (no chips in or out during a hand) and GEN-4 (cash does not play)."""
    d = event.data
    if d.kind == "cash_in_play":
        scan.chips_found.append(
            finding("CASH_IN_PLAY", "GEN-4", scan.gen.cash_in_play_severity,
                    f"seat {d.seat} put cash in play (seq {event.seq}); only chips are "
                    "wagered", seat=d.seat, amount=d.amount)
        )
    else:
        scan.chips_found.append(
            finding("CHIPS_DURING_HAND", "GEN-3", scan.gen.chips_during_hand_severity,
                    f"seat {d.seat}: {d.kind} of {d.amount:+d} chips during the hand "
                    f"(seq {event.seq})", seat=d.seat, amount=d.amount)
        )


_SCANNERS: dict[type, Callable[[_Scan, Any], None]] = {
    CardDealtEvent: _scan_card_dealt,
    DrawEvent: _scan_draw,
    DealerReplacedCardEvent: _scan_replaced,
    StubReshuffledEvent: _scan_reshuffled,
    CardMovedEvent: _scan_card_moved,
    WagerEvent: _scan_wager,
    ActionEvent: _scan_action,
    CollectionEvent: _scan_stack_moves,
    RakeCollectedEvent: _scan_stack_moves,
    WagerCollectedEvent: _scan_stack_moves,
    PayoutEvent: _scan_stack_moves,
    ChipsChangedEvent: _scan_chips_changed,
}


def _scan(
    events: tuple[Event, ...], gen: GenProfile
) -> tuple[list[Finding], list[Finding], list[Finding]]:
    """(GEN-1, GEN-2, GEN-3/4 findings) of a hand, in event order each."""
    scan = _Scan(events, gen)
    scanners = _SCANNERS
    for event in events:
        scanner = scanners.get(type(event))
        if scanner is not None:
            scanner(scan, event)
    return scan.deck_found, scan.stack_found, scan.chips_found


def deck_integrity(events: tuple[Event, ...], gen: GenProfile) -> list[Finding]:
    """GEN-1: every card from the game's deck, none twice unless it went back to the stub
    first (FCD-6 reshuffled discards, TH-5/TH-6 cards shuffled back). Only cards nobody
    holds can go back: a reshuffle that names a card still in a hand is itself a finding,
    and that card stays out (so dealing it again is a duplicate)."""
    return _scan(events, gen)[0]


def _seat_of(account: str, banker_seat: int | None) -> int | None:
    """Seat whose stack a payout source / collection target names, if any."""
    if account.startswith("seat:"):
        return int(account[5:])
    return banker_seat if account == "designated" else None


def _stack_deltas(event: Event, banker_seat: int | None) -> list[tuple[int, int]]:
    """(seat, signed change of its stack) for every stack an event moves chips of."""
    if isinstance(event, WagerEvent):
        return [(event.data.seat, -event.data.amount)]
    if isinstance(event, ActionEvent):
        return [(event.data.seat, -(event.data.amount or 0))]
    if isinstance(event, CollectionEvent):
        receiver = _seat_of(event.data.to, banker_seat)
        credit = [(receiver, event.data.amount)] if receiver is not None else []
        return [(event.data.seat, -event.data.amount), *credit]
    if isinstance(event, RakeCollectedEvent) and event.data.from_ == "stack":
        return [(event.data.seat, -event.data.amount)] if event.data.seat is not None else []
    if isinstance(event, WagerCollectedEvent):
        # Layout -> banker: the banker's stack grows (the seat's stack already paid it).
        banker = banker_seat if event.data.to == "designated" else None
        return [(banker, event.data.amount)] if banker is not None else []
    if isinstance(event, PayoutEvent):
        payer = _seat_of(event.data.source, banker_seat)
        debit = [(payer, -event.data.amount)] if payer is not None else []
        return [(event.data.seat, event.data.amount), *debit]
    return []


def stacks_never_negative(events: tuple[Event, ...], gen: GenProfile) -> list[Finding]:
    """GEN-2 (table stakes): no seat puts in more chips than it has on the table.

    Chips a seat receives during the hand (a payout, another seat's point payment) count
    as on the table from then on. A designated player paying out is the banker's own
    bankroll question (HCF-11), judged by the game, so banker debits are not flagged here.
    """
    return _scan(events, gen)[1]


def _is_banker_payout(event: Event, seat: int, banker_seat: int | None) -> bool:
    return isinstance(event, PayoutEvent) and seat == banker_seat and seat != event.data.seat


def chips_during_hand(events: tuple[Event, ...], gen: GenProfile) -> list[Finding]:
    """GEN-3 (no chips in or out during a hand) and GEN-4 (cash does not play)."""
    return _scan(events, gen)[2]
