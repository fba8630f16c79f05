"""The plumbing every page shares: the console's state, templates, the guard that checks
session, role and CSRF token before a page runs, and the security headers.

Why one guard for every route: a page cannot forget a check it never performs itself.
``guarded(capability)`` finds the session from the cookie (none: to the login page),
checks the role holds the route's capability (no: 403), and for every POST compares the
form's CSRF token with the session's in constant time (missing or wrong: 403) before the
page's own code runs. Pages receive the session and render through ``render``, which
autoescapes everything (``Environment(autoescape=True)``).
"""

from __future__ import annotations

import hmac
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any
from urllib.parse import quote, urlsplit

from jinja2 import Environment, PackageLoader, StrictUndefined
from markupsafe import Markup, escape
from sqlalchemy import Engine, event
from sqlalchemy.exc import OperationalError
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from services.console.clock import Clock, utc_now
from services.console.roles import ROLE_NAMES, Capability, allowed, capabilities, with_article
from services.console.sessions import Session, find_session
from services.console.users import RateLimit
from services.games.profile import Profiles
from services.reports.render import amount, minus, shown, signed

SESSION_COOKIE = "pitwatch_session"
LOGIN_COOKIE = "pitwatch_login"  # the login form's own CSRF token (before any session)
Page = Callable[[Request, Session], Awaitable[Response]]
Endpoint = Callable[[Request], Awaitable[Response]]

PAGE_POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
               "frame-src 'self'; frame-ancestors 'none'; form-action 'self'; "
               "base-uri 'none'; object-src 'none'")
# The dispute and daily reports are self-contained files (inline style, inline SVG cards)
# shown in a sandboxed frame of the console's own pages: no script, nothing fetched.
REPORT_POLICY = ("default-src 'none'; style-src 'unsafe-inline'; img-src data:; "
                 "frame-ancestors 'self'; base-uri 'none'; form-action 'none'")


@dataclass
class Console:
    """What every page needs: the database (and its URL, named in reports), the game
    profiles (for the dispute report's replay), the cookie policy and the clock.

    ``busy_wait_ms``: how long a request waits for another process's write lock on a
    SQLite database before its page says the database is busy (503); None, the database
    layer's own wait (``services.ledger.db``, 30 s). The console's own setting, so a
    console (and its tests) may wait less without changing the wait of every command."""

    engine: Engine
    url: str
    profiles: Profiles
    secure_cookies: bool = True
    rate_limit: RateLimit = field(default_factory=RateLimit)
    clock: Clock = utc_now
    busy_wait_ms: int | None = None


BUSY = ("the database is busy with another writer (another pitwatch process is writing "
        "to it)")


def database_busy(exc: BaseException) -> bool:
    """Whether ``exc`` is SQLite's "database is locked": another connection held the
    write lock longer than the wait. Nothing of the refused transaction was written."""
    return isinstance(exc, OperationalError) and "database is locked" in str(exc.orig)


def wait_for_writers(console: Console) -> None:
    """Set the console's own wait for another writer (``busy_wait_ms``) on every
    connection its engine hands out (SQLite only: PostgreSQL waits for row locks)."""
    wait = console.busy_wait_ms
    if wait is None or console.engine.dialect.name != "sqlite":
        return

    def on_checkout(dbapi_connection: Any, _record: Any, _proxy: Any) -> None:
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute(f"PRAGMA busy_timeout = {int(wait)}")
        finally:
            cursor.close()

    event.listen(console.engine, "checkout", on_checkout)


def console_of(request: Request) -> Console:
    console: Console = request.app.state.console
    return console


def as_typed(value: Any) -> Markup:
    """A form field's value exactly as it is, escaped for HTML but not made printable:
    what was typed goes back as typed, and an id posted from a hidden field (a player's)
    is that id, not its escapes."""
    return Markup(escape(str(value)))


@lru_cache(maxsize=1)
def templates() -> Environment:
    # ``shown`` (``services.reports.render``): the ``finalize`` of the console's pages as of the
    # reports it frames, so both write text with its control characters and bidirectional
    # controls as escapes (``printable``, as the command line shows them), and no template can
    # forget it. QA: hand ``\u202eevil`` (RIGHT-TO-LEFT OVERRIDE) was shown as is on its page,
    # in the search results and in its case's title, and the text after it read reversed.
    # Links are not changed: ``q`` and ``hand_link`` escape every control (``%E2%80%AE``), and
    # a form's field that gives back what was typed, or posts an id, goes through ``as_typed``.
    env = Environment(loader=PackageLoader("services.console", "templates"),
                      autoescape=True, undefined=StrictUndefined,
                      trim_blocks=True, lstrip_blocks=True, finalize=shown)
    # The reports' own filters for chips and figures (``services.reports.render``): a
    # negative amount or hold with the real minus sign, as the daily report prints it.
    env.filters.update(amount=amount, signed=signed, minus=minus,
                       q=lambda v: quote(str(v), safe=""), hand_link=hand_link,
                       field=as_typed)
    env.globals["role_names"] = ROLE_NAMES
    return env


