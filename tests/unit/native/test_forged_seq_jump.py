"""A forged seq jump must not make a table forget the genuine events it skipped (QA).

The log: ``pitwatch simulate --game hcf --tables 2 --hands 20`` (seed 1), whose line 22 is
T002's ante of seat 3 in hand T002-000001 at seq 13 (event 014fc288-…). Forged, that line
claims seq 113 (+100) or seq 2**53 - 1; nothing else changes. Before the missing seqs were
kept as ranges, a gap kept only its 64 highest seqs: the genuine T002 events filling the
low end (35 of them at +100; 1,327 at 2**53 - 1, every later T002 event) were STALE_EVENT
and never applied, and honest hands had false money findings or were never judged.

Now the gap seq 13..112 (or 13..2**53 - 2) is one range, so each genuine event filling it
is REORDERED: applied, and checked against its known neighbours. What stays, and why:

- T002-000001 holds the forged event itself: seat 3's ante at seq 113 is after the first
  card (PAST_POSTING, then WAGER_NOT_IN_GAME for its raise, MISPAY x2, RAKE_OVER), with the
  SEQ_GAP it made. Those findings are true of the log as received.
- +100 only: seq 113 is really T002-000002's card to seat 1. It comes second to the
  forged event at seq 113, so it is a SEQ_CONFLICT, not applied (the two cannot be told
  apart): seat 1 has 6 cards and the hand is dead (CARD_COUNT, DEAD_HAND, DEAD_HAND_SETTLED,
  MISPAY x5, RAKE_OVER x6). Its neighbours are CHAIN_BROKEN: seq 112 (the forged event's
  prev_hash is seq 12's hash, where seq 112's successor should name seq 112) and seq 114
  (its prev_hash names the genuine seq 113, the head is the forged one).
- 2**53 - 1 only: every later T002 event is REORDERED (the head stays at 2**53 - 1), a
  warning finding of its hand; each T002 hand from T002-000002 on is judged with exactly
  the money the clean run gives and no other new finding.

Each expected count is counted from the log (the input), not from an engine.
"""

from __future__ import annotations

import collections
from typing import Any

import orjson

from services.simulator.run import simulate
from tests.profiles import HOUSE
from tests.unit.native.test_runs_differential import assert_same

FORGED_ID = "014fc288-e5c9-412d-b97c-d6374bdc8e10"


def qa_log() -> list[dict[str, Any]]:
    events = simulate(["hcf"], 2, 20, 1, frozenset(), profile=HOUSE).events
    assert (events[21]["event_id"], events[21]["table_id"], events[21]["seq"]) == (
        FORGED_ID, "T002", 13)
    return events


def forge(events: list[dict[str, Any]], seq: int) -> list[bytes]:
    raw = [orjson.dumps(e) for e in events]
    raw[21] = orjson.dumps({**events[21], "seq": seq})
    return raw


def records_by_hand(records: list[bytes]) -> dict[str, dict[str, Any]]:
    return {r["hand_id"]: r for r in map(orjson.loads, records)}


def codes(record: dict[str, Any]) -> collections.Counter[str]:
    return collections.Counter(f["code"] for f in record["findings"])


def alert_codes(result: dict[str, list[Any]]) -> collections.Counter[tuple[str, int]]:
    return collections.Counter((a["code"], a["seq"]) for a in map(orjson.loads, result["alerts"]))


def test_a_jump_of_100_loses_no_genuine_event_but_the_one_whose_seq_it_took() -> None:
    events = qa_log()
    clean = records_by_hand(assert_same([orjson.dumps(e) for e in events])["records"])
    result = assert_same(forge(events, 113))  # both engines, byte-identical
    assert result["dlq"] == []
    t002 = [e["seq"] for e in events if e["table_id"] == "T002"]
    late = [s for s in t002 if 14 <= s <= 112]
    assert len(late) == 99
    expected = collections.Counter({("SEQ_GAP", 113): 1, ("SEQ_CONFLICT", 113): 1,
                                    ("CHAIN_BROKEN", 112): 1, ("CHAIN_BROKEN", 114): 1})
    expected.update(("REORDERED", s) for s in late)
    assert alert_codes(result) == expected  # no STALE_EVENT: every late one is applied
    hands = records_by_hand(result["records"])
    assert len(hands) == 40
    changed = sorted(h for h in hands if hands[h] != clean[h])
    assert changed == ["T002-000001", "T002-000002"]
    first, second = hands["T002-000001"], hands["T002-000002"]
    # Hand 1 is seq 10..96 as in the clean run; its late events are seq 14..96 (83).
    assert (first["first_seq"], first["last_seq"]) == (10, 96) == (
        clean["T002-000001"]["first_seq"], clean["T002-000001"]["last_seq"])
    assert codes(first) == {"REORDERED": 83, "SEQ_GAP": 1, "PAST_POSTING": 1,
                            "WAGER_NOT_IN_GAME": 1, "MISPAY": 2, "RAKE_OVER": 1}
    # Hand 2 starts at seq 99 (late, before it is open: no finding); 100..112 are its own.
    assert codes(second) == {"REORDERED": 13, "SEQ_CONFLICT": 1, "CHAIN_BROKEN": 2,
                             "CARD_COUNT": 1, "DEAD_HAND": 1, "DEAD_HAND_SETTLED": 1,
                             "MISPAY": 5, "RAKE_OVER": 6}


def test_a_jump_to_2_53_minus_1_judges_every_hand_with_its_genuine_events() -> None:
    events = qa_log()
    clean = records_by_hand(assert_same([orjson.dumps(e) for e in events])["records"])
    result = assert_same(forge(events, 2**53 - 1))
    assert result["dlq"] == []
    late = [e["seq"] for e in events if e["table_id"] == "T002" and e["seq"] > 13]
    assert len(late) == 1327
    expected = collections.Counter({("SEQ_GAP", 2**53 - 1): 1})
    expected.update(("REORDERED", s) for s in late)
    assert alert_codes(result) == expected
    hands = records_by_hand(result["records"])
    assert len(hands) == 40
    assert [h for h in hands if hands[h] != clean[h]] == [
        f"T002-{n:06d}" for n in range(1, 21)]
    for n in range(2, 21):
        hand, honest = hands[f"T002-{n:06d}"], clean[f"T002-{n:06d}"]
        own = [s for s in late if hand["first_seq"] < s <= hand["last_seq"]]
        assert codes(hand) - codes(honest) == {"REORDERED": len(own)}, n
        for key in ("expected", "recorded", "movements", "first_seq", "last_seq", "last_hash"):
            assert hand[key] == honest[key], (n, key)
    assert codes(hands["T002-000001"]) - codes(clean["T002-000001"]) == {
        "REORDERED": 83, "SEQ_GAP": 1, "PAST_POSTING": 1, "WAGER_NOT_IN_GAME": 1,
        "MISPAY": 2, "RAKE_OVER": 1}

