"""Hash-chain verification recomputed from the log (SURV-9)."""

from __future__ import annotations

import random
from typing import Any

import orjson

from services.adjudicator.intake import ParsedEvent, parse_record
from services.events.stream import TableStream
from services.reports.chain import verify_chain
from services.reports.replay import LoggedEvent
from services.simulator.handbuilder import table_config


def _raw_stream(n: int) -> list[dict[str, Any]]:
    stream = TableStream("T9", random.Random(3))
    stream.emit("table_configured", table_config("russian"))
    for i in range(n - 1):
        stream.emit("dealer_changed", {"dealer_id": f"d{i}"})
    return stream.events


def _logged(raw: list[dict[str, Any]]) -> list[LoggedEvent]:
    out = []
    for i, event in enumerate(raw, start=1):
        parsed = parse_record(orjson.dumps(event), f"line {i}")
        assert isinstance(parsed, ParsedEvent)
        out.append(LoggedEvent(parsed.event, parsed.hash, i))
    return out


def test_intact_chain_is_verified() -> None:
    logged = _logged(_raw_stream(6))
    check = verify_chain(logged[2:5], logged[1], logged[5])
    assert check.verified and not check.broken
    assert [link.seq for link in check.links] == [3, 4, 5]
    assert check.first_prev_hash == logged[1].hash
    assert check.last_hash == logged[4].hash
    assert check.closing_ok is True


def test_genesis_event() -> None:
    logged = _logged(_raw_stream(2))
    check = verify_chain(logged[:1], None, logged[1])
    assert check.verified and check.links[0].note == "first event of the table (genesis)"


def test_altered_event_breaks_the_next_link() -> None:
    """seq 4's body is changed after hashing: seq 5's prev_hash no longer matches."""
    raw = _raw_stream(6)
    raw[3]["data"]["dealer_id"] = "someone-else"
    logged = _logged(raw)
    check = verify_chain(logged[2:5], logged[1], logged[5])
    assert not check.verified
    assert [link.seq for link in check.broken] == [5]
    assert "seq 4 was altered" in check.broken[0].note


def test_altered_last_event_is_caught_by_its_successor() -> None:
    raw = _raw_stream(6)
    raw[4]["data"]["dealer_id"] = "someone-else"
    logged = _logged(raw)
    check = verify_chain(logged[2:5], logged[1], logged[5])
    assert not check.broken and check.closing_ok is False and not check.verified


def test_missing_event_is_a_gap() -> None:
    logged = _logged(_raw_stream(6))
    check = verify_chain([logged[2], logged[4]], logged[1], logged[5])
    assert [link.seq for link in check.broken] == [5]
    assert check.broken[0].note == ("seq 5 follows seq 3: seq 4 missing from the log, so its "
                                    "prev_hash cannot be checked")


def test_a_missing_successor_is_a_gap_not_an_altered_last_event() -> None:
    """The hand's events are seq 3-4; seq 5 (its hand_ended, say) is missing and seq 6
    follows. The verdict said seq 4 "was altered or is not the one the table sent", when
    nothing was changed: an event is missing (QA). Two missing: named as a range."""
    logged = _logged(_raw_stream(8))
    check = verify_chain(logged[2:4], logged[1], logged[5])
    assert not check.broken and check.closing_ok is False and not check.verified
    assert check.closing_note == ("the next event in the log is seq 6: seq 5 missing from "
                                  "the log, so nothing confirms the hash of seq 4")
    check = verify_chain(logged[2:4], logged[1], logged[6])
    assert "seq 5..6 missing" in check.closing_note


def test_last_event_of_the_log_is_not_yet_confirmed() -> None:
    logged = _logged(_raw_stream(4))
    check = verify_chain(logged[2:4], logged[1], None)
    assert not check.broken and check.closing_ok is None and not check.verified
