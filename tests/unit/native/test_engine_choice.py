"""Choosing the engine: ``--engine`` / ``PITWATCH_ENGINE``, and one-line errors."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest
from typer.testing import CliRunner

from services.adjudicator import native_runner
from services.adjudicator.engine import EngineUnavailable, engine_name
from services.cli import app
from services.simulator.run import available_faults, simulate
from tests.profiles import HOUSE


@pytest.fixture()
def log(tmp_path: Path) -> Path:
    events = simulate(["hcf"], 2, 20, 3, frozenset(available_faults("hcf")), 0.3, profile=HOUSE).events
    path = tmp_path / "events.jsonl"
    path.write_bytes(b"".join(orjson.dumps(e) + b"\n" for e in events))
    return path


def test_the_command_gives_the_same_output_with_either_engine(log: Path, tmp_path: Path) -> None:
    outputs = {}
    for engine in ("native", "python"):
        dlq, alerts = tmp_path / f"dlq-{engine}", tmp_path / f"alerts-{engine}"
        result = CliRunner().invoke(app, ["adjudicate", str(log), "--engine", engine,
                                          "--dlq", str(dlq), "--alerts", str(alerts)])
        assert result.exit_code in (0, 1), result.output
        outputs[engine] = (result.stdout, dlq.read_bytes(), alerts.read_bytes())
    assert outputs["native"] == outputs["python"]
    assert outputs["native"][0].count("\n") == 40


def test_an_unknown_engine_is_one_line_and_exit_2(log: Path) -> None:
    result = CliRunner().invoke(app, ["adjudicate", str(log), "--engine", "rust"])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, lines  # the usual form of a usage error (QA: it had its own)
    assert lines[0].startswith(
        "error: Invalid value for --engine: unknown engine 'rust' (PITWATCH_ENGINE or "
        "--engine): use one of native, python (see: "), lines


def test_a_missing_native_core_says_what_to_do(log: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def unbuilt() -> None:
        raise EngineUnavailable("the native core (services._native) is not built: run "
                                "`pip install -e .`")

    monkeypatch.setattr(native_runner, "_native", unbuilt)
    result = CliRunner().invoke(app, ["adjudicate", str(log)])
    assert result.exit_code == 2
    assert len(result.stderr.strip().splitlines()) == 1
    assert "pip install -e ." in result.stderr
    assert "Traceback" not in result.output


def test_the_environment_chooses_when_no_flag_does(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PITWATCH_ENGINE", raising=False)
    assert engine_name() == "native"
    monkeypatch.setenv("PITWATCH_ENGINE", "python")
    assert engine_name() == "python"
    assert engine_name("native") == "native"
