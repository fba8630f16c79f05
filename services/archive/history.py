"""A table's history fed to the native core in bulk: the state a replay starts from.

Why its own module: a dispute report replays a table up to the hand it is about, and
``pitwatch archive checkpoint`` stores the same state every so many archived lines so that
a report can start there (``services.archive.checkpoints``). Both must reach the very
same state, so both feed the table's lines through this one runner, the same way.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from services.adjudicator.intake import Rejection, parse_record
from services.adjudicator.native_runner import NativeRunner
from services.adjudicator.steps import StepResult
from services.games.profile import Profiles


class BulkHistory:
    """A native runner taking a table's history (its lines before the wanted hands' span)
    in bulk, and the rejected lines among them, worded as the event-by-event replay words
    them (``rejected``: "line N: reason").

    Why: a hand played late in a table's life (an archived table holds years of hands)
    was replayed one event at a time from the table's first event, each parsed again in
    Python for a report that shows none of them: about 25 us an event, minutes for a year
    of a table. The history goes to the core in one call per buffer instead, with no hand
    built for the caller (``closed_hands=False``), and the table's state moves to the
    runner that replays the span through the core's own export and import (the Kafka
    pipeline's restore). A line the intake refuses goes to the dead letters; only those
    are parsed again here, for the reference intake's reason."""

    def __init__(self, profiles: Profiles, rejected: list[str]) -> None:
        self.profiles = profiles
        self.bulk = NativeRunner(profiles, closed_hands=False)
        self.rejected = rejected
        # Started from a checkpoint (``restore``): the rejected lines before it that
        # ``rejected`` does not name (a checkpoint names the first five), and what it was.
        self.unnamed = 0
        self.started_from: str | None = None

    def feed(self, lines: Sequence[tuple[int, bytes]]) -> None:
        """Numbered lines, in order: as one buffer when their numbers run on (an archived
        table's), else as records each named by its number (a log's table, whose lines
        are interleaved with other tables')."""
        if not lines:
            return
        steps: Iterable[StepResult]
        if lines[-1][0] - lines[0][0] == len(lines) - 1:
            buffer = b"\n".join(raw for _, raw in lines)
            steps = self.bulk.feed_buffer(buffer, first_line=lines[0][0])
        else:
            steps = (step for _, step in self.bulk.feed_records(
                [raw for _, raw in lines], [f"line {number}" for number, _ in lines]))
        for step in steps:
            for dead in step.dead_letters:
                parsed = parse_record(dead.raw, dead.where)
                if isinstance(parsed, Rejection):
                    self.rejected.append(f"{dead.where}: {parsed.reason}")

    def restore(self, state: bytes, unnamed: int = 0, started_from: str | None = None
                ) -> str:
        """Start from a table state ``export`` gave (a checkpoint's, described by
        ``started_from``; ``unnamed``: its rejected lines that ``rejected`` does not name);
        returns the table the state is of. ValueError: not a state this core reads."""
        table_id = self.bulk.import_table(state)
        self.unnamed = unnamed
        self.started_from = started_from
        return table_id

    def export(self, table_id: str) -> bytes | None:
        """The table's state as the history left it (None: no line of it was taken)."""
        return self.bulk.export_table(table_id)

    def runner_for(self, table_id: str) -> NativeRunner:
        """A runner holding the table as the history left it, that builds closed hands."""
        runner = NativeRunner(self.profiles)
        state = self.export(table_id)
        if state is not None:
            runner.import_table(state)
        return runner
