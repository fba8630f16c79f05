"""``pitwatch import ...``: turn other systems' hand records into v1 table events.

The lead mounts ``import_app`` on the main command (``app.add_typer(import_app,
name="import")``), giving ``pitwatch import phh FILES... -o events.jsonl``. The events
file can then be adjudicated like any table log (``pitwatch adjudicate events.jsonl``).
The summary on stderr accounts for every hand read: imported, imported with limits (what
their records cannot tell), skipped (and why), counted by reason. The command exits with
status 1 only when nothing at all could be imported, and 2 when a file or folder named
does not exist or an option is wrong (a usage error, not a skipped hand).
"""

from __future__ import annotations

import math
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

from services.games.profiles import read_profiles
from services.importers.phh import (
    ENGINES,
    RULE_PROFILE,
    ImportResult,
    SessionNameClash,
    import_phh,
    limits_by_kind,
    skipped_by_reason,
)
from services.importers.phh_source import SUFFIXES, expand
from services.outputs import not_the_input, output_file, written_whole

import_app = typer.Typer(help="Import hand histories from other formats as v1 events.",
                         no_args_is_help=True)

err = Console(stderr=True, highlight=False, soft_wrap=True)  # one line per count


@import_app.callback()
def import_group() -> None:
    """Import hand histories from other formats as v1 events (a command group, so
    ``pitwatch import phh`` keeps its name as more formats are added)."""


def _chip_unit(value: str | None) -> Decimal | None:
    """``0.01``: one chip is a hundredth of the source's unit (cents of dollars)."""
    if value is None:
        return None
    try:
        unit = Decimal(value)
    except InvalidOperation:
        unit = Decimal(0)
    if not unit.is_finite() or unit <= 0 or unit > 1 or (1 / unit) != int(1 / unit):
        raise typer.BadParameter(f"{value!r} is not a chip unit: give 1 divided by a whole "
                                 "number (1, 0.5, 0.01)", param_hint="--chip-unit")
    return unit


def _rule_profile(name: str) -> str:
    """A profile this pitwatch knows (built in, or in PITWATCH_PROFILES) with hold'em."""
    profiles = read_profiles()
    if name not in profiles.names():
        raise typer.BadParameter(f"no rule profile {name!r}; known: "
                                 f"{', '.join(profiles.names())} (a venue's own profile goes "
                                 "in the folder PITWATCH_PROFILES names)",
                                 param_hint="--rule-profile")
    return name


def _engine(name: str) -> str:
    if name not in ENGINES:
        raise typer.BadParameter(f"{name!r} is not an import engine; choose one of "
                                 f"{', '.join(ENGINES)}", param_hint="--engine")
    return name


@import_app.command("phh")
def phh(
    files: Annotated[list[Path], typer.Argument(exists=True,
                                                help="PHH files (.phh, .phhs) or directories "
                                                     "of them")],
    output: Annotated[Path, typer.Option("-o", "--output", callback=output_file,
                                         dir_okay=False, help="events JSONL to write")],
    rule_profile: Annotated[str, typer.Option(
        "--rule-profile", callback=_rule_profile,
        help="the rule profile every imported table posts, e.g. a venue's profile with its "
             "pot rake schedule (\\[rake.pot] in holdem.toml)")] = RULE_PROFILE,
    chip_unit: Annotated[str | None, typer.Option(
        "--chip-unit", help="the source amount one chip stands for, the same at every "
                            "table (0.01: chips are cents), as a venue's rake schedule "
                            "counts them; default: each table's smallest whole unit")] = None,
    list_skipped: Annotated[bool, typer.Option(
        "--list-skipped", help="print every skipped hand and every hand imported with "
                               "limits, with where it is in the source")] = False,
    engine: Annotated[str, typer.Option(
        "--engine", callback=_engine,
        help="native (default: the native core imports the files it reads in full, the "
             "Python importer the rest) or python (the reference importer)")] = "native",
) -> None:
    """Convert Poker Hand History (PHH) files into hash-chained v1 events.

    Hold'em hands become ``holdem`` hands whose recorded payouts are the source's
    settlement (``finishing_stacks``, or ``winnings``). Each table's events are written to
    the output as the table is done; a failed import leaves the output file as it was."""
    # Only a .phh or .phhs file in a folder named is read from it (no second walk of a
    # folder of 10,000 files for an output that cannot be one of them).
    read = expand(files) if output.suffix in SUFFIXES else files
    not_the_input({"--output": output}, *read)
    existed = output.exists()
    with written_whole(output) as fh:
        try:
            result = import_phh(files, rule_profile=rule_profile,
                                chip_unit=_chip_unit(chip_unit), engine=engine, output=fh)
        except SessionNameClash as exc:  # the file is left as it was
            raise typer.BadParameter(str(exc), param_hint="FILES") from None
        if result.read == 0 and not expand(files):  # not "0 imported": nothing to read
            raise typer.BadParameter(
                "found no .phh or .phhs file in " + ", ".join(str(f) for f in files[:3])
                + (" ..." if len(files) > 3 else "") + " (a folder is searched for them, "
                "its subfolders too" + _links_passed(result.folder_links)
                + "): give the hand history files or their folder", param_hint="FILES")
        if result.hands == 0:  # failed: leaving the block by an exception keeps the file
            summary(result, output, list_skipped, kept=existed)
            raise typer.Exit(code=1)
    summary(result, output, list_skipped)


