"""The console's routes, each with the one capability it needs, and the application.

``ROUTES`` is the whole map: the security tests walk it (every route without a session,
every role against every route, every POST without and with a wrong CSRF token), so a
route added here is tested by them without being named in a test.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources

from sqlalchemy.exc import OperationalError
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from services.console import cases_pages, pages
from services.console.auth import login, login_page, logout
from services.console.roles import Capability
from services.console.web import (
    BUSY,
    Console,
    Page,
    SecurityHeaders,
    database_busy,
    guarded,
    security_headers,
    templates,
    wait_for_writers,
)


@dataclass(frozen=True)
class Guarded:
    path: str
    method: str
    capability: Capability
    page: Page


ROUTES: tuple[Guarded, ...] = (
    Guarded("/", "GET", "read", pages.home),
    Guarded("/floor", "GET", "read", pages.floor_page),
    Guarded("/floor/live", "GET", "read", pages.floor_page),
    Guarded("/queue", "GET", "read", cases_pages.queue),
    Guarded("/queue", "POST", "read", cases_pages.queue),
    Guarded("/queue/assign", "POST", "bulk_assign", cases_pages.bulk_assign),
    Guarded("/cases/{case_id}", "GET", "read", cases_pages.case_page),
    Guarded("/cases/{case_id}/assign", "POST", "work", cases_pages.assign_case),
    Guarded("/cases/{case_id}/note", "POST", "work", cases_pages.note_case),
    Guarded("/cases/{case_id}/escalate", "POST", "work", cases_pages.escalate_case),
    Guarded("/cases/{case_id}/close", "POST", "close", cases_pages.close_case),
    Guarded("/hands/{hand_id:path}", "GET", "read", pages.hand),
    Guarded("/reports/hand/{hand_id:path}", "GET", "read", pages.hand_report),
    Guarded("/reports/hand-pdf/{hand_id:path}", "GET", "read", pages.hand_report),
    # The same, the id in the query (``?id=``): for ids a browser would take for dot
    # segments, ``.`` and ``..`` (``web.hand_link``).
    Guarded("/hands", "GET", "read", pages.hand),
    Guarded("/reports/hand", "GET", "read", pages.hand_report),
    Guarded("/reports/hand-pdf", "GET", "read", pages.hand_report),
    Guarded("/search", "GET", "read", pages.search),
    Guarded("/search", "POST", "read", pages.search),
    Guarded("/daily", "GET", "daily", pages.daily),
    Guarded("/reports/daily", "GET", "daily", pages.daily_report),
    Guarded("/reports/daily.pdf", "GET", "daily", pages.daily_report),
    Guarded("/people", "GET", "people", pages.people_page),
    Guarded("/people", "POST", "people", pages.people_page),
    Guarded("/logout", "POST", "read", logout),
)


def routes() -> list[BaseRoute]:
    static = resources.files("services.console").joinpath("static")
    out: list[BaseRoute] = [Route("/login", login_page, methods=["GET"]),
                            Route("/login", login, methods=["POST"])]
    for r in ROUTES:
        out.append(Route(r.path, guarded(r.capability)(r.page), methods=[r.method],
                         name=f"{r.method} {r.path}"))
    out.append(Mount("/static", StaticFiles(directory=str(static)), name="static"))
    return out


async def server_error(request: Request, exc: Exception) -> Response:
    """A page, not a traceback: what went wrong is in the server's log."""
    return HTMLResponse(templates().get_template("refused.html").render(
        session=None, caps=frozenset(), path=request.url.path,
        message="the console could not show this page (an error on the server; its log "
                "says why): try again, or tell the administrator"), status_code=500,
        headers={k.decode(): v.decode() for k, v in security_headers(request.url.path)})


async def database_busy_page(request: Request, exc: Exception) -> Response:
    """SQLite's "database is locked" on any page (a login, a logout; a case action says
    more, ``cases_pages``): 503 and try again, not the 500 of a fault; any other
    operational error is one (raised on to ``server_error``)."""
    if not database_busy(exc):
        raise exc
    return HTMLResponse(templates().get_template("refused.html").render(
        session=None, caps=frozenset(), path=request.url.path,
        message=f"{BUSY}: try again in a moment"), status_code=503)


def create_app(console: Console) -> Starlette:
    wait_for_writers(console)
    app = Starlette(routes=routes(), middleware=[Middleware(SecurityHeaders)],
                    exception_handlers={500: server_error,
                                        OperationalError: database_busy_page})
    app.state.console = console
    return app
