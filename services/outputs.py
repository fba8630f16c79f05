"""Files the commands write: only the file the user named, never a folder they did not.

Why: ``simulate -o /nonexistent/dir/x.jsonl`` used to create ``/nonexistent/dir`` at the
root of the filesystem without a word. A typo in a folder name should be an error the
user sees (exit 2, the folder named, what to do), not a new folder somewhere. So every
output option is checked when the command line is read, before any work is done.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

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


def not_the_input(outputs: Mapping[str, Path | None], *sources: Path | None,
                  stdout: bool = False) -> None:
    """Raise a usage error (exit 2) if an output is the file being read, or two outputs
    are one file. ``pitwatch adjudicate LOG --dlq LOG`` once read the log and then wrote
    its dead letters over it: the table's own record, gone, exit 0. With ``stdout``, the
    command writes there too, and a log redirected onto itself (``> LOG``) is said
    (the shell has emptied it before pitwatch starts: nothing can bring it back)."""
    named = [(option, path) for option, path in outputs.items() if path is not None]
    read = [source for source in sources if source is not None]
    for option, path in named:
        if any(_same_file(path, source) for source in read):
            raise typer.BadParameter(f"{path} is a file being read: writing it would "
                                     "destroy it; write somewhere else", param_hint=option)
    for at, (option, path) in enumerate(named):
        for other, other_path in named[:at]:
            if path.expanduser().resolve() == other_path.expanduser().resolve():
                raise typer.BadParameter(f"{path} is also {other}'s file: one would "
                                         "overwrite the other", param_hint=option)
    for source in read:
        if stdout and _stdout_is(source):
            raise typer.BadParameter(f"standard output is {source} itself, a file being "
                                     "read (`> FILE` empties it before pitwatch starts): "
                                     "redirect to another file")


def _same_file(path: Path, source: Path) -> bool:
    try:
        return path.exists() and os.path.samefile(path, source)
    except OSError:
        return False


def _stdout_is(source: Path) -> bool:
    try:
        out, read = os.fstat(sys.stdout.fileno()), os.stat(source)
    except (OSError, ValueError, AttributeError):  # no real descriptor (a test's capture)
        return False
    return (out.st_dev, out.st_ino) == (read.st_dev, read.st_ino)


@contextmanager
def written_whole(path: Path) -> Iterator[BinaryIO]:
    """A file to write ``path``'s new content to, part by part, that becomes ``path`` only
    when the block ends without an exception: a command that fails part way leaves the
    file as it was, not a beginning that looks whole. Written beside it (``.NAME.partial``,
    then renamed over it: one step). A path that exists and is not a regular file (a pipe,
    ``/dev/null``) is written directly; a symbolic link's target is the file written, and
    a file replaced keeps its permissions (one made readable by its owner alone stays so)."""
    path = Path(os.path.realpath(path))
    if path.exists() and not path.is_file():
        with path.open("wb") as fh:
            yield fh
        return
    partial = path.with_name(f".{path.name}.partial")
    try:
        with partial.open("w+b") as fh:
            yield fh
        if path.exists():
            shutil.copymode(path, partial)
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)


def write_jsonl(path: Path, lines: Iterable[bytes]) -> None:
    """One JSON document per line; the folder must exist (see ``check_output_file``)."""
    with path.open("wb") as fh:
        for line in lines:
            fh.write(line + b"\n")
