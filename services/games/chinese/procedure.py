"""Procedure around the scoring: misdeals (CP-11), conduct (CP-12), buy-ins (CP-9) and who
paid whom (CP-10).

These findings never change the points between hands (except a misdeal, which voids the
hand); they are what a floor supervisor reviews: a hand opened too early, a new player on
the button, a second short buy, a misdeal nobody called.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Protocol

from services.events.contract import (
    CardDealtEvent,
    CardExposedEvent,
    ChipsChangedEvent,
    CollectionEvent,
    Event,
    Finding,
    HandDeadEvent,
    HandSetEvent,
    MisdealEvent,
    PlayerSeatedEvent,
)
from services.games.chinese.profile import ChineseProfile
from services.games.chinese.reading import HandReading
from services.games.chinese.settlement import Transfer
from services.games.model import BuyRecord, TableContext, TraceStep, finding

# ---------------------------------------------------------------- CP-11 misdeal


@dataclass(frozen=True)
class DeadVerdict:
    """Why the whole hand is void (nothing scored, no rake), or None fields when it is not."""

    rule: str
    reason: str


def misdeal_causes(events: tuple[Event, ...], reading: HandReading,
                   cp: ChineseProfile) -> list[str]:
    """CP-11 causes the events show: five or more cards of one player's hand exposed by the
    dealer; a hand dealt the wrong number of cards (checked only when the deal was
    recorded: a table system that does not report card_dealt is not a misdeal)."""
    causes = []
    exposed: dict[int, set[str]] = defaultdict(set)
    for event in events:
        if isinstance(event, CardExposedEvent) and event.data.cause == "dealer_error" \
                and event.data.seat is not None:
            exposed[event.data.seat].add(event.data.card)
        if isinstance(event, CardDealtEvent) and event.data.to == "seat" and event.data.face_up \
                and event.data.seat is not None and event.data.card is not None:
            exposed[event.data.seat].add(event.data.card)
    for seat in reading.participants:
        if len(exposed[seat]) >= cp.misdeal.exposed_cards:
            causes.append(f"the dealer exposed {len(exposed[seat])} cards of seat {seat}'s hand")
    if reading.dealt:
        for seat in sorted(set(reading.participants) | set(reading.dealt)):
            count = len(reading.dealt.get(seat, []))
            if count != cp.cards_per_hand:
                causes.append(f"seat {seat}'s hand received {count} cards, not "
                              f"{cp.cards_per_hand}")
    return causes


def dead_verdict(events: tuple[Event, ...], reading: HandReading, cp: ChineseProfile,
                 findings: list[Finding], trace: list[TraceStep]) -> DeadVerdict | None:
    """GEN-6 / CP-11: a recorded misdeal or dead hand voids the hand; so does a misdeal the
    cards show but nobody called (reading ``misdeal.uncalled_misdeal_voids_hand``)."""
    dead = next((e for e in events if isinstance(e, HandDeadEvent)), None)
    misdeal = next((e for e in events if isinstance(e, MisdealEvent)), None)
    causes = misdeal_causes(events, reading, cp)
    if misdeal is not None:
        _check_misdeal_cause(events, misdeal, causes, cp, findings)
        trace.append(TraceStep("CP-11", f"misdeal called ({misdeal.data.reason}): the hand is "
                                        "redealt, nothing is scored, no rake"))
        return DeadVerdict("CP-11", misdeal.data.reason)
    if dead is not None:
        trace.append(TraceStep("GEN-6", f"hand declared dead ({dead.data.reason}): nothing is "
                                        "scored, no rake"))
        return DeadVerdict("GEN-6", dead.data.reason)
    if causes:
        findings.append(
            finding("MISDEAL_NOT_CALLED", "CP-11", cp.severity.misdeal_not_called,
                    f"the hand was played on although it is a misdeal: {'; '.join(causes)}")
        )
        if cp.misdeal.uncalled_misdeal_voids_hand:
            trace.append(TraceStep("CP-11", f"misdeal not called ({'; '.join(causes)}): the "
                                            "hand is void, nothing is scored, no rake"))
            return DeadVerdict("CP-11", "; ".join(causes))
    return None


def _check_misdeal_cause(events: tuple[Event, ...], misdeal: MisdealEvent, causes: list[str],
                         cp: ChineseProfile, findings: list[Finding]) -> None:
    """The third CP-11 cause (hands given to the wrong players) is not visible in the events,
    but it only holds while nobody has set a hand: a misdeal called after a hand was set,
    with no visible cause, is questionable."""
    if causes:
        return
    set_before = [e for e in events if isinstance(e, HandSetEvent) and e.seq < misdeal.seq]
    if set_before:
        findings.append(
            finding("MISDEAL_WITHOUT_CAUSE", "CP-11", cp.severity.misdeal_without_cause,
                    f"misdeal called at seq {misdeal.seq} ({misdeal.data.reason}) after seat "
                    f"{set_before[0].data.seat} had set its hand, with no exposed or miscounted "
                    "hand: no CP-11 cause applies")
        )


# ---------------------------------------------------------------- CP-12 conduct


def conduct_findings(events: tuple[Event, ...], reading: HandReading, table: TableContext,
                     cp: ChineseProfile) -> list[Finding]:
    out = _opened_early(reading, cp)
    out += _shown_early(events, reading, cp)
    out += _new_player_position(reading, table, cp)
    return out


def _ready_seq(reading: HandReading, seat: int) -> int | None:
    """When the seat had finished: its first setting or its first counted declaration."""
    marks = [s for _, s in reading.declarations.get(seat, [])]
    if seat in reading.first_setting_seq:
        marks.append(reading.first_setting_seq[seat])
    return min(marks) if marks else None


def _opened_early(reading: HandReading, cp: ChineseProfile) -> list[Finding]:
    """CP-12: nobody opens a hand before the last player to act has set all three segments."""
    if reading.opened_seq is None:
        return []
    late = [seat for seat in reading.participants
            if (ready := _ready_seq(reading, seat)) is None or ready > reading.opened_seq]
    if not late:
        return []
    who = f"seat {reading.opener}" if reading.opener is not None else "a hand"
    return [finding("HAND_OPENED_EARLY", "CP-12", cp.severity.hand_opened_early,
                    f"{who} was opened at seq {reading.opened_seq} before seat(s) "
                    f"{', '.join(map(str, late))} had set their hands", seat=reading.opener)]


def _shown_early(events: tuple[Event, ...], reading: HandReading,
                 cp: ChineseProfile) -> list[Finding]:
    """CP-12 (the game's form of GEN-9): players do not show their hands while the cards
    are out."""
    out = []
    for event in events:
        if not isinstance(event, CardExposedEvent) or event.data.cause != "player":
            continue
        if reading.opened_seq is not None and event.seq > reading.opened_seq:
            continue
        out.append(finding("HAND_SHOWN_EARLY", "CP-12", cp.severity.hand_shown_early,
                           f"seat {event.data.seat} showed {event.data.card} at seq {event.seq} "
                           "while the cards were out", seat=event.data.seat))
    return out


def _new_player_position(reading: HandReading, table: TableContext,
                         cp: ChineseProfile) -> list[Finding]:
    """CP-12: a new player receives neither the first hand (the seat left of the button,
    dealt first) nor the button. The table's first hand is exempt: everybody is new. So is
    a hand whose every player sat down since the previous one (a table emptied and
    reopened): no seat could take the button or the first hand (QA: both were flagged)."""
    if table.hands_played == 0 or all(s in table.new_seats for s in reading.participants):
        return []
    button = reading.started.data.button
    first = button % cp.table_seats + 1
    out = []
    if button in table.new_seats:
        out.append(finding("NEW_PLAYER_ON_BUTTON", "CP-12", cp.severity.new_player_button,
                           f"seat {button} sat down since the previous hand and was given the "
                           "button", seat=button))
    if first in table.new_seats and first in reading.participants:
        out.append(finding("NEW_PLAYER_FIRST_HAND", "CP-12", cp.severity.new_player_first_hand,
                           f"seat {first} sat down since the previous hand and was dealt the "
                           f"first hand (left of the button, seat {button})", seat=first))
    return out


# ---------------------------------------------------------------- CP-9 buy-ins


class BuyRecordLike(Protocol):
    """One buy of a seated player (see ``BuyRecord``): what the table context provides."""

    @property
    def seat(self) -> int: ...
    @property
    def kind(self) -> str: ...
    @property
    def amount(self) -> int: ...
    @property
    def seq(self) -> int: ...
    @property
    def since_previous_hand(self) -> bool: ...


def buys_in_hand(events: tuple[Event, ...]) -> list[BuyRecord]:
    """Buys recorded while the hand was open (GEN-3 flags them too; CP-9 judges the size)."""
    out = []
    for event in events:
        if isinstance(event, PlayerSeatedEvent):
            out.append(BuyRecord(event.data.seat, "seated", event.data.stack, event.seq, True))
        elif isinstance(event, ChipsChangedEvent) and event.data.kind in ("buy_in", "short_buy"):
            out.append(BuyRecord(event.data.seat, event.data.kind, event.data.amount, event.seq,
                                 True))
    return out


def buy_findings(buys: list[BuyRecordLike], point_value: int,
                 cp: ChineseProfile) -> list[Finding]:
    """CP-9: a buy of at least ``min_points`` x point value is full; anything less is a short
    buy. A player's first buy must be full; at most ``short_buys_per_full_buy`` short buys
    follow each full buy. ``buys`` are in the order they happened (the table's history,
    then the hand's). Only buys made since the previous hand are reported, and a short
    buy only when the player's buys since sitting down are known (a ``seated`` record)."""
    minimum = cp.buy_in.min_points * point_value
    out: list[Finding] = []
    short_left: dict[int, int] = {}
    for buy in buys:
        if buy.kind == "seated":
            short_left[buy.seat] = 0
        if buy.amount <= 0:
            continue
        if buy.amount >= minimum:
            short_left[buy.seat] = cp.buy_in.short_buys_per_full_buy
            continue
        if buy.kind == "seated":
            if buy.since_previous_hand:
                out.append(finding("BUY_IN_BELOW_MINIMUM", "CP-9",
                                   cp.severity.buy_in_below_minimum,
                                   f"seat {buy.seat} sat down with {buy.amount} chips (seq "
                                   f"{buy.seq}); the minimum buy-in is {minimum} "
                                   f"({cp.buy_in.min_points} points)", seat=buy.seat,
                                   amount=buy.amount))
            continue
        if buy.seat not in short_left:
            continue  # the player's earlier buys are unknown: nothing to judge against
        if short_left[buy.seat] > 0:
            short_left[buy.seat] -= 1
            continue
        if buy.since_previous_hand:
            out.append(finding("SHORT_BUY_NOT_ALLOWED", "CP-9",
                               cp.severity.short_buy_not_allowed,
                               f"seat {buy.seat} bought {buy.amount} chips (below the {minimum} "
                               f"minimum, seq {buy.seq}) without a full buy since its last "
                               "short buy", seat=buy.seat, amount=buy.amount))
    return out


def new_seat_stack_findings(reading: HandReading, table: TableContext, history_seats: set[int],
                            point_value: int, cp: ChineseProfile) -> list[Finding]:
    """CP-9 without a buy history: a new player's stack in its first hand is its buy-in."""
    minimum = cp.buy_in.min_points * point_value
    out = []
    for seat in sorted(table.new_seats & set(reading.participants)):
        if seat in history_seats:
            continue
        stack = reading.stacks[seat]
        if stack < minimum:
            out.append(finding("BUY_IN_BELOW_MINIMUM", "CP-9", cp.severity.buy_in_below_minimum,
                               f"seat {seat} is new and starts its first hand with {stack} "
                               f"chips; the minimum buy-in is {minimum} "
                               f"({cp.buy_in.min_points} points)", seat=seat, amount=stack))
    return out


# ---------------------------------------------------------------- CP-10 routing


def routing_findings(events: tuple[Event, ...], transfers: list[Transfer],
                     cp: ChineseProfile) -> list[Finding]:
    """CP-10: who paid whom. Per pair of seats, the points the table moved between them
    versus what the settlement moves (nets can agree while chips took another route).
    Only while every seat's points total is right: otherwise the seats' MISPAYs claim the
    chips, and a route finding would claim them again (QA)."""
    recorded: dict[tuple[int, int], int] = defaultdict(int)
    for event in events:
        if isinstance(event, CollectionEvent) and event.data.kind == "points" \
                and event.data.to.startswith("seat:"):
            _add_flow(recorded, event.data.seat, int(event.data.to[5:]), event.data.amount)
    expected: dict[tuple[int, int], int] = defaultdict(int)
    for t in transfers:
        if t.amount:
            _add_flow(expected, t.payer, t.payee, t.amount)
    if _seat_totals(recorded) != _seat_totals(expected):
        return []
    out = []
    for low, high in sorted(set(recorded) | set(expected)):
        got, due = recorded.get((low, high), 0), expected.get((low, high), 0)
        if got != due:
            out.append(finding("PAYMENT_ROUTING", "CP-10", cp.severity.payment_routing,
                               f"between seats {low} and {high} the table moved "
                               f"{_flow_words(low, high, got)}; the settlement moves "
                               f"{_flow_words(low, high, due)}", seat=low, amount=got - due))
    return out


def _seat_totals(flows: dict[tuple[int, int], int]) -> dict[int, int]:
    """Each seat's points received (negative: paid) over ``flows``, seats at 0 left out."""
    totals: dict[int, int] = defaultdict(int)
    for (low, high), flow in flows.items():
        totals[low] -= flow
        totals[high] += flow
    return {seat: total for seat, total in totals.items() if total}


def _add_flow(flows: dict[tuple[int, int], int], payer: int, payee: int, amount: int) -> None:
    """Net flow per unordered pair, positive from the lower seat to the higher."""
    if payer == payee:
        return
    if payer < payee:
        flows[(payer, payee)] += amount
    else:
        flows[(payee, payer)] -= amount


def _flow_words(low: int, high: int, flow: int) -> str:
    if flow == 0:
        return "nothing"
    return f"{flow} from seat {low} to seat {high}" if flow > 0 else \
        f"{-flow} from seat {high} to seat {low}"
