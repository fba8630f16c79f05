"""The hands a PHH import reads: ``.phh`` files (one hand each) and ``.phhs`` files (many
hands, one ``[n]`` table each, the PHH dataset's format), each hand with where it came
from, so every record can be traced to its file and table.

Which table a hand belongs to is the source's ``table`` field (with its ``venue``): one
``.phhs`` file mixes the hands of many real tables, and one table's hands run on across
files, so a folder says nothing about tables there. A hand without a ``table`` field
belongs to the session of its folder, as the Pluribus and WSOP files are laid out.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from services.importers.phh_hand import PhhHand, Unsupported, read_hand
from services.importers.phh_toml import PhhSyntaxError, loads

SUFFIXES = (".phh", ".phhs")
# A UTF-8 byte order mark, which Windows Notepad writes at the start of a file it saves as
# UTF-8: passed over, as an event log's is (TOML would refuse the file at line 1).
BOM = "\ufeff"


@dataclass(frozen=True)
class SourceHand:
    """One hand read from a file: ``section`` is its table name in a ``.phhs`` file
    (None in a ``.phh`` file), ``position`` its place in the file."""

    path: Path
    section: str | None
    position: int
    hand: PhhHand

    @property
    def location(self) -> str:
        return location(self.path, self.section)

    @property
    def table_key(self) -> tuple[str, ...]:
        """The source's table (venue and name), else the folder's session."""
        if self.hand.table is not None:
            return ("table", self.hand.venue or "", self.hand.table)
        return ("folder", str(self.path.parent))


def location(path: Path, section: str | None) -> str:
    """``file`` or ``file[n]``: where a hand is in the source."""
    return str(path) if section is None else f"{path}[{section}]"


@dataclass
class Reading:
    """The hands read, in file order, and the entries that could not be read (with each
    reason's kind, for counting)."""

    hands: list[SourceHand]
    skipped: list[tuple[str, str]]
    read: int = 0  # hands (or unreadable files) read: hands + skipped
    kinds: dict[str, str] = field(default_factory=dict)  # reason -> its kind


def expand(paths: Iterable[str | os.PathLike[str]],
           folder_links: list[Path] | None = None) -> list[Path]:
    """Files as given, directories searched recursively for ``.phh`` and ``.phhs``
    files; sorted (``Path``'s own order), without duplicates. ``folder_links``, if
    given, gets each link to a folder the walk passed over, so that the import can say
    so (QA: a linked folder of hands was left out without a word).

    Why not ``rglob`` and ``sorted(paths)``: ``rglob`` gives every entry and each then
    needs a ``stat`` to say it is a file, where a directory entry already says so; and
    ``Path``'s ``<`` works out both sides' parts again at every comparison. With the
    native importer, these were about 8 µs of the ~55 µs a Pluribus hand's import took.
    The walk is ``rglob``'s: every name, hidden ones too, no descent into a link to a
    folder, a folder that cannot be read passed over, a link counted as the file it
    points to."""
    found: set[Path] = set()
    for raw in paths:
        path = raw if isinstance(raw, Path) else Path(raw)  # a Path costs ~2 µs to copy
        if os.path.isdir(path):
            found.update(_phh_files(path, folder_links))
        else:
            found.add(path)
    return sorted(found, key=_parts)


def _parts(path: Path) -> tuple[str, ...]:
    """The key of ``Path``'s order (its parts, compared in turn), made once a path."""
    return path.parts


def _phh_files(folder: Path, folder_links: list[Path] | None) -> Iterator[Path]:
    pending = [folder]
    while pending:
        directory = pending.pop()
        try:
            with os.scandir(directory) as listing:
                entries = list(listing)
        except PermissionError:
            continue
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                pending.append(directory / entry.name)
            elif _suffix(entry.name) in SUFFIXES and _is_file(entry):
                yield directory / entry.name
            elif folder_links is not None and entry.is_symlink() and _is_dir(entry):
                folder_links.append(directory / entry.name)


def _suffix(name: str) -> str:
    """``PurePath.suffix`` of a name: from its last dot, unless that dot leads or ends it."""
    dot = name.rfind(".")
    return name[dot:] if 0 < dot < len(name) - 1 else ""


def _is_dir(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()  # follows a link
    except OSError:
        return False


def _is_file(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_file()  # follows a link, as Path.is_file does
    except OSError:
        return False


def read_sources(files: Iterable[Path]) -> Reading:
    """Every hand of every file: a ``.phhs`` file's tables one by one (a hand that cannot
    be imported is skipped with its reason, the others are kept); a file that is not
    readable at all is one skipped entry. A leading byte order mark is passed over."""
    reading = Reading([], [])
    for path in files:
        try:
            doc = loads(path.read_text(encoding="utf-8").removeprefix(BOM))
        except (PhhSyntaxError, UnicodeDecodeError, OSError) as exc:
            why = (f"not a valid PHH (TOML) file: {exc}" if isinstance(exc, PhhSyntaxError)
                   else f"not UTF-8 text (byte 0x{exc.object[exc.start]:02x} at offset "
                        f"{exc.start:,}): PHH files are UTF-8; save it as UTF-8"
                   if isinstance(exc, UnicodeDecodeError) else str(exc))
            _skip(reading, str(path), why)
            continue
        for position, (section, body) in enumerate(_documents(path, doc, reading)):
            try:
                hand = read_hand(body)
            except Unsupported as exc:
                _skip(reading, location(path, section), str(exc), exc.kind)
                continue
            reading.read += 1
            reading.hands.append(SourceHand(path, section, position, hand))
    return reading


def _documents(path: Path, doc: dict[str, Any], reading: Reading
               ) -> list[tuple[str | None, dict[str, Any]]]:
    """The hands of one parsed file: the file itself (``.phh``), or each of its tables
    (``.phhs``; a key outside every table makes the file unreadable)."""
    if path.suffix != ".phhs":
        return [(None, doc)]
    stray = [key for key, value in doc.items() if not isinstance(value, dict)]
    if stray:
        _skip(reading, str(path), f"not a .phhs file: {stray[0]!r} is outside every hand "
                                  "([n] table)")
        return []
    return list(doc.items())


def _skip(reading: Reading, where: str, why: str, kind: str | None = None) -> None:
    reading.read += 1
    reading.skipped.append((where, why))
    if kind is not None and kind != why:
        reading.kinds[why] = kind
