"""The progress bar the ``pitwatch`` commands draw on stderr (``services.terminal``): what is
counted, done/total, a second count, the rate in the task's own unit and the time left.

Why a module of its own: ``rich.progress`` (with ``rich.live`` and the spinners) is
imported only when a bar is made. ``pitwatch adjudicate`` makes none when stderr is not a
terminal, and importing it was ~4 ms of that command's start-up.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Console
from rich.progress import (
    BarColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeRemainingColumn,
)
from rich.text import Text


class RateColumn(ProgressColumn):
    """``4,210 events/s``: the task's speed in its own unit (``task.fields["unit"]``)."""

    def render(self, task: Task) -> Text:
        unit = task.fields.get("unit", "items")
        if task.speed is None:
            return Text(f"- {unit}/s", style="progress.data.speed")
        return Text(f"{task.speed:,.0f} {unit}/s", style="progress.data.speed")


class CountColumn(ProgressColumn):
    """``12,000/60,000 events`` (or ``12,000 events`` while the total is unknown)."""

    def render(self, task: Task) -> Text:
        unit = task.fields.get("unit", "items")
        done = f"{int(task.completed):,}"
        if task.total is None:
            return Text(f"{done} {unit}", style="progress.download")
        return Text(f"{done}/{int(task.total):,} {unit}", style="progress.download")


def progress_bar(console: Console, get_time: Callable[[], float] | None = None
                 ) -> Progress:
    """A bar with what is counted, done/total, a second count (``note``), rate, time left.
    ``get_time``: the clock (tests give their own)."""
    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        CountColumn(),
        TextColumn("{task.fields[note]}"),
        RateColumn(),
        TextColumn("time left"),
        TimeRemainingColumn(),
        console=console,
        transient=True,
        disable=not console.is_terminal,
        get_time=get_time,
    )
