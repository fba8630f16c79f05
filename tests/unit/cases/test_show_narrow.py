"""``cases show`` in an 80-column terminal: the evidence and the audit trail one block per
item, each id and day whole (QA: the evidence table's eight columns folded every id into
pieces, ``T1-00000`` over ``3``, and the audit trail's times, ``2026-01-20T10`` over
``:00:00.000Z``); in a terminal wide enough, the tables as before."""

from __future__ import annotations

import io
from pathlib import Path

import orjson
import pytest
from rich.console import Console

from services.cases import cli
from tests.unit.cases.test_cases import _one_case
from tests.unit.cli.helpers import pitwatch


def _shown(monkeypatch: pytest.MonkeyPatch, url: str, case: str, width: int) -> str:
    out = io.StringIO()
    monkeypatch.setattr(cli, "console", Console(file=out, width=width, force_terminal=True,
                                                color_system=None))
    cli.show_command(int(case), url)
    return out.getvalue()


def test_at_80_columns_every_id_of_the_evidence_and_the_trail_is_whole(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    url, case = _one_case(tmp_path)
    detail = orjson.loads(pitwatch("cases", "show", case, "--db", url, "--format",
                                   "json").stdout)
    assert detail["evidence"] and detail["audit"]
    text = _shown(monkeypatch, url, case, 80)
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert "…" not in text
    whole = [line for e in detail["evidence"] for line in
             (e["source"], e["hand"], e["table"], e["day"], e["rule"], e["code"])]
    whole += [a["at"] for a in detail["audit"]]
    for value in whole:  # each on one line, not folded over two
        assert any(value in line for line in lines), (value, text)
    for e in detail["evidence"]:  # the summary too, at its words
        assert e["summary"] in " ".join(line.strip() for line in lines), e["summary"]
    assert "Evidence (1): a block each; its 8 columns need" in text
    assert "(a wider one, or --format csv, shows the columns)" in " ".join(lines)


def test_in_a_wide_terminal_the_evidence_is_a_table(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    url, case = _one_case(tmp_path)
    text = _shown(monkeypatch, url, case, 200)
    assert "a block each" not in text
    header = next(line for line in text.splitlines() if "source" in line)
    for column in ("rule", "code", "severity", "table", "hand", "day", "summary"):
        assert column in header


@pytest.mark.parametrize("width", [60, 72, 80])
def test_a_field_is_never_split_from_its_value(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, width: int) -> None:
    """The block's fields wrap between fields: "before open" stays on one line (QA helper
    95: at 80 columns the trail read "... action assign   before" / "open   after ...")."""
    url, case = _one_case(tmp_path)
    assert pitwatch("cases", "assign", case, "ann", "--actor", "bob", "--db", url).code == 0
    detail = orjson.loads(pitwatch("cases", "show", case, "--db", url, "--format",
                                   "json").stdout)
    lines = _shown(monkeypatch, url, case, width).splitlines()
    pairs = [f"{name} {value}" for a in detail["audit"]
             for name, value in (("actor", a["actor"]), ("action", a["action"]),
                                 ("before", a["before"]), ("after", a["after"]))
             if value]
    pairs += [f"{name} {e[name]}" for e in detail["evidence"]
              for name in ("source", "rule", "code", "severity", "table", "hand", "day")]
    pairs += [f"{name} {detail[name]}" for name in ("state", "severity", "assignee",
                                                    "version", "opened")]  # the heading
    assert ("before open" in pairs) and ("after in_review" in pairs), pairs
    for pair in pairs:
        assert any(pair in line for line in lines), (pair, lines)
