"""``pitwatch users add|list``: argon2 hashes, roles, one-line errors."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import select
from typer.testing import CliRunner

from services.cli import app
from services.console.users import UserRefused, check_user, log_in
from services.ledger.console_tables import ConsoleUser
from services.ledger.db import open_existing_ledger, open_ledger


def _users(*args: str, stdin: str = "") -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["users", *args], input=stdin, prog_name="pitwatch",
                                env={"COLUMNS": "200"})
    return result.exit_code, result.stdout, result.stderr


def test_users_add_stores_an_argon2_hash_and_the_user_can_log_in(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/l.sqlite"
    code, _, err = _users("add", "Ann", "--role", "auditor", "--db", url, "--password-stdin",
                          stdin="a password of ann\n")
    assert code == 0, err
    assert "user ann (auditor (read-only))" in err
    engine = open_existing_ledger(url)
    with engine.connect() as conn:
        stored = conn.execute(select(ConsoleUser.password_hash)).scalar_one()
    assert stored.startswith("$argon2id$") and "a password of ann" not in stored
    assert log_in(engine, "ann", "a password of ann", "test").role == "auditor"
    assert log_in(engine, "ann", "another password", "test").username is None
    code, out, _ = _users("list", "--db", url)
    assert (code, out) == (0, "ann\tauditor\n")


def test_the_password_is_asked_twice(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/l.sqlite"
    code, _, err = _users("add", "bo", "--role", "dispute_analyst", "--db", url,
                          stdin="first password\nfirst password\n")
    assert code == 0, err


def test_bad_input_is_one_line(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/l.sqlite"
    for args, stdin, word in ((("x", "--role", "boss"), "long enough pw\n", "--role"),
                              (("x", "--role", "auditor"), "short\n", "at least 10"),
                              (("a b", "--role", "auditor"), "long enough pw\n", "user name")):
        code, out, err = _users("add", *args, "--db", url, "--password-stdin", stdin=stdin)
        lines = [line for line in err.splitlines() if line.strip()]
        assert code == 2 and out == "" and len(lines) == 1, err
        assert lines[0].startswith("error: ") and word in lines[0], lines[0]


def test_disabling_a_user_ends_their_session_and_logins(tmp_path: Path) -> None:
    from tests.unit.console.support import add_users, console_client
    from tests.unit.console.support import log_in as log_in_form

    url = f"sqlite:///{tmp_path}/l.sqlite"
    engine = open_ledger(url)
    add_users(engine)
    client = console_client(engine)
    assert log_in_form(client, "dan") == 303
    assert client.get("/floor").status_code == 200
    code, _, err = _users("disable", "dan", "--db", url)
    assert code == 0, err
    assert client.get("/floor").status_code == 303  # logged out at once
    assert log_in_form(client, "dan") == 401
    code, out, _ = _users("list", "--db", url)
    assert "dan\tdispute_analyst\tdisabled" in out
    code, _, err = _users("disable", "nobody", "--db", url)
    assert code == 2 and "no console user 'nobody'" in err


def test_no_password_typed_is_a_usage_error_in_one_line(tmp_path: Path) -> None:
    """Run from a script with no input, the prompt said "aborted" and exited 1; run with
    no terminal, getpass's warning came first, with its own source line (QA)."""
    url = f"sqlite:///{tmp_path}/l.sqlite"
    ran = subprocess.run([sys.executable, "-m", "services.cli", "users", "add", "cy", "--role",
                          "auditor", "--db", url], stdin=subprocess.DEVNULL,
                         capture_output=True, text=True, check=False)
    lines = [line for line in ran.stderr.splitlines() if line.strip()]
    assert ran.returncode == 2 and len(lines) == 1, ran.stderr
    assert lines[0].startswith("error: ") and "--password-stdin" in lines[0]
    assert "no password was typed" in lines[0]


def test_a_password_is_printable_text_and_a_replaced_user_is_said(tmp_path: Path) -> None:
    """Twelve spaces or NUL bytes were taken as passwords, bytes that are not UTF-8
    stopped the hashing with a traceback, and adding an existing name replaced its
    password with the words of a new user (QA, 2026-12-06)."""
    url = f"sqlite:///{tmp_path}/l.sqlite"
    with pytest.raises(UserRefused, match="printable text"):  # stdin read with
        check_user("dee", "\udcff" * 11, "auditor")  # surrogateescape: bytes not UTF-8
    for stdin in (" " * 12 + "\n", "\x00" * 11 + "\n", "p" * 1001 + "\n"):
        code, out, err = _users("add", "dee", "--role", "auditor", "--db", url,
                                "--password-stdin", stdin=stdin)
        lines = [line for line in err.splitlines() if line.strip()]
        assert code == 2 and out == "" and len(lines) == 1, err
        assert "password" in lines[0] and "Traceback" not in err
    code, _, err = _users("add", "dee", "--role", "auditor", "--db", url,
                          "--password-stdin", stdin="a fine password\n")
    assert code == 0 and "replaced" not in err
    code, _, err = _users("add", "Dee", "--role", "compliance_officer", "--db", url,
                          "--password-stdin", stdin="another password\n")
    assert code == 0 and "user dee (compliance officer) existed: its password and role are " \
        "replaced" in err, err


def test_a_new_password_ends_the_users_sessions(tmp_path: Path) -> None:
    """QA: after ``users add`` set a new password for an existing user (one leaked, say),
    the session logged in with the old one still worked. It ends with the reset, as with
    ``users disable``; other users' sessions go on."""
    from tests.unit.console.support import add_users, console_client
    from tests.unit.console.support import log_in as log_in_form

    url = f"sqlite:///{tmp_path}/l.sqlite"
    engine = open_ledger(url)
    add_users(engine)
    dan, cora = console_client(engine), console_client(engine)
    assert log_in_form(dan, "dan") == 303 and log_in_form(cora, "cora") == 303
    code, _, err = _users("add", "Dan", "--role", "dispute_analyst", "--db", url,
                          "--password-stdin", stdin="a new password of dan\n")
    assert code == 0 and "replaced, its sessions ended (logged out)" in err, err
    refused = dan.get("/floor")
    assert refused.status_code == 303 and refused.headers["location"] == "/login?next=/floor"
    assert cora.get("/floor").status_code == 200
    assert log_in_form(dan, "dan") == 401  # the old password
    assert log_in_form(dan, "dan", "a new password of dan") == 303
    assert dan.get("/floor").status_code == 200


def test_pitwatch_is_no_console_user(tmp_path: Path) -> None:
    """The cases' trails name the system's own actions 'pitwatch', and no case may be
    given to or acted on under that name: a console user could still be made under it
    (helper's finding), in any capitals."""
    url = f"sqlite:///{tmp_path}/l.sqlite"
    for name in ("pitwatch", "PitWatch", " pitwatch "):
        code, out, err = _users("add", name, "--role", "auditor", "--db", url,
                                "--password-stdin", stdin="a fine password\n")
        lines = [line for line in err.splitlines() if line.strip()]
        assert code == 2 and out == "" and len(lines) == 1, err
        assert "'pitwatch' is the name of what pitwatch does by itself" in lines[0]

