"""One pass over a High Card Flush hand's events: what was dealt, wagered, decided, shown
and recorded.

Every later step (procedure checks, settlement, attribution of mispays) reads these facts
instead of walking the events again, which keeps adjudication at one pass per hand.

Cards: the designated player (DP) is a seat, so its seven cards are the ``card_dealt``
events ``to: "seat"`` with the DP's seat **or** ``to: "dealer"`` (both are accepted and
count together; pitwatch's simulator deals to the DP's seat). A ``card_dealt`` whose
``card`` is null was dealt but not read: it counts for HCF-13 and its value comes from the
holder's ``showdown``. ``showdown`` with ``seat`` ``"dealer"`` or ``"designated"`` is the
DP's.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from services.events.contract import (
    ActionEvent,
    CardDealtEvent,
    Event,
    HandDeadEvent,
    HandStartedEvent,
    MisdealEvent,
    PayoutEvent,
    PlayerLeftEvent,
    RakeCollectedEvent,
    ShowdownEvent,
    ShufflerAlarmEvent,
    WagerCollectedEvent,
    WagerEvent,
)
from services.games.model import HandRejected

RAISE = "raise"
FOLD = "fold"


@dataclass(frozen=True)
class PlacedWager:
    seq: int
    kind: str
    amount: int


@dataclass
class RecordedSeat:
    """What the table moved for one seat, split the way the rules split a settlement."""

    win_paid: int = 0  # payouts kind "win" (Ante and Raise winnings)
    bonus_paid: int = 0  # payouts kind "bonus"
    other_paid: int = 0  # payouts of any other kind
    collected: dict[str, int] = field(default_factory=dict)  # wager kind -> collected


@dataclass
class HandFacts:
    button: int
    dp: int
    stacks: dict[int, int]  # seat -> stack at hand_started, in the order listed
    first_card_seq: int | None = None
    # SURV-1: seq of the first event that made an outcome visible: the DP's showdown, a
    # payout of winnings (kind win/bonus) or a collected Raise (only a comparison takes one).
    outcome_seq: int | None = None
    dealt: defaultdict[int, list[str | None]] = field(
        default_factory=lambda: defaultdict(list))
    shown: dict[int, list[str]] = field(default_factory=dict)
    wagers: dict[int, list[PlacedWager]] = field(default_factory=dict)
    decision: dict[int, tuple[int, str]] = field(default_factory=dict)  # seat -> (seq, what)
    left: dict[int, int] = field(default_factory=dict)  # seat -> seq of player_left
    dead_events: list[tuple[str, str, int]] = field(default_factory=list)  # (type, why, seq)
    recorded: dict[int, RecordedSeat] = field(default_factory=dict)
    settled_anything: bool = False  # a wager_collected or a payout other than a refund
    rake_taken: int = 0  # rake_collected in the hand
    house_refunds: int = 0  # payouts kind "refund" from the house (rake given back)

    @property
    def kept_rake(self) -> int:
        """Rake the house kept after refunds."""
        return self.rake_taken - self.house_refunds


def _decide(facts: HandFacts, seat: int, seq: int, what: str) -> None:
    """The first fold or raise (action, or raise chips) is the seat's decision (HCF-4)."""
    if seat not in facts.decision:
        facts.decision[seat] = (seq, what)


def _recorded(facts: HandFacts, seat: int) -> RecordedSeat:
    rec = facts.recorded.get(seat)
    if rec is None:
        rec = facts.recorded[seat] = RecordedSeat()
    return rec


def _holder(facts: HandFacts, seat: int | str | None) -> int | None:
    if seat is None:
        return None
    if isinstance(seat, str):  # "dealer" / "designated": the DP's hand
        return facts.dp
    return seat


