"""Common GEN checks (integrity.py) on hand-built hands."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from services.adjudicator.integrity import (
    chips_during_hand,
    common_findings,
    deck_integrity,
    stacks_never_negative,
)
from services.events.contract import Event, Finding
from services.games.profile import gen_section
from services.simulator.handbuilder import EventSpec, build_hand, table_config
from tests.profiles import HOUSE

PROFILE = HOUSE
GEN = gen_section(PROFILE)


def _hand(events: Sequence[EventSpec], deck: int = 32,
          seats: Sequence[tuple[int, int]] = ((1, 100), (2, 100), (3, 100)),
          dp: int | None = None) -> tuple[Event, ...]:
    started = ("hand_started", {"button": 3, "designated_player": dp, "dealer_id": "D1",
                                "seats": [{"seat": s, "player_id": f"P{s}", "stack": st}
                                          for s, st in seats], "deck": deck})
    return build_hand(table_config("draw7a", structure="fixed"),
                      [started, *events, ("hand_ended", {})]).events


def deal(seat: int, card: str) -> EventSpec:
    return ("card_dealt", {"to": "seat", "seat": seat, "card": card, "face_up": False})


def codes(found: Iterable[Finding]) -> list[str]:
    return [f.code for f in found]


def test_reshuffled_discards_may_be_dealt_again() -> None:
    """Seat 1 discards 7c; the discards are reshuffled; seat 2 draws 7c: legitimate."""
    events = _hand([deal(1, "7c"), deal(2, "8c"),
                    ("draw", {"seat": 1, "discarded": ["7c"], "received": ["9c"]}),
                    ("stub_reshuffled", {"cards": ["7c"], "reason": "stub exhausted"}),
                    ("draw", {"seat": 2, "discarded": ["8c"], "received": ["7c"]})])
    assert deck_integrity(events, GEN) == []


def test_reshuffle_naming_a_held_card_is_a_finding_and_the_card_stays_out() -> None:
    """9c is still in seat 1's hand when 'reshuffled'; seat 2 then receives 9c: both the
    reshuffle and the duplicate are findings (GEN-1)."""
    events = _hand([deal(1, "9c"), deal(2, "8c"),
                    ("stub_reshuffled", {"cards": ["9c"], "reason": "stub exhausted"}),
                    ("draw", {"seat": 2, "discarded": ["8c"], "received": ["9c"]})])
    assert codes(deck_integrity(events, GEN)) == ["RESHUFFLED_CARD_IN_PLAY", "DUPLICATE_CARD"]


def test_foreign_card_for_the_short_deck() -> None:
    """A 2c in a 32-card (7-A) game is foreign."""
    assert codes(deck_integrity(_hand([deal(1, "2c")]), GEN)) == ["FOREIGN_CARD"]


def test_chips_received_during_the_hand_can_be_paid_on() -> None:
    """Seat 2 starts with 10, is paid 30 points by seat 1, then pays 35 to seat 3:
    10 + 30 - 35 = 5 >= 0, no GEN-2 finding. Seat 1 (100) pays 30: fine."""
    events = _hand([("collection", {"seat": 1, "amount": 30, "to": "seat:2", "kind": "points"}),
                    ("collection", {"seat": 2, "amount": 35, "to": "seat:3", "kind": "points"})],
                   seats=((1, 100), (2, 10), (3, 100)))
    assert stacks_never_negative(events, GEN) == []


def test_paying_more_than_the_stack_is_a_finding() -> None:
    """Seat 2 has 10 and pays 35: 25 short (GEN-2)."""
    events = _hand([("collection", {"seat": 2, "amount": 35, "to": "seat:3", "kind": "points"})],
                   seats=((1, 100), (2, 10), (3, 100)))
    found = stacks_never_negative(events, GEN)
    assert [(f.code, f.seat, f.amount) for f in found] == [("WAGER_OVER_STACK", 2, 25)]


def test_banker_collections_fund_the_banker() -> None:
    """DP seat 3 has 5; collects a 20 ante from seat 1, then pays seat 2 a 20 win: the DP's
    stack is 5 + 20 - 20 = 5, never short, no finding."""
    events = _hand([("wager", {"seat": 1, "kind": "ante", "amount": 20}),
                    ("wager", {"seat": 2, "kind": "ante", "amount": 20}),
                    ("wager_collected", {"seat": 1, "kind": "ante", "amount": 20,
                                         "to": "designated"}),
                    ("payout", {"seat": 2, "amount": 20, "source": "designated",
                                "kind": "win"}),
                    ("rake_collected", {"seat": 3, "amount": 1, "from": "stack"})],
                   seats=((1, 100), (2, 100), (3, 5)), dp=3, deck=52)
    assert stacks_never_negative(events, GEN) == []


def test_dealing_a_card_twice_without_a_reshuffle_is_a_duplicate() -> None:
    """GEN-1: 9c to seat 1, then 9c again to seat 2, nothing went back to the stub."""
    events = _hand([deal(1, "9c"), deal(2, "9c")])
    assert codes(deck_integrity(events, GEN)) == ["DUPLICATE_CARD"]


def test_card_moved_back_to_the_stub_may_come_again_but_a_burned_one_may_not() -> None:
    """GEN-1 with card_moved (TH-5/TH-6 corrections): 8c dealt then moved to the stub can
    be dealt again; 9c moved to burn is still out of the stub, so dealing it is a
    duplicate. Exactly one finding, for 9c."""
    events = _hand([deal(1, "8c"), deal(1, "9c"),
                    ("card_moved", {"card": "8c", "from": "seat:1", "to": "stub"}),
                    ("card_moved", {"card": "9c", "from": "seat:1", "to": "burn"}),
                    deal(2, "8c"), deal(2, "9c")])
    found = deck_integrity(events, GEN)
    assert codes(found) == ["DUPLICATE_CARD"] and "9c" in found[0].message


def test_chips_added_during_the_hand_is_gen3_and_cash_is_gen4() -> None:
    """GEN-3: seat 1 adds 50 between hand_started and hand_ended; GEN-4: seat 2 puts 20
    cash in play. One finding each, with the seat and signed amount; the cash is GEN-4
    only (at the gen.cash_in_play_severity), not also a GEN-3 finding."""
    events = _hand([("chips_changed", {"seat": 1, "amount": 50, "kind": "add"}),
                    ("chips_changed", {"seat": 2, "amount": 20, "kind": "cash_in_play"}),
                    ("chips_changed", {"seat": 3, "amount": -30, "kind": "remove"})])
    found = chips_during_hand(events, GEN)
    assert [(f.code, f.rule, f.seat, f.amount, f.severity) for f in found] == [
        ("CHIPS_DURING_HAND", "GEN-3", 1, 50, GEN.chips_during_hand_severity),
        ("CASH_IN_PLAY", "GEN-4", 2, 20, GEN.cash_in_play_severity),
        ("CHIPS_DURING_HAND", "GEN-3", 3, -30, GEN.chips_during_hand_severity),
    ]


def test_wager_larger_than_the_stack_is_gen2() -> None:
    """GEN-2: seat 1 has 10, wagers an ante of 8 then raises 5: 13 > 10, 3 short."""
    events = _hand([("wager", {"seat": 1, "kind": "ante", "amount": 8}),
                    ("wager", {"seat": 1, "kind": "raise", "amount": 5})],
                   seats=((1, 10), (2, 100), (3, 100)), deck=52)
    found = stacks_never_negative(events, GEN)
    assert [(f.code, f.rule, f.seat, f.amount) for f in found] == [
        ("WAGER_OVER_STACK", "GEN-2", 1, 3)]


def test_hand_under_an_unauthorised_configuration_is_gen5() -> None:
    """GEN-5: the table's configuration names no supervisor: one finding on the hand."""
    config = table_config("draw7a", structure="fixed", authorized_by=None)
    started = ("hand_started", {"button": 1, "designated_player": None, "dealer_id": "D1",
                                "seats": [{"seat": 1, "player_id": "P1", "stack": 100}],
                                "deck": 32})
    hand = build_hand(config, [started, ("hand_ended", {})])
    found = common_findings(hand, PROFILE)
    assert [(f.code, f.rule) for f in found] == [("UNAUTHORISED_CONFIGURATION", "GEN-5")]
    authorised = build_hand(table_config("draw7a", structure="fixed"),
                            [started, ("hand_ended", {})])
    assert common_findings(authorised, PROFILE) == []
