"""Ids and texts from outside are shown as what they are, and no user name reads as the
system's (QA problem 4).

QA: hand ``\\u202eevil`` (U+202E, RIGHT-TO-LEFT OVERRIDE) was shown as is on its page,
in the search results and in its case's title, so the text after it read reversed; and
users ``pitwatch.`` and ``pit.watch`` were accepted (only ``pitwatch`` was refused), and
their notes read in the trail as the system's own.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from services.console.users import UserRefused, check_user
from tests.unit.console.support import console_client, csrf_of, log_in, one_case_database
from tests.unit.console.test_users import _users

EVIL = "\u202eevil-1"
SHOWN = "\\u202eevil-1"  # services.ledger.listing.printable, as the CLI shows it
CONTROLS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def _client(tmp_path: Path) -> TestClient:
    client = console_client(one_case_database(f"{tmp_path}/l.sqlite", (EVIL,),
                                              table_id="\u2067T\x1b[2J"))
    assert log_in(client, "cora") == 303
    return client


def test_ids_with_controls_are_shown_escaped_and_their_links_work(tmp_path: Path) -> None:
    client = _client(tmp_path)
    csrf = csrf_of(client)
    pages = {"search": client.post("/search", data={"csrf": csrf, "hand_id": "evil"}).text,
             "queue": client.get("/queue").text, "case": client.get("/cases/1").text,
             "floor": client.get("/floor").text}
    link = re.search(r'href="(/hands/[^"]*evil-1)"', pages["search"])
    assert link is not None and link.group(1) == "/hands/%E2%80%AEevil-1"
    pages["hand"] = client.get(link.group(1)).text
    for name, page in pages.items():
        assert CONTROLS.search(page) is None, (name, CONTROLS.findall(page))
    for name in ("search", "case", "hand", "queue"):
        assert SHOWN in pages[name] or "\\u2067T\\x1b[2J" in pages[name], name
    assert f'<h1>Hand <span class="id">{SHOWN}</span></h1>' in pages["hand"]
    assert "\\u2067T\\x1b[2J" in pages["hand"]


def test_a_searched_value_goes_back_into_its_field_as_typed(tmp_path: Path) -> None:
    """The form's own fields keep what was typed, so submitting again searches for it."""
    client = _client(tmp_path)
    page = client.post("/search", data={"csrf": csrf_of(client), "hand_id": EVIL}).text
    assert f'name="hand_id" value="{EVIL}"' in page
    assert f'href="/hands/%E2%80%AEevil-1">{SHOWN}</a>' in page


@pytest.mark.parametrize("name", ["pitwatch.", "pit.watch", "Pit_Watch", "p-i-t-w-a-t-c-h",
                                  "\uff50\uff49\uff54\uff0e\uff57\uff41\uff54\uff43\uff48"])
def test_a_user_name_that_reads_as_pitwatch_is_refused(name: str) -> None:
    with pytest.raises(UserRefused, match=r"reads as 'pitwatch' \(punctuation, capitals and "
                                          r"widths aside\)"):
        check_user(name, "long enough pw", "auditor")


def test_users_add_refuses_pit_dot_watch_in_one_line(tmp_path: Path) -> None:
    """QA's repro: ``pitwatch users add 'pit.watch'`` was accepted."""
    for name in ("pit.watch", "pitwatch."):
        code, out, err = _users("add", name, "--role", "auditor", "--db",
                                f"sqlite:///{tmp_path}/l.sqlite", "--password-stdin",
                                stdin="a fine password\n")
        lines = [line for line in err.splitlines() if line.strip()]
        assert code == 2 and out == "" and len(lines) == 1, err
        assert f"{name!r} reads as 'pitwatch'" in lines[0]


@pytest.mark.parametrize("name", ["pitwatcher", "pitwatch2", "pit"])
def test_names_that_only_contain_pitwatch_are_users(name: str) -> None:
    assert check_user(name, "long enough pw", "auditor") == name


def test_the_reports_in_the_console_frames_show_ids_with_controls_escaped(
        tmp_path: Path) -> None:
    """QA: the dispute and daily reports (the console's frames, and the same HTML in
    their PDFs) showed hand ``\\u202eevil-1`` and table ``\\u2067T\\x1b[2J`` as is, so the
    text after them read reversed, while the console's own pages showed the escapes."""
    client = _client(tmp_path)
    reports = {"dispute": client.get("/reports/hand/%E2%80%AEevil-1"),
               "daily": client.get("/reports/daily")}
    for name, report in reports.items():
        assert report.status_code == 200, (name, report.text[:300])
        assert CONTROLS.search(report.text) is None, (name, CONTROLS.findall(report.text))
        assert "\\u2067T\\x1b[2J" in report.text, name
    assert f"Dispute report: hand {SHOWN}" in reports["dispute"].text
    assert f'href="/hands/%E2%80%AEevil-1">{SHOWN}</a>' in reports["daily"].text
