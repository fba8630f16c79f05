"""``cases show N --format csv`` carries the case itself, not only its audit trail (QA:
no state, severity, evidence, hands or tags, which the table and JSON show). One table of
four columns ``part,item,field,value``; texts keep the CSV formula escaping. The test
case is ``test_cases.hands()``'s T1-000003, a MISPAY (HCF-7) at seat 3 of an HCF hand
dealt by D7 to alice, bob and carol on 2024-05-02, opened by pitwatch at AT."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from tests.unit.cases.test_cases import _one_case
from tests.unit.cli.helpers import pitwatch


def _rows(url: str, case: str) -> list[list[str]]:
    ran = pitwatch("cases", "show", case, "--db", url, "--format", "csv")
    assert ran.code == 0, ran.stderr
    return list(csv.reader(io.StringIO(ran.stdout, newline="")))


def test_the_csv_holds_state_severity_evidence_hands_tags_and_trail(tmp_path: Path) -> None:
    url, case = _one_case(tmp_path)
    assert pitwatch("cases", "assign", case, "=ann", "--actor", "sup", "--db", url).code == 0
    rows = _rows(url, case)
    assert rows[0] == ["part", "item", "field", "value"]
    assert all(len(row) == 4 for row in rows)  # one rectangular sheet
    assert ["case", "", "case", case] in rows
    assert ["case", "", "state", "in_review"] in rows
    assert ["case", "", "severity", "critical"] in rows
    assert ["case", "", "subject", "hand:T1-000003"] in rows
    assert ["case", "", "title", "hand T1-000003: MISPAY (HCF-7)"] in rows
    assert ["case", "", "assignee", "'=ann"] in rows  # a formula stays text
    assert ["case", "", "version", "2"] in rows
    assert ["case", "", "tag dealer", "D7"] in rows
    assert ["case", "", "tag game", "hcf"] in rows
    assert [r[3] for r in rows if r[:3] == ["case", "", "tag player"]] == [
        "alice", "bob", "carol"]
    assert ["evidence", "1", "rule", "HCF-7"] in rows
    assert ["evidence", "1", "code", "MISPAY"] in rows
    assert ["evidence", "1", "day", "2024-05-02"] in rows
    assert ["hand", "1", "table", "T1"] in rows and ["hand", "1", "hand", "T1-000003"] in rows
    assert ["audit", "1", "action", "open"] in rows
    assert ["audit", "1", "actor", "pitwatch"] in rows
    assert ["audit", "2", "actor", "sup"] in rows
    assert ["audit", "2", "before", "open"] in rows and ["audit", "2", "after", "in_review"] in rows
    parts = [row[0] for row in rows[1:]]
    assert parts == sorted(parts, key=["case", "evidence", "hand", "audit"].index)
