"""What the ``pitwatch`` commands show on the terminal: progress bars and summary tables.

Why one module: ``pitwatch adjudicate``, ``surveil``, ``simulate`` and ``demo`` show the
same counts in the same words, so a reader who learnt one screen can read the others; and
the demo, which is a separate module, uses these helpers without reaching into the CLI.

Progress bars go to stderr and count what a person thinks in, events and hands, with a
rate and the time left (never bytes); they are drawn only on a terminal, so a pipe or a
CI log stays clean. Tables are returned, not printed: the caller picks the console.
Text that comes from the input (ids, messages) is put in tables as ``Text``, never parsed
as Rich markup.
"""

from __future__ import annotations

import errno
import os
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import Console
from rich.table import Table
from rich.text import Text

from services.adjudicator.steps import finding_key
from services.events.logfile import examine

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID

    from services.adjudicator.steps import EncodedRecord, EncodedRun
    from services.events.contract import AdjudicationRecord, Alert

err = Console(stderr=True)


class StdoutConsole(Console):
    """A console on standard output, whose reader may leave before the end (``| head``).

    Rich's own answer to the broken pipe is ``SystemExit(1)`` without a word, read as
    "the input had problems" (QA: ``ledger rake | head`` said nothing, where the same
    command in CSV said why). This one raises the ``BrokenPipeError`` the command line
    says in one line (``services.exits.READER_LEFT``), output discarded from then on."""

    def on_broken_pipe(self) -> None:
        self.quiet = True
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        raise BrokenPipeError(errno.EPIPE, "standard output's reader left")


def progress_bar(console: Console = err, get_time: Callable[[], float] | None = None
                 ) -> Progress:
    """A bar with what is counted, done/total, a second count (``note``), rate, time left
    (``services.terminal_progress``). ``get_time``: the clock (tests give their own)."""
    # Imported here: rich.progress was ~4 ms of the start-up of `pitwatch adjudicate`,
    # which draws no bar when stderr is not a terminal (``log_progress``).
    from services.terminal_progress import progress_bar as bar

    return bar(console, get_time)


def count_lines(path: Path) -> int:
    """Lines (events) in a JSONL file, counted without parsing: the bar's total. Only of a
    file that can be read again (``lines_beforehand``)."""
    lines = 0
    last = b"\n"
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            lines += chunk.count(b"\n")
            last = chunk[-1:]
    return lines + (last != b"\n")


# How a ``hand_ended`` event looks inside a raw line, with or without a space after ':'.
HAND_ENDED = b'hand_ended"'


class LogProgress:
    """Progress through an event log: events read of the log's total, hands ended.

    Hands are counted from the raw lines (``hand_ended`` events), so the count is the
    same whoever consumes the lines; it is a progress figure, not a result.
    """

    def __init__(self, progress: Progress | None, task: TaskID | None = None) -> None:
        """``progress`` None: no bar at all (``log_progress`` off a terminal)."""
        self._progress = progress
        self._task = task
        self._hands = 0
        self._pending = 0

    @property
    def visible(self) -> bool:
        """Somebody sees the bar (stderr is a terminal): counting is worth its passes."""
        return self._progress is not None and not self._progress.disable

    def counted(self, lines: int, hands: int) -> None:
        """Advance by a buffer whose lines and ``hand_ended`` events were counted by its
        reader (the native core's, ``services._native.LogFile``)."""
        self._pending += lines
        self._hands += hands
        self._flush()

    def chunks(self, chunks: Iterable[bytes]) -> Iterator[bytes]:
        """Pass a log's consecutive pieces through, counting their lines and ``hand_ended``
        events (a log the native core takes as a stream: compressed, or a pipe)."""
        for chunk in chunks:
            yield chunk
            self.counted(chunk.count(b"\n"), chunk.count(HAND_ENDED))

    def _flush(self) -> None:
        if self._progress is not None and self._task is not None:
            self._progress.update(self._task, advance=self._pending,
                                  note=f"{self._hands:,} hands")
        self._pending = 0


def lines_beforehand(path: Path, console: Console = err) -> int | None:
    """The bar's total: the lines of ``path`` when somebody sees the bar and the file is
    JSONL as written in a regular file. A pipe or a FIFO is read once (counting its lines
    first left nothing to adjudicate: 0 hands, exit 0), and a compressed log's lines are
    known only once it is decompressed; their bars count without a total."""
    if not console.is_terminal:
        return None
    source = examine(path)
    return count_lines(source.path) if source.plain_file else None


@contextmanager
def log_progress(path: Path, what: str, console: Console = err) -> Iterator[LogProgress]:
    """``with log_progress(log, "adjudicating") as bar:``, the bar advanced by ``counted``
    or ``chunks`` as the log is read (``services.log_run.log_steps``). Off a terminal
    there is no bar to draw, and none is made (``progress_bar``: its import)."""
    if not console.is_terminal:
        yield LogProgress(None)
        return
    total = lines_beforehand(path, console)
    with progress_bar(console) as progress:
        task = progress.add_task(f"{what} {path.name}", total=total, unit="events",
                                 note="0 hands")
        yield LogProgress(progress, task)


