"""Hands whose id is a dot segment, ``.`` or ``..``, open from every link (QA problem 3).

QA: a browser removes dot segments from a path before asking for it, escaped ones too:
the link ``/hands/..`` (or ``/hands/%2E%2E``) went to ``/floor``, so the hand could not
be opened, nor its report or PDF. Starlette's TestClient sends a path as it is given, so
the links are followed here as a browser resolves them (``urljoin`` removes dot segments
as RFC 3986 says), and the link made for each id is checked not to be one.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

import pytest
from starlette.testclient import TestClient

from services.console.web import hand_link
from tests.unit.console.support import console_client, csrf_of, log_in, one_case_database

BASE = "https://testserver/hands/T1-000001"  # a page the links are on


def _as_a_browser(href: str) -> str:
    """The path and query a browser asks for when ``href`` is followed from ``BASE``."""
    target = urlsplit(urljoin(BASE, href))
    return target.path + (f"?{target.query}" if target.query else "")


@pytest.mark.parametrize("hand_id", [".", "..", "T1-000001", "a/../b", "%2E%2E", "?x=1"])
@pytest.mark.parametrize("route", ["/hands", "/reports/hand", "/reports/hand-pdf"])
def test_no_hand_link_is_a_dot_segment(hand_id: str, route: str) -> None:
    href = hand_link(hand_id, route)
    assert _as_a_browser(href) == href  # nothing a browser would take out or change
    path, _, query = href.partition("?")
    named = unquote(query.removeprefix("id=")) if query else unquote(path.rsplit("/", 1)[1])
    assert named == hand_id


def _dot_hands_database(tmp_path: Path) -> TestClient:
    client = console_client(one_case_database(f"{tmp_path}/l.sqlite", (".", "..")))
    assert log_in(client, "cora") == 303
    return client


def _links(page: str) -> list[str]:
    return [h.replace("&amp;", "&") for h in re.findall(r'(?:href|src)="([^"]*hand[^"]*)"',
                                                          page)]


def test_the_hands_dot_and_dot_dot_open_from_their_links(tmp_path: Path) -> None:
    client = _dot_hands_database(tmp_path)
    found = client.post("/search", data={"csrf": csrf_of(client), "hand_id": "."}).text
    links = {h for h in _links(found) if h.startswith("/hands")}
    assert links >= {"/hands?id=.", "/hands?id=.."}
    case_links = {h for n in (1, 2) for h in _links(client.get(f"/cases/{n}").text)
                  if h.startswith("/hands")}
    assert case_links == {"/hands?id=.", "/hands?id=.."}
    for link in links & case_links:
        page = client.get(_as_a_browser(link))
        assert page.status_code == 200, page.text[:300]
        hand_id = link.split("=", 1)[1]
        assert f'<h1>Hand <span class="id">{hand_id}</span></h1>' in page.text
        report, pdf = (next(h for h in _links(page.text) if h.startswith(r + "?"))
                       for r in ("/reports/hand", "/reports/hand-pdf"))
        assert report == f"/reports/hand?id={hand_id}" and pdf == f"/reports/hand-pdf?id={hand_id}"
        shown = client.get(_as_a_browser(report))
        assert shown.status_code == 200 and hand_id in shown.text
        got = client.get(_as_a_browser(pdf))
        assert got.status_code == 200 and got.content.startswith(b"%PDF")
