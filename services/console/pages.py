"""The floor, the hand viewer, search, the daily report and players and dealers.

Reports (dispute and daily) are rendered by ``services.reports`` exactly as the CLI
writes them and shown in a sandboxed frame (``/reports/...``: no script may run there,
its own content policy), with a PDF of the same HTML beside them.
"""

from __future__ import annotations

import datetime as dt
from typing import Any
from urllib.parse import quote

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response

from services.console.clock import stamp
from services.console.floor import days_with_hands, floor
from services.console.hands import NoSuchHand, dispute_html, hand_page, no_such_hand
from services.console.people import people, person_page, profiles
from services.console.search import HandQuery, SearchRefused, find_alerts, find_hands
from services.console.sessions import Session
from services.console.web import console_of, form_of, hand_link, refused, render, text_field
from services.events.days import parse_day
from services.ledger.db import shown_url
from services.reports.daily import daily_from_ledger
from services.reports.dispute import HandUnavailable
from services.reports.render import html_to_pdf, render_html
from services.reports.replay import HandNotFound

LIVE_SECONDS = 20  # how often the floor refreshes itself


def _day(text: str | None) -> dt.date | None:
    try:
        return parse_day(text) if text else None
    except ValueError:
        return None


def _bad_day(request: Request, session: Session) -> Response | None:
    """A refusal when the page was asked for a day that is no date (2026-02-30): it showed
    the latest day instead, under a link that named another."""
    text = request.query_params.get("day")
    if text and _day(text) is None:
        return refused(request, session, f"day {text[:40]!r} is not a date: write it as "
                       "YYYY-MM-DD, or choose one from the list", status=400)
    return None


async def home(request: Request, session: Session) -> Response:
    return RedirectResponse("/floor", status_code=303)


async def floor_page(request: Request, session: Session) -> Response:
    console = console_of(request)
    bad = _bad_day(request, session)
    if bad is not None:
        return bad
    day = _day(request.query_params.get("day"))
    view = await run_in_threadpool(floor, console.engine, day, console.clock().date())
    template = "floor_live.html" if request.url.path.endswith("/live") else "floor.html"
    return render(request, template, session, floor=view, today=console.clock().date(),
                  live_seconds=LIVE_SECONDS)


def _hand_id(request: Request) -> str:
    """The hand a hand route names: in its path, or (``/hands?id=..``, ``hand_link``) in
    its query."""
    if "hand_id" in request.path_params:
        return str(request.path_params["hand_id"])
    return request.query_params.get("id", "")


async def hand(request: Request, session: Session) -> Response:
    view = await run_in_threadpool(hand_page, console_of(request).engine, _hand_id(request))
    if view is None:
        return refused(request, session, str(no_such_hand(_hand_id(request))), status=404)
    return render(request, "hand.html", session, hand=view)


def _dispute(request: Request) -> str:
    console = console_of(request)
    return dispute_html(console.engine, console.url, _hand_id(request), console.profiles,
                        stamp(console.clock()))


def without_url(message: str, url: str) -> str:
    """A message from below the console with the database's URL, as typed or as shown,
    put as "this database": the report and ledger layers name the URL for the command
    line's user, who typed it; a user of the console has no need of the server's address."""
    for written in {url, shown_url(url)}:
        if written:
            message = message.replace(written, "this database")
    return message


def pdf_name(prefix: str, named: str) -> str:
    """A PDF download's file name: ``prefix`` and the hand or table id it is of, the id
    written as ``report daily`` names its files (``safe_stem``): each character other than
    letters, digits, ``.``, ``_`` and ``-`` became ``_``, so the PDFs of hands ``A<1>-4``
    and ``A_1_-4`` were both saved as ``hand-A_1_-4.pdf``."""
    from services.reports.cli import safe_stem

    return f"{prefix}{safe_stem(named)}.pdf"


async def hand_report(request: Request, session: Session) -> Response:
    try:
        html = await run_in_threadpool(_dispute, request)
    except NoSuchHand as exc:
        return refused(request, session, str(exc), status=404)
    except (HandUnavailable, HandNotFound) as exc:  # the hand is there, its report is not
        return refused(request, session, without_url(str(exc), console_of(request).url),
                       status=404)
    if request.url.path.startswith("/reports/hand-pdf"):
        pdf = await run_in_threadpool(html_to_pdf, html)
        name = pdf_name("hand-", _hand_id(request))
        return Response(pdf, media_type="application/pdf",
                        headers={"content-disposition": f'attachment; filename="{name}"'})
    return HTMLResponse(html)


