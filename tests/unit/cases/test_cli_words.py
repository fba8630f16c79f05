"""How the case and ledger commands word a refusal (QA, 2026-12-06): a closed case's
refusal read as a mistyped option ("Invalid value ... see --help"); ``ledger hand`` of an
unknown hand exited 1 without ``error:``, where ``cases show`` and ``report hand`` exit 2;
the audit's "what" showed Python's ``None`` for a cleared field."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from tests.unit.cases.test_cases import _one_case
from tests.unit.cli.helpers import assert_one_line_usage_error, pitwatch


def test_a_rule_of_cases_refuses_in_its_own_words(tmp_path: Path) -> None:
    url, case = _one_case(tmp_path)
    close = ["cases", "close", case, "--outcome", "no_issue", "--reason", "seen",
             "--actor", "ann", "--db", url]
    assert pitwatch(*close).code == 0
    again = pitwatch(*close)
    assert_one_line_usage_error(again, f"case {case} is closed (no_issue)")
    assert "Invalid value" not in again.stderr and "--help" not in again.stderr


def test_an_unknown_hand_in_the_ledger_is_a_usage_error(tmp_path: Path) -> None:
    url, _ = _one_case(tmp_path)
    ran = pitwatch("ledger", "hand", "NOPE", "--db", url)
    assert_one_line_usage_error(ran, "hand 'NOPE' is not in the ledger at", "HAND_ID")


def test_the_trail_shows_a_cleared_field_as_a_dash(tmp_path: Path) -> None:
    url, case = _one_case(tmp_path)
    shown = pitwatch("cases", "show", case, "--db", url, "--format", "csv").stdout
    rows = list(csv.DictReader(io.StringIO(shown)))
    assert rows and "assignee=-" in rows[0]["what"] and "None" not in shown
