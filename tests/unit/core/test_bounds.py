"""Every bound of the contract, with its reason (docs/events.md, "Bounds"; issue #19)."""

from __future__ import annotations

import copy
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from services.adjudicator import table
from services.adjudicator.embedded import DeadLetter, EmbeddedRunner, adjudicate_lines
from services.adjudicator.intake import ParsedEvent, Rejection, parse_record
from services.adjudicator.python_runner import ReferenceRunner
from services.events.bounds import (
    MAX_NESTING_DEPTH,
    MAX_OFFERS,
    MAX_RECORD_BYTES,
    MAX_SEATS,
    MAX_TEXT_LENGTH,
)
from services.events.contract import AdjudicationRecord
from services.events.wire import too_deep
from tests.profiles import PROFILES
from tests.unit.core.streams import hcf_stream, lines


def with_bad_line(bad: bytes) -> tuple[list[AdjudicationRecord], list[DeadLetter]]:
    """Two HCF tables (4 hands) with ``bad`` as line 16, between them."""
    raw = lines(hcf_stream("T1")) + [bad] + lines(hcf_stream("T2", seed=5))
    records: list[AdjudicationRecord] = []
    dead: list[DeadLetter] = []
    for step in adjudicate_lines(raw, PROFILES):
        records += step.records
        dead += step.dead_letters
    return records, dead


def event(index: int = 4, **changes: object) -> dict[str, Any]:
    e = copy.deepcopy(hcf_stream("T9")[index])
    e.update(changes)
    return e


def reason_of(raw: bytes) -> str:
    result = parse_record(raw, "x")
    assert isinstance(result, Rejection), result
    return result.reason


# ---------------------------------------------------------------- nesting (item 1)

def _deep_before_type() -> bytes:
    """A valid event whose ``source`` (before ``type``) is 2,000 arrays deep: msgspec
    skipped it recursively while looking for the tag."""
    rest = {k: v for k, v in event().items() if k != "source"}
    return b'{"source":' + b"[" * 2000 + b"]" * 2000 + b"," + orjson.dumps(rest)[1:]


DEEP_LINES = [
    b'{"a":' + b"[" * 1000 + b"]" * 1000 + b"}",
    b'{"a":' * 1000 + b"1" + b"}" * 1000,
    _deep_before_type(),
]


@pytest.mark.parametrize("bad", DEEP_LINES, ids=["arrays", "objects", "before-type"])
def test_deep_nesting_is_refused_and_the_run_goes_on(bad: bytes) -> None:
    """Issue #19 item 1: each of these raised RecursionError and stopped the run."""
    records, dead = with_bad_line(bad)
    assert [d.where for d in dead] == ["line 16"]
    assert dead[0].reason == (f"nesting: objects and arrays nested deeper than "
                              f"{MAX_NESTING_DEPTH} levels (the record itself is level 1)")
    assert sorted(r.hand_id for r in records) == [
        "T1-000001", "T1-000002", "T2-000001", "T2-000002"]


def nested(depth: int) -> bytes:
    """A JSON value of exactly ``depth`` levels: the record, then arrays."""
    return b'{"a":' + b"[" * (depth - 1) + b"]" * (depth - 1) + b"}"


def test_the_bound_is_inclusive() -> None:
    assert too_deep(nested(MAX_NESTING_DEPTH)) is None
    assert too_deep(nested(MAX_NESTING_DEPTH + 1)) is not None
    assert reason_of(nested(MAX_NESTING_DEPTH)).startswith("schema: ")
    assert reason_of(nested(MAX_NESTING_DEPTH + 1)).startswith("nesting: ")


def test_brackets_inside_strings_do_not_nest() -> None:
    text = "[{" * 20 + '\\"' + "}]" * 3
    e = event(index=1, data={"dealer_id": "D-1"}, type="dealer_changed")
    e["data"]["dealer_id"] = text[:200]
    assert isinstance(parse_record(orjson.dumps(e), "x"), ParsedEvent)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=200) | st.text(alphabet='[]{}"\\ab:,', max_size=200).map(str.encode))
def test_the_depth_check_takes_any_bytes(blob: bytes) -> None:
    too_deep(blob)


# ---------------------------------------------------------------- control characters


@pytest.mark.parametrize(("text", "code"), [
    ("stub\nexhausted", "U+000A"),
    ("\u001b[2Jred", "U+001B"),  # an ANSI escape to the operator's terminal
    ("tab\there", "U+0009"),
    ("del\u007f", "U+007F"),
    ("csi\u009b", "U+009B"),
])
def test_a_control_character_in_a_string_is_refused(text: str, code: str) -> None:
    e = event(index=1, type="misdeal", data={"reason": text})
    assert reason_of(orjson.dumps(e)) == (
        f"control character: {code} in the string at `$.data.reason` (strings are one line "
        "of text)")


def test_a_raw_del_in_a_compact_ascii_record_is_refused_too() -> None:
    """Raw DEL is legal JSON and ASCII: such a record took the fast path."""
    raw = orjson.dumps(event(index=1, type="misdeal", data={"reason": "x\x7f"}))
    assert b"\x7f" in raw and b"\\" not in raw
    assert reason_of(raw).startswith("control character: U+007F")


