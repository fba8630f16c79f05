"""The embedded runner: adjudicate a JSONL event log with no broker.

``EmbeddedRunner`` runs the engine ``services.adjudicator.engine`` chooses (the native
core by default, the Python reference with ``PITWATCH_ENGINE=python``); the pipeline
step drives the same engines, so ``pitwatch adjudicate FILE`` and the Kafka pipeline give
byte-identical records.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import islice
from typing import TYPE_CHECKING, BinaryIO

from services.adjudicator.carry import CarrySource, StateRead, TableCarry
from services.adjudicator.engine import EngineName, make_runner
from services.adjudicator.native_runner import NativeRunner
from services.adjudicator.steps import DeadLetter, StepResult
from services.events.wire import record_of_line
from services.games.profile import Profiles

if TYPE_CHECKING:
    from services.adjudicator.python_runner import ReferenceRunner

__all__ = ["DeadLetter", "EmbeddedRunner", "StepResult", "adjudicate_file", "adjudicate_lines",
           "iter_lines"]

LINES_PER_BATCH = 4096  # lines handed to the native core in one call
BYTES_PER_CHUNK = 1 << 22  # bytes of a file read at once (``feed_file``, ``feed_path``)


class EmbeddedRunner:
    """Feeds records one at a time (``feed``) or a batch of lines (``feed_lines``).
    ``profiles``: the rule profiles the tables may post (read once by the caller's
    bootstrap); ``archive``: the results carry the event archive's segments, whichever
    engine runs."""

    def __init__(self, profiles: Profiles, engine: str | None = None,
                 archive: bool = False, closed_hands: bool = True) -> None:
        """``archive``: results carry the event archive's segments. ``closed_hands``: each
        result names the hand it closed (``closed_hand``, what surveillance reads); a
        caller that only wants the records says False, and the native core then builds no
        Python object for a hand its rules adjudicate."""
        self.impl = make_runner(profiles, engine, archive=archive, closed_hands=closed_hands)
        self.profiles = profiles
        self.archive = archive
        self._scratch: NativeRunner | ReferenceRunner | None = None  # ``read_state``

    @property
    def native(self) -> bool:
        """The native core runs (it takes whole buffers: ``feed_file``)."""
        return isinstance(self.impl, NativeRunner)

    def encode_records(self) -> None:
        """Records as ``StepResult.encoded`` from now on, where the engine can (the native
        core); the reference's stay structs in ``StepResult.records``."""
        if isinstance(self.impl, NativeRunner):
            self.impl.encode_records()

    def feed(self, raw: bytes, where: str) -> StepResult:
        return self.impl.feed(raw, where)

    def feed_records(self, values: Sequence[bytes], wheres: Sequence[str]
                     ) -> Iterator[tuple[int, StepResult]]:
        """Records as delivered, in order (``wheres[i]`` names value i's position):
        ``(index, result)`` of each record that had an outcome. The native core takes them
        in one call and only those records reach Python; the reference feeds them one at
        a time (and gives every result, empty ones too)."""
        if isinstance(self.impl, NativeRunner):
            yield from self.impl.feed_records(values, wheres)
            return
        feed = self.impl.feed
        for index, raw in enumerate(values):
            yield index, feed(raw, wheres[index])

    def feed_lines(self, lines: list[bytes], first_line: int = 1) -> Iterator[StepResult]:
        """The results (only those with an outcome) of lines ``first_line``.. of a file."""
        if isinstance(self.impl, NativeRunner):
            yield from self.impl.feed_lines(lines, first_line)
            return
        feed = self.impl.feed
        for number, line in enumerate(lines, start=first_line):
            record = record_of_line(line)
            if record:
                step = feed(record, f"line {number}")
                if step.records or step.alerts or step.dead_letters or step.archive:
                    yield step

    def feed_file(self, fh: BinaryIO) -> Iterator[StepResult]:
        """The results (only those with an outcome) of a whole binary file, without the
        end-of-input closing (``finish``). The native core takes it in buffers of whole
        lines (no Python object per line); the reference one line at a time. A file with
        a path is read faster by ``feed_path``."""
        if not isinstance(self.impl, NativeRunner):
            yield from self._feed_numbered(iter_lines(fh))
            return
        yield from self.feed_chunks(iter(lambda: fh.read(BYTES_PER_CHUNK), b""))

    def feed_chunks(self, chunks: Iterable[bytes]) -> Iterator[StepResult]:
        """As ``feed_file``, of a log given as consecutive pieces of its bytes, cut
        anywhere (a stream read as it comes: a decompressed log, a pipe)."""
        if not isinstance(self.impl, NativeRunner):
            yield from self._feed_numbered(iter_lines(lines_of(chunks)))
            return
        native = self.impl
        pending = b""  # the start of a line the previous chunk cut
        line = 1
        for chunk in chunks:
            last = chunk.rfind(b"\n") + 1
            if not last:  # the chunk only goes on with a line
                pending += chunk
                continue
            start = 0
            if pending:  # the line cut between the chunks, whole (a line's copy)
                start = chunk.find(b"\n") + 1
                yield from native.feed_buffer(pending + chunk[:start], line)
                line = native.next_line
            # The chunk's own whole lines, fed where they lie: no copy of 4 MB a chunk
            # (the two copies were about a tenth of `pitwatch adjudicate`'s CPU).
            yield from native.feed_buffer(chunk, line, start, last)
            line = native.next_line
            pending = chunk[last:]
        if pending:
            yield from native.feed_buffer(pending, line)

    def _feed_numbered(self, lines: Iterable[tuple[bytes, str]]) -> Iterator[StepResult]:
        feed = self.impl.feed
        for raw, where in lines:
            step = feed(raw, where)
            if (step.records or step.alerts or step.dead_letters or step.outside_hand
                    or step.archive):
                yield step

    def feed_path(self, path: str | os.PathLike[str],
                  on_read: Callable[[int, int], None] | None = None,
                  runs: bool = False) -> Iterator[StepResult]:
        """The results (only those with an outcome) of the whole file at ``path``, without
        the end-of-input closing (``finish``): as ``feed_file``, the native core reading
        the file itself (one buffer kept for the whole file; ``on_read(lines, hands)``
        counts what each read brought, for a progress bar; with ``runs`` after
        ``encode_records``, records come in ``StepResult.encoded_run``s). The reference
        reads it as ``feed_file`` does."""
        if isinstance(self.impl, NativeRunner):
            yield from self.impl.feed_path(os.fspath(path), BYTES_PER_CHUNK, on_read, runs)
            return
        with open(path, "rb") as fh:
            yield from self.feed_file(fh)

    def finish(self) -> StepResult:
        return self.impl.finish()

    # ------------------------------------------------------------ carried states

    @property
    def engine(self) -> EngineName:
        """Which engine runs (a table's state is in its engine's own format)."""
        return "native" if self.native else "python"

    def carry_from(self, source: CarrySource | None) -> None:
        """Tables met for the first time continue from the states ``source`` gives
        (``services.adjudicator.carry``)."""
        self.impl.carry_from(source)

    def carries(self) -> list[TableCarry]:
        """Every table's state as the run has left it so far (open hands included), in
        table-id order: taken before ``finish``, which closes the open hands."""
        carries = []
        for table_id in self.impl.table_ids():
            state, head = self.impl.export_table(table_id), self.impl.chain_head(table_id)
            if state is not None and head is not None:
                carries.append(TableCarry(table_id, *head, self.archive, state))
        return carries

    def read_state(self, raw: bytes) -> StateRead:
        """What a state of this engine says of its table's chain (its table, head and
        missing seqs), read by a runner of its own (this one's tables untouched);
        ValueError: not a state this engine reads."""
        if self._scratch is None:
            self._scratch = make_runner(self.profiles, self.engine, closed_hands=False)
        scratch = self._scratch
        table_id = scratch.import_table(raw)
        try:
            head, missing = scratch.chain_head(table_id), scratch.missing_seqs(table_id)
        finally:
            scratch.drop_table(table_id)
        assert head is not None and missing is not None  # just imported
        return StateRead(table_id, head[0], tuple(missing))