async def search(request: Request, session: Session) -> Response:
    """GET: the form; POST: the results (a player's id never goes into a URL)."""
    if request.method != "POST":
        return render(request, "search.html", session, q=HandQuery(), hands=None,
                      alerts=[], cases=[], message="")
    form = await form_of(request)
    q = HandQuery.from_form({k: text_field(form, k, 200) for k in form})
    engine = console_of(request).engine
    if q.empty:
        return render(request, "search.html", session, q=q, hands=None, alerts=[],
                      message="give at least one field")
    try:
        hands = await run_in_threadpool(find_hands, engine, q)
    except SearchRefused as exc:
        return render(request, "search.html", session, q=q, hands=None, alerts=[],
                      message=str(exc), status=400)
    alerts = await run_in_threadpool(find_alerts, engine, q)
    return render(request, "search.html", session, q=q, hands=hands, alerts=alerts,
                  message="")


def _daily_choice(request: Request) -> tuple[dt.date | None, str | None, list[dt.date]]:
    days = days_with_hands(console_of(request).engine)
    day = _day(request.query_params.get("day")) or (days[0] if days else None)
    return day, request.query_params.get("table") or None, days


async def daily(request: Request, session: Session) -> Response:
    bad = _bad_day(request, session)
    if bad is not None:
        return bad
    day, table, days = await run_in_threadpool(_daily_choice, request)
    query = "" if day is None else "?day=" + day.isoformat() + (
        "&table=" + quote(table, safe="") if table else "")
    return render(request, "daily.html", session, day=day, table=table or "", days=days,
                  query=query, held=held_days(days))


def held_days(days: list[dt.date]) -> str:
    """The days a database holds, in words (latest first in ``days``): what a day
    without hands is answered with, as ``report daily`` answers it. The page showed the
    picker on another day than the report asked for, and the report only "no hands"."""
    if not days:
        return "no hands at all"
    first, last = min(days), max(days)
    return f"day {first}" if first == last else f"days {first} to {last}"


def _daily_html(request: Request, day: dt.date, table: str | None) -> str | None:
    console = console_of(request)
    report = daily_from_ledger(console.engine, day, table, source=shown_url(console.url))
    if report.empty:
        return None
    return render_html("daily.html", d=report, generated_at=stamp(console.clock()),
                       link=hand_link)


async def daily_report(request: Request, session: Session) -> Response:
    bad = _bad_day(request, session)
    if bad is not None:
        return bad
    day, table, days = await run_in_threadpool(_daily_choice, request)
    html = None if day is None else await run_in_threadpool(_daily_html, request, day, table)
    if html is None or day is None:
        where = f" at table {table}" if table else ""
        return refused(request, session, f"no hands ended on {day}{where}: this database "
                       f"holds {held_days(days)}", status=404)
    if request.url.path.endswith(".pdf"):
        pdf = await run_in_threadpool(html_to_pdf, html)
        name = (pdf_name(f"daily-{day.isoformat()}-", table) if table
                else f"daily-{day.isoformat()}.pdf")
        return Response(pdf, media_type="application/pdf",
                        headers={"content-disposition": f'attachment; filename="{name}"'})
    return HTMLResponse(html.replace('<a href="/hands', '<a target="_top" href="/hands'))


def _people(engine: Any) -> dict[str, Any]:
    return {"dealers": people(engine, "dealer"), "players": people(engine, "player"),
            "profiles": profiles(engine)}


async def people_page(request: Request, session: Session) -> Response:
    """GET: dealers and players with cases, and the stored profiles; POST: one of them
    (a player's id goes in the form, never in the URL)."""
    engine = console_of(request).engine
    if request.method == "POST":
        form = await form_of(request)
        kind = "dealer" if text_field(form, "kind", 10) == "dealer" else "player"
        person_id = text_field(form, "person", 200)
        if person_id:
            view = await run_in_threadpool(person_page, engine, kind, person_id)
            return render(request, "person.html", session, view=view)
    context = await run_in_threadpool(_people, engine)
    return render(request, "people.html", session, **context)
