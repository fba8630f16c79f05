"""The duplicate window (docs/events.md, "Duplicates, late and stale events"; issue #19).

A table remembers (seq, event id, hash) of every event since the start of its previous
hand. An exact redelivery of anything in that span is an info DUPLICATE_EVENT however many
lines later it comes; an older one is a STALE_EVENT warning; neither touches a hand. The
seqs below are counted by hand from ``hcf_stream`` (3 config/seating events, then 6 per
hand): hand 1 is seq 4..9, hand 2 seq 10..15, hand 3 seq 16..21.
"""

from __future__ import annotations

import copy
import random

import orjson
import pytest

from services.adjudicator.embedded import EmbeddedRunner, StepResult, adjudicate_lines
from services.adjudicator.intake import ParsedEvent, parse_record
from services.adjudicator.python_runner import ReferenceRunner
from services.adjudicator.table import TableState, apply_event, decode_state, encode_state
from services.adjudicator.window import Window, _aligned_find
from services.events.bounds import MAX_REMEMBERED_EVENTS
from services.events.contract import Alert, encode_record
from services.events.stream import TableStream
from services.simulator.handbuilder import table_config
from services.simulator.run import simulate
from tests.profiles import HOUSE, PROFILES
from tests.unit.core.streams import hcf_stream, lines


def parsed(raw: bytes) -> ParsedEvent:
    result = parse_record(raw, "test")
    assert isinstance(result, ParsedEvent)
    return result


def run(raw_lines: list[bytes]) -> tuple[list[bytes], list[Alert]]:
    records: list[bytes] = []
    alerts: list[Alert] = []
    for step in adjudicate_lines(raw_lines, PROFILES):
        records += [encode_record(r) for r in step.records]
        alerts += step.alerts
    return records, alerts


def feed_until(raw: list[bytes], count: int, engine: str | None = None) -> EmbeddedRunner:
    runner = EmbeddedRunner(PROFILES, engine)
    for line in raw[:count]:
        runner.feed(line, "x")
    return runner


def reference_states(runner: EmbeddedRunner) -> dict[str, TableState]:
    """The Python reference's table states (the window's internals are the reference's)."""
    assert isinstance(runner.impl, ReferenceRunner)
    return runner.impl.states


def codes(step: StepResult) -> list[tuple[str, str]]:
    return [(a.code, a.severity) for a in step.alerts]


def test_redelivery_of_the_previous_hand_is_a_duplicate_of_an_older_one_stale() -> None:
    raw = lines(hcf_stream(hands=3))
    during_hand_2 = feed_until(raw, 12)  # up to seq 12: hand 2 open since seq 10
    assert codes(during_hand_2.feed(raw[4], "again")) == [("DUPLICATE_EVENT", "info")]
    assert codes(during_hand_2.feed(raw[1], "again")) == [("STALE_EVENT", "warning")]
    during_hand_3 = feed_until(raw, 17)  # hand 3 started at seq 16: hand 1 is forgotten
    assert codes(during_hand_3.feed(raw[11], "again")) == [("DUPLICATE_EVENT", "info")]
    assert codes(during_hand_3.feed(raw[4], "again")) == [("STALE_EVENT", "warning")]


def test_late_redeliveries_leave_every_record_byte_identical() -> None:
    """Every event of hand 1 and the seating sent again in the middle of hand 3: each copy
    is an alert (duplicate or stale), no record changes, no hand gets a finding."""
    raw = lines(hcf_stream(hands=3))
    clean, _ = run(raw)
    replayed = raw[:18] + raw[1:9] + raw[18:]
    records, alerts = run(replayed)
    assert records == clean
    assert sorted({a.code for a in alerts}) == ["STALE_EVENT"]
    assert len(alerts) == 8


@pytest.mark.parametrize("index", [0, 161, 483, 644, 805])
def test_the_issue_scenario_an_exact_copy_136_lines_later_changes_nothing(index: int) -> None:
    """Issue #19, item 4: two HCF tables interleaved, a line delivered again 136 lines
    later. With the 64-event window each of these indexes was a critical SEQ_CONFLICT that
    changed an open hand (found by trying every 7th line); now each is an info duplicate
    and every record is byte-identical to the clean run."""
    log = simulate(["hcf"], 2, 6, 7, frozenset(), 0.0, profile=HOUSE)
    raw = [orjson.dumps(e) for e in log.events]
    clean, _ = run(raw)
    records, alerts = run(raw[:index + 136] + [raw[index]] + raw[index + 136:])
    assert records == clean
    assert [(a.code, a.severity, a.seq) for a in alerts] == [
        ("DUPLICATE_EVENT", "info", log.events[index]["seq"])]


def test_stale_table_event_during_a_hand_does_not_touch_the_hand() -> None:
    """A player_seated (hand_id null) from before the previous hand, sent again while hand
    3 is open: before the redesign it was a SEQ_CONFLICT finding on the open hand."""
    raw = lines(hcf_stream(hands=3))
    clean, _ = run(raw)
    records, alerts = run(raw[:19] + [raw[2]] + raw[19:])
    assert records == clean
    assert [(a.code, a.seq, a.hand_id) for a in alerts] == [("STALE_EVENT", 3, None)]


def test_a_new_event_at_a_remembered_seq_is_a_seq_conflict_naming_the_holder() -> None:
    events = hcf_stream(hands=2)
    forged = copy.deepcopy(events[4])  # seq 5, the ante of hand 1
    forged["event_id"] = "00000000-0000-4000-8000-000000000001"
    forged["data"]["amount"] = 1
    runner = feed_until(lines(events), 12)
    step = runner.feed(orjson.dumps(forged), "forged")
    assert codes(step) == [("SEQ_CONFLICT", "critical")]
    assert events[4]["event_id"] in step.alerts[0].message


