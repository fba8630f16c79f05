"""``pitwatch serve console`` and ``pitwatch users add|list``.

The console serves the database the ledger, the archive and the cases are in (``--db``,
default ``PITWATCH_DB``, else the embedded SQLite file), on 127.0.0.1:8080 by default.
Users are local (``pitwatch users add NAME --role ROLE``); the password is asked twice
on the terminal, or read from the first line of standard input with
``--password-stdin`` (for scripts), and only its argon2 hash is stored; adding a user that
exists sets its new password and ends its sessions. ``pitwatch users disable NAME`` ends a
user's sessions at once and refuses their logins.
"""

from __future__ import annotations

import errno
import signal
import socket
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console

from services.console.roles import ROLE_NAMES
from services.console.users import (
    UserRefused,
    add_user,
    check_user,
    disable_user,
    list_users,
)
from services.ledger.console_tables import CONSOLE_ROLES
from services.ledger.db import DB_ENV_VAR, DEFAULT_URL, shown_url

if TYPE_CHECKING:
    import uvicorn

users_app = typer.Typer(help="Users of the compliance console (pitwatch serve console).",
                        no_args_is_help=True)
err = Console(stderr=True, soft_wrap=True, highlight=False)

DbOption = Annotated[str, typer.Option("--db", "--ledger", envvar=DB_ENV_VAR,
                                       help="SQLAlchemy URL of the pitwatch database.")]
ROLE_HELP = ", ".join(f"{r} ({n})" for r, n in ROLE_NAMES.items())


def _role(value: str) -> str:
    if value not in CONSOLE_ROLES:
        raise typer.BadParameter(f"{value!r}: choose from {', '.join(CONSOLE_ROLES)}",
                                 param_hint="--role")
    return value


@users_app.command("add")
def users_add(
    name: Annotated[str, typer.Argument(help="the user name (a-z, 0-9, '.', '_', '-')")],
    role: Annotated[str, typer.Option("--role", callback=_role, help=ROLE_HELP)],
    db: DbOption = DEFAULT_URL,
    password_stdin: Annotated[bool, typer.Option(
        "--password-stdin", help="read the password from the first line of stdin")] = False,
) -> None:
    """Add a console user (or set an existing user's password and role, logging it out)."""
    from services.ledger.cli import open_for_writing

    if password_stdin:
        try:
            password = sys.stdin.readline().rstrip("\r\n")
        except UnicodeDecodeError:  # a traceback before
            raise typer.BadParameter("the password on standard input is not UTF-8 text",
                                     param_hint="--password-stdin") from None
    elif not sys.stdin.isatty():
        password = _typed_twice_without_a_terminal()
    else:
        try:
            password = typer.prompt("password", hide_input=True, confirmation_prompt=True)
        except typer.Abort:  # input ended (a script, no terminal): it said "aborted", exit 1
            raise typer.BadParameter("no password was typed (the input ended): type it "
                                     "twice at the prompt, or give it on standard input "
                                     "with --password-stdin", param_hint="--password-stdin"
                                     ) from None
    try:
        check_user(name, password, role)
    except UserRefused as exc:
        raise typer.BadParameter(str(exc), param_hint="NAME or password") from None
    existed = add_user(open_for_writing(db), name, password, role)
    changed = ("existed: its password and role are replaced, its sessions ended (logged "
               "out), and it ") if existed else ""
    err.print(f"user {name.strip().lower()} ({ROLE_NAMES[role]}) {changed}can log in to the "
              f"console of {shown_url(db)}", markup=False)


def _typed_twice_without_a_terminal() -> str:
    """The password and its confirmation, the first two lines of standard input, as the
    prompt takes them from a script. Read here: the prompt's getpass warned twice on
    standard error, a Python warning with its own source line included (QA)."""
    try:
        first, second = (sys.stdin.readline() for _ in range(2))
    except UnicodeDecodeError:
        raise typer.BadParameter("the password on standard input is not UTF-8 text",
                                 param_hint="--password-stdin") from None
    if not first:
        raise typer.BadParameter("no password was typed (the input ended): type it twice at "
                                 "the prompt, or give it on standard input with "
                                 "--password-stdin", param_hint="--password-stdin")
    if first.rstrip("\r\n") != second.rstrip("\r\n"):
        raise typer.BadParameter("the two passwords typed differ: type the same one twice",
                                 param_hint="--password-stdin")
    return first.rstrip("\r\n")


