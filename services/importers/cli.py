"""``pitwatch import ...``: turn other systems' hand records into v1 table events.

The lead mounts ``import_app`` on the main command (``app.add_typer(import_app,
name="import")``), giving ``pitwatch import phh FILES... -o events.jsonl``. The events
file can then be adjudicated like any table log (``pitwatch adjudicate events.jsonl``).
Skipped hands are listed on stderr with their reason and counted in the summary; the
command exits with status 1 only when nothing at all could be imported, and 2 when a file
or folder named does not exist (a usage error, not a skipped hand).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from services.importers.phh import import_phh, skipped_by_reason, write_jsonl
from services.outputs import output_file

import_app = typer.Typer(help="Import hand histories from other formats as v1 events.",
                         no_args_is_help=True)

err = Console(stderr=True)


@import_app.callback()
def import_group() -> None:
    """Import hand histories from other formats as v1 events (a command group, so
    ``pitwatch import phh`` keeps its name as more formats are added)."""


@import_app.command("phh")
def phh(
    files: Annotated[list[Path], typer.Argument(exists=True,
                                                help="PHH files or directories of them "
                                                     "(one table per directory)")],
    output: Annotated[Path, typer.Option("-o", "--output", callback=output_file,
                                         dir_okay=False, help="events JSONL to write")],
    list_skipped: Annotated[bool, typer.Option("--list-skipped",
                                               help="print every skipped file")] = False,
) -> None:
    """Convert Poker Hand History (PHH) files into hash-chained v1 events: hold'em hands
    become ``holdem`` hands whose recorded payouts come from ``finishing_stacks``."""
    result = import_phh(files)
    with output.open("wb") as target:
        write_jsonl(result.events, target)
    scaled = {t: s for t, s in result.scales.items() if s != 1}
    err.print(f"imported {result.hands} hand(s) at {len(result.scales)} table(s) "
              f"({len(result.events)} events) to {output}")
    for table, scale in sorted(scaled.items()):
        err.print(f"  {table}: chip unit 1/{scale} of the source's (half-chip results)")
    if result.skipped:
        err.print(f"skipped {len(result.skipped)} hand(s):")
        for reason, count in skipped_by_reason(result.skipped):
            err.print(f"  {count:6d}  {reason}")
        if list_skipped:
            for path, reason in result.skipped:
                err.print(f"  {path}: {reason}")
    if result.hands == 0:
        raise typer.Exit(code=1)
