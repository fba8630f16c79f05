"""One event log adjudicated in this process, as ``pitwatch adjudicate`` runs it: the
log read (the native core's own reader for a plain file, a stream for a compressed log or a
pipe), every record written as its hand ends, rejected records to the DLQ as they come,
and with a ``RunKeeper`` the hands booked and archived a batch at a time.

Why a module of its own: the command's wiring (``services.cli``) stays the options and
what is printed; this is the run, which the differential tests also drive.
"""

from __future__ import annotations

import base64
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import orjson
import typer

from services.adjudicator.embedded import (
    BYTES_PER_CHUNK,
    DeadLetter,
    EmbeddedRunner,
    StepResult,
)
from services.events.contract import Alert, encode_record
from services.events.logfile import examine, open_log, read_chunks
from services.games.profile import Profiles
from services.outputs import Sink
from services.terminal import LogProgress, RecordTally, log_progress

if TYPE_CHECKING:
    from services.log_checks import LogHead
    from services.recording import RunKeeper


class AdjudicationRun:
    """Collects what an embedded run produced, for its summaries: the records' tally (a
    run over years of history holds counts, not records), the alerts and dead letters;
    with a ``keeper``, every record, alert and segment also goes to the database as the
    run goes (``services.recording.RunKeeper``)."""

    def __init__(self, keeper: RunKeeper | None = None, dlq: Sink | None = None) -> None:
        self.tally = RecordTally()
        self.alerts: list[Alert] = []
        self.dead_letters = DeadLetterLog(dlq)
        self.chain_breaks_outside_hands = 0  # rejected input too (docs/events.md)
        self.keeper = keeper
        self.left_open = 0  # hands open at the end of the log, left for a later run

    @property
    def input_rejected(self) -> bool:
        return (self.dead_letters.count > 0 or self.chain_breaks_outside_hands > 0
                or self.tally.any_rejected)


class DeadLetterLog:
    """The records a run rejected: each written to the DLQ file as it comes (when one is
    named), the first ``SHOWN`` kept for the summary, all of them counted.

    Why: held until the run ended (to be written then), a log of a million bad lines
    held every one with its reason: 532 MB for 192 MB of input."""

    SHOWN = 10

    def __init__(self, out: Sink | None = None) -> None:
        self.count = 0
        self.first: list[DeadLetter] = []
        self._out = out

    def add(self, dead: Sequence[DeadLetter]) -> None:
        self.count += len(dead)
        self.first += dead[:self.SHOWN - len(self.first)]
        if self._out is not None and dead:
            self._out.write(b"".join(_dead_letter_line(d) for d in dead))


def run_file(path: Path, profiles: Profiles, out: Sink | None = None,
             engine: str | None = None, keeper: RunKeeper | None = None,
             dlq: Sink | None = None, leave_open: bool = False,
             head: LogHead | None = None) -> AdjudicationRun:
    """Adjudicate a JSONL file, writing records to ``out`` (bytes, one JSON line each) as
    hands end and rejected records to ``dlq``; with ``keeper``, the records are booked,
    and (when it archives) every event packed for the archive as its segment closes, a
    batch at a time.

    At the end of the log, the hands still open are closed as incomplete (SURV-9), since
    the table's events stop there; with ``leave_open`` the log goes on in a later one (a
    day's file), so they are counted (``left_open``) and left out: not written, booked or
    archived, for the run given both logs, which sees them end. Closed here, they were
    booked as rejected, and that run's complete record of the same hand was refused as a
    changed re-post (a critical LEDGER_CONFLICT for every hand across midnight).

    With ``keeper``, a table met part way through its chain continues from the state an
    earlier run kept for it, and with ``leave_open`` the tables' states at the end of the
    log (their open hands in them) are kept for the run of the log that goes on
    (``services.archive.carry``): a day's file is then checked as part of its tables'
    chains, the hands across midnight in the run that sees them end.

    A table that goes on from the archive's chain with no state kept that fits it (the
    log before run without ``leave_open``) refuses the run (``services.exits.Refused``):
    with ``head`` (the log read beforehand, ``services.log_checks``) before a line is
    read, else before a hand of that table is booked (``RunKeeper``)."""
    run = AdjudicationRun(keeper, dlq)
    runner = _runner(profiles, engine, keeper is not None and keeper.archives)
    if keeper is None:  # only written and counted: the core's records as their bytes
        runner.encode_records()
    else:  # a table part way through its chain goes on from the state kept for it
        if head is not None:
            keeper.refuse_unlinked(head.first_seq, runner.engine, runner.read_state)
        runner.carry_from(keeper.states_for(runner.engine, runner.read_state))
    with log_progress(path, "adjudicating") as bar:
        for step in log_steps(runner, path, bar, runs=keeper is None):
            _collect(run, step, out)
            run.chain_breaks_outside_hands += len(step.outside_hand)
        if leave_open and keeper is not None:
            keeper.carry(runner.engine, runner.carries())
        closing = runner.finish()
        if leave_open:
            run.left_open = len(closing.records) + len(closing.encoded)
        else:
            _collect(run, closing, out)
    return run


