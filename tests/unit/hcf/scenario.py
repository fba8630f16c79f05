"""Readable High Card Flush scenarios for the tests: a dealer's narration as events.

``deal({3: "As Ks 9s 5h 4d 3c 2c", 1: "..."}, dp=1)`` deals seven cards to each hand
clockwise from the left of the button (the designated player, who is a seat and receives
its cards as ``to: "seat"``), one card per hand per round, like the table does.
"""

from __future__ import annotations

from typing import Any

from services.adjudicator.adjudicate import adjudicate_hand
from services.events.contract import AdjudicationRecord
from services.games.model import HandInput
from services.simulator.handbuilder import EventSpec, build_hand, table_config
from tests.profiles import PROFILES

Spec = list[EventSpec]


def config(mode: str = "none", fee: int = 0, bonus_cap: int | None = None,
           min_wager: int = 1, max_wager: int = 1000, **extra: Any) -> dict[str, Any]:
    limits: dict[str, Any] = {"min_wager": min_wager, "max_wager": max_wager}
    if bonus_cap is not None:
        limits["bonus_cap_per_hand"] = bonus_cap
    return table_config("hcf", limits=limits, rake={"mode": mode, "fee": fee}, **extra)


def started(dp: int, stacks: dict[int, int], button: int | None = None) -> Spec:
    seats = [{"seat": s, "player_id": f"P{s}", "stack": st} for s, st in sorted(stacks.items())]
    return [("hand_started", {"button": dp if button is None else button,
                              "designated_player": dp, "dealer_id": "D1", "seats": seats,
                              "deck": 52})]


def wager(seat: int, kind: str, amount: int) -> Spec:
    return [("wager", {"seat": seat, "kind": kind, "amount": amount})]


def deal(hands: dict[int, str], dp: int) -> Spec:
    """Seven rounds, each clockwise from the seat left of the DP (the DP last)."""
    order = sorted(hands, key=lambda s: (s - dp - 1) % 1000)
    cards = {s: hands[s].split() for s in order}
    rounds = max(len(c) for c in cards.values())
    out: Spec = []
    for i in range(rounds):
        for s in order:
            if i < len(cards[s]):
                card = None if cards[s][i] == "??" else cards[s][i]
                out.append(("card_dealt", {"to": "seat", "seat": s, "card": card,
                                           "face_up": False}))
    return out


def fold(seat: int) -> Spec:
    return [("action", {"seat": seat, "action": "fold"})]


def raise_(seat: int, amount: int) -> Spec:
    return [("action", {"seat": seat, "action": "raise"}),
            ("wager", {"seat": seat, "kind": "raise", "amount": amount})]


def show(seat: int | str, cards: str) -> Spec:
    return [("showdown", {"seat": seat, "cards": cards.split()})]


def collect(seat: int, kind: str, amount: int) -> Spec:
    return [("wager_collected", {"seat": seat, "kind": kind, "amount": amount,
                                 "to": "designated"})]


def pay(seat: int, amount: int, kind: str = "win", source: str = "designated") -> Spec:
    return [("payout", {"seat": seat, "amount": amount, "source": source, "kind": kind})]


def rake(seat: int, amount: int) -> Spec:
    return [("rake_collected", {"seat": seat, "amount": amount, "from": "stack"})]


def ended() -> Spec:
    return [("hand_ended", {})]


def hand(cfg: dict[str, Any], *parts: Spec, **context: Any) -> HandInput:
    events: Spec = []
    for part in parts:
        events += part
    return build_hand(cfg, events, **context)


def adjudicate(cfg: dict[str, Any], *parts: Spec, **context: Any) -> AdjudicationRecord:
    return adjudicate_hand(hand(cfg, *parts, **context), PROFILES)


def codes(record: AdjudicationRecord) -> list[str]:
    return [f.code for f in record.findings]


def net(record: AdjudicationRecord, side: str = "expected") -> dict[str, int]:
    result = record.expected if side == "expected" else record.recorded
    assert result is not None
    return result.net
