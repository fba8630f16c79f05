"""How every ``pitwatch`` command ends: one exit-code convention, one line per error.

The convention (README, "Exit codes"):

* 0: success;
* 1: the input had problems: records rejected, hands that could not be adjudicated,
  findings or alerts when the command was asked to fail on them;
* 2: a usage or environment error: a bad option value, a file or folder that does not
  exist, a database that cannot be opened or is not a pitwatch ledger.

Why a group class: an ordinary mistake (a game name in capitals, a database URL with a
typo) must be answered with one line that says what was wrong and what to do, never a
traceback and never a framed usage box. Every command raises ``typer.BadParameter`` or
another usage error for those; this class turns any of them into that one line, for the
whole command tree, in one place.
"""

from __future__ import annotations

import errno
import os
import signal
import sys
from collections.abc import Sequence
from typing import Any

import typer
from rich.console import Console
from rich.markup import escape

from services.adjudicator.engine_names import UnknownEngine
from services.games.profile import UnknownProfileError
from services.lazy_commands import LazyGroup
from services.outputs import STDOUT, OutputNotWritten, stdout_path

OK = 0
INPUT_PROBLEMS = 1
USAGE = 2

_stderr = Console(stderr=True, soft_wrap=True, highlight=False)


class Refused(Exception):
    """A command stopped before it wrote anything wrong: the message says why and what to
    do, in one line (exit 2)."""


def print_error(message: str) -> None:
    """``error: ...`` on stderr, as one logical line (soft wrap: never broken by Rich)."""
    _stderr.print(f"[red]error:[/red] {escape(message)}")


def _hint(exc: typer.TyperException) -> str:
    """``  (see: pitwatch simulate --help)`` for a usage error that knows its command."""
    ctx = getattr(exc, "ctx", None)
    if ctx is None or not isinstance(exc.exit_code, int) or exc.exit_code != USAGE:
        return ""
    return f" (see: {ctx.command_path} --help)"


def database_refusal(exc: BaseException) -> str | None:
    """What to tell the user when the database refused to go on (a read-only file, a lock
    held past the wait, a server gone), or None for any other error. The transaction
    that met it was rolled back; the command can be run again.

    Why by SQLAlchemy's ``OperationalError`` only: it is the driver's "the database could
    not do this now" (the environment), where an ``IntegrityError`` is the data's and
    stays a bug to see. SQLAlchemy is looked up, not imported: the main job does not
    load it, and an error it raised means it is loaded."""
    errors = sys.modules.get("sqlalchemy.exc")
    if errors is None or not isinstance(exc, errors.OperationalError):
        return None
    refusal = _first_refusal(exc, errors.OperationalError)
    reason = str(refusal.orig if refusal.orig is not None else refusal).strip().splitlines()
    said = reason[0] if reason else type(exc).__name__
    if "readonly" in said or "read-only" in said:
        advice = "the database file or its folder is read-only: let pitwatch write there"
    elif "locked" in said:
        advice = "another process holds the database: run the command again when it is done"
    elif "disk is full" in said:
        advice = "the disk holding the database is full: free space there"
    else:
        advice = "check that the database is reachable and writable, then run it again"
    return (f"the database refused: {said} ({advice}; the transaction it stopped was rolled "
            "back, and what was written before it is written once: running the command "
            "again is safe)")


def _first_refusal(exc: Any, operational: type[Any]) -> Any:
    """The refusal that stopped the work, not the one its clean-up met: SQLite's "database
    or disk is full" rolls back the whole transaction, so the savepoint the booking then
    rolls back to is gone, and "no such savepoint: sa_savepoint_1" was said in place of
    the full disk (QA)."""
    while "no such savepoint" in str(exc.orig if exc.orig is not None else exc) and \
            isinstance(exc.__context__, operational):
        exc = exc.__context__
    return exc


def damaged_archive(exc: BaseException, verifying: bool = False) -> str | None:
    """What to tell the user when a command that reads the archive (replay, a report)
    met a row rewritten behind its guards (``DamagedRow``: its message names the row), or
    None for any other error. Exit 1: the input, the archive, has a problem; ``pitwatch
    verify`` lists every one. Looked up, not imported, as ``database_refusal``'s."""
    reader = sys.modules.get("services.archive.reader")
    if reader is None or not isinstance(exc, reader.DamagedRow):
        return None
    return f"{exc} (the archive was changed there" + (
        ")" if verifying else ": pitwatch verify lists every break)")


def not_utf8_argument(args: Sequence[str]) -> str | None:
    """Why an argument cannot be taken, or None: bytes that are not UTF-8 (Python keeps
    them as lone surrogates) in a note, a name, an id or a URL reached the database or
    the JSON encoder and ended in a traceback (QA: ``cases note 9 $'caf\\xe9'``). A file
    that exists may have any name (Linux allows it), so such an argument is taken."""
    for arg in args:
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError:
            if os.path.lexists(arg):
                continue
            shown = arg.encode("utf-8", "surrogateescape").decode("ascii", "backslashreplace")
            return (f"the argument '{shown}' is not UTF-8 text: give names, ids, notes and "
                    "addresses in UTF-8 (check the terminal's or the script's encoding)")
    return None