def _links_passed(links: list[Path]) -> str:
    """``, not links to folders: passed over ...`` for the links a folder's walk did not
    follow (a linked folder would be read twice where its target is in the walk too)."""
    if not links:
        return ""
    shown = ", ".join(str(link) for link in links[:3]) + (" ..." if len(links) > 3 else "")
    return (f"; {len(links)} link(s) to a folder passed over, not followed so that no file "
            f"is read twice: {shown}; name a linked folder itself to import it")


def summary(result: ImportResult, output: Path, list_all: bool,
            kept: bool | None = None) -> None:
    """Every hand read: imported (with limits), skipped, each counted by reason.
    ``kept``: nothing was imported, so nothing was written; whether ``output`` existed
    (and is left as it was: an import of nothing once emptied yesterday's file)."""
    limited = {hand for hand, _ in result.limited}
    err.print(f"read {result.read} hand(s): {result.hands} imported "
              f"({len(limited)} with limits), {len(result.skipped)} skipped", markup=False)
    if kept is None:
        err.print(f"imported {result.hands} hand(s) at {len(result.scales)} table(s) "
                  f"({result.event_count} events) to {output}", markup=False)
    else:
        err.print(f"nothing written: {output} " + ("left as it was" if kept else
                                                   "not created"), markup=False)
    if result.folder_links:
        err.print("warning: " + _links_passed(result.folder_links)[2:], markup=False)
    err.print("importer: native" if result.engine == "native"
              else f"importer: Python ({result.declined})", markup=False)
    by_scale: dict[int, list[str]] = {}
    for table, scale in sorted(result.scales.items()):
        by_scale.setdefault(scale, []).append(table)
    for scale, tables in sorted(by_scale.items()):
        if scale != 1:
            named = ", ".join(tables[:3]) + (f" and {len(tables) - 3} more" if len(tables) > 3
                                             else "")
            err.print(f"  chip unit {unit_words(scale)} at {len(tables)} table(s): {named}",
                      markup=False)
    mixed = mixed_units_warning(result.scales)
    if mixed is not None:
        err.print(f"[yellow]warning:[/yellow] {escape(mixed)}", soft_wrap=True)
    if result.limited:
        err.print(f"imported with limits: {len(limited)} hand(s)", markup=False)
        for limit, count in limits_by_kind(result.limited):
            err.print(f"  {count:6d}  {limit}", markup=False)
        if list_all:
            for hand, limit in result.limited:
                err.print(f"  {result.sources.get(hand, hand)}: {hand}: {limit}", markup=False)
    if result.skipped:
        err.print(f"skipped {len(result.skipped)} hand(s):", markup=False)
        for reason, count in skipped_by_reason(result.skipped, result.kinds):
            err.print(f"  {count:6d}  {reason}", markup=False)
        if list_all:
            for where, reason in result.skipped:
                err.print(f"  {where}: {reason}", markup=False)


def mixed_units_warning(scales: dict[str, int]) -> str | None:
    """What to do when the import's tables are in different chip units (each table's
    own by default): a player's balance in a ledger, the day's drop and the rake caps
    add one table's chips to another's. QA: 7 of the 92 Pluribus sessions came in half
    chips, and the ledger showed MrBlue +192,399 where the source says +150,082."""
    units = sorted(set(scales.values()))
    if len(units) < 2:
        return None
    finest = math.lcm(*units)
    unit = Decimal(1) / Decimal(finest)
    shown = (f"--chip-unit {unit.normalize():f}" if unit * finest == 1
             else "--chip-unit with one unit every table's amounts are whole in")
    return (f"the tables are in {len(units)} different chip units "
            f"({', '.join(unit_words(u) for u in units)}): a chip is not the same money at "
            f"every table, and a ledger adds them together (balances, drop, rake); import "
            f"with {shown} to count every table in one unit")


def unit_words(scale: int) -> str:
    """What one chip of a table at ``scale`` is, in the source's terms."""
    if scale == 1:
        return "the source's unit"
    if scale == 2:
        return "1/2 of the source's unit (half chips)"
    if scale == 100:
        return "1/100 of the source's unit (cents)"
    return f"1/{scale} of the source's unit"
