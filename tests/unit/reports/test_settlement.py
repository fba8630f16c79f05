"""Expected versus recorded per seat and per wager, from a record's movements."""

from __future__ import annotations

import uuid

import pytest

from services.events.contract import AdjudicationRecord, Finding, Movement, SideResult
from services.reports.settlement import seat_lines, seat_money
from tests.unit.reports.logs import GAMES, simulated


def _id(n: int) -> str:
    return str(uuid.UUID(int=n, version=4))


def _m(n: int, src: str, dst: str, amount: int, kind: str) -> Movement:
    return Movement(event_id=_id(n), seq=n, from_=src, to=dst, amount=amount, kind=kind)


def _record() -> AdjudicationRecord:
    """Seat 1: Ante 10 + Bet 20, wins 20 (paid by the house), layout returned 30 -> +20.
    Seat 2: Ante 10 collected by the house -> -10; the table paid seat 2 nothing, but the
    rules give it +10 (MISPAY amount -20). Seat 3: bets 5 into a pot, pays 1 rake from its
    stack, pot refunded 5 -> -1. House: +10 - 20 + 1 = -9."""
    movements = [
        _m(1, "stack:1", "layout:1", 10, "wager"), _m(2, "stack:1", "layout:1", 20, "wager"),
        _m(3, "stack:2", "layout:2", 10, "wager"), _m(4, "house", "stack:1", 20, "payout"),
        _m(5, "layout:2", "house", 10, "wager_collected"),
        _m(6, "stack:3", "pot", 5, "bet"), _m(7, "stack:3", "house", 1, "rake"),
        _m(8, "pot", "stack:3", 5, "payout"), _m(9, "layout:1", "stack:1", 30, "layout_return"),
    ]
    return AdjudicationRecord(
        v=1, table_id="T1", hand_id="H1", game="russian", status="discrepancy",
        rule_profile="house-v1",
        expected=SideResult(net={"1": 20, "2": 10, "3": -1, "house": -29}, rake={"3": 1}),
        recorded=SideResult(net={"1": 20, "2": -10, "3": -1, "house": -9}, rake={"3": 1}),
        findings=[Finding(code="MISPAY", rule="RP-6", severity="critical", seat=2,
                          amount=-20, message="m")],
        players={"1": "P1", "2": "P2", "3": "P3"}, movements=movements)


def test_seat_lines_hand_computed() -> None:
    lines = {line.who: line for line in seat_lines(_record(), {1: "RP-7"})}
    assert lines["seat 1"].rule == "RP-7" and lines["seat 1"].difference == 0
    assert lines["seat 2"].rule == "RP-6"  # from the MISPAY finding
    assert lines["seat 2"].difference == -20
    s3 = lines["seat 3"]
    assert (s3.expected_before_rake, s3.expected_rake, s3.expected_net) == (0, 1, -1)
    assert (s3.recorded_before_rake, s3.recorded_rake, s3.recorded_net) == (0, 1, -1)
    assert lines["house"].expected_net == -29 and lines["house"].recorded_net == -9
    assert lines["house"].difference == 20


def test_seat_money_hand_computed() -> None:
    money = {m.seat: m for m in seat_money(_record())}
    one = money[1]
    assert [(w.kind, w.placed, w.collected) for w in one.wagers] == [("wager", 30, 0)]
    assert one.returned == 30
    assert [(p.what, p.amount) for p in one.payments] == [("payout", 20)]
    assert one.stack_change == 20
    assert money[2].stack_change == -10 and money[2].wagers[0].collected == 10
    assert money[2].returned == 0
    assert [(p.what, p.amount) for p in money[3].payments] == [
        ("bet", -5), ("rake", -1), ("payout", 5)]
    assert money[3].stack_change == -1


@pytest.mark.parametrize("game", GAMES)
def test_stack_change_equals_recorded_net_on_simulated_hands(game: str) -> None:
    """Invariant: what the per-wager view adds up to is the record's recorded net."""
    _events, records = simulated(game)
    checked = 0
    for record in records:
        if record.recorded is None:
            continue
        for money in seat_money(record):
            assert money.stack_change == record.recorded.net[str(money.seat)], record.hand_id
            checked += 1
    assert checked > 0
