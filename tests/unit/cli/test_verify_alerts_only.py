"""``pitwatch verify`` of a database only ``pitwatch surveil --db`` wrote: it archives its
SURV-2..8 alerts there (and opens their cases), no event. verify refused it (exit 2, "the
archive holds nothing") and checked none of the alerts (QA). It now holds each stored
alert to its JSON, as in a full database, and says what it checked and what it could not.
"""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest
from sqlalchemy import create_engine, text

from services.simulator.run import simulate
from tests.profiles import HOUSE
from tests.unit.cli.helpers import pitwatch
from tests.unit.surveillance.sweetheart import most_paid_player, overpay_one_player


@pytest.fixture
def surveilled(tmp_path: Path) -> tuple[str, list[dict[str, object]]]:
    """A database made by ``surveil --db`` alone over a log whose dealer overpays one
    player (SURV-2 alerts), and the alerts it wrote to its ``--out`` file."""
    log = simulate(["hcf"], 1, 400, seed=3, profile=HOUSE)
    events = overpay_one_player(log.events, most_paid_player(log.events), extra=3)
    path = tmp_path / "log.jsonl"
    path.write_bytes(b"".join(orjson.dumps(e) + b"\n" for e in events))
    url = f"sqlite:///{tmp_path}/surveilled.sqlite"
    out = tmp_path / "alerts.jsonl"
    assert pitwatch("surveil", str(path), "--db", url, "--out", str(out)).code == 0
    alerts = [orjson.loads(line) for line in out.read_bytes().splitlines()]
    assert alerts and all(a["severity"] == "critical" for a in alerts
                          if a["rule"] == "SURV-2")
    return url, alerts


def test_a_surveil_only_database_is_verified_clean(
        surveilled: tuple[str, list[dict[str, object]]]) -> None:
    url, alerts = surveilled
    ran = pitwatch("verify", "--db", url, columns=1000)
    assert ran.code == 0, ran.stderr
    assert (f"checked {len(alerts)} archived alert(s) against their JSON: as produced"
            in ran.error_lines), ran.stderr
    said = ran.error_lines[-1]
    assert f"the archive holds {len(alerts)} alert(s) here" in said
    assert "no event segment" in said and "pitwatch adjudicate LOG --ledger URL" in said
    listed = pitwatch("verify", "--db", url, "--format", "json")
    assert orjson.loads(listed.stdout)["alerts"] == len(alerts)


def test_an_alert_changed_in_a_surveil_only_database_fails_verify_naming_it(
        surveilled: tuple[str, list[dict[str, object]]]) -> None:
    """One stored alert's JSON lowered from critical to info behind the table's guard
    (it would leave the console's floor): verify exits 1 and names that alert."""
    url, alerts = surveilled
    changed = next(a for a in alerts if a["rule"] == "SURV-2")
    db = create_engine(url)
    with db.begin() as conn:
        conn.execute(text("DROP TRIGGER archive_alerts_no_update"))
        body = conn.execute(text("SELECT alert_json FROM archive_alerts WHERE alert_id = :a"),
                            {"a": changed["alert_id"]}).scalar_one()
        lowered = body.replace('"severity":"critical"', '"severity":"info"')
        assert lowered != body
        conn.execute(text("UPDATE archive_alerts SET alert_json = :j WHERE alert_id = :a"),
                     {"j": lowered, "a": changed["alert_id"]})
    db.dispose()
    ran = pitwatch("verify", "--db", url, "--format", "json", columns=1000)
    assert ran.code == 1, ran.stderr
    breaks = orjson.loads(ran.stdout)["breaks"]
    named = [b for b in breaks if b["kind"] == "alert"]
    assert len(named) == 1, breaks
    assert f"archived alert {changed['alert_id']}:" in named[0]["what"]
    assert "severity critical where its JSON gives info" in named[0]["what"]
    assert (f"checked {len(alerts)} archived alert(s) against their JSON: 1 changed (the "
            "alert breaks above)") in ran.error_lines, ran.stderr
