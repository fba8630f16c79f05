"""Hand-built adjudication records for the ledger tests (unit and PostgreSQL).

Every record here is written out movement by movement, the way the adjudicator would
emit it, so each test can work its expected postings out by hand from these lines.
"""

from __future__ import annotations

import hashlib
import uuid
from typing import Literal

from services.events.contract import AdjudicationRecord, Finding, Movement, RakeMode

DAY_ONE = "2024-05-01T21:30:00Z"
DAY_TWO = "2024-05-02T00:00:01.5Z"


def event_id(number: int) -> str:
    """A readable, deterministic event UUID: event 7 is 00000000-...-000000000007."""
    return str(uuid.UUID(int=number))


def move(number: int, source: str, target: str, amount: int, kind: str) -> Movement:
    """A movement of event ``number`` (its seq is the same number)."""
    return Movement(
        event_id=event_id(number), seq=number, from_=source, to=target, amount=amount, kind=kind
    )


def record(
    hand_id: str,
    movements: list[Movement] | None,
    *,
    table_id: str = "T1",
    players: dict[str, str] | None = None,
    rake_mode: RakeMode | None = "players",
    ended_at: str | None = DAY_ONE,
    status: Literal["ok", "discrepancy", "dead", "rejected"] = "ok",
    findings: list[Finding] | None = None,
) -> AdjudicationRecord:
    return AdjudicationRecord(
        v=1,
        table_id=table_id,
        hand_id=hand_id,
        game="hcf",
        status=status,
        rule_profile="house-v1",
        expected=None,
        recorded=None,
        findings=findings or [],
        players={"1": "alice", "2": "carol", "3": "bob"} if players is None else players,
        dealer_id="D7",
        rake_mode=rake_mode,
        ended_at=ended_at,
        first_seq=1,
        last_seq=99,
        # Each hand ends at an event of its own (the ledger refuses a second hand with
        # chips ending at a booked hand's last event: GEN-8).
        last_hash=hashlib.sha256(hand_id.encode()).hexdigest(),
        movements=movements,
    )


def hcf_seat1_wins(hand_id: str = "T1-000001", ended_at: str = DAY_ONE) -> AdjudicationRecord:
    """HCF: seat 1 (alice) antes 5 and raises 5, beats the DP (seat 3, bob), who pays 10;
    mode ``players``: seat 1 pays 1 rake; at hand end the layout (10) goes back to seat 1.

    Postings (debit +, credit -), by hand:
      e1 wager          player:alice -5    layout:T1:1 +5
      e2 wager          player:alice -5    layout:T1:1 +5
      e3 payout         player:bob  -10    player:alice +10
      e4 rake           player:alice -1    house:rake   +1
      e5 layout_return  layout:T1:1 -10    player:alice +10
    Balances: alice -5-5+10-1+10 = +9, bob -10, layout 5+5-10 = 0, house:rake +1;
    9 - 10 + 0 + 1 = 0.
    """
    return record(
        hand_id,
        [
            move(1, "stack:1", "layout:1", 5, "wager"),
            move(2, "stack:1", "layout:1", 5, "wager"),
            move(3, "stack:3", "stack:1", 10, "payout"),
            move(4, "stack:1", "house", 1, "rake"),
            move(5, "layout:1", "stack:1", 10, "layout_return"),
        ],
        ended_at=ended_at,
    )


def hcf_dp_collects(hand_id: str = "T1-000002", ended_at: str = DAY_ONE) -> AdjudicationRecord:
    """HCF, mode ``designated``: seat 2 (carol) antes 5 and folds; the DP (seat 3, bob)
    collects the 5 from carol's layout and pays 2 rake for the two participants (1 each).

    Postings: e11 carol -5 / layout:T1:2 +5; e12 layout:T1:2 -5 / bob +5;
    e13 bob -2 / house:rake +2. Balances: carol -5, bob +5-2 = +3, house:rake +2,
    layout:T1:2 0; -5 + 3 + 2 = 0. Rake row: seat 3, bob, 2, mode designated.
    """
    return record(
        hand_id,
        [
            move(11, "stack:2", "layout:2", 5, "wager"),
            move(12, "layout:2", "stack:3", 5, "wager_collected"),
            move(13, "stack:3", "house", 2, "rake"),
        ],
        rake_mode="designated",
        ended_at=ended_at,
    )


def russian_house_hand(hand_id: str = "R1-000001", ended_at: str = DAY_ONE) -> AdjudicationRecord:
    """Russian Poker (house-banked, no rake): seat 1 (alice) wagers 10 and loses it to
    the house; seat 2 (carol) wagers 10, wins, the house pays 20 and her 10 comes back.

    Postings: e21 alice -10 / layout:R1:1 +10; e22 layout:R1:1 -10 / house:bank +10;
    e23 carol -10 / layout:R1:2 +10; e24 house:bank -20 / carol +20;
    e25 layout:R1:2 -10 / carol +10.
    Balances: alice -10, carol -10+20+10 = +20, house:bank +10-20 = -10, layouts 0.
    """
    return record(
        hand_id,
        [
            move(21, "stack:1", "layout:1", 10, "wager"),
            move(22, "layout:1", "house", 10, "wager_collected"),
            move(23, "stack:2", "layout:2", 10, "wager"),
            move(24, "house", "stack:2", 20, "payout"),
            move(25, "layout:2", "stack:2", 10, "layout_return"),
        ],
        table_id="R1",
        rake_mode="none",
        ended_at=ended_at,
    )


def holdem_pot_hand(hand_id: str = "H1-000001", ended_at: str = DAY_ONE) -> AdjudicationRecord:
    """Hold'em: seats 1 and 2 bet 10 each into the pot, 1 rake comes out of the pot
    (mode ``all``), seat 2 wins the remaining 19.

    Postings: e31 alice -10 / pot:H1 +10; e32 carol -10 / pot:H1 +10;
    e33 pot:H1 -1 / house:rake +1; e34 pot:H1 -19 / carol +19.
    Balances: alice -10, carol -10+19 = +9, pot 0, house:rake +1. Rake row: seat None.
    """
    return record(
        hand_id,
        [
            move(31, "stack:1", "pot", 10, "bet"),
            move(32, "stack:2", "pot", 10, "bet"),
            move(33, "pot", "house", 1, "rake"),
            move(34, "pot", "stack:2", 19, "payout"),
        ],
        table_id="H1",
        rake_mode="all",
        ended_at=ended_at,
    )