class ReaderLeft(Exception):
    """Standard output's reader left (``BrokenPipeError``), carried past click: click's
    own ``main`` takes any EPIPE and exits 1 without a word, before ours could say so."""


class PitwatchGroup(LazyGroup):
    """The root command: usage and environment errors as one line, exit codes as above."""

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except BrokenPipeError as exc:
            raise ReaderLeft() from exc

    def main(  # type: ignore[override]
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        if sys.stdout is None:  # started with its descriptor closed (`pitwatch ... >&-`)
            print_error("standard output is closed: give pitwatch somewhere to write "
                        "(> FILE, or > /dev/null to discard what it prints)")
            if not standalone_mode:
                return USAGE
            sys.exit(USAGE)
        undecodable = not_utf8_argument(list(args if args is not None else sys.argv[1:]))
        if undecodable is not None:
            print_error(undecodable)
            if not standalone_mode:
                return USAGE
            sys.exit(USAGE)
        said_oserror = False  # a file-system error is said: standard output's too, once
        _stop_on_sigterm()
        try:
            result = super().main(args, prog_name, complete_var, standalone_mode=False,
                                  **extra)
        except typer.TyperException as exc:
            if type(exc).__name__ != "NoArgsIsHelpError":  # the help is already printed
                print_error(exc.format_message() + _hint(exc))
            code = exc.exit_code
        except typer.Abort:
            print_error("aborted")
            code = INPUT_PROBLEMS
        except (BrokenPipeError, ReaderLeft):  # `pitwatch adjudicate log | head`
            print_error(READER_LEFT)
            code = INPUT_PROBLEMS
        except (UnknownProfileError, UnknownEngine, Refused) as exc:  # e.g. PITWATCH_PROFILES
            # not set, PITWATCH_ENGINE misspelt (a command that reads it without its own
            # --engine check ended in a traceback: QA)
            print_error(str(exc))
            code = USAGE
        except OSError as exc:  # the file system said no: a full disk, a read-only folder
            print_error(file_system_refusal(exc))
            code, said_oserror = USAGE, True
        except Exception as exc:
            refusal, code = database_refusal(exc), USAGE
            if refusal is None:
                verifying = list(args if args is not None else sys.argv[1:])[:1] == ["verify"]
                refusal, code = damaged_archive(exc, verifying), INPUT_PROBLEMS
            if refusal is None:
                raise
            print_error(refusal)
        else:
            code = result if isinstance(result, int) else OK
        if not standalone_mode:
            return code
        sys.exit(_flushed(code, said_oserror))


def _stop_on_sigterm() -> None:
    """SIGTERM (``kill``, a service manager, a CI timeout) stops a command as Ctrl-C does
    (exit 130), the files it was writing taken back, and it says so in one line. Left to
    the default, the process died at once: an import stopped so left its hidden
    ``.NAME.partial`` (43 MB) beside the output, and said nothing (QA). A signal the
    parent set to be ignored stays ignored; the pipeline services set their own."""
    if signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:
        signal.signal(signal.SIGTERM, _terminated)


def _terminated(_signum: int, _frame: object) -> None:
    print_error("stopped by SIGTERM before it finished: run the command again")
    raise KeyboardInterrupt("SIGTERM")


def file_system_refusal(exc: OSError) -> str:
    """The one line for an ``OSError`` that ended a command: an output not written names
    the output, its file and what to do (``services.outputs.OutputNotWritten``); any
    other says the system's reason and the file it named. A full disk met where no output
    was named (``ENOSPC`` is never a reader's error) is still said to be a write."""
    if isinstance(exc, OutputNotWritten):
        return str(exc)
    said = str(exc.strerror or exc)
    if exc.filename and exc.errno in ACCESS_ERRORS:  # said nothing to do (QA)
        return (f"{said}: {exc.filename} (let pitwatch read and write there, or name "
                "another place, then run the command again)")
    if exc.filename:
        return f"{said}: {exc.filename}"
    if exc.errno in WRITE_ERRORS:
        return str(OutputNotWritten("the command's output", None, exc))
    return said


# Said when standard output's reader left before the end (`| head`). Exit 1 alone was
# silent, and read like "the input had problems": a script could not tell a run that
# found something from one whose output was cut short (QA).
READER_LEFT = ("standard output was closed by its reader before the end (e.g. `| head`): "
               "what follows was not written; write to a file for the whole output")
WRITE_ERRORS = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG)
ACCESS_ERRORS = (errno.EACCES, errno.EPERM, errno.EROFS)


def _flushed(code: int, said: bool = False) -> int:
    """The exit code once what is left of standard output is written: an error there is
    one line naming standard output (exit 2), unless the command already ended on a file
    system's error (``said``: the same full disk, met by the command's own write). Its
    descriptor is then pointed at /dev/null, so the interpreter's own flush at exit does
    not fail again with a traceback."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:  # the reader left (`| head`): as in the command
        if code == OK:
            print_error(READER_LEFT)
            code = INPUT_PROBLEMS
    except OSError as exc:
        if not said:
            print_error(str(OutputNotWritten(STDOUT, stdout_path(), exc)))
        code = USAGE
    else:
        return code
    with open(os.devnull, "wb") as null:
        os.dup2(null.fileno(), sys.stdout.fileno())
    return code