def log_steps(runner: EmbeddedRunner, path: Path, bar: LogProgress, runs: bool = False
              ) -> Iterator[StepResult]:
    """The file's results: the native core reads a regular JSONL file itself in whole
    buffers (the bar advances per buffer; with ``runs``, its records come in runs); a
    compressed log or a pipe is read once, as a stream (``open_log``), in buffers that
    either engine takes (the native core as they are, the reference line by line).
    ``pitwatch surveil`` and ``pitwatch demo`` read their logs through it too."""
    source = examine(path)
    if runner.native and source.plain_file:
        yield from runner.feed_path(source.path, bar.counted if bar.visible else None, runs)
        return
    with open_log(path) as fh:
        chunks = read_chunks(fh, BYTES_PER_CHUNK, source.path)
        yield from runner.feed_chunks(bar.chunks(chunks) if bar.visible else chunks)


def _runner(profiles: Profiles, engine: str | None, archive: bool = False) -> EmbeddedRunner:
    """The embedded runner of the chosen engine (cutting the archive's segments when
    ``archive``; records only, no closed hands built), or a one-line error (exit 2)."""
    from services.adjudicator.engine import EngineUnavailable, UnknownEngine

    try:
        return EmbeddedRunner(profiles, engine, archive=archive, closed_hands=False)
    except (EngineUnavailable, UnknownEngine) as exc:  # as serve's and replay's say it
        raise typer.BadParameter(str(exc), param_hint="--engine") from None


def _collect(run: AdjudicationRun, step: StepResult, out: Sink | None) -> None:
    """A step's records (as structs or already encoded: one engine gives one kind, in
    the order the hands ended), alerts and dead letters."""
    if step.encoded_run is not None:  # records of hands ended before the step's own
        run.tally.add_run(step.encoded_run)
        if out is not None:
            out.write(step.encoded_run.json)
    run.tally.add(step.records)
    run.tally.add_encoded(step.encoded)
    if run.keeper is not None:
        run.keeper.add(step.records, step.alerts, step.archive)
    run.alerts += step.alerts
    run.dead_letters.add(step.dead_letters)
    if out is not None:
        if step.records:
            out.write(b"".join([encode_record(record) + b"\n" for record in step.records]))
        if step.encoded:
            out.write(b"".join([record.json + b"\n" for record in step.encoded]))


def _dead_letter_line(d: DeadLetter) -> bytes:
    """One DLQ line: where, why, the table if known, and the record as it came.

    A JSON line holds text, so a record that is not UTF-8 is shown in ``record`` with its
    bad bytes replaced (U+FFFD), which loses them; its bytes then also go in
    ``record_base64``, so the record is kept unchanged, as the contract promises (QA: a
    0xFF byte came back as ``ef bf bd`` and the original could not be recovered)."""
    line: dict[str, str | None] = {"where": d.where, "reason": d.reason,
                                   "table_id": d.table_id,
                                   "record": d.raw.decode("utf-8", "replace")}
    try:
        d.raw.decode("utf-8")
    except UnicodeDecodeError:
        line["record_base64"] = base64.b64encode(d.raw).decode("ascii")
    return orjson.dumps(line) + b"\n"
