"""A listing never hides part of a cell: a day cut to ``2026-01-…`` on two rows of one
table, or a balance cut to ``162,0…``, hid what the row is read for (QA: ``ledger totals``
piped or run from cron, 80 columns)."""

from __future__ import annotations

import io

from rich.console import Console

from services.ledger.listing import Column, Listing

ROWS = [("T001-main-hall-baccarat-side", "2026-01-05", 162_049),
        ("T001-main-hall-baccarat-side", "2026-01-06", 1_925)]


def _listing() -> Listing:
    return Listing("Table totals", [Column("table"), Column("day"),
                                    Column("drop", chips=True)], list(ROWS))


def test_to_a_pipe_every_cell_is_whole_on_its_line() -> None:
    out = io.StringIO()
    _listing().print_to(Console(file=out, width=40, force_terminal=False))
    lines = out.getvalue().splitlines()
    for table, day, drop in ROWS:
        assert any(table in line and day in line and f"{drop:,}" in line for line in lines)
    assert "…" not in out.getvalue()


def test_in_a_narrow_terminal_cells_fold_and_nothing_is_cut() -> None:
    out = io.StringIO()
    console = Console(file=out, width=30, force_terminal=True, color_system=None)
    _listing().print_to(console)
    text = out.getvalue()
    assert "…" not in text
    assert max(len(line) for line in text.splitlines()) <= 30
    shown = sorted(ch for ch in text if ch.isalnum())  # folded or not, every character
    given = "Table totals" + "table" + "day" + "drop" + "".join(
        f"{table}{day}{drop:,}" for table, day, drop in ROWS)
    assert shown == sorted(ch for ch in given if ch.isalnum())


def test_the_console_keeps_its_width_after_a_wide_listing() -> None:
    console = Console(file=io.StringIO(), width=40, force_terminal=False)
    _listing().print_to(console)
    assert console.width == 40
