"""What the pot games (Five Card Draw 7-A, Texas Hold'em) share around the betting engine:
opening a hand, replaying its events, the findings and decision path collected on the
way, the dead hand (GEN-6) and the settlement told in words.

WHY here and not in each game: both games open a hand with the same three refusals, end
a dead hand the same way and tell the same settlement (uncalled bets, rake, pots); they
differ only in the rule each step cites and in how a hand is described. Those
differences are parameters (``rule``, ``SettlementWords``), so a fix to the shared steps
lands in both games at once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Generic, Protocol, TypeVar

from services.events.contract import (
    Event,
    Finding,
    HandEndedEvent,
    HandStarted,
    HandStartedEvent,
    Severity,
    TableConfigured,
)
from services.games.betting.settlement import Settlement
from services.games.model import GameOutcome, HandInput, HandRejected, TraceStep, finding

S = TypeVar("S")


@dataclass
class Notes(Generic[S]):
    """Findings and decision path collected while a hand is replayed; ``severity`` is the
    game's own severities section (each finding's severity is read from it)."""

    severity: S
    findings: list[Finding] = field(default_factory=list)
    trace: list[TraceStep] = field(default_factory=list)

    def add(self, code: str, rule: str, severity: Severity, message: str,
            seat: int | None = None, amount: int | None = None) -> None:
        self.findings.append(finding(code, rule, severity, message, seat=seat, amount=amount))

    def step(self, rule: str, message: str, seat: int | None = None) -> None:
        self.trace.append(TraceStep(rule, message, seat))


def opening(hand: HandInput, rule: str) -> tuple[TableConfigured, HandStarted]:
    """The configuration and ``hand_started`` a pot is played under; the hand is rejected
    (citing ``rule``, the game's deal rule) without them or with fewer than two players."""
    config = hand.table.config
    if config is None:
        raise HandRejected("GEN-5", "no table configuration")
    started = next((e.data for e in hand.events if isinstance(e, HandStartedEvent)), None)
    if started is None:
        raise HandRejected(rule, "the hand has no hand_started event")
    if len(started.seats) < 2:
        raise HandRejected(rule, f"{len(started.seats)} player(s) dealt in; a pot needs at "
                                 "least two")
    return config, started


class EventFeed(Protocol):
    def feed(self, event: Event) -> None: ...


def replay(walk: EventFeed, events: Iterable[Event]) -> None:
    """Feed the hand's events in order, up to its ``hand_ended`` (table-level events after
    it belong to the table, not to the play of this hand)."""
    for event in events:
        if isinstance(event, HandEndedEvent):
            break
        walk.feed(event)


def dead_outcome(started: HandStarted, notes: Notes[S], reason: str) -> GameOutcome:
    """GEN-6: a dead hand or misdeal returns every wager; nothing is paid or raked."""
    seats = [s.seat for s in started.seats]
    return GameOutcome(
        net={seat: 0 for seat in seats},
        house=0,
        rake={},
        findings=notes.findings,
        trace=[*notes.trace, TraceStep("GEN-6", f"hand dead ({reason}): every chip goes "
                                                "back, no rake")],
        seat_rules={seat: "GEN-6" for seat in seats},
        dead=True,
    )


@dataclass(frozen=True)
class SettlementWords:
    """How a game tells its settlement: the rule that returns an uncalled bet and the
    one that awards a pot, the words for a split pot, and a hand's description (its rank
    code, or None for a contender with no claim)."""

    refund_rule: str
    award_rule: str
    split: str
    describe: Callable[[int | None], str]


def settlement_trace(result: Settlement, ranks: Mapping[int, int | None],
                     words: SettlementWords) -> list[TraceStep]:
    """The settlement in the order it happens: uncalled bets, rake, then each pot."""
    steps: list[TraceStep] = []
    for seat, amount in sorted(result.refunds.items()):
        steps.append(TraceStep(words.refund_rule, f"seat {seat}'s uncalled {amount} returned",
                               seat))
    if result.pot_rake.why:
        steps.append(TraceStep("GEN-10", result.pot_rake.why + (
            ", taken from the pot before it is awarded" if result.pot_rake.amount else "")))
    if result.fee_from == "pot":
        steps += _fee_steps(result, "taken from the pot before it is awarded")
    for award in result.awards:
        name = "main pot" if award.index == 0 else f"side pot {award.index}"
        eligible = " ".join(map(str, award.eligible))
        hands = "; ".join(f"seat {s}: {words.describe(ranks.get(s))}" for s in award.eligible
                          if s in ranks)
        shares = ", ".join(f"seat {s} {v}" for s, v in award.shares.items())
        split = words.split if len(award.winners) > 1 else ""
        raked = result.pot_rake.amount or (result.fee_from == "pot" and result.rake)
        after = " after rake" if raked else ""
        steps.append(TraceStep(words.award_rule, f"{name} {award.amount}{after}, "
                                                 f"eligible {eligible}"
                                                 f"{'; ' + hands if hands else ''}: "
                                                 f"{shares}{split}"))
    if result.fee_from == "stack":
        steps += _fee_steps(result, "paid from its own stack (a participation fee; the pot "
                                    "is not touched)")
    return steps


def _fee_steps(result: Settlement, how: str) -> list[TraceStep]:
    """GEN-10: one step per seat charged a fee."""
    return [TraceStep("GEN-10", f"rake {amount} charged to seat {seat}, {how}", seat)
            for seat, amount in sorted(result.rake.items())]