DOT_SEGMENTS = (".", "..")


def hand_link(hand_id: str, route: str = "/hands") -> str:
    """The address of a hand's page (``route``: ``/hands``, or its report's,
    ``/reports/hand`` and ``/reports/hand-pdf``): the id as the path's last segment,
    escaped; a hand whose id is ``.`` or ``..`` by a query, ``/hands?id=..``.

    Why: a browser removes dot segments from every path before asking for it, escaped
    ones too (``/hands/%2E%2E`` is ``/hands/..`` is ``/``), so the page of hand ``..``
    could not be opened (QA: its link went to the floor). A query is left as it is."""
    if hand_id in DOT_SEGMENTS:
        return f"{route}?id={quote(hand_id, safe='')}"
    return f"{route}/{quote(hand_id, safe='')}"


def render(request: Request, name: str, session: Session | None, status: int = 200,
           **context: Any) -> HTMLResponse:
    html = templates().get_template(name).render(
        session=session, caps=capabilities(session.role) if session else frozenset(),
        path=request.url.path, **context)
    return HTMLResponse(html, status_code=status)


def refused(request: Request, session: Session | None, message: str,
            status: int = 403) -> HTMLResponse:
    return render(request, "refused.html", session, status=status, message=message)


def same_token(given: object, expected: str) -> bool:
    return isinstance(given, str) and bool(given) and hmac.compare_digest(
        given.encode(), expected.encode())


def guarded(capability: Capability) -> Callable[[Page], Endpoint]:
    """The route's endpoint: session, role and (POST) CSRF checked, then the page."""

    def wrap(page: Page) -> Endpoint:
        async def endpoint(request: Request) -> Response:
            console = console_of(request)
            session = await run_in_threadpool(find_session, console.engine,
                                              request.cookies.get(SESSION_COOKIE),
                                              console.clock)
            if session is None:
                return RedirectResponse(_login_then_back(request), status_code=303)
            if not allowed(session.role, capability):
                return refused(request, session, f"{with_article(ROLE_NAMES[session.role])} "
                               "may not do this: ask a compliance officer")
            if request.method == "POST":
                form = await request.form()
                if not same_token(form.get("csrf"), session.csrf_token):
                    return refused(request, session, "this form is stale or did not come "
                                   "from this console (CSRF token missing or wrong): open "
                                   "the page again and resubmit")
            return await page(request, session)

        endpoint.__name__ = page.__name__
        endpoint.__doc__ = page.__doc__
        return endpoint

    return wrap


def _login_then_back(request: Request) -> str:
    """The login page, then back to the page asked for; for a form sent after the session
    ended, back to the page the form was on (its Referer, when it is this console's), and
    the login says the form was not acted on. Before: the floor, and a note typed into a
    case page was lost without a word (QA)."""
    if request.method == "GET":
        target = request.url.path + (f"?{request.url.query}" if request.url.query else "")
        return f"/login?next={quote(target)}"
    sent_from = urlsplit(request.headers.get("referer", ""))
    same_console = sent_from.netloc in ("", request.headers.get("host", ""))
    target = (sent_from.path + (f"?{sent_from.query}" if sent_from.query else "")
              if same_console and sent_from.path.startswith("/") else "/")
    return f"/login?next={quote(target)}&unsent=1"


async def form_of(request: Request) -> FormData:
    """The request's form (Starlette caches it: the guard has read it already)."""
    return await request.form()


def text_field(form: FormData, name: str, limit: int = 2000) -> str:
    value = form.get(name)
    return value.strip()[:limit] if isinstance(value, str) else ""


class SecurityHeaders:
    """Headers on every response: the content policy (no inline script anywhere; the
    reports' own, stricter one), no sniffing, no referrer, no caching of pages."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = str(scope.get("path", ""))

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                names = {k.lower() for k, _ in headers}
                headers += [(k, v) for k, v in security_headers(path) if k not in names]
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)


def security_headers(path: str) -> list[tuple[bytes, bytes]]:
    """The headers every response to ``path`` carries. Also set by the error page, which
    Starlette's error middleware sends from outside ``SecurityHeaders``."""
    report = path.startswith("/reports/")
    policy = REPORT_POLICY if report else PAGE_POLICY
    headers = [(b"content-security-policy", policy.encode()),
               (b"x-content-type-options", b"nosniff"),
               (b"referrer-policy", b"no-referrer"),
               (b"x-frame-options", b"SAMEORIGIN" if report else b"DENY")]
    if not path.startswith("/static/"):
        headers.append((b"cache-control", b"no-store"))
    return headers
