"""A listing never hides part of a cell: a day cut to ``2026-01-…`` on two rows of one
table, or a balance cut to ``162,0…``, hid what the row is read for (QA: ``ledger totals``
piped or run from cron, 80 columns)."""

from __future__ import annotations

import io

from rich.console import Console

from services.ledger.listing import PIPE_WIDTH, Column, Listing

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


def test_to_a_pipe_a_long_text_wraps_at_its_words_within_the_pipe_width() -> None:
    """A case's summary or audit entry of hundreds of characters is not one line of
    hundreds of columns; the ids beside it stay whole (QA: ``cases show`` at 80 columns
    put every word on a line of its own)."""
    summary = " ".join(["chips"] * 80)  # 479 characters
    listing = Listing("Evidence", [Column("hand"), Column("day"), Column("summary")],
                      [("T003-000042", "2026-01-05", summary)])
    out = io.StringIO()
    listing.print_to(Console(file=out, width=80, force_terminal=False))
    lines = out.getvalue().splitlines()
    assert max(len(line) for line in lines) == PIPE_WIDTH
    assert any("T003-000042" in line and "2026-01-05" in line for line in lines)
    assert sum(line.count("chips") for line in lines) == 80
