"""``pitwatch surveil`` reads its log in whole buffers (``surveil_steps`` over
``log_steps``, as ``pitwatch adjudicate`` reads), not a line at a time: the run must be
the one ``surveil_lines`` gives over the same lines, whatever the file holds.

The log: the sweetheart scenario (3 HCF tables x 60 hands, SURV-2 alerts, lowered SURV-8
floors reviewed every 40 hands) with hostile lines put in (not JSON, an empty object, a
re-sent event, a blank line, an event of an unknown table in the middle of a hand) and
the last table's final hand cut short. Compared on both engines, from a plain file and
from a gzip-compressed one: every alert (bytes, order), every stream alert, every record,
every dead letter (position, reason, bytes) and the counts.
"""

from __future__ import annotations

import gzip
from functools import cache
from pathlib import Path

import msgspec
import pytest

from services.adjudicator.embedded import iter_lines
from services.log_run import log_steps
from services.surveillance.profile import SurveillanceConfig
from services.surveillance.run import SurveillanceRun, surveil_lines, surveil_steps
from services.terminal import log_progress
from tests.profiles import PROFILES
from tests.unit.surveillance.scenario import config
from tests.unit.surveillance.sweetheart import sweethearting_log

REVIEW_EVERY = 40


@cache
def scenario() -> tuple[list[bytes], SurveillanceConfig]:
    lines = sweethearting_log(3, 60, seed=5)
    hostile = [
        (10, b"not json at all"),
        (200, b"{}"),
        (400, lines[399]),  # an event sent again
        (600, b""),
        (800, lines[5].replace(b'"T00', b'"X00')),  # a table met part way through
    ]
    for at, line in sorted(hostile, reverse=True):
        lines.insert(at, line)
    last_hand_end = max(i for i, line in enumerate(lines) if b'"hand_ended"' in line)
    del lines[last_hand_end]  # that hand stays open: closed as incomplete at the end
    thresholds = config(sweethearting={"min_count": 3, "p_value": 0.01},
                        drift={"min_hands": 20, "min_count": 2, "p_value": 0.5})
    return lines, thresholds


def _run_of_lines(engine: str, monkeypatch: pytest.MonkeyPatch) -> SurveillanceRun:
    monkeypatch.setenv("PITWATCH_ENGINE", engine)
    lines, thresholds = scenario()
    return surveil_lines(iter_lines(lines), thresholds, PROFILES, review_every=REVIEW_EVERY)


def _run_of_file(path: Path, engine: str, monkeypatch: pytest.MonkeyPatch) -> SurveillanceRun:
    monkeypatch.setenv("PITWATCH_ENGINE", engine)
    _, thresholds = scenario()
    with log_progress(path, "surveilling") as bar:
        return surveil_steps(lambda runner: log_steps(runner, path, bar), thresholds,
                             PROFILES, review_every=REVIEW_EVERY)


def _as_bytes(run: SurveillanceRun) -> dict[str, object]:
    encode = msgspec.json.encode
    return {
        "alerts": [encode(a) for a in run.alerts],
        "stream_alerts": [encode(a) for a in run.stream_alerts],
        "records": [encode(r) for r in run.records],
        "dead_letters": [(d.where, d.reason, d.raw, d.table_id) for d in run.dead_letters],
        "counts": (run.rejected_hands, run.rejected_lines, run.hands_surveilled,
                   run.left_open),
    }


def test_the_log_is_hostile_and_raises_alerts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Otherwise the comparison below could hold between two empty runs."""
    run = _run_of_lines("native", monkeypatch)
    rules = [a.rule for a in run.alerts]
    assert rules.count("SURV-2") >= 3 and rules.count("SURV-8") >= 1
    assert run.rejected_lines >= 2 and run.rejected_hands >= 1
    assert run.stream_alerts


@pytest.mark.parametrize("engine", ["native", "python"])
@pytest.mark.parametrize("compressed", [False, True])
def test_the_file_read_in_buffers_is_the_run_of_its_lines(
        tmp_path: Path, engine: str, compressed: bool,
        monkeypatch: pytest.MonkeyPatch) -> None:
    lines, _ = scenario()
    body = b"\n".join(lines) + b"\n"
    path = tmp_path / ("log.jsonl.gz" if compressed else "log.jsonl")
    path.write_bytes(gzip.compress(body) if compressed else body)
    assert _as_bytes(_run_of_file(path, engine, monkeypatch)) == _as_bytes(
        _run_of_lines(engine, monkeypatch))
