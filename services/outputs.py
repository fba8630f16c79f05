"""Files the commands write: only the file the user named, never a folder they did not.

Why: ``simulate -o /nonexistent/dir/x.jsonl`` used to create ``/nonexistent/dir`` at the
root of the filesystem without a word. A typo in a folder name should be an error the
user sees (exit 2, the folder named, what to do), not a new folder somewhere. So every
output option is checked when the command line is read, before any work is done.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import typer


def missing_folder(path: Path) -> Path | None:
    """The folder ``path`` would be written in, if it does not exist."""
    folder = path.expanduser().parent
    return None if folder.is_dir() else folder


def check_output_file(path: Path) -> None:
    """Raise a usage error (exit 2) unless ``path`` can be written as a file."""
    folder = missing_folder(path)
    if folder is not None:
        raise typer.BadParameter(
            f"folder {folder} does not exist: create it first (mkdir -p {folder}) or "
            "write somewhere else")
    if path.is_dir():
        raise typer.BadParameter(f"{path} is a folder: name a file in it")


def output_file(value: Path | None) -> Path | None:
    """Typer callback for an output option: checks it (see ``check_output_file``)."""
    if value is not None:
        check_output_file(value)
    return value


def write_jsonl(path: Path, lines: Iterable[bytes]) -> None:
    """One JSON document per line; the folder must exist (see ``check_output_file``)."""
    with path.open("wb") as fh:
        for line in lines:
            fh.write(line + b"\n")
