"""A dealer's narration of one Russian Poker hand, turned into events (tests only).

``Scenario`` keeps the calls in the order a dealer runs the hand, so each test reads like
the hand it checks; ``hand()`` builds the ``HandInput`` through ``build_hand`` and
``record()`` adjudicates it end to end.
"""

from __future__ import annotations

from typing import Any

from services.adjudicator.adjudicate import adjudicate_hand
from services.events.contract import AdjudicationRecord
from services.games.model import HandInput
from services.simulator.handbuilder import EventSpec, build_hand, table_config
from tests.profiles import PROFILES


class Scenario:
    def __init__(self, seats: dict[int, int] | None = None, **config: Any) -> None:
        self.seats = seats or {1: 1000}
        self.config = table_config("russian", **config)
        self.events: list[EventSpec] = [("hand_started", {
            "button": min(self.seats), "designated_player": None, "dealer_id": "D1",
            "seats": [{"seat": s, "player_id": f"P{s}", "stack": stack}
                      for s, stack in sorted(self.seats.items())],
            "deck": 52,
        })]

    def add(self, type_: str, **data: Any) -> Scenario:
        self.events.append((type_, data))
        return self

    def ante(self, seat: int, amount: int) -> Scenario:
        return self.add("wager", seat=seat, kind="ante", amount=amount)

    def deal(self, seat: int, cards: str) -> Scenario:
        for card in cards.split():
            self.add("card_dealt", to="seat", seat=seat, card=card, face_up=False)
        return self

    def deal_dealer(self, cards: str) -> Scenario:
        split = cards.split()
        for n, card in enumerate(split):
            self.add("card_dealt", to="dealer", card=card, face_up=n == len(split) - 1)
        return self

    def act(self, seat: int, action: str) -> Scenario:
        return self.add("action", seat=seat, action=action)

    def fee(self, seat: int, kind: str, amount: int) -> Scenario:
        return self.add("collection", seat=seat, amount=amount, to="house", kind=kind)

    def draw(self, seat: int, discarded: str, received: str) -> Scenario:
        return self.add("draw", seat=seat, discarded=discarded.split(),
                        received=received.split())

    def bet(self, seat: int, amount: int, with_play: bool = True) -> Scenario:
        if with_play:
            self.act(seat, "play")
        return self.add("wager", seat=seat, kind="bet", amount=amount)

    def insure(self, seat: int, amount: int) -> Scenario:
        return self.add("wager", seat=seat, kind="insurance", amount=amount)

    def turn_dealer(self, cards: str) -> Scenario:
        return self.add("showdown", seat="dealer", cards=cards.split())

    def replace(self, removed: str, received: str, burned: str = "") -> Scenario:
        return self.add("dealer_replaced_card", removed=removed, received=received,
                        burned=burned.split())

    def collect(self, seat: int, kind: str, amount: int) -> Scenario:
        return self.add("wager_collected", seat=seat, kind=kind, amount=amount, to="house")

    def pay(self, seat: int, amount: int, kind: str = "win") -> Scenario:
        return self.add("payout", seat=seat, amount=amount, source="house", kind=kind)

    def hand(self) -> HandInput:
        return build_hand(self.config, [*self.events, ("hand_ended", {})])

    def record(self) -> AdjudicationRecord:
        return adjudicate_hand(self.hand(), PROFILES)


def codes(record: AdjudicationRecord) -> list[str]:
    return [f.code for f in record.findings]


def expected_net(record: AdjudicationRecord) -> dict[str, int]:
    assert record.expected is not None
    return record.expected.net


def recorded_net(record: AdjudicationRecord) -> dict[str, int]:
    assert record.recorded is not None
    return record.recorded.net
