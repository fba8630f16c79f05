"""GEN rules every game shares, checked once for every hand (rules.md, GEN-1..5).

Game modules do not repeat these: deck integrity (GEN-1), stacks never going below zero
(GEN-2), chips in or out during the hand (GEN-3), cash in play (GEN-4) and hands played
under a configuration nobody authorised (GEN-5).
"""

from __future__ import annotations

from typing import Literal

import msgspec

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
from services.games.profile import RuleProfile

Sev = Literal["info", "warning", "critical"]


class GenProfile(msgspec.Struct, forbid_unknown_fields=True):
    """Section ``gen`` of a rule profile: severities of the common findings."""

    wager_over_stack_severity: Sev
    chips_during_hand_severity: Sev
    cash_in_play_severity: Sev
    unauthorised_config_severity: Sev
    wager_outside_limits_severity: Sev
    deck_integrity_severity: Sev
    mispay_severity: Sev
    rake_error_severity: Sev


def common_findings(hand: HandInput, profile: RuleProfile) -> list[Finding]:
    gen = profile.section("gen", GenProfile)
    out: list[Finding] = []
    out += deck_integrity(hand.events, gen)
    out += stacks_never_negative(hand.events, gen)
    out += chips_during_hand(hand.events, gen)
    if not hand.table.config_authorized:
        # GEN-5: limits, game, paytables and rake change only with a named supervisor.
        out.append(
            finding("UNAUTHORISED_CONFIGURATION", "GEN-5", gen.unauthorised_config_severity,
                    "hand played under a table_configured event that names no authorising "
                    "supervisor (authorized_by)")
        )
    return out


def _cards_entering_play(event: Event) -> list[str]:
    if isinstance(event, CardDealtEvent):
        return [event.data.card] if event.data.card is not None else []
    if isinstance(event, DrawEvent):
        return list(event.data.received)
    if isinstance(event, DealerReplacedCardEvent):
        return [event.data.received, *event.data.burned]
    return []


def _cards_returning_to_stub(event: Event) -> list[str]:
    if isinstance(event, StubReshuffledEvent):
        return list(event.data.cards)
    if isinstance(event, CardMovedEvent) and event.data.to == "stub":
        return [event.data.card]
    return []


def _update_held(held: set[str], event: Event) -> None:
    """Cards in a hand, at the dealer's or on the board (not burned, mucked or set aside)."""
    if isinstance(event, CardDealtEvent):
        if event.data.card is not None and event.data.to in ("seat", "dealer", "board"):
            held.add(event.data.card)
    elif isinstance(event, DrawEvent):
        held.difference_update(event.data.discarded)
        held.update(event.data.received)
    elif isinstance(event, DealerReplacedCardEvent):
        held.discard(event.data.removed)
        held.add(event.data.received)
    elif isinstance(event, CardMovedEvent):
        if event.data.to == "board":
            held.add(event.data.card)
        else:
            held.discard(event.data.card)


def deck_integrity(events: tuple[Event, ...], gen: GenProfile) -> list[Finding]:
    """GEN-1: every card from the game's deck, none twice unless it went back to the stub
    first (FCD-6 reshuffled discards, TH-5/TH-6 cards shuffled back). Only cards nobody
    holds can go back: a reshuffle that names a card still in a hand is itself a finding,
    and that card stays out (so dealing it again is a duplicate)."""
    started = next((e for e in events if isinstance(e, HandStartedEvent)), None)
    deck = DECKS[started.data.deck] if started else DECKS[52]
    out_of_stub: set[str] = set()
    held: set[str] = set()
    found: list[Finding] = []
    for event in events:
        for card in _cards_returning_to_stub(event):
            if isinstance(event, StubReshuffledEvent) and card in held:
                found.append(
                    finding("RESHUFFLED_CARD_IN_PLAY", "GEN-1", gen.deck_integrity_severity,
                            f"{card} was shuffled back into the stub at seq {event.seq} while "
                            "still in a hand or on the board")
                )
                continue
            out_of_stub.discard(card)
        for card in _cards_entering_play(event):
            if card not in deck:
                found.append(
                    finding("FOREIGN_CARD", "GEN-1", gen.deck_integrity_severity,
                            f"{card} (seq {event.seq}) is not in this game's "
                            f"{len(deck)}-card deck: a card was added or switched")
                )
            elif card in out_of_stub:
                found.append(
                    finding("DUPLICATE_CARD", "GEN-1", gen.deck_integrity_severity,
                            f"{card} appears twice in the hand (again at seq {event.seq}): "
                            "a card was added or switched")
                )
            out_of_stub.add(card)
        _update_held(held, event)
    return found


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
    started = next((e for e in events if isinstance(e, HandStartedEvent)), None)
    if started is None:
        return []
    banker_seat = started.data.designated_player
    stacks = {s.seat: s.stack for s in started.data.seats}
    found: list[Finding] = []
    for event in events:
        for seat, delta in _stack_deltas(event, banker_seat):
            if seat not in stacks:
                continue
            before = stacks[seat]
            stacks[seat] += delta
            if delta < 0 and stacks[seat] < 0 and not _is_banker_payout(event, seat, banker_seat):
                found.append(
                    finding("WAGER_OVER_STACK", "GEN-2", gen.wager_over_stack_severity,
                            f"seat {seat} put in {-delta} chips at seq {event.seq} with only "
                            f"{max(before, 0)} left on the table", seat=seat,
                            amount=-stacks[seat])
                )
                stacks[seat] = 0
    return found


def _is_banker_payout(event: Event, seat: int, banker_seat: int | None) -> bool:
    return isinstance(event, PayoutEvent) and seat == banker_seat and seat != event.data.seat


def chips_during_hand(events: tuple[Event, ...], gen: GenProfile) -> list[Finding]:
    """GEN-3 (no chips in or out during a hand) and GEN-4 (cash does not play)."""
    found: list[Finding] = []
    for event in events:
        if not isinstance(event, ChipsChangedEvent):
            continue
        d = event.data
        if d.kind == "cash_in_play":
            found.append(
                finding("CASH_IN_PLAY", "GEN-4", gen.cash_in_play_severity,
                        f"seat {d.seat} put cash in play (seq {event.seq}); only chips are "
                        "wagered", seat=d.seat, amount=d.amount)
            )
        else:
            found.append(
                finding("CHIPS_DURING_HAND", "GEN-3", gen.chips_during_hand_severity,
                        f"seat {d.seat}: {d.kind} of {d.amount:+d} chips during the hand "
                        f"(seq {event.seq})", seat=d.seat, amount=d.amount)
            )
    return found
