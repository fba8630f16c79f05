"""The recorded side (events.md "How chips move"), on hand-built hands."""

from __future__ import annotations

from services.adjudicator.recorded import RecordedHand, record_hand
from services.simulator.handbuilder import EventSpec, build_hand, table_config

STARTED = ("hand_started", {"button": 3, "designated_player": 3, "dealer_id": "D1",
                            "seats": [{"seat": 1, "player_id": "P1", "stack": 100},
                                      {"seat": 2, "player_id": "P2", "stack": 100},
                                      {"seat": 3, "player_id": "P3", "stack": 500}],
                            "deck": 52})


def _rec(*events: EventSpec) -> RecordedHand:
    hand = build_hand(table_config("hcf"), [STARTED, *events, ("hand_ended", {})])
    return record_hand(hand.events)


def test_table_game_flow_by_hand() -> None:
    """Seat 1: ante 10 + raise 10, wins 10+10 from the DP, wagers return: net +20.
    Seat 2: ante 10, folds, DP collects it: net -10. Seat 1 pays rake 1 from its stack.
    DP (seat 3): -20 + 10 = -10. House +1. Sum: 20-1 -10 -10 +1 = 0."""
    r = _rec(("wager", {"seat": 1, "kind": "ante", "amount": 10}),
             ("wager", {"seat": 2, "kind": "ante", "amount": 10}),
             ("wager", {"seat": 1, "kind": "raise", "amount": 10}),
             ("wager_collected", {"seat": 2, "kind": "ante", "amount": 10, "to": "designated"}),
             ("payout", {"seat": 1, "amount": 20, "source": "designated", "kind": "win"}),
             ("rake_collected", {"seat": 1, "amount": 1, "from": "stack"}))
    assert r.net == {1: 19, 2: -10, 3: -10}
    assert r.house == 1
    assert r.rake == {"1": 1}
    assert r.findings == []
    returns = [m for m in r.movements if m.kind == "layout_return"]
    assert [(m.from_, m.to, m.amount) for m in returns] == [("layout:1", "stack:1", 20)]


def test_rake_refund_reduces_recorded_rake() -> None:
    """Rake 1 taken from seat 2, then refunded by the house: rake 0, net 0 (HCF-12)."""
    r = _rec(("rake_collected", {"seat": 2, "amount": 1, "from": "stack"}),
             ("payout", {"seat": 2, "amount": 1, "source": "house", "kind": "refund"}))
    assert r.rake == {"2": 0}
    assert r.net[2] == 0 and r.house == 0
    assert [m.kind for m in r.movements] == ["rake", "rake_refund"]


def test_house_refund_beyond_the_rake_paid_is_an_ordinary_payout() -> None:
    """Seat 2 paid no rake; a 3-chip house 'refund' is a payout (a MISPAY if not due)."""
    r = _rec(("payout", {"seat": 2, "amount": 3, "source": "house", "kind": "refund"}))
    assert [m.kind for m in r.movements] == ["payout"]
    assert r.net[2] == 3 and r.house == -3


def test_payouts_above_the_pot_are_a_finding_with_a_positive_amount() -> None:
    """Seat 1 bets 30 into the pot and 35 is paid out: 5 chips more than the pot held
    (issue #21: this read "-5 chips were left in the pot")."""
    r = _rec(("action", {"seat": 1, "action": "bet", "amount": 30}),
             ("payout", {"seat": 2, "amount": 35, "source": "pot", "kind": "pot"}))
    assert [(f.code, f.rule, f.amount) for f in r.findings] == [("POT_OVERDRAWN", "GEN-8", 5)]
    assert "5 chips more were paid out of the pot" in r.findings[0].message


def test_pot_left_with_chips_is_a_finding() -> None:
    """Seat 1 bets 30 into the pot, only 20 is paid out: 10 left in the pot (GEN-8)."""
    r = _rec(("action", {"seat": 1, "action": "bet", "amount": 30}),
             ("payout", {"seat": 2, "amount": 20, "source": "pot", "kind": "pot"}))
    assert [f.code for f in r.findings] == ["POT_NOT_EMPTY"]
    assert r.findings[0].amount == 10
    assert r.net == {1: -30, 2: 20, 3: 0}


def test_collecting_more_than_the_layout_holds_is_a_finding() -> None:
    """Ante 5 on the layout, 8 collected: layout overdrawn by 3."""
    r = _rec(("wager", {"seat": 1, "kind": "ante", "amount": 5}),
             ("wager_collected", {"seat": 1, "kind": "ante", "amount": 8, "to": "house"}))
    assert [(f.code, f.seat, f.amount) for f in r.findings] == [("LAYOUT_OVERDRAWN", 1, 3)]


def test_point_payment_between_seats() -> None:
    """Chinese Poker style: seat 1 pays seat 2 six points of 5 = 30 chips."""
    r = _rec(("collection", {"seat": 1, "amount": 30, "to": "seat:2", "kind": "points"}))
    assert r.net == {1: -30, 2: 30, 3: 0}
    assert [(m.from_, m.to) for m in r.movements] == [("stack:1", "stack:2")]
