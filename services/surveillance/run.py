"""Surveillance over an embedded adjudication run: one incremental step, two drivers.

``SurveillanceStep`` takes the records of an event log one at a time, adjudicates them
with the embedded runner and surveils every hand as it closes. ``pitwatch surveil
LOG.jsonl`` (``surveil_lines``) drives it over a file; ``pitwatch serve surveillance``
(``services.surveillance.service``) drives it over the ``table-events`` topic. Both call
the same ``feed``, so the service cannot drift from the command (the unit test
``test_incremental.py`` checks that any chunking of a log gives the same alerts).

The embedded runner produces records; surveillance also needs each hand's events. They
are taken from the table state's open hand just before the line that closes it is fed:
the ``OpenHand`` object keeps its packed events after the runner lets go of it, so the
events are exactly those the adjudicator saw, and the records are untouched (the runner is
driven as ``pitwatch adjudicate`` drives it). The ``HandInput`` context given to
surveillance carries the table id, configuration and seating; the other context fields
(button history, buys) are settlement matters surveillance does not read.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import msgspec

from services.adjudicator.embedded import DeadLetter, EmbeddedRunner
from services.adjudicator.open_hand import OpenHand, unpack_events
from services.adjudicator.table import Alert, TableState
from services.events.contract import AdjudicationRecord
from services.games.model import HandInput, SeatInfo, TableContext
from services.surveillance.engine import SurveillanceEngine
from services.surveillance.profile import SurveillanceConfig


class _Peek(msgspec.Struct):
    """Just enough of a wire record to know whether it may close a hand, and where."""

    type: str = ""
    table_id: str = ""


_peek = msgspec.json.Decoder(_Peek)


@dataclass
class SurveillanceRun:
    records: list[AdjudicationRecord] = field(default_factory=list)
    stream_alerts: list[Alert] = field(default_factory=list)  # SURV-9 / GEN-5, per event
    alerts: list[Alert] = field(default_factory=list)  # SURV-2..8, cross-hand
    dead_letters: list[DeadLetter] = field(default_factory=list)
    hands_surveilled: int = 0


@dataclass(slots=True)
class SurveillanceOutput:
    """What one record (or the end of input) produced."""

    records: list[AdjudicationRecord] = field(default_factory=list)
    stream_alerts: list[Alert] = field(default_factory=list)  # SURV-9 / GEN-5, per event
    alerts: list[Alert] = field(default_factory=list)  # SURV-2..8, in the order raised
    dead_letters: list[DeadLetter] = field(default_factory=list)
    hands_surveilled: int = 0  # hands observed by this step (0 or 1 for one record)


def _context(state: TableState) -> TableContext:
    return TableContext(
        table_id=state.table_id, config=state.config,
        config_authorized=state.config_authorized,
        seated={s: SeatInfo(s, v.player_id, v.stack) for s, v in state.seated.items()},
        dealer_id=state.dealer_id, hands_played=state.hands_played)


def _closing_hand(runner: EmbeddedRunner, raw: bytes) -> tuple[OpenHand, TableContext] | None:
    """The hand this line may close (a ``hand_ended`` of a table with an open hand)."""
    try:
        peek = _peek.decode(raw)
    except msgspec.DecodeError:
        return None  # the runner rejects the line itself
    if peek.type != "hand_ended":
        return None
    state = runner.states.get(peek.table_id)
    if state is None or state.open_hand is None:
        return None
    return state.open_hand, _context(state)


class SurveillanceStep:
    """Adjudicate and surveil a log one record at a time (the state of a whole run).

    ``review_every``: run the batch review (SURV-8, SURV-5) each time that many hands
    have been surveilled, counted in the log's order, so when it runs is a function of
    the log, never of the clock. ``None``: only when the caller asks (``review``).
    """

    def __init__(self, config: SurveillanceConfig, engine: SurveillanceEngine | None = None,
                 review_every: int | None = None) -> None:
        if review_every is not None and review_every < 1:
            raise ValueError("review_every must be at least 1 hand")
        self.engine = engine or SurveillanceEngine(config)
        self.runner = EmbeddedRunner()
        self.review_every = review_every
        self.hands_surveilled = 0

    def feed(self, raw: bytes, where: str) -> SurveillanceOutput:
        """One record of the log (``where`` names its position, for dead letters)."""
        closing = _closing_hand(self.runner, raw)
        step = self.runner.feed(raw, where)
        out = SurveillanceOutput(step.records, step.alerts, [], step.dead_letters)
        if closing is None:
            return out
        hand, context = closing
        for record in step.records:
            if record.table_id == hand.table_id and record.hand_id == hand.hand_id:
                hand_input = HandInput(table=context, hand_id=hand.hand_id,
                                       events=tuple(unpack_events(hand)))
                out.alerts += self.engine.observe(hand_input, record)
                out.hands_surveilled += 1
                self.hands_surveilled += 1
                if self.review_every and self.hands_surveilled % self.review_every == 0:
                    out.alerts += self.engine.review()
        return out

    def review(self) -> list[Alert]:
        """The batch tests over every hand so far (SURV-8, SURV-5); alerts once per
        instance across calls."""
        return self.engine.review()

    def finish(self) -> SurveillanceOutput:
        """End of input: hands left open are closed as rejected (never surveilled, a
        rejected record is not counted), then the final review."""
        final = self.runner.finish()
        return SurveillanceOutput(records=final.records, alerts=self.review())


def surveil_lines(lines: Iterable[tuple[bytes, str]], config: SurveillanceConfig,
                  engine: SurveillanceEngine | None = None,
                  review_every: int | None = None) -> SurveillanceRun:
    """Adjudicate ``(raw, where)`` lines with the embedded runner and surveil every hand
    as it closes; SURV-8 and SURV-5 are reviewed at the end (and every ``review_every``
    hands if given)."""
    step = SurveillanceStep(config, engine, review_every)
    run = SurveillanceRun()
    for raw, where in lines:
        _collect(run, step.feed(raw, where))
    _collect(run, step.finish())
    return run


def _collect(run: SurveillanceRun, out: SurveillanceOutput) -> None:
    run.records += out.records
    run.stream_alerts += out.stream_alerts
    run.alerts += out.alerts
    run.dead_letters += out.dead_letters
    run.hands_surveilled += out.hands_surveilled
