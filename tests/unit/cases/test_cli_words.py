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
    rows = list(csv.DictReader(io.StringIO(shown)))  # part,item,field,value
    what = [r["value"] for r in rows if r["part"] == "audit" and r["field"] == "what"]
    assert what and "assignee=-" in what[0] and "None" not in shown


def test_an_alerts_case_is_found_by_the_game_and_dealer_of_its_hands(tmp_path: Path) -> None:
    """A chain-break alert names its table and hand only; its case had no game or dealer
    tag, so `cases list --game hcf` and `--dealer D7` missed it (QA, 2026-12-06). The
    tags now also come from the booked hands the evidence names (hand-built: T1-000002
    is an HCF hand dealt by D7)."""
    from services.cases.intake import open_cases
    from services.events.contract import Alert
    from services.ledger.db import open_ledger
    from services.ledger.posting import post_many
    from tests.unit.cases.test_cases import AT, hands

    url = f"sqlite:///{tmp_path}/tags.sqlite"
    engine = open_ledger(url)
    post_many(engine, hands())
    chain = Alert(table_id="T1", code="CHAIN_BROKEN", rule="SURV-9", severity="critical",
                  message="seq 7 altered", hand_id="T1-000002", evidence={})
    assert open_cases(engine, [], [chain], at=AT).opened == 1
    engine.dispose()
    for option, value in (("--game", "hcf"), ("--dealer", "D7"), ("--table", "T1")):
        listed = pitwatch("cases", "list", option, value, "--db", url, "--format", "csv")
        subjects = [row["subject"] for row in csv.DictReader(io.StringIO(listed.stdout))]
        assert subjects == ["table:T1"], (option, listed.stdout, listed.stderr)
    assert pitwatch("cases", "list", "--dealer", "D8", "--db", url, "--format",
                    "csv").stdout.count("table:T1") == 0
