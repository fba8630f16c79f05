"""The embedded runner: adjudicate a JSONL event log with no broker.

``EmbeddedRunner`` runs the engine ``services.adjudicator.engine`` chooses (the native
core by default, the Python reference with ``PITWATCH_ENGINE=python``); the pipeline
step drives the same engines, so ``pitwatch adjudicate FILE`` and the Kafka pipeline give
byte-identical records.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import islice
from typing import BinaryIO

from services.adjudicator.engine import make_runner
from services.adjudicator.native_runner import NativeRunner
from services.adjudicator.python_runner import ReferenceRunner
from services.adjudicator.steps import DeadLetter, StepResult
from services.games.profile import Profiles

__all__ = ["DeadLetter", "EmbeddedRunner", "StepResult", "adjudicate_file", "adjudicate_lines",
           "iter_lines"]

LINES_PER_BATCH = 4096  # lines handed to the native core in one call
BYTES_PER_CHUNK = 1 << 22  # bytes of a file read at once by ``adjudicate_file``


class EmbeddedRunner:
    """Feeds records one at a time (``feed``) or a batch of lines (``feed_lines``).
    ``profiles``: the rule profiles the tables may post (read once by the caller's
    bootstrap); ``archive``: the results carry the event archive's segments, whichever
    engine runs."""

    def __init__(self, profiles: Profiles, engine: str | None = None,
                 archive: bool = False) -> None:
        self.impl = make_runner(profiles, engine, archive)

    def feed(self, raw: bytes, where: str) -> StepResult:
        return self.impl.feed(raw, where)

    def feed_lines(self, lines: list[bytes], first_line: int = 1) -> Iterator[StepResult]:
        """The results (only those with an outcome) of lines ``first_line``.. of a file."""
        if isinstance(self.impl, NativeRunner):
            yield from self.impl.feed_lines(lines, first_line)
            return
        feed = self.impl.feed
        for number, line in enumerate(lines, start=first_line):
            stripped = line.strip()
            if stripped:
                step = feed(stripped, f"line {number}")
                if step.records or step.alerts or step.dead_letters or step.archive:
                    yield step

    def finish(self) -> StepResult:
        return self.impl.finish()


def iter_lines(lines: Iterable[bytes]) -> Iterator[tuple[bytes, str]]:
    """Non-blank lines with their 1-based line number as the position."""
    for number, line in enumerate(lines, start=1):
        stripped = line.strip()
        if stripped:
            yield stripped, f"line {number}"


def adjudicate_lines(lines: Iterable[bytes], profiles: Profiles,
                     engine: str | None = None, archive: bool = False
                     ) -> Iterator[StepResult]:
    """Every result with an outcome of a whole log, then the end-of-input closing
    (``archive``: with the event archive's segments)."""
    runner = EmbeddedRunner(profiles, engine, archive)
    if isinstance(runner.impl, ReferenceRunner):
        feed = runner.impl.feed
        for number, line in enumerate(lines, start=1):  # as ``iter_lines``, inlined
            stripped = line.strip()
            if stripped:
                yield feed(stripped, f"line {number}")
        yield runner.finish()
        return
    it = iter(lines)
    number = 1
    while chunk := list(islice(it, LINES_PER_BATCH)):
        yield from runner.feed_lines(chunk, number)
        number += len(chunk)
    yield runner.finish()


def adjudicate_file(fh: BinaryIO, profiles: Profiles, engine: str | None = None,
                    archive: bool = False) -> Iterator[StepResult]:
    """``adjudicate_lines`` over a binary file, read in chunks of whole lines (the native
    core splits them: no Python object per line)."""
    runner = EmbeddedRunner(profiles, engine, archive)
    if not isinstance(runner.impl, NativeRunner):
        yield from adjudicate_lines(fh, profiles, engine, archive)
        return
    native = runner.impl
    pending = b""
    line = 1
    while chunk := fh.read(BYTES_PER_CHUNK):
        buf = pending + chunk
        cut = buf.rfind(b"\n") + 1
        pending = buf[cut:]
        if cut:
            yield from native.feed_buffer(buf[:cut], line)
            line = native.next_line
    if pending:
        yield from native.feed_buffer(pending, line)
    yield runner.finish()