def iter_lines(lines: Iterable[bytes]) -> Iterator[tuple[bytes, str]]:
    """The records of the non-blank lines (``record_of_line``) with their 1-based line
    number as the position."""
    for number, line in enumerate(lines, start=1):
        record = record_of_line(line)
        if record:
            yield record, f"line {number}"


def lines_of(chunks: Iterable[bytes]) -> Iterator[bytes]:
    """The lines (each with its newline, the last perhaps without) of consecutive pieces of
    a log's bytes."""
    pending = b""
    for chunk in chunks:
        lines = (pending + chunk).split(b"\n")
        pending = lines.pop()
        for line in lines:
            yield line + b"\n"
    if pending:
        yield pending


def adjudicate_lines(lines: Iterable[bytes], profiles: Profiles,
                     engine: str | None = None, archive: bool = False,
                     closed_hands: bool = True) -> Iterator[StepResult]:
    """Every result with an outcome of a whole log, then the end-of-input closing
    (``archive`` and ``closed_hands`` as for ``EmbeddedRunner``)."""
    runner = EmbeddedRunner(profiles, engine, archive=archive, closed_hands=closed_hands)
    if not isinstance(runner.impl, NativeRunner):  # the reference, one line at a time
        feed = runner.impl.feed
        for number, line in enumerate(lines, start=1):  # as ``iter_lines``, inlined
            record = record_of_line(line)
            if record:
                yield feed(record, f"line {number}")
        yield runner.finish()
        return
    it = iter(lines)
    number = 1
    while chunk := list(islice(it, LINES_PER_BATCH)):
        yield from runner.feed_lines(chunk, number)
        number += len(chunk)
    yield runner.finish()


def adjudicate_file(fh: BinaryIO, profiles: Profiles, engine: str | None = None,
                    archive: bool = False, closed_hands: bool = True) -> Iterator[StepResult]:
    """``adjudicate_lines`` over a binary file, read in chunks of whole lines (the native
    core splits them: no Python object per line)."""
    runner = EmbeddedRunner(profiles, engine, archive=archive, closed_hands=closed_hands)
    if not isinstance(runner.impl, NativeRunner):
        yield from adjudicate_lines(fh, profiles, engine, archive=archive,
                                    closed_hands=closed_hands)
        return
    yield from runner.feed_file(fh)
    yield runner.finish()