def read_facts(events: tuple[Event, ...]) -> HandFacts:
    """Collect the facts of one hand; rejects a hand without ``hand_started`` or DP."""
    started = next((e for e in events if isinstance(e, HandStartedEvent)), None)
    if started is None:
        raise HandRejected("HCF-1", "the hand has no hand_started event: nobody was dealt in")
    data = started.data
    if data.designated_player is None:
        raise HandRejected("HCF-2", "High Card Flush is banked by a designated player and "
                                    "hand_started names none")
    facts = HandFacts(button=data.button, dp=data.designated_player,
                      stacks={s.seat: s.stack for s in data.seats})
    if facts.dp not in facts.stacks:
        raise HandRejected("HCF-2", f"designated player seat {facts.dp} is not among the "
                                    "seats dealt in, so it has no funds to bank with")
    readers = _READERS
    dealt = facts.dealt
    dp = facts.dp
    first_card: int | None = None
    for event in events:
        if type(event) is CardDealtEvent:  # most of a hand's events: kept inline
            d = event.data
            if first_card is None:
                first_card = event.seq
            to = d.to
            holder = d.seat if to == "seat" else dp if to == "dealer" else None
            if holder is not None:
                dealt[holder].append(d.card)
            continue
        reader = readers.get(type(event))
        if reader is not None:
            reader(facts, event)
    facts.first_card_seq = first_card
    return facts


def _wager(facts: HandFacts, event: WagerEvent) -> None:
    w = event.data
    facts.wagers.setdefault(w.seat, []).append(PlacedWager(event.seq, w.kind, w.amount))
    if w.kind == RAISE:
        _decide(facts, w.seat, event.seq, RAISE)


def _action(facts: HandFacts, event: ActionEvent) -> None:
    a = event.data
    if a.action == FOLD or a.action == RAISE:
        _decide(facts, a.seat, event.seq, a.action)


def _showdown(facts: HandFacts, event: ShowdownEvent) -> None:
    s = event.data
    holder = _holder(facts, s.seat)
    if holder is not None and s.cards is not None:
        facts.shown[holder] = list(s.cards)
    if holder == facts.dp:
        _outcome_visible(facts, event.seq)


def _outcome_visible(facts: HandFacts, seq: int) -> None:
    if facts.outcome_seq is None:
        facts.outcome_seq = seq


def _wager_collected(facts: HandFacts, event: WagerCollectedEvent) -> None:
    c = event.data
    if c.kind == RAISE:
        _outcome_visible(facts, event.seq)
    rec = _recorded(facts, c.seat)
    rec.collected[c.kind] = rec.collected.get(c.kind, 0) + c.amount
    facts.settled_anything = True


def _payout(facts: HandFacts, event: PayoutEvent) -> None:
    p = event.data
    rec = _recorded(facts, p.seat)
    if p.kind == "win":
        rec.win_paid += p.amount
        _outcome_visible(facts, event.seq)
    elif p.kind == "bonus":
        rec.bonus_paid += p.amount
        _outcome_visible(facts, event.seq)
    else:
        rec.other_paid += p.amount
    if p.kind != "refund":
        facts.settled_anything = True
    elif p.source == "house":
        facts.house_refunds += p.amount


def _rake(facts: HandFacts, event: RakeCollectedEvent) -> None:
    facts.rake_taken += event.data.amount


def _player_left(facts: HandFacts, event: PlayerLeftEvent) -> None:
    facts.left.setdefault(event.data.seat, event.seq)


def _shuffler_alarm(facts: HandFacts, event: ShufflerAlarmEvent) -> None:
    facts.dead_events.append(("shuffler_alarm", event.data.detail, event.seq))


def _misdeal(facts: HandFacts, event: MisdealEvent) -> None:
    facts.dead_events.append(("misdeal", event.data.reason, event.seq))


def _hand_dead(facts: HandFacts, event: HandDeadEvent) -> None:
    facts.dead_events.append(("hand_dead", event.data.reason, event.seq))


# Event type -> reader; types not listed carry nothing HCF settles on.
_READERS: dict[type, Callable[[HandFacts, Any], None]] = {
    WagerEvent: _wager,
    ActionEvent: _action,
    ShowdownEvent: _showdown,
    WagerCollectedEvent: _wager_collected,
    PayoutEvent: _payout,
    RakeCollectedEvent: _rake,
    PlayerLeftEvent: _player_left,
    ShufflerAlarmEvent: _shuffler_alarm,
    MisdealEvent: _misdeal,
    HandDeadEvent: _hand_dead,
}