# ---------------------------------------------------------------- tables

TABLE_ALERTS = "table alerts (SURV-9 chain, GEN-4/GEN-5 between hands)"


class RecordTally:
    """What the summaries need of a run's records, counted as the records pass: hands by
    status and findings by rule, code and severity.

    Why not the records themselves: a run that re-verifies years of history must not
    hold every record until it ends (its memory would grow with the file, and the
    garbage collector would walk all of them again and again); what it prints at the end
    is these counts.
    """

    def __init__(self) -> None:
        self.hands = 0
        self.status: Counter[str] = Counter()
        self.findings: Counter[tuple[str, str, str]] = Counter()

    @classmethod
    def of(cls, records: Iterable[AdjudicationRecord]) -> RecordTally:
        tally = cls()
        tally.add(records)
        return tally

    def add(self, records: Iterable[AdjudicationRecord]) -> None:
        for record in records:
            self._count(record.status, map(finding_key, record.findings))

    def add_encoded(self, records: Iterable[EncodedRecord]) -> None:
        for record in records:
            self._count(record.status, record.findings)

    def add_run(self, run: EncodedRun) -> None:
        """A run of records counted by the core (``EncodedRun``)."""
        self.hands += run.hands
        self.status.update(dict(run.status))
        self.findings.update(dict(run.findings))

    def _count(self, status: str, findings: Iterable[tuple[str, str, str]]) -> None:
        self.hands += 1
        self.status[status] += 1
        self.findings.update(findings)

    @property
    def any_findings(self) -> bool:
        return bool(self.findings)

    @property
    def any_rejected(self) -> bool:
        return self.status["rejected"] > 0


def _tally(records: Iterable[AdjudicationRecord] | RecordTally) -> RecordTally:
    return records if isinstance(records, RecordTally) else RecordTally.of(records)


def summary_table(records: Iterable[AdjudicationRecord] | RecordTally, table_alerts: int,
                  dead_letters: int, chain_breaks_outside_hands: int = 0) -> Table:
    """Hands by status, the adjudicator's own alerts and the records it refused.

    The alerts counted here are the ones the adjudicator raises on single events (a broken
    hash chain, cash played or the table reconfigured between hands); the cross-hand
    surveillance alerts (SURV-2..8) have their own table and are not counted here.
    """
    tally = _tally(records)
    status = tally.status
    table = Table(title="adjudication summary", show_header=True)
    table.add_column("what")
    table.add_column("count", justify="right")
    table.add_row("hands", f"{tally.hands:,}")
    for name in ("ok", "discrepancy", "dead", "unverified", "rejected"):
        if name != "unverified" or status.get(name):  # shown when some hand could not be
            table.add_row(f"  {name}", f"{status.get(name, 0):,}")  # verified (imports)
    table.add_row(TABLE_ALERTS, f"{table_alerts:,}")
    table.add_row("records rejected to the DLQ", f"{dead_letters:,}")
    # Rejected input too (docs/events.md): a chain break no open hand took.
    table.add_row("chain breaks outside a hand", f"{chain_breaks_outside_hands:,}")
    return table


def findings_table(records: Iterable[AdjudicationRecord] | RecordTally) -> Table:
    counts = _tally(records).findings
    table = Table(title="findings by rule and severity")
    for col in ("rule", "code", "severity", "count"):
        table.add_column(col, justify="right" if col == "count" else "left")
    for (rule, code, severity), n in sorted(counts.items()):
        table.add_row(Text(rule), Text(code), Text(severity), f"{n:,}")
    return table


def surveillance_table(alerts: Sequence[Alert], hands: int, repeats: int = 0) -> Table:
    """The cross-hand surveillance alerts (SURV-2..8) this run raised, one row each, over
    the hands it counted: ``repeats`` of the ``hands`` read an earlier run had counted
    (``--db``), and their alerts are not this run's (QA: "34 alert(s) over 4,969 hands"
    of which 2,329 were not counted)."""
    counted = f"{hands - repeats:,} hands" + (
        f" counted now ({repeats:,} counted by an earlier run, not again)" if repeats else "")
    table = Table(title=f"cross-hand surveillance (SURV-2..8): {len(alerts)} alert(s) over "
                        f"{counted}", min_width=72)
    for col in ("rule", "code", "severity", "table", "hand", "what"):
        table.add_column(col, overflow="fold")
    for a in alerts:
        table.add_row(Text(a.rule), Text(a.code), Text(a.severity), Text(a.table_id),
                      Text(a.hand_id or ""), Text(a.message))
    return table


def say_left_open(hands: int, where: str = "") -> None:
    """``--leave-open``: how many hands the log left open, for the next run (``where``:
    what keeps them for it, when this command does not)."""
    if hands:
        err.print(f"{hands:,} hand(s) still open at the end of the log, left for the run "
                  f"given the log that goes on (--leave-open){where}", markup=False,
                  highlight=False, soft_wrap=True)
