"""A chain break outside a hand is rejected input and lands on the table's next hand
(docs/events.md, "Chain breaks outside a hand"; issue #19). Seqs from ``hcf_stream``:
1 configured, 2-3 seated, hand 1 is 4..9, hand 2 is 10..15."""

from __future__ import annotations

import copy
from pathlib import Path

import orjson
from typer.testing import CliRunner

from services.adjudicator.embedded import EmbeddedRunner, adjudicate_lines
from services.adjudicator.python_runner import ReferenceRunner
from services.cli import app
from services.events.bounds import MAX_HELD_FINDINGS
from services.events.contract import AdjudicationRecord, Alert, Finding
from tests.profiles import PROFILES
from tests.unit.core.streams import hcf_stream, lines


def chain(record: AdjudicationRecord) -> list[Finding]:
    """The hand's SURV-9 findings (the tiny hands of hcf_stream also have game findings)."""
    return [f for f in record.findings if f.rule == "SURV-9"]


def run(raw: list[bytes]) -> tuple[list[AdjudicationRecord], list[Alert], list[Finding]]:
    records: list[AdjudicationRecord] = []
    alerts: list[Alert] = []
    outside: list[Finding] = []
    for step in adjudicate_lines(raw, PROFILES):
        records += step.records
        alerts += step.alerts
        outside += step.outside_hand
    return records, alerts, outside


def test_a_tampered_hand_ended_is_held_for_the_next_hand_and_counted() -> None:
    events = hcf_stream(hands=2)
    events[8]["source"] = "dealer-terminal-2"  # seq 9, hand 1's hand_ended, after hashing
    records, alerts, outside = run(lines(events))
    assert [(a.code, a.seq, a.hand_id) for a in alerts] == [
        ("CHAIN_BROKEN", 10, "T1-000002")]
    assert [f.code for f in outside] == ["CHAIN_BROKEN"]
    hand1, hand2 = records
    assert chain(hand1) == []
    assert [(f.code, f.severity) for f in chain(hand2)] == [("CHAIN_BROKEN", "critical")]
    assert chain(hand2)[0].message.startswith(
        "outside any hand, before this one started: seq 10 says the previous event hashed")


def test_a_tampered_seating_before_the_first_hand_lands_on_it() -> None:
    events = hcf_stream(hands=2)
    events[1]["data"]["stack"] = 1000  # seq 2, detected by seq 3 (no hand open)
    records, alerts, outside = run(lines(events))
    assert [(a.code, a.seq) for a in alerts] == [("CHAIN_BROKEN", 3)]
    assert len(outside) == 1
    assert [f.code for f in chain(records[0])] == ["CHAIN_BROKEN"]
    assert chain(records[1]) == []


def test_a_break_inside_a_hand_stays_that_hands_finding_and_is_not_outside() -> None:
    events = hcf_stream(hands=2)
    events[4]["data"]["amount"] = 4  # seq 5, inside hand 1
    records, _, outside = run(lines(events))
    assert outside == []
    assert [f.code for f in chain(records[0])] == ["CHAIN_BROKEN"]


def test_a_gap_before_a_hand_lands_on_it() -> None:
    """seq 3 (the second seating) lost: hand 1's hand_started (seq 4) shows the gap while
    no hand is open. Before, hand 1 came out without a word of it."""
    raw = lines(hcf_stream(hands=2))
    del raw[2]
    records, alerts, outside = run(raw)
    assert [(a.code, a.seq) for a in alerts] == [("SEQ_GAP", 4)]
    assert [f.code for f in outside] == ["SEQ_GAP"]
    assert [f.code for f in chain(records[0])] == ["SEQ_GAP"]


def test_the_held_findings_are_bounded_but_all_counted() -> None:
    events = hcf_stream(hands=1)
    runner = EmbeddedRunner(PROFILES, "python")  # the reference's state (native: tests/unit/native)
    for line in lines(events[:3]):
        runner.feed(line, "x")
    counted = 0
    for i in range(MAX_HELD_FINDINGS + 6):
        forged = copy.deepcopy(events[1])  # seq 2 again under new ids: SEQ_CONFLICT
        forged["event_id"] = f"00000000-0000-4000-8000-{i:012d}"
        counted += len(runner.feed(orjson.dumps(forged), "forged").outside_hand)
    assert counted == MAX_HELD_FINDINGS + 6
    assert isinstance(runner.impl, ReferenceRunner)
    assert len(runner.impl.states["T1"].held) == MAX_HELD_FINDINGS
    records = []
    for line in lines(events[3:]):
        records += runner.feed(line, "x").records
    assert [f.code for f in chain(records[0])] == ["SEQ_CONFLICT"] * MAX_HELD_FINDINGS


def test_the_command_exits_1_and_says_so(tmp_path: Path) -> None:
    """Before: only an alert, exit 0, the summary said nothing."""
    events = hcf_stream(hands=2)
    events[8]["source"] = "dealer-terminal-2"
    log = tmp_path / "log.jsonl"
    log.write_bytes(b"\n".join(lines(events)) + b"\n")
    result = CliRunner().invoke(app, ["adjudicate", str(log)])
    assert result.exit_code == 1
    row = next(line for line in result.output.splitlines()
               if line.startswith("│ chain breaks outside a hand"))
    assert row.split("│")[2].strip() == "1"