def test_same_id_different_body_in_the_previous_hand_is_an_id_conflict() -> None:
    events = hcf_stream(hands=2)
    twin = copy.deepcopy(events[4])
    twin["data"]["amount"] = 6
    runner = feed_until(lines(events), 12)
    assert codes(runner.feed(orjson.dumps(twin), "twin")) == [
        ("EVENT_ID_CONFLICT", "critical")]


def _table_events(count: int) -> list[bytes]:
    """A configured table followed by ``count - 1`` dealer changes (no hand ever starts,
    so nothing is forgotten but by the bound)."""
    s = TableStream("T1", random.Random(8))
    s.emit("table_configured", table_config("hcf"))
    for i in range(count - 1):
        s.emit("dealer_changed", {"dealer_id": f"D{i}"})
    return [orjson.dumps(e) for e in s.events]


def test_the_window_holds_at_most_its_bound_lowest_seqs_going_first() -> None:
    """MAX_REMEMBERED_EVENTS + 6 events: seq 1..6 are forgotten, seq 7 is the lowest
    remembered (8192 + 6 - 8192 + 1 = 7)."""
    assert MAX_REMEMBERED_EVENTS == 8192
    raw = _table_events(MAX_REMEMBERED_EVENTS + 6)
    for engine in ("python", "native"):
        runner = feed_until(raw, len(raw), engine)
        if engine == "python":
            assert len(reference_states(runner)["T1"].window) == MAX_REMEMBERED_EVENTS
        assert codes(runner.feed(raw[6], "again")) == [("DUPLICATE_EVENT", "info")]
        assert codes(runner.feed(raw[5], "again")) == [("STALE_EVENT", "warning")]
    runner = feed_until(raw, len(raw))
    assert codes(runner.feed(raw[6], "again")) == [("DUPLICATE_EVENT", "info")]
    assert codes(runner.feed(raw[5], "again")) == [("STALE_EVENT", "warning")]


def test_window_round_trips_through_the_changelog_encoding() -> None:
    raw = lines(hcf_stream(hands=3))
    state = TableState(table_id="T1")
    for line in raw[:17]:
        apply_event(state, parsed(line), PROFILES)
    restored = decode_state(encode_state(state))
    assert restored == state
    assert [a.code for a in apply_event(restored, parsed(raw[11]), PROFILES).alerts] == [
        "DUPLICATE_EVENT"]
    assert [a.code for a in apply_event(restored, parsed(raw[4]), PROFILES).alerts] == ["STALE_EVENT"]


def test_a_gap_filled_backwards_checks_each_late_event_against_its_successor() -> None:
    """Seq 6 and 7 held back, then 7, then 6: two REORDERED, the chain holds. With seq 6
    altered, only its successor (seq 7, itself late) can tell: CHAIN_BROKEN."""
    raw = lines(hcf_stream(hands=2))
    backwards = raw[:5] + [raw[7], raw[6], raw[5]] + raw[8:]
    _, alerts = run(backwards)
    assert [a.code for a in alerts] == ["SEQ_GAP", "REORDERED", "REORDERED"]
    altered = hcf_stream(hands=2)
    altered[5]["data"]["card"] = "Kd"  # seq 6, after hashing
    raw6 = orjson.dumps(altered[5])
    _, alerts = run(raw[:5] + [raw[7], raw[6], raw6] + raw[8:])
    assert [(a.code, a.seq) for a in alerts] == [
        ("SEQ_GAP", 8), ("REORDERED", 7), ("REORDERED", 6), ("CHAIN_BROKEN", 6)]


def test_a_huge_seq_jump_is_one_missing_range() -> None:
    """seq 2**53 - 1 after seq 3: the gap is counted, not listed (it was once a list of
    9e15 numbers). It used to keep only the MAX_MISSING_SEQS (64) highest seqs, so the
    genuine seqs 4.. that filled it were STALE_EVENT and never applied (QA: a forged jump
    lost real events); now the whole gap 4..2**53 - 2 is one range, expected late."""
    events = hcf_stream(hands=1)
    jump = copy.deepcopy(events[3])
    jump["seq"] = 2**53 - 1
    runner = feed_until(lines(events), 3, "python")
    step = runner.feed(orjson.dumps(jump), "jump")
    assert codes(step) == [("SEQ_GAP", "critical")]
    assert f"{2**53 - 1 - 4} event(s) missing" in step.alerts[0].message
    window = reference_states(runner)["T1"].window
    assert window.ranges == [(4, 2**53 - 2)]
    assert window.is_missing(4) and window.is_missing(2**53 - 2)


def test_remember_keeps_entries_in_seq_order_whatever_the_arrival_order() -> None:
    window = Window()
    for seq in (1, 2, 5, 4, 3):
        event_id = f"{seq:036d}".encode()
        window.remember(seq, event_id, bytes(4), bytes([seq]) * 32)
    found = [window.find_seq(s) for s in range(1, 6)]
    assert [(r.seq, r.event_id, r.hash[:2]) for r in found if r] == [
        (s, f"{s:036d}", f"{s:02x}") for s in range(1, 6)]
    window.forget_below(4)
    assert window.find_seq(3) is None and window.lowest_seq() == 4


def test_aligned_find_skips_matches_that_straddle_entries() -> None:
    """Entries of 4 bytes: "abcd" "efgh" "cdef". "cdef" occurs first at byte 2 (across
    entries 0 and 1), then at byte 8, the start of entry 2: the answer is entry 2."""
    buffer = bytearray(b"abcdefghcdef")
    assert _aligned_find(buffer, b"cdef", 4) == 2
    assert _aligned_find(buffer, b"efgh", 4) == 1
    assert _aligned_find(buffer, b"bcde", 4) == -1
