"""Surveillance over an embedded adjudication run: one incremental step, two drivers.

``SurveillanceStep`` takes what the embedded runner gives for the records of an event log
(``feed`` one record, or ``surveil`` a result of records fed together) and surveils every
hand as it closes. ``pitwatch surveil LOG.jsonl`` (``surveil_steps``: the runner reads the
file in whole buffers) and ``surveil_lines`` (a line at a time) drive it over a file;
``pitwatch serve surveillance`` (``services.pipeline.surveillance_service``) over the
``table-events`` topic, in chunks of records. All go through ``surveil``, so the service
cannot drift from the command (``test_incremental.py``, ``test_file_path.py`` and
``test_surveillance_batches.py`` check that any chunking of a log gives the same alerts).

The embedded runner produces records; surveillance also needs each hand's events. The
runner hands over the ``HandInput`` it adjudicated with the record that closed it
(``StepResult.closed_hand``), so surveillance sees exactly the events and context the
adjudicator saw, assembled once, and the records are untouched (the runner is driven as
``pitwatch adjudicate`` drives it).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from services.adjudicator.carry import CarryFrom
from services.adjudicator.embedded import DeadLetter, EmbeddedRunner
from services.adjudicator.segments import Segment
from services.adjudicator.steps import StepResult
from services.events.contract import AdjudicationRecord, Alert
from services.games.profile import Profiles
from services.games.unknown_profiles import UNKNOWN_PROFILE_CODE
from services.surveillance.engine import SurveillanceEngine
from services.surveillance.profile import SurveillanceConfig


@dataclass
class SurveillanceRun:
    records: list[AdjudicationRecord] = field(default_factory=list)  # unless not kept
    rejected_hands: int = 0  # records of status ``rejected``, counted kept or not
    rejected_lines: int = 0  # dead letters, counted kept or not
    left_open: int = 0  # hands open at the end of a log that goes on (``leave_open``)
    stream_alerts: list[Alert] = field(default_factory=list)  # SURV-9 / GEN-5, per event
    alerts: list[Alert] = field(default_factory=list)  # SURV-2..8, cross-hand
    dead_letters: list[DeadLetter] = field(default_factory=list)
    hands_surveilled: int = 0
    # The first hand judged without its table's rule profile (this run cannot load it):
    # (table, the finding's message). ``surveil --db`` of a pipe stores nothing then.
    unknown_profile: tuple[str, str] | None = None


@dataclass(slots=True)
class SurveillanceOutput:
    """What one record (or the end of input) produced."""

    records: list[AdjudicationRecord] = field(default_factory=list)
    stream_alerts: list[Alert] = field(default_factory=list)  # SURV-9 / GEN-5, per event
    alerts: list[Alert] = field(default_factory=list)  # SURV-2..8, in the order raised
    dead_letters: list[DeadLetter] = field(default_factory=list)
    hands_surveilled: int = 0  # hands observed by this step (0 or 1 for one record)
    archive: list[Segment] = field(default_factory=list)  # the runner's archive segments
    left_open: int = 0  # hands open at the end of a log that goes on (``finish``)


class SurveillanceStep:
    """Adjudicate and surveil a log one record at a time (the state of a whole run).

    ``review_every``: run the batch review (SURV-8, SURV-5) each time that many hands
    have been surveilled, counted in the log's order, so when it runs is a function of
    the log, never of the clock. ``None``: only when the caller asks (``review``).
    """

    def __init__(self, config: SurveillanceConfig, profiles: Profiles,
                 engine: SurveillanceEngine | None = None,
                 review_every: int | None = None, archive: bool = False,
                 carry_from: CarryFrom | None = None) -> None:
        """``carry_from``: a table met part way through its chain goes on from the state
        the source it makes gives (``services.adjudicator.carry``)."""
        if review_every is not None and review_every < 1:
            raise ValueError("review_every must be at least 1 hand")
        self.engine = engine or SurveillanceEngine(config)
        self.runner = EmbeddedRunner(profiles, archive=archive)
        if carry_from is not None:
            self.runner.carry_from(carry_from(self.runner.engine, self.runner.read_state))
        self.review_every = review_every
        self.hands_surveilled = 0

    def feed(self, raw: bytes, where: str) -> SurveillanceOutput:
        """One record of the log (``where`` names its position, for dead letters)."""
        return self.surveil(self.runner.feed(raw, where))

    def surveil(self, step: StepResult) -> SurveillanceOutput:
        """What the runner gave for one record, or for a run of records fed at once
        (``StepResult``s of ``self.runner``, in order): the hand it closed, if any, is
        surveilled with its record."""
        out = SurveillanceOutput(step.records, step.alerts, [], step.dead_letters,
                                 archive=step.archive)
        hand = step.closed_hand
        if hand is None:
            return out
        for record in step.records:
            if record.table_id == hand.table.table_id and record.hand_id == hand.hand_id:
                out.alerts += self.engine.observe(hand, record)
                if record.status == "rejected":  # the engine takes nothing of it (QA: the
                    continue  # summary counted such hands as surveilled)
                out.hands_surveilled += 1
                self.hands_surveilled += 1
                if self.review_every and self.hands_surveilled % self.review_every == 0:
                    out.alerts += self.engine.review()
        return out

    def review(self) -> list[Alert]:
        """The batch tests over every hand so far (SURV-8, SURV-5); alerts once per
        instance across calls."""
        return self.engine.review()

    def finish(self, leave_open: bool = False) -> SurveillanceOutput:
        """End of input: hands left open are closed as rejected (never surveilled, a
        rejected record is not counted), then the final review. ``leave_open``: the log
        goes on in a later one, so those hands are only counted (``left_open``), for the
        run given both logs."""
        final = self.runner.finish()
        if leave_open:
            return SurveillanceOutput(alerts=self.review(), left_open=len(final.records))
        return SurveillanceOutput(records=final.records, alerts=self.review(),
                                  archive=final.archive)


def surveil_lines(lines: Iterable[tuple[bytes, str]], config: SurveillanceConfig,
                  profiles: Profiles, engine: SurveillanceEngine | None = None,
                  review_every: int | None = None,
                  on_segments: Callable[[list[Segment]], None] | None = None,
                  keep_records: bool = True, leave_open: bool = False,
                  carry_from: CarryFrom | None = None) -> SurveillanceRun:
    """Adjudicate ``(raw, where)`` lines with the embedded runner and surveil every hand
    as it closes; SURV-8 and SURV-5 are reviewed at the end (and every ``review_every``
    hands if given). ``on_segments`` receives the event archive's segments as the runner
    cuts them (``pitwatch demo`` archives the run). ``keep_records`` False: the run counts
    its rejected hands and lines but holds no record or dead letter (``pitwatch surveil``
    over a long log held every record, about 12 kB a hand). ``leave_open``: the log goes
    on in a later one (``SurveillanceStep.finish``). ``carry_from``: tables met part way
    through their chains go on from the states it gives (``SurveillanceStep``)."""
    return surveil_steps(lambda runner: (runner.feed(raw, where) for raw, where in lines),
                         config, profiles, engine, review_every, on_segments, keep_records,
                         leave_open, carry_from)


def surveil_steps(steps: Callable[[EmbeddedRunner], Iterable[StepResult]],
                  config: SurveillanceConfig, profiles: Profiles,
                  engine: SurveillanceEngine | None = None, review_every: int | None = None,
                  on_segments: Callable[[list[Segment]], None] | None = None,
                  keep_records: bool = True, leave_open: bool = False,
                  carry_from: CarryFrom | None = None) -> SurveillanceRun:
    """As ``surveil_lines``, with the log fed by ``steps(runner)``: the results of the
    run's embedded runner over the whole log, in order (``pitwatch surveil`` has the
    runner read a file in whole buffers, as ``pitwatch adjudicate`` does: fed a line at
    a time from Python, the reading was a third of the command's time)."""
    step = SurveillanceStep(config, profiles, engine, review_every,
                            archive=on_segments is not None, carry_from=carry_from)
    run = SurveillanceRun()
    for result in steps(step.runner):
        out = step.surveil(result)
        _collect(run, out, keep_records)
        if on_segments is not None and out.archive:
            on_segments(out.archive)
    out = step.finish(leave_open)
    run.left_open = out.left_open
    _collect(run, out, keep_records)
    if on_segments is not None:
        on_segments(out.archive)
    return run


def _collect(run: SurveillanceRun, out: SurveillanceOutput, keep_records: bool) -> None:
    rejected = [r for r in out.records if r.status == "rejected"]
    run.rejected_hands += len(rejected)
    if run.unknown_profile is None:
        run.unknown_profile = next(((r.table_id, f.message) for r in rejected
                                    for f in r.findings if f.code == UNKNOWN_PROFILE_CODE),
                                   None)
    run.rejected_lines += len(out.dead_letters)
    if keep_records:
        run.records += out.records
        run.dead_letters += out.dead_letters
    run.stream_alerts += out.stream_alerts
    run.alerts += out.alerts
    run.hands_surveilled += out.hands_surveilled
