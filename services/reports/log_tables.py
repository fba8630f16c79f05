"""The lines of an event log a replay needs: those of the tables the wanted hands are at.

A hand's report replays its table from the table's first event (``replay.py`` says why),
so the replay needs every line of that table and no line of any other. ``group_by_table``
splits lines already held. ``LogFile`` is a log on disk, read in two passes so that only
the wanted hands' tables are ever held: the first finds the table of each wanted hand,
the second keeps those tables' lines. Why not one pass: a hand's table is known only at
the hand's first line, and every table's lines before it would be held until then. On a
day's log of 10,000 High Card Flush hands at four tables (246 MB), ``report hand`` held
the whole file twice (the read and its lines: 581 MB of memory); it now holds one table.

Each pass parses (``orjson``) only the lines that can matter and passes over the others
unread, with the same result as parsing them all. A line whose top-level ``hand_id`` (or
``table_id``) is the string X holds, when it has no backslash, the token ``"X"`` written
out as it is: a string token differs from its text only by an escape, and an escape is a
backslash. Without a backslash every ``"`` of a JSON line delimits a string, so
``HAND_FIELD`` finds every ``"hand_id": "X"`` of it (inside a string it would need an
escaped quote), and a match never runs across a line break. The first pass parses a line
with a backslash or in which ``HAND_FIELD`` finds a wanted id (and skips a whole piece of
the log that has neither); the second a line with a backslash or one of the wanted
tables' tokens ``"T"``. Lines are numbered as ``read_log`` numbers them, the non-blank
ones from 1, so a rejected line's number is the same either way.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import repeat
from pathlib import Path

import orjson

from services.events.bounds import MAX_RECORD_BYTES
from services.events.logfile import open_log
from services.events.utf8 import encodes_as_utf8
from services.events.wire import JSON_WHITESPACE, record_of_line


@dataclass
class Tables:
    """The log split by table: each table's lines (numbered), the table of each wanted
    hand, and where each table's first line naming a wanted hand stands in its lines
    (everything before it is the table's history up to the wanted hands)."""

    lines: dict[str, list[tuple[int, bytes]]] = field(default_factory=dict)
    table_of: dict[str, str] = field(default_factory=dict)
    first_wanted: dict[str, int] = field(default_factory=dict)

    def take(self, number: int, line: bytes, table: str, hand: object,
             hand_ids: set[str]) -> None:
        """One line of ``table`` (its ``hand_id`` member as parsed: a list or an object
        is not an id)."""
        table_lines = self.lines.setdefault(table, [])
        if isinstance(hand, str) and hand in hand_ids:
            self.table_of.setdefault(hand, table)
            self.first_wanted.setdefault(table, len(table_lines))
        table_lines.append((number, line))


def group_by_table(lines: Sequence[bytes], hand_ids: set[str]) -> Tables:
    """Every line of ``lines`` (numbered from 1) under its table."""
    out = Tables()
    for number, line in enumerate(lines, start=1):
        parsed = table_and_hand(line)
        if parsed is not None:
            out.take(number, line, *parsed, hand_ids)
    return out


def read_log(path: Path) -> list[bytes]:
    """The non-blank lines of a JSONL event log (kept compressed or not: ``open_log``)."""
    with open_log(path) as fh:
        return _lines(fh.read())


@dataclass(frozen=True)
class LogFile:
    """An event log on disk, read as a replay needs it (``group_file_by_table``)."""

    path: Path

    def chunks(self) -> Iterator[bytes]:
        """Its bytes in pieces of whole lines (each ends with a newline, but the last),
        about ``CHUNK_BYTES`` each: a boundary never splits a line, nor a CR LF."""
        rest = b""
        with open_log(self.path) as fh:
            while block := fh.read(CHUNK_BYTES):
                block = rest + block
                cut = block.rfind(b"\n") + 1
                rest = block[cut:]
                if cut:
                    yield block[:cut]
        if rest:
            yield rest

    def first_line_problem(self) -> str | None:
        """Why the log's first non-blank line is no event (not JSON, or no object with a
        ``table_id``), or None: a file that is no event log at all (a PDF, a CSV given by
        mistake) said only that no event in it belongs to the hand."""
        if not self.path.is_file():  # a pipe, read once already: nothing to look at again
            return None
        for chunk in self.chunks():
            for line in _lines(chunk):
                why = _why_no_event(line)
                if why is None:
                    return None
                return (f"{self.path.name} is not a JSONL event log: its first line is "
                        f"{why}; give the table's event log")
        return f"{self.path.name} holds no event (no line but blanks): give the table's event log"

    def holds_lines(self) -> bool:
        """Whether it has a non-blank line (an empty log has no hand to report)."""
        return any(_lines(chunk) for chunk in self.chunks())


CHUNK_BYTES = 8 * 1024 * 1024
# The second pass looks for up to this many tables' ids in a line before it parses the
# line; with more, most lines are at a wanted table, and it parses every line.
FEW_TABLES = 8
# ``"hand_id": "..."`` as written in one line without a backslash, the id captured. Its
# whitespace and id take no line break, so a match never runs from one line into the next.
HAND_FIELD = re.compile(rb'"hand_id"[ \t]*:[ \t]*"([^"\\\r\n]*)"')


def group_file_by_table(log: LogFile, hand_ids: set[str]) -> Tables:
    """``group_by_table`` of the log's lines, holding only the lines of the tables that
    wanted hands are at (a log that is not a regular file, a pipe, is read once, whole)."""
    if not log.path.is_file():
        return group_by_table(read_log(log.path), hand_ids)
    out = Tables()
    tables = set(_tables_of(log, hand_ids).values())
    if not tables:
        return out
    needles = [b'"' + t.encode() + b'"' for t in tables if _writable(t)]
    look = len(needles) == len(tables) <= FEW_TABLES
    before = 0  # the lines of the pieces before
    for chunk in log.chunks():
        lines = _lines(chunk)
        numbered = enumerate(lines, start=before + 1)
        escaped = b"\\" in chunk
        for number, line in (_naming(numbered, needles, escaped) if look else numbered):
            parsed = table_and_hand(line)
            if parsed is not None and parsed[0] in tables:
                out.take(number, line, *parsed, hand_ids)
        before += len(lines)
    return out


def _naming(numbered: Iterable[tuple[int, bytes]], needles: list[bytes], escaped: bool
            ) -> list[tuple[int, bytes]]:
    """The lines that have one of ``needles``, or a backslash when their piece of the log
    has one (``escaped``). The one-table case, the common one, makes no call a line."""
    if len(needles) == 1 and not escaped:
        needle = needles[0]
        return [(n, line) for n, line in numbered if needle in line]
    return [(n, line) for n, line in numbered
            if (escaped and b"\\" in line) or any(needle in line for needle in needles)]


def _tables_of(log: LogFile, hand_ids: set[str]) -> dict[str, str]:
    """The first pass: the table of each wanted hand the log names (the table of the
    first line naming it), read until every one is found. A piece of the log in which
    ``HAND_FIELD`` finds no wanted id and that has no backslash is passed over whole."""
    wanted = {hand.encode() for hand in hand_ids if _writable(hand)}
    missing = set(hand_ids)
    table_of: dict[str, str] = {}
    for chunk in log.chunks():
        if not _may_name(chunk, wanted):
            continue
        for line in _lines(chunk):
            parsed = table_and_hand(line) if _may_name(line, wanted) else None
            if parsed is None or not isinstance(parsed[1], str) or parsed[1] not in missing:
                continue
            table_of[parsed[1]] = parsed[0]
            missing.discard(parsed[1])
            if not missing:
                return table_of
    return table_of


def _lines(chunk: bytes) -> list[bytes]:
    """The records of the non-blank lines of a piece of a log (or of all of it), in C: no
    Python a line.

    Split at ``\n`` only, as ``pitwatch adjudicate`` and the Kafka intake split a log
    (``services.adjudicator.embedded.lines_of``): ``bytes.splitlines`` also splits at a
    bare ``\r`` (and ``\x0b``, ``\x0c``, ``\x1c``..``\x1e``), so two events joined by a
    ``\r`` were two events to the report and one malformed record to adjudicate, and the
    report called "ok" a hand adjudicate found wrong (QA). Each line's record is what
    ``record_of_line`` takes (JSON whitespace stripped; a line over MAX_RECORD_BYTES
    whole), as adjudicate takes it."""
    lines = chunk.split(b"\n")
    if max(map(len, lines)) > MAX_RECORD_BYTES:  # rare: a line the intake refuses whole
        return list(filter(None, map(record_of_line, lines)))
    return list(filter(None, map(bytes.strip, lines, repeat(JSON_WHITESPACE))))


def _may_name(text: bytes, wanted: set[bytes]) -> bool:
    """Whether a line (or lines) of ``text`` may have a wanted hand's id as its top-level
    ``hand_id`` (module docstring)."""
    return b"\\" in text or not wanted.isdisjoint(HAND_FIELD.findall(text))


def _writable(text: str) -> bool:
    """Whether ``text`` can stand in a JSON string without an escape (else a line naming
    it has a backslash, and is parsed anyway)."""
    return encodes_as_utf8(text) and not any(c in '"\\' or ord(c) < 0x20 for c in text)


def _why_no_event(line: bytes) -> str | None:
    """Why ``line`` is not an event, as the end of "its first line is ...", or None. A
    file of adjudication records (``pitwatch adjudicate``'s output, given for its input
    by mistake) has a ``table_id`` and a ``hand_id`` on every line, and was taken for an
    event log in which no hand had events: an event names its ``type``."""
    if table_and_hand(line) is None:
        return "not a JSON object with a table_id"
    obj = orjson.loads(line)
    if isinstance(obj.get("type"), str):
        return None
    if "status" in obj and "expected" in obj:
        return "an adjudication record (pitwatch adjudicate's output), not an event"
    return "a JSON object with no event type"


def table_and_hand(line: bytes) -> tuple[str, object] | None:
    """A line's table id and its ``hand_id`` member as parsed, or None when it is not a
    JSON object with a string ``table_id`` (such a line is at no table)."""
    try:
        obj = orjson.loads(line)
    except orjson.JSONDecodeError:
        return None
    if not isinstance(obj, dict) or not isinstance(obj.get("table_id"), str):
        return None
    return obj["table_id"], obj.get("hand_id")
