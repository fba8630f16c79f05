"""Turn a simulated table stream into ``HandInput``s, for the HCF property tests.

A deliberately small stand-in for the intake's hand assembly (which lives elsewhere):
hand events from ``hand_started`` to ``hand_ended``, table-level events that arrive while
a hand is open go with it, and the ``TableContext`` carries the previous hand's designated
player and the ``designated_player_offer`` events recorded since (HCF-2).
"""

from __future__ import annotations

import random
from typing import Any

from services.events.contract import (
    DesignatedPlayerOfferEvent,
    Event,
    HandEndedEvent,
    HandStartedEvent,
    TableConfigured,
    TableConfiguredEvent,
    event_from_builtins,
)
from services.events.stream import TableStream
from services.games.model import HandInput, TableContext
from services.simulator.hcf import simulate_table
from services.simulator.truth import TruthLabel
from tests.profiles import HOUSE


def assemble(table_id: str, raw_events: list[dict[str, Any]]) -> list[HandInput]:
    config: TableConfigured | None = None
    previous_dp: int | None = None
    offers: list[tuple[int, bool]] = []
    open_hand: list[Event] | None = None
    hand_offers: tuple[tuple[int, bool], ...] = ()
    hands: list[HandInput] = []
    for raw in raw_events:
        event = event_from_builtins(raw)
        if isinstance(event, TableConfiguredEvent):
            config = event.data
        elif isinstance(event, HandStartedEvent):
            open_hand, hand_offers, offers = [event], tuple(offers), []
        elif open_hand is not None:
            open_hand.append(event)
            if isinstance(event, HandEndedEvent):
                started = open_hand[0]
                assert isinstance(started, HandStartedEvent)
                table = TableContext(table_id=table_id, config=config,
                                     config_authorized=True, seated={},
                                     previous_designated=previous_dp,
                                     designated_offers=hand_offers)
                hands.append(HandInput(table=table, hand_id=started.hand_id or "",
                                       events=tuple(open_hand)))
                previous_dp = started.data.designated_player
                open_hand = None
        elif isinstance(event, DesignatedPlayerOfferEvent):
            offers.append((event.data.seat, event.data.accepted))
    return hands


def simulated(seed: int, table_index: int, hands: int, faults: frozenset[str] = frozenset(),
              fault_rate: float = 0.0) -> tuple[list[HandInput], list[TruthLabel]]:
    table_id = f"T{table_index}"
    stream = TableStream(table_id, random.Random(seed))
    labels = simulate_table(stream, hands, random.Random(seed + 1), faults, fault_rate,
                            table_index, HOUSE)
    return assemble(table_id, stream.events), labels
