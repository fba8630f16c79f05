"""``verify`` holds each archived alert's columns to its JSON (QA: a critical CHAIN_BROKEN
whose ``severity`` column was set to ``info`` behind the guard left the console's floor,
its case deleted with it, and verify passed)."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import text

from services.archive.verify import verify_archive
from services.ledger.db import open_ledger
from tests.unit.archive.support import simulated_log
from tests.unit.cli.helpers import failing_verify, pitwatch


def _archived(tmp_path: Path) -> str:
    """A day with its faults (tampered events: critical SURV-9 alerts) archived."""
    log = tmp_path / "day.jsonl"
    log.write_bytes(b"\n".join(simulated_log(tables=2, hands=40).lines) + b"\n")
    url = f"sqlite:///{tmp_path}/day.sqlite"
    pitwatch("adjudicate", str(log), "--ledger", url)
    return url


@pytest.mark.parametrize(("column", "value"), [
    ("severity", "'info'"), ("table_id", "'T009'"), ("seq", "seq + 1"), ("code", "'X'"),
    ("hand_id", "'T001-999999'"), ("alert_json", "replace(alert_json, 'critical', 'info')"),
])
def test_a_changed_column_of_an_archived_alert_is_a_break(tmp_path: Path, column: str,
                                                          value: str) -> None:
    url = _archived(tmp_path)
    engine = open_ledger(url)
    assert not verify_archive(engine).failed()
    with engine.begin() as conn:
        alert_id, severity = conn.execute(text(
            "SELECT alert_id, severity FROM archive_alerts WHERE rule = 'SURV-9' AND "
            "seq IS NOT NULL ORDER BY alert_id LIMIT 1")).one()
        assert severity == "critical"
        conn.execute(text("DROP TRIGGER archive_alerts_no_update"))
        conn.execute(text(f"UPDATE archive_alerts SET {column} = {value} "
                          "WHERE alert_id = :a"), {"a": alert_id})
    found = [b for b in verify_archive(engine).archive_breaks if b.kind == "alert"]
    engine.dispose()
    assert len(found) == 1, found
    assert found[0].message.startswith(f"archived alert {alert_id}: its row says "), found
    said = found[0].message
    if column == "alert_json":  # the JSON says info now: the row keeps its critical
        assert "severity critical where its JSON gives info" in said, said
    else:
        assert f"{column} " in said, said
    body = failing_verify(url)
    assert [b["kind"] for b in body["breaks"]].count("alert") == 1


def test_the_json_of_no_alert_is_a_break(tmp_path: Path) -> None:
    url = _archived(tmp_path)
    engine = open_ledger(url)
    with engine.begin() as conn:
        conn.execute(text("DROP TRIGGER archive_alerts_no_update"))
        conn.execute(text("UPDATE archive_alerts SET alert_json = '{\"v\": 1}' WHERE "
                          "alert_id = (SELECT min(alert_id) FROM archive_alerts)"))
    found = [b for b in verify_archive(engine).archive_breaks if b.kind == "alert"]
    engine.dispose()
    assert len(found) == 1 and "its JSON is no alert" in found[0].message
