"""The demo's database holds the hands its surveillance counted, as ``surveil --db``
leaves a database: surveilling the demo's log again over it counts no hand twice and
writes the demo's own alerts (QA: the demo stored the counters without the hands, so
the re-run counted all of them again: "27 of 27" mispays where the log had 19, a
table's "48 of 600 hands" from 300, warnings raised to critical and joined to cases)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tests.unit.cli.helpers import pitwatch


def test_surveil_over_the_demos_database_counts_no_hand_twice(tmp_path: Path) -> None:
    workdir = tmp_path / "demo"
    assert pitwatch("demo", "--tables", "2", "--hands", "150", "--seed", "7",
                    "--workdir", str(workdir)).code in (0, 1)
    ledger = workdir / "ledger.sqlite"
    with sqlite3.connect(ledger) as db:
        (counted,) = db.execute("select count(*) from surveillance_hands").fetchone()
        (hands,) = db.execute("select count(*) from hands").fetchone()
    assert counted == hands == 300
    again = tmp_path / "again.alerts.jsonl"
    ran = pitwatch("surveil", str(workdir / "events.jsonl"), "--db", f"sqlite:///{ledger}",
                   "--out", str(again))
    assert ran.code == 0, ran.stderr
    assert "300 hand(s) had been counted by an earlier run" in ran.stderr
    demo_alerts = (workdir / "alerts.jsonl").read_bytes()
    assert demo_alerts  # the demo's planted scenarios raised alerts to compare
    assert again.read_bytes() == demo_alerts
