"""A listing of the ledger (balances, rake, totals) as a table, JSON or CSV.

Why one shape for three formats: the same rows serve a person at a terminal (a Rich
table, chips with thousands separators), a script (JSON, chips as integers) and a
spreadsheet (CSV, one header line); building the rows once keeps the three identical in
content. Text from the ledger (player and table ids) is data: ``Text`` in the table, so an
id that looks like Rich markup prints as it is, and a control character in it (an escape
sequence in a case's note, say) is shown as its escape, never sent to the terminal
(``printable``); in CSV, a text that starts like a spreadsheet formula gets a ``'`` before
it (``spreadsheet_text``).
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

import orjson
from rich.console import Console
from rich.table import Table
from rich.text import Text

from services.events.numerals import is_ascii_number

Cell = str | int | None


# The width a listing for a pipe or a file is measured in: more than any row needs.
_AS_WIDE_AS_THE_ROWS = 100_000
# How wide a listing for a pipe or a file grows to show long texts (a case's summary, an
# audit entry) on fewer lines; wider than this they wrap at their words.
PIPE_WIDTH = 160


class Format(StrEnum):
    table = "table"
    json = "json"
    csv = "csv"


@dataclass(frozen=True)
class Column:
    name: str  # header in the table, key in JSON and CSV
    chips: bool = False  # right-aligned, thousands separators in the table
    count: bool = False  # right-aligned
    prose: bool = False  # a sentence, not an id: on lines of its own in a block (``blocks``)


@dataclass
class Listing:
    title: str
    columns: Sequence[Column]
    rows: list[tuple[Cell, ...]] = field(default_factory=list)
    footer: tuple[Cell, ...] | None = None  # a total row, table format only
    # In a terminal too narrow for the table without folding an id: a block per row
    # (``blocks``) rather than the table. No footer: a total is not a row of its own.
    blocks_when_narrow: bool = False

    def records(self) -> list[dict[str, Cell]]:
        return [dict(zip((c.name for c in self.columns), row, strict=True))
                for row in self.rows]

    def table(self) -> Table:
        """The rows for a person. A cell too wide for its column folds onto the next
        line rather than end in an ellipsis: a day cut to ``2026-01-…`` on two rows of
        one table, or a balance cut to ``162,0…``, hid the one thing the row is read
        for (QA, ``ledger totals`` at 80 columns)."""
        table = Table(title=self.title)
        for column in self.columns:
            table.add_column(column.name, overflow="fold",
                             justify="right" if column.chips or column.count else "left")
        for row in self.rows:
            table.add_row(*self._cells(row))
        if self.footer is not None:
            table.add_section()
            table.add_row(*self._cells(self.footer))
        return table

    def print_to(self, console: Console) -> None:
        """The table on ``console``: in a terminal at its width (folding what does not
        fit, or a block per row if ``blocks_when_narrow``); to a pipe or a file (cron,
        ``| less``, ``> report.txt``), whose width no one chose, wide enough that no
        word is cut (every id and day whole), and up to ``PIPE_WIDTH`` for the rows' long
        texts, which wrap at their words beyond it."""
        table = self.table()
        if console.is_terminal:
            unfolded = self._unfolded(console, table) \
                if self.blocks_when_narrow and self.rows else 0
            console.print(self.blocks(unfolded, console.width) if unfolded > console.width
                          else table)
        else:  # Console.print(width=) is capped at the console's width: widen the console
            unbounded = console.options.update_width(_AS_WIDE_AS_THE_ROWS)
            needs = console.measure(table, options=unbounded)
            chosen = console.width
            console.width = max(chosen, needs.minimum, min(needs.maximum, PIPE_WIDTH))
            try:
                console.print(table)
            finally:
                console.width = chosen

    @staticmethod
    def _unfolded(console: Console, table: Table) -> int:
        """The columns ``table`` takes with no word folded (each id whole)."""
        return console.measure(
            table, options=console.options.update_width(_AS_WIDE_AS_THE_ROWS)).minimum

    def blocks(self, needs: int, width: int) -> Table:
        """The rows one block each, numbered: every field as ``name value`` on a line that
        wraps between fields, and each ``prose`` field on lines of its own below them.

        Why: a table of many columns in an 80-column terminal (``cases show``'s evidence:
        eight) folded every id and day into pieces (``T1-00000`` over ``3``), and a reader
        compared hand ids by reassembling them; a block keeps each id whole, and leaves
        nothing out. The title says why the layout changed, and how to see the columns."""
        grid = Table.grid(padding=(0, 1))
        grid.title = (f"{self.title} ({len(self.rows)}): a block each; its "
                      f"{len(self.columns)} columns need {needs} characters, the terminal "
                      f"has {width} (a wider one, or --format csv, shows the columns)")
        grid.title_justify = "left"
        grid.add_column(justify="right")
        grid.add_column(overflow="fold")
        room = width - len(f"{len(self.rows)}.") - 1  # beside the numbers' column
        for number, row in enumerate(self.rows, 1):
            pairs: list[tuple[str, str | Text]] = []
            prose: list[Text] = []
            for column, cell in zip(self.columns, self._cells(row), strict=True):
                if column.prose:
                    prose.append(cell if isinstance(cell, Text) else Text(cell))
                else:
                    pairs.append((column.name, cell))
            fields = fields_text(pairs, room, gap="   ", name_style="dim")
            grid.add_row(f"{number}.", Text("\n").join([fields, *prose]))
        return grid

    def csv(self) -> str:
        buffer = io.StringIO()
        # RFC 4180's CRLF: the writer quotes a field holding any character of its line end,
        # and with "\n" alone a carriage return in a note went out unquoted and split its
        # row in two for every reader.
        writer = csv.writer(buffer, lineterminator="\r\n")
        writer.writerow([c.name for c in self.columns])
        writer.writerows([_csv_cell(v) for v in row] for row in self.rows)
        return buffer.getvalue()

    def _cells(self, row: tuple[Cell, ...]) -> list[Text | str]:
        cells: list[Text | str] = []
        for column, value in zip(self.columns, row, strict=True):
            if value is None:
                cells.append("-")
            elif column.chips and isinstance(value, int):
                cells.append(f"{value:,}")
            else:
                cells.append(Text(printable(str(value))))
        return cells


# What a spreadsheet opening a CSV file reads as the start of a formula (the tab and the
# carriage return: what some strip before reading one). OWASP, "CSV Injection".
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _csv_cell(value: Cell) -> Cell:
    if value is None:
        return ""
    return spreadsheet_text(value) if isinstance(value, str) else value


def spreadsheet_text(text: str) -> str:
    """A text cell as a spreadsheet shows it rather than runs it: ``'`` before a text
    that starts like a formula (``=HYPERLINK(...)`` becomes ``'=HYPERLINK(...)``).

    Why: CSV is the format for a spreadsheet, and its text comes from outside: a case's
    note, an assignee, a reason typed by a person, a player or table id from a table
    system's events. A note starting ``=`` would run as a formula on the reviewer's
    machine (fetch a URL with the sheet's data in it, or worse). Only text is changed:
    chips and counts are integers and a negative balance stays ``-500``. JSON, the format
    for a script, gives every text exactly as typed."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text


# Unicode's Cc but the newline (what a terminal acts on instead of showing), and the
# bidirectional embeddings, overrides and isolates (what reorders the text shown).
_UNPRINTABLE = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def printable(text: str) -> str:
    """``text`` for a terminal: each control character but the newline written as its
    escape (``\\x1b``, ``\\t``). A case's note, an assignee or an actor is typed by a
    person (the command line, the console) and kept for years in an append-only trail: one
    holding an escape sequence would otherwise act on the terminal of whoever reads it
    (retitle the window, hide a line, recolour a verdict) instead of showing what it is."""
    return _UNPRINTABLE.sub(lambda found: repr(found.group())[1:-1], text)


UTC_OFFSET = "+00:00"


def shown_utc(ts: str) -> str:
    """An event timestamp as pitwatch shows it: the contract takes ``Z`` or ``+00:00`` for
    UTC (``services.events.timestamps``), and what is shown has one form, ``Z``
    (``2026-01-05T23:59:37.576Z``, whichever the table sent). For display only: the
    stored timestamps, and the JSON a program reads, keep the form sent. The reports
    (``services.reports.render.utc``) and ``ledger hand`` show times through it."""
    return ts[:-len(UTC_OFFSET)] + "Z" if ts.endswith(UTC_OFFSET) else ts


def json_bytes(value: object) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_INDENT_2) + b"\n"


_DIGITS = re.compile(r"([0-9]+)")  # ASCII digits: the numbers int() reads as written


def natural_key(text: str) -> tuple[tuple[int, int | str], ...]:
    """Sort key that orders digit runs by value: ``P0-2`` before ``P0-10``.

    Each part is tagged (0: text, 1: number) so text and numbers never compare directly;
    the whole text comes last (tag 2), so ``P07`` and ``P7`` still have one order.
    """
    parts = tuple((1, int(part)) if is_ascii_number(part) else (0, part)
                  for part in _DIGITS.split(text) if part)
    return (*parts, (2, text))


def fields_text(pairs: Sequence[tuple[str, str | Text]], width: int, gap: str = "  ",
                name_style: str = "", start: int = 0) -> Text:
    """``name value`` pairs on lines of at most ``width`` cells, broken between pairs,
    never inside one: the terminal's own wrap breaks at any space, and split a field's
    name from its value ("before" / "open", "rake mode" / "all": QA). ``start``: the
    cells the first line already holds; a pair wider than a line is left to fold."""
    out, line = Text(), start
    for name, value in pairs:
        pair = Text.assemble((name, name_style), " ", value)
        if line and line + len(gap) + pair.cell_len > width:
            out.append("\n")
            line = 0
        elif line:
            out.append(gap)
            line += len(gap)
        out.append_text(pair)
        line += pair.cell_len
    return out


def terminal_width(console: Console) -> int:
    """The width a heading's fields are broken at: the terminal's; a pipe or a file takes
    each heading on one line, as before."""
    return console.width if console.is_terminal else _AS_WIDE_AS_THE_ROWS
