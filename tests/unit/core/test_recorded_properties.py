"""Property: the recorded side and the ledger agree and conserve chips (GEN-8).

For any sequence of chip-moving events, the record's movements book as balanced
double entry (every posting pair sums to zero), and the recorded nets plus the house
sum to zero exactly when no chips are left in the pot or taken beyond a layout, which
are then reported as GEN-8 findings with those amounts; the ledger books a hand only when
no layout is overdrawn and the pot ends empty.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from services.adjudicator.recorded import record_hand
from services.events.contract import AdjudicationRecord, SideResult
from services.ledger.entries import build_entry
from services.simulator.handbuilder import build_hand, table_config

SEATS = (1, 2, 3)
STARTED = ("hand_started", {"button": 3, "designated_player": 3, "dealer_id": "D1",
                            "seats": [{"seat": s, "player_id": f"P{s}", "stack": 1000}
                                      for s in SEATS], "deck": 52})

seat = st.sampled_from(SEATS)
amount = st.integers(min_value=1, max_value=50)
target = st.sampled_from(["designated", "house", "seat:1", "seat:2", "seat:3"])
chip_event = st.one_of(
    st.builds(lambda s, a: ("wager", {"seat": s, "kind": "ante", "amount": a}), seat, amount),
    st.builds(lambda s, a: ("action", {"seat": s, "action": "bet", "amount": a}), seat, amount),
    st.builds(lambda s, a, t: ("wager_collected", {"seat": s, "kind": "ante", "amount": a,
                                                   "to": t if t in ("designated", "house")
                                                   else "house"}), seat, amount, target),
    st.builds(lambda s, a, src, k: ("payout", {"seat": s, "amount": a, "source": src,
                                               "kind": k}),
              seat, amount, st.sampled_from(["designated", "house", "pot", "seat:1"]),
              st.sampled_from(["win", "pot", "refund"])),
    st.builds(lambda s, a, t: ("collection", {"seat": s, "amount": a, "to": t,
                                              "kind": "points"}), seat, amount, target),
    st.builds(lambda s, a: ("rake_collected", {"seat": s, "amount": a, "from": "stack"}),
              seat, amount),
    st.builds(lambda a: ("rake_collected", {"seat": None, "amount": a, "from": "pot"}), amount),
)


@settings(max_examples=150, deadline=None)
@given(events=st.lists(chip_event, max_size=12))
def test_recorded_side_conserves_or_says_why_and_books_balanced(
    events: list[tuple[str, dict[str, Any]]],
) -> None:
    hand = build_hand(table_config("hcf"), [STARTED, *events, ("hand_ended", {})])
    recorded = record_hand(hand.events)
    explained = sum(f.amount or 0 for f in recorded.findings
                    if f.code in ("POT_NOT_EMPTY", "POT_OVERDRAWN", "LAYOUT_OVERDRAWN"))
    left_in_pot = sum(f.amount or 0 for f in recorded.findings if f.code == "POT_NOT_EMPTY")
    pot_overdrawn = sum(f.amount or 0 for f in recorded.findings if f.code == "POT_OVERDRAWN")
    overdrawn = sum(f.amount or 0 for f in recorded.findings if f.code == "LAYOUT_OVERDRAWN")
    # Chips left in the pot are missing from the stacks and house; chips paid beyond the
    # pot or taken beyond a layout were created out of it. Every amount is positive.
    assert sum(recorded.net.values()) + recorded.house == overdrawn + pot_overdrawn - left_in_pot
    assert explained == left_in_pot + pot_overdrawn + overdrawn
    assert all((f.amount or 0) > 0 for f in recorded.findings
               if f.code in ("POT_NOT_EMPTY", "POT_OVERDRAWN", "LAYOUT_OVERDRAWN"))
    net = {str(s): v for s, v in sorted(recorded.net.items())} | {"house": recorded.house}
    record = AdjudicationRecord(
        v=1, table_id="T1", hand_id=hand.hand_id, game="hcf", status="discrepancy",
        rule_profile="house-v1", expected=None,
        recorded=SideResult(net=net, rake=recorded.rake), findings=recorded.findings,
        players={str(s): f"P{s}" for s in SEATS}, movements=recorded.movements,
        ended_at="2024-01-01T00:00:00Z")
    entry = build_entry(record)
    moves = recorded.movements or []
    pot_at_end = (sum(m.amount for m in moves if m.to == "pot")
                  - sum(m.amount for m in moves if m.from_ == "pot"))
    if entry.refusal is None:
        assert sum(line.amount for line in entry.postings) == 0
        assert len(entry.postings) == 2 * len(recorded.movements or [])
        assert pot_at_end == 0  # the ledger books no pot left holding or owing chips
    else:
        # Refused: an overdrawn layout (booked chips that were never wagered), or a pot
        # not empty at hand end (chips left in it, or paid out of it beyond what it got).
        assert overdrawn > 0 or pot_at_end != 0
        assert overdrawn > 0 or left_in_pot + pot_overdrawn > 0