@users_app.command("disable")
def users_disable(
    name: Annotated[str, typer.Argument(help="the user name")],
    db: DbOption = DEFAULT_URL,
) -> None:
    """Refuse a user's logins and end their sessions now (users add enables them again)."""
    from services.ledger.cli import open_for_reading

    if not disable_user(open_for_reading(db), name):
        raise typer.BadParameter(f"no console user {name!r} in {shown_url(db)} (pitwatch users "
                                 "list)", param_hint="NAME")
    err.print(f"user {name.strip().lower()} is disabled: logged out, no more logins",
              markup=False)


@users_app.command("list")
def users_list(db: DbOption = DEFAULT_URL) -> None:
    """The console's users and their roles."""
    from services.ledger.cli import open_for_reading

    for name, role, disabled in list_users(open_for_reading(db)):
        typer.echo(f"{name}\t{role}" + ("\tdisabled" if disabled else ""))


def serve_console(
    db: DbOption = DEFAULT_URL,
    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="port to listen on")] = 8080,
    insecure_cookies: Annotated[bool, typer.Option(
        "--insecure-cookies", help="send the session cookie over plain HTTP to other "
                                   "hosts than this one (behind a TLS proxy, leave off)")]
    = False,
    trusted_proxy: Annotated[list[str] | None, typer.Option(
        "--trusted-proxy", metavar="ADDRESS",
        help="a reverse proxy's address whose X-Forwarded-For names the client (repeat "
             "for several; none by default: the login limit counts the connecting "
             "address, which a client cannot set)")] = None,
) -> None:
    """The compliance console: floor, case queue, hands, search, daily report, people.

    Players and dealers too, on the database the ledger, the archive and the cases are in."""
    import uvicorn

    from services.console.app import create_app
    from services.console.web import Console as ConsoleState
    from services.games.profiles import read_profiles
    from services.ledger.cli import open_for_reading

    engine = open_for_reading(db)
    listening = listening_socket(host, port)
    if not list_users(engine):
        err.print(f"no console users yet: add one first, e.g. pitwatch users add ann "
                  f"--role compliance_officer --db {shown_url(db)}", markup=False)
    app = create_app(ConsoleState(engine, shown_url(db), read_profiles(),
                                  secure_cookies=not insecure_cookies))
    err.print(f"pitwatch console on http://{host}:{port}/ (database {shown_url(db)}); Ctrl-C "
              "stops it", markup=False)
    # Uvicorn trusts X-Forwarded-For from 127.0.0.1 unless told otherwise: any local
    # client could then pick the address the login rate limit counts against.
    config = uvicorn.Config(app, log_level="warning", access_log=False,
                            proxy_headers=bool(trusted_proxy),
                            forwarded_allow_ips=trusted_proxy or None)
    _console_server(config).run(sockets=[listening])


def _console_server(config: uvicorn.Config) -> uvicorn.Server:
    """Uvicorn's server that ends on SIGTERM or Ctrl-C and leaves it there.

    Why: once it has shut down, uvicorn raises the signal that stopped it again, so that a
    plain script dies of it. pitwatch's handlers read that as a command stopped before it
    finished (exit 130, "run the command again"), but a service manager's SIGTERM is how
    the console normally ends: README says `pitwatch serve` stops cleanly, exit 0 (QA)."""
    import uvicorn

    class ConsoleServer(uvicorn.Server):
        @contextmanager
        def capture_signals(self) -> Iterator[None]:
            stops = (signal.SIGINT, signal.SIGTERM)
            before = {sig: signal.signal(sig, self.handle_exit) for sig in stops}
            try:
                yield
            finally:
                for sig, handler in before.items():
                    signal.signal(sig, handler)

    return ConsoleServer(config)


def listening_socket(host: str, port: int) -> socket.socket:
    """The console's socket, bound before the console says where it listens: a port in
    use was uvicorn's "address already in use" after "pitwatch console on ...", exit 3,
    a code no pitwatch command has (QA). Bound here, the error is one line, exit 2."""
    try:
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                    flags=socket.AI_PASSIVE)[0][0]
        return socket.create_server((host, port), family=family)
    except socket.gaierror:
        raise typer.BadParameter(f"{host} is not an address this machine has a name for: "
                                 "give an address of it (127.0.0.1, 0.0.0.0)",
                                 param_hint="--host") from None
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            raise typer.BadParameter(f"port {port} on {host} is in use by another program: "
                                     "choose another --port, or stop that program",
                                     param_hint="--port") from None
        raise typer.BadParameter(f"cannot listen on {host}:{port} ({exc.strerror or exc}): "
                                 "choose another --host or --port", param_hint="--host"
                                 ) from None
