"""``pitwatch surveil LOG.jsonl --out alerts.jsonl``."""

from __future__ import annotations

from pathlib import Path

import msgspec
import orjson
from typer.testing import CliRunner

from services.cli import app
from services.events.contract import Alert
from services.simulator.run import simulate
from tests.profiles import HOUSE
from tests.unit.surveillance.sweetheart import most_paid_player, overpay_one_player


def test_surveil_writes_alerts_with_evidence(tmp_path: Path) -> None:
    """The sweethearting table of test_simulated, through the command: exit 0, one JSON
    alert per line in --out (SURV-2, evidence included), the table of alerts on stderr."""
    log = simulate(["hcf"], 1, 400, seed=3, profile=HOUSE)
    events = overpay_one_player(log.events, most_paid_player(log.events), extra=3)
    path = tmp_path / "log.jsonl"
    path.write_bytes(b"".join(orjson.dumps(e) + b"\n" for e in events))
    out = tmp_path / "alerts.jsonl"
    result = CliRunner().invoke(app, ["surveil", str(path), "--out", str(out)])
    assert result.exit_code == 0, result.output
    alerts = [msgspec.json.decode(line, type=Alert) for line in out.read_bytes().splitlines()]
    assert alerts and {a.rule for a in alerts} == {"SURV-2"}
    assert all(a.evidence and a.evidence["p_value"] <= 1e-6 for a in alerts)
    assert "SWEETHEARTING" in result.output
    assert "over 400 hands" in result.output


def test_surveil_clean_log_to_stdout(tmp_path: Path) -> None:
    """A clean log: no alert lines, the summary says so."""
    log = simulate(["hcf"], 1, 60, seed=4, profile=HOUSE)
    path = tmp_path / "log.jsonl"
    path.write_bytes(b"".join(orjson.dumps(e) + b"\n" for e in log.events))
    result = CliRunner().invoke(app, ["surveil", str(path)])
    assert result.exit_code == 0
    assert "0 alert(s) over 60 hands" in result.output
    assert "{" not in result.output
