"""Read a PHH file (a TOML document) with exact numbers: floats become ``Decimal``.

PHH files written by tools (the Pluribus and WSOP sets, the HandHQ ``.phhs`` files) are
one ``key = value`` per line with strings, integers, floats (``inf`` / ``nan`` too),
booleans, local times (``time = 00:00:09``), one-line arrays of those, one-line
``'''literal'''`` strings (a table named ``AMY'S AVE``) and, in a
``.phhs`` file, one ``[name]`` table header before each hand. ``tomllib`` parses them
correctly but slowly (it is a general TOML parser in pure Python and dominates the import
time), so lines of exactly that shape are read by one regular expression per value;
anything else in the file (multi-line arrays, dotted keys or headers, inline tables,
escapes, dates ...) sends the whole file to ``tomllib``. Both paths give identical results
(``tests/unit/holdem/test_phh_toml.py`` checks every file of the shared data set and
generated documents), and both read floats as ``Decimal`` so ``10162.5`` stays exact.
"""

from __future__ import annotations

import re
import tomllib
from datetime import time
from decimal import Decimal
from typing import Any

_INT = r"[+-]?(?:0|[1-9][0-9]*)"
_FLOAT = (r"[+-]?(?:0|[1-9][0-9]*)(?:\.[0-9]+(?:[eE][+-]?[0-9]+)?|[eE][+-]?[0-9]+)"
          r"|[+-]?(?:inf|nan)")
_STRING = r"'[^'\n]*'|\"[^\"\\\n]*\""
# A one-line multi-line literal string (``table = '''AMY'S AVE'''``: a name with a quote).
_TRIPLE = r"'''(?:[^'\n]|'(?!''))*'''"
# A TOML local time, as tomllib reads it (seconds required, fractions to microseconds).
_TIME = r"(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\.[0-9]+)?"
_VALUE = rf"({_TRIPLE}|{_STRING})|({_TIME})(?![0-9:])|({_FLOAT})|({_INT})|(true|false)"
_KEY = re.compile(r"[ \t]*([A-Za-z0-9_-]+)[ \t]*=[ \t]*")
_HEADER = re.compile(r"[ \t]*\[[ \t]*([A-Za-z0-9_-]+)[ \t]*\][ \t]*(?:#[^\n]*)?")
_SCALAR = re.compile(_VALUE)
_ITEM = re.compile(rf"[ \t]*(?:{_VALUE})[ \t]*(?:(,)|(?=\]))")
_INT_ONLY = re.compile(_INT)
_CLOSE = re.compile(r"[ \t]*\]")
_END = re.compile(r"[ \t]*(?:#[^\n]*)?")
# Arrays of strings only, or of numbers only (every array of the PHH data sets): one
# pattern checks the whole array, one ``findall`` takes the items out.
_STRINGS = re.compile(rf"\[[ \t]*(?:(?:{_STRING})[ \t]*,[ \t]*)*(?:(?:{_STRING})[ \t]*)?\]")
_STRING_ITEMS = re.compile(r"'([^'\n]*)'|\"([^\"\\\n]*)\"")
_NUMBER = rf"(?:{_FLOAT}|{_INT})"
_NUMBERS = re.compile(rf"\[[ \t]*(?:{_NUMBER}[ \t]*,[ \t]*)*(?:{_NUMBER}[ \t]*)?\]")
_NUMBER_ITEMS = re.compile(_NUMBER)

class PhhSyntaxError(ValueError):
    """The file is not a TOML document."""


def loads(text: str) -> dict[str, Any]:
    """The PHH document as a dict (floats as ``Decimal``); a ``.phhs`` file's hands are
    its tables (``{"1": {...}, "2": {...}}``, in file order)."""
    fast = _fast_loads(text)
    if fast is not None:
        return fast
    try:
        return tomllib.loads(text, parse_float=Decimal)
    except tomllib.TOMLDecodeError as exc:
        raise PhhSyntaxError(str(exc)) from exc


def _fast_loads(text: str) -> dict[str, Any] | None:
    """The document if every line is blank, a comment, a one-line ``key = value`` or a
    plain ``[name]`` table header (whose keys follow it)."""
    out: dict[str, Any] = {}
    table = out
    for line in text.split("\n"):
        line = line.removesuffix("\r")
        key_match = _KEY.match(line)
        if key_match is None:
            if _END.fullmatch(line):
                continue
            header = _HEADER.fullmatch(line)
            if header is None or header.group(1) in out:
                return None  # anything else, or a repeated name: tomllib decides
            table = out[header.group(1)] = {}
            continue
        key, pos = key_match.group(1), key_match.end()
        if key in table:
            return None  # tomllib reports the duplicate key
        parsed = _array(line, pos + 1) if line.startswith("[", pos) else _scalar(line, pos)
        if parsed is None or not _END.fullmatch(line, parsed[1]):
            return None
        table[key] = parsed[0]
    return out


def _array(line: str, pos: int) -> tuple[list[Any], int] | None:
    """A one-line array of scalars starting after its ``[``: (items, end position)."""
    whole = _STRINGS.match(line, pos - 1)
    if whole is not None:
        found = _STRING_ITEMS.findall(line, pos, whole.end())
        return [single or double for single, double in found], whole.end()
    whole = _NUMBERS.match(line, pos - 1)
    if whole is not None:
        return [_number(n) for n in _NUMBER_ITEMS.findall(line, pos, whole.end())], whole.end()
    items: list[Any] = []
    while True:
        close = _CLOSE.match(line, pos)
        if close is not None:
            return items, close.end()
        item = _ITEM.match(line, pos)
        if item is None:
            return None
        items.append(_convert(item))
        pos = item.end()
        if item.group(6) is None:  # no comma: the closing bracket must follow
            close = _CLOSE.match(line, pos)
            return (items, close.end()) if close is not None else None


def _scalar(line: str, pos: int) -> tuple[Any, int] | None:
    match = _SCALAR.match(line, pos)
    if match is None:
        return None
    return _convert(match), match.end()


def _number(text: str) -> int | Decimal:
    return int(text) if _INT_ONLY.fullmatch(text) else Decimal(text)


def _convert(match: re.Match[str]) -> Any:
    """The Python value of a matched scalar (groups: string, time, float, int, bool)."""
    string, clock, number, integer, boolean = match.group(1, 2, 3, 4, 5)
    if string is not None:
        return string[3:-3] if string.startswith("'''") else string[1:-1]
    if clock is not None:
        return _local_time(clock)
    if number is not None:
        return Decimal(number)
    if integer is not None:
        return int(integer)
    return boolean == "true"


def _local_time(text: str) -> time:
    """A TOML local time as tomllib gives it (fractions cut to microseconds)."""
    hms, _, fraction = text.partition(".")
    hour, minute, second = (int(part) for part in hms.split(":"))
    return time(hour, minute, second, int(fraction[:6].ljust(6, "0")) if fraction else 0)


def wrong_type(key: str, value: Any, wanted: str) -> tuple[str, str]:
    """The skip reason, and its kind, for a field that is there but of another type
    (``variant = 5``): saying "no 'variant' field" sent the reader looking for a line
    that is in the file."""
    return f"'{key}' is {as_written(value)}, not {wanted}", f"'{key}' is not {wanted}"


def as_written(value: Any) -> str:
    """A value of a document near enough as the file wrote it to find it there (``5``,
    ``true``), or its kind."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | Decimal):
        return str(value)
    if isinstance(value, list):
        return "an array"
    return "a table" if isinstance(value, dict) else "a date or time"
