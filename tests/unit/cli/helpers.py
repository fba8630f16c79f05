"""Running ``pitwatch`` as a user would, through the root command and its exit codes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import orjson
from typer.testing import CliRunner

from services.cli import app


@dataclass(frozen=True)
class Ran:
    code: int
    stdout: str
    stderr: str

    @property
    def error_lines(self) -> list[str]:
        return [line for line in self.stderr.splitlines() if line.strip()]


def pitwatch(*args: str, columns: int = 80) -> Ran:
    """``pitwatch ARGS`` in-process, on a terminal ``columns`` wide; stdout and stderr
    kept apart."""
    result = CliRunner().invoke(app, list(args), prog_name="pitwatch",
                                env={"COLUMNS": str(columns)})
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return Ran(result.exit_code, result.stdout, result.stderr)


def assert_one_line_usage_error(ran: Ran, *words: str) -> None:
    """Exit 2, nothing on stdout, exactly one line on stderr naming ``words``, no
    traceback and no framed box."""
    assert ran.code == 2, (ran.code, ran.stderr)
    assert ran.stdout == ""
    assert len(ran.error_lines) == 1, ran.stderr
    line = ran.error_lines[0]
    assert line.startswith("error: "), line
    assert "Traceback" not in ran.stderr and "╭" not in ran.stderr
    for word in words:
        assert word in line, (word, line)


def failing_verify(url: str) -> dict[str, Any]:
    """``pitwatch verify --format json`` of a database it must find broken (exit 1): the
    JSON it printed."""
    found = pitwatch("verify", "--db", url, "--format", "json")
    assert found.code == 1, found.stderr
    body: dict[str, Any] = orjson.loads(found.stdout)
    return body
