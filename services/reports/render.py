"""HTML from Jinja2 templates (autoescaped) and PDF from the same HTML (WeasyPrint).

Why autoescape everywhere: player ids, dealer ids, reasons and alarm details come from
the table systems' events, i.e. from outside; a report is opened in a browser, so any of
them could carry markup. Every value is escaped unless it is built here from validated
data and marked safe (card SVGs, rule text rendered from escaped markdown).

Why the stylesheet is inlined: one HTML file is the whole report (it can be mailed or
archived alone), and the PDF is rendered from exactly that file. The generation time is
an input, so the same inputs and the same time give byte-identical output.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from markupsafe import Markup

from services.ledger.listing import printable, shown_utc
from services.reports.cards import card_name, card_svg, card_text
from services.reports.wording import plain, plain_step


def shown(value: Any) -> Any:
    """Every value a template writes (``finalize``): text with its control characters and
    bidirectional controls written as escapes (``services.ledger.listing.printable``, the
    one definition, as the command line and the console's pages show them); markup built
    here (card SVGs, rule text) and numbers as they are.

    Why in ``finalize`` rather than a filter in each place: no template can forget it.
    QA: a hand ``\u202eevil`` (RIGHT-TO-LEFT OVERRIDE) or a table id holding an escape
    sequence, from a table system's events, was written as is into the dispute and daily
    reports (and the console frames them, and the PDFs are rendered from them): the text
    after it read reversed. Links are built by ``link`` (a file name, or a console address
    with every control percent-escaped), so they are not changed by this."""
    return printable(value) if isinstance(value, str) and not isinstance(value, Markup) \
        else value


def signed(value: int | None) -> str:
    """Chips with an explicit sign (a result), a real minus sign; blank when unknown."""
    if value is None:
        return "–"
    if value > 0:
        return f"+{value:,}"
    if value < 0:
        return f"−{-value:,}"
    return "0"


def minus(text: str) -> str:
    """A figure computed as text (hold %) with the real minus sign the chip figures use
    (``signed``): "−4.96", not "-4.96" beside "−209"."""
    return "−" + text[1:] if text.startswith("-") else text


def amount(value: int | None) -> str:
    return "–" if value is None else f"{value:,}"


def utc(ts: str | None) -> str:
    """An event timestamp as shown: the contract takes ``Z`` or ``+00:00`` for UTC
    (``services.events.timestamps``); a report shows one form, ``Z``, as ``ledger hand``
    does (``services.ledger.listing.shown_utc``, the one definition). For display only:
    the stored timestamps are never changed. Blank when unknown."""
    return "" if ts is None else shown_utc(ts)


def clock(ts: str) -> str:
    """The time of day of an event timestamp, without its UTC mark: ``23:59:37.576`` of
    ``...T23:59:37.576Z`` and of ``...T23:59:37.576+00:00`` alike (the dispute report's
    timeline cut the last character off, and showed ``23:59:37.576+00:0``: QA)."""
    return utc(ts)[11:].removesuffix("Z")


def cards_html(cards: list[str | None]) -> Markup:
    return Markup("").join(card_svg(card) for card in cards)


def cards_codes(cards: list[str | None]) -> str:
    return " ".join(card_text(c) if c else "?" for c in cards)


@lru_cache(maxsize=1)
def environment() -> Environment:
    env = Environment(
        loader=PackageLoader("services.reports", "templates"),
        autoescape=select_autoescape(enabled_extensions=("html",), default=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        finalize=shown,
    )
    env.filters.update(signed=signed, amount=amount, minus=minus, card=card_svg, cards=cards_html,
                       cardcodes=cards_codes, cardname=card_name, utc=utc, clock=clock, plain=plain,
                       plain_step=plain_step)
    env.globals["stylesheet"] = Markup(  # our own file, not input: safe
        resources.files("services.reports").joinpath("static/report.css").read_text("utf-8")
    )
    return env


def render_html(template: str, **context: Any) -> str:
    return environment().get_template(template).render(**context)


def html_to_pdf(html: str) -> bytes:
    """The PDF of an HTML report (WeasyPrint needs pango from the OS)."""
    from weasyprint import HTML

    pdf: bytes = HTML(string=html, base_url=".").write_pdf()
    return pdf