def test_a_trailing_newline_no_longer_passes_a_pattern() -> None:
    """Python's ``$`` matches before a final newline: "As\\n" passed the card pattern."""
    e = event(index=5)
    e["data"]["card"] = "As\n"
    assert reason_of(orjson.dumps(e)).startswith("control character: U+000A in the string "
                                                  "at `$.data.card`")


def test_an_escaped_backslash_before_n_is_no_newline() -> None:
    e = event(index=1, type="misdeal", data={"reason": "C:\\new"})
    assert isinstance(parse_record(orjson.dumps(e), "x"), ParsedEvent)


def test_a_control_character_in_a_key_is_refused() -> None:
    raw = orjson.dumps(event()).replace(b'"seat"', b'"se\\u0000at"')
    assert reason_of(raw).startswith("control character: U+0000 in a key of the object at "
                                     "`$.data`")


# ---------------------------------------------------------------- lengths and counts


def test_record_size_bound_is_inclusive() -> None:
    """Whitespace is free, so a valid record padded to exactly the bound is accepted."""
    base = orjson.dumps(event(index=1, type="misdeal", data={"reason": ""}))
    exact = base[:-1] + b" " * (MAX_RECORD_BYTES - len(base)) + base[-1:]
    assert len(exact) == MAX_RECORD_BYTES
    assert isinstance(parse_record(exact, "x"), ParsedEvent)
    over = exact[:-1] + b" }"
    assert reason_of(over) == f"record of {MAX_RECORD_BYTES + 1} bytes exceeds {MAX_RECORD_BYTES}"


def test_free_text_is_bounded() -> None:
    ok = event(index=1, type="misdeal", data={"reason": "x" * MAX_TEXT_LENGTH})
    assert isinstance(parse_record(orjson.dumps(ok), "x"), ParsedEvent)
    long = event(index=1, type="misdeal", data={"reason": "x" * (MAX_TEXT_LENGTH + 1)})
    assert reason_of(orjson.dumps(long)) == (
        "schema: Expected `str` of length <= 1000 - at `$.data.reason`")


def test_seats_are_bounded() -> None:
    started = event(index=3)
    seats = [{"seat": 1 + s % MAX_SEATS, "player_id": f"P{s}", "stack": 1}
             for s in range(MAX_SEATS + 1)]
    started["data"]["seats"] = seats
    assert reason_of(orjson.dumps(started)) == (
        "schema: Expected `array` of length <= 64 - at `$.data.seats`")
    started["data"]["seats"] = seats[:MAX_SEATS]
    assert isinstance(parse_record(orjson.dumps(started), "x"), ParsedEvent)


def test_card_lists_are_bounded() -> None:
    e = event(index=1, type="stub_reshuffled", data={"cards": ["As"] * 53, "reason": "x"})
    assert reason_of(orjson.dumps(e)) == (
        "schema: Expected `array` of length <= 52 - at `$.data.cards`")


def test_paytable_names_are_bounded() -> None:
    e = event(index=0)
    e["data"]["paytables"] = {"flush_bonus": {"x" * 65: 1}}
    assert reason_of(orjson.dumps(e)) == (
        "schema: Expected `str` of length <= 64 - at `key` in `$.data.paytables[...]`")


# ---------------------------------------------------------------- per-table state


def test_designated_player_offers_between_hands_are_bounded_latest_kept() -> None:
    events = hcf_stream(hands=1)
    runner = EmbeddedRunner(PROFILES, "python")  # the reference's state (native: tests/unit/native)
    for line in lines(events[:3]):
        runner.feed(line, "x")
    last = events[2]  # continue the chain by hand, offer after offer
    assert isinstance(runner.impl, ReferenceRunner)
    state = runner.impl.states["T1"]
    for i in range(MAX_OFFERS + 6):
        offer = copy.deepcopy(last)
        offer.update(type="designated_player_offer", seq=last["seq"] + 1,
                     event_id=f"00000000-0000-4000-8000-{i:012d}",
                     prev_hash=state.last_hash, data={"seat": 1 + i % 3, "accepted": False})
        runner.feed(orjson.dumps(offer), "offer")
        last = offer
    assert len(state.offers) == MAX_OFFERS
    assert state.offers[-1] == (1 + (MAX_OFFERS + 5) % 3, False)


def test_a_hand_flooded_with_conflicts_is_closed_at_the_bound(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Events not applied (conflicts) add findings, not events, to the hand: counted
    together, past the bound the hand cannot be adjudicated (with the bound at 10)."""
    monkeypatch.setattr(table, "MAX_HAND_EVENTS", 10)
    events = hcf_stream(hands=1)
    runner = EmbeddedRunner(PROFILES, "python")  # the bound patched is the reference's
    for line in lines(events[:5]):  # hand 1 open with hand_started and the ante
        runner.feed(line, "x")
    records = []
    for i in range(12):
        forged = copy.deepcopy(events[4])
        forged["event_id"] = f"00000000-0000-4000-8000-{i:012d}"
        records += runner.feed(orjson.dumps(forged), "forged").records
    assert [(r.hand_id, r.status) for r in records] == [("T1-000001", "rejected")]
    assert records[0].findings[-1].message == (
        "hand T1-000001 cannot be adjudicated: hand exceeded 10 events and findings")
    # 2 events + 9 SEQ_CONFLICT findings = 11 > 10
    assert [f.code for f in records[0].findings].count("SEQ_CONFLICT") == 9
