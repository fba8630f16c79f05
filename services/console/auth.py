"""Logging in and out.

The login form has its own CSRF token (a random value in a short-lived cookie and in the
form, compared on POST), since there is no session yet to hold one. A login starts a new
session (a new token: nothing set before the login survives it); the session cookie is
HttpOnly, SameSite=Lax and Secure unless the console was started with
``--insecure-cookies``. Failed and rate-limited logins say as little as possible: which
of name or password was wrong is not told.
"""

from __future__ import annotations

import secrets

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from services.console.sessions import Session, end_session, start_session
from services.console.users import log_in
from services.console.web import (
    LOGIN_COOKIE,
    SESSION_COOKIE,
    console_of,
    render,
    same_token,
    text_field,
)


def safe_next(target: str) -> str:
    """Where to go after logging in: a path of this console only (never another site)."""
    if not target.startswith("/") or target.startswith("//") or "\\" in target:
        return "/floor"
    return target


def _login_form(request: Request, status: int = 200, message: str = "",
                target: str = "/floor") -> Response:
    token = secrets.token_urlsafe(32)
    response = render(request, "login.html", None, status=status, login_csrf=token,
                      message=message, target=safe_next(target))
    response.set_cookie(LOGIN_COOKIE, token, max_age=3600, httponly=True, samesite="strict",
                        secure=console_of(request).secure_cookies, path="/login")
    return response


UNSENT = ("your session had ended, so what you sent was not done: log in and send it "
          "again")


async def login_page(request: Request) -> Response:
    message = UNSENT if request.query_params.get("unsent") == "1" else ""
    return _login_form(request, message=message,
                       target=request.query_params.get("next", "/floor"))


async def login(request: Request) -> Response:
    console = console_of(request)
    form = await request.form()
    target = text_field(form, "next", 500)
    if not same_token(form.get("csrf"), request.cookies.get(LOGIN_COOKIE, "")):
        return _login_form(request, 403, "the login form was stale: try again", target)
    remote = request.client.host if request.client else "unknown"
    result = await run_in_threadpool(log_in, console.engine, text_field(form, "username", 100),
                                     text_field(form, "password", 1000), remote,
                                     console.rate_limit, console.clock)
    if result.limited == "address":  # a new password would not lift this one
        return _login_form(request, 429, "too many failed logins from this address: wait "
                           "a quarter of an hour", target)
    if result.limited:
        return _login_form(request, 429, "too many failed logins: wait a quarter of an hour, "
                           "or ask a compliance officer to reset your password", target)
    if result.username is None:
        return _login_form(request, 401, "wrong user name or password", target)
    token = await run_in_threadpool(start_session, console.engine, result.username,
                                    console.clock)
    response = RedirectResponse(safe_next(target), status_code=303)
    response.set_cookie(SESSION_COOKIE, token, httponly=True, samesite="lax",
                        secure=console.secure_cookies, path="/")
    response.delete_cookie(LOGIN_COOKIE, path="/login")
    return response


async def logout(request: Request, session: Session) -> Response:
    await run_in_threadpool(end_session, console_of(request).engine,
                            request.cookies.get(SESSION_COOKIE))
    response = RedirectResponse("/login", status_code=303)
    response.delete_cookie(SESSION_COOKIE, path="/")
    return response
