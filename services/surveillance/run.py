"""Surveillance over an embedded adjudication run (``pitwatch surveil LOG.jsonl``).

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


def surveil_lines(lines: Iterable[tuple[bytes, str]], config: SurveillanceConfig,
                  engine: SurveillanceEngine | None = None) -> SurveillanceRun:
    """Adjudicate ``(raw, where)`` lines with the embedded runner and surveil every hand
    as it closes; SURV-8 is reviewed once at the end."""
    engine = engine or SurveillanceEngine(config)
    runner = EmbeddedRunner()
    run = SurveillanceRun()
    for raw, where in lines:
        closing = _closing_hand(runner, raw)
        step = runner.feed(raw, where)
        run.records += step.records
        run.stream_alerts += step.alerts
        run.dead_letters += step.dead_letters
        if closing is None:
            continue
        hand, context = closing
        for record in step.records:
            if record.table_id == hand.table_id and record.hand_id == hand.hand_id:
                hand_input = HandInput(table=context, hand_id=hand.hand_id,
                                       events=tuple(unpack_events(hand)))
                run.alerts += engine.observe(hand_input, record)
                run.hands_surveilled += 1
    final = runner.finish()
    run.records += final.records
    run.alerts += engine.review()
    return run
