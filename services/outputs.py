"""Files the commands write: only the file the user named, never a folder they did not.

Why: ``simulate -o /nonexistent/dir/x.jsonl`` used to create ``/nonexistent/dir`` at the
root of the filesystem without a word. A typo in a folder name should be an error the
user sees (exit 2, the folder named, what to do), not a new folder somewhere. So every
output option is checked when the command line is read, before any work is done.

And an output that cannot be written once the work is under way (a full disk, a file
system turned read-only) is named: the operating system's "No space left on device"
says neither which of a command's outputs failed nor where (QA: ``adjudicate LOG --dlq
/dev/full``). Every write to an output goes through ``naming`` (or a ``NamedOutput``),
which turns the ``OSError`` into an ``OutputNotWritten`` that the command line prints as
one line (``services.exits``, exit 2: the environment's error).
"""

from __future__ import annotations

import errno
import os
import shutil
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import BinaryIO, Protocol

import typer

STDOUT = "standard output"


class Sink(Protocol):
    """Where a run writes its lines as it goes: a binary file, or a ``NamedOutput``."""

    def write(self, data: bytes, /) -> int: ...


class OutputNotWritten(OSError):
    """An output of the command could not be written: which (``output``: its option,
    ``standard output``, or what it is), where (``filename``), the system's reason and
    what to do. An ``OSError`` still, with the cause's errno, so code that stops on the
    file system's errors (``adjudicate --ledger`` booking the hands read first) stops on
    it as before."""

    def __init__(self, output: str, path: str | None, cause: OSError) -> None:
        super().__init__(cause.errno, cause.strerror or str(cause), path)
        self.output = output

    def __str__(self) -> str:
        where = f" ({self.filename})" if self.filename and self.output == STDOUT else (
            f" {self.filename}" if self.filename else "")
        return (f"could not write {self.output}{where}: {self.strerror} "
                f"({_advice(self.errno)})")


def _advice(code: int | None) -> str:
    """What to do about an output the system would not write, by its reason."""
    if code in (errno.ENOSPC, errno.EDQUOT):
        todo = "free space there, or write it to another disk"
    elif code == errno.EFBIG:
        todo = "the file system takes no file that large: write it to another one"
    elif code in (errno.EACCES, errno.EPERM, errno.EROFS):
        todo = "let pitwatch write there, or write it somewhere else"
    else:
        todo = "check that it can be written there, or write it somewhere else"
    return todo + ", then run the command again"


@contextmanager
def naming(output: str, path: Path | str | None) -> Iterator[None]:
    """The block's writes to ``output`` at ``path``: an ``OSError`` becomes one naming
    them (``OutputNotWritten``). A reader that left (``BrokenPipeError``: ``| head``) is
    not an error to explain, and stays what it is."""
    try:
        yield
    except (OutputNotWritten, BrokenPipeError):
        raise
    except OSError as exc:
        raise OutputNotWritten(output, None if path is None else str(path), exc) from exc


def stdout_path() -> str | None:
    """The file standard output is, when it is one with a name (``> /dev/full``): said
    beside "standard output" in an error, since the user redirected it and may not see
    where from the error alone."""
    try:
        target = os.readlink(f"/proc/self/fd/{sys.stdout.fileno()}")
    except (OSError, ValueError, AttributeError):
        return None
    return target if target.startswith("/") else None


class NamedOutput:
    """A binary file written as a run goes (the records on standard output, the DLQ),
    whose errors name it (``naming``)."""

    def __init__(self, fh: BinaryIO, output: str, path: Path | str | None) -> None:
        self._fh = fh
        self.output = output
        self.path = path

    def write(self, data: bytes, /) -> int:
        with naming(self.output, self.path):
            return self._fh.write(data)

    def flush(self) -> None:
        with naming(self.output, self.path):
            self._fh.flush()


@contextmanager
def named_output(output: str, path: Path | str | None,
                 opener: Callable[[], BinaryIO] | None = None) -> Iterator[NamedOutput]:
    """``path`` opened to be written as a run goes (by ``opener``, when given), its
    errors (opening, writing, the last flush) naming ``output``."""
    with naming(output, path):
        fh = (opener() if opener is not None
              else Path(str(path)).open("wb"))  # noqa: SIM115 - closed below, named
    try:
        yield NamedOutput(fh, output, path)
    except BaseException:
        with suppress(OSError):  # the error that stopped the run is the one to say
            fh.close()
        raise
    with naming(output, path):
        fh.close()


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
    if is_sqlite_database(path):
        raise typer.BadParameter(f"{path} is a SQLite database (a pitwatch ledger?): writing "
                                 "a report or a log over it would destroy it; write somewhere "
                                 "else")


SQLITE_HEADER = b"SQLite format 3\x00"  # the first 16 bytes of every SQLite database file


def is_sqlite_database(path: Path) -> bool:
    """Whether ``path`` is an existing SQLite database file. No output of pitwatch is one:
    ``report hand ... --ledger sqlite:///L -o L`` once wrote the report over the ledger
    it read (its hands, archive and case trails gone, exit 0: QA)."""
    try:
        with path.expanduser().open("rb") as fh:
            return fh.read(len(SQLITE_HEADER)) == SQLITE_HEADER
    except OSError:  # missing, unreadable, not a file: other checks say what
        return False


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


def write_jsonl(path: Path, lines: Iterable[bytes], output: str = "the output") -> None:
    """One JSON document per line; the folder must exist (see ``check_output_file``).
    An error writing it names ``output`` (the option) and ``path``."""
    with naming(output, path), path.open("wb") as fh:
        for line in lines:
            fh.write(line + b"\n")
