"""Narrate a Texas Hold'em hand the way a dealer would, get an adjudication back.

Each helper returns a list of ``(type, data)`` events; ``hand(...)`` flattens them, wraps
them between ``hand_started`` and ``hand_ended`` and builds the ``HandInput``. Tests state
the procedure step by step, so an irregularity is one visible line in the test.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from services.adjudicator.adjudicate import adjudicate_hand
from services.events.contract import AdjudicationRecord
from services.games.betting import clockwise_after
from services.games.model import HandInput
from services.simulator.handbuilder import EventSpec, build_hand, table_config
from tests.profiles import PROFILES

Part = EventSpec | Sequence[EventSpec]


def config(structure: str = "no", small_blind: int = 1, big_blind: int = 2, mode: str = "none",
           fee: int = 0, **limits: int) -> dict[str, Any]:
    return table_config(
        "holdem", structure=structure,
        limits={"min_wager": big_blind, "max_wager": 100_000, "small_blind": small_blind,
                "big_blind": big_blind, **limits},
        rake={"mode": mode, "fee": fee})


def act(seat: int, action: str, amount: int | None = None) -> EventSpec:
    data: dict[str, Any] = {"seat": seat, "action": action}
    if amount is not None:
        data["amount"] = amount
    return ("action", data)


def acts(*steps: tuple[int, str] | tuple[int, str, int]) -> list[EventSpec]:
    return [act(*step) for step in steps]


def blinds(sb: int, bb: int, small: int = 1, big: int = 2) -> list[EventSpec]:
    return [act(sb, "post_small_blind", small), act(bb, "post_big_blind", big)]


def deal(cards: Mapping[int, Sequence[str | None]], button: int,
         face_up: Iterable[str] = ()) -> list[EventSpec]:
    """Two hole cards each, one at a time, clockwise from the button's left."""
    up = set(face_up)
    order = clockwise_after(sorted(cards), button)
    return [card(seat, cards[seat][i], face_up=cards[seat][i] in up)
            for i in range(2) for seat in order]


def card(seat: int, value: str | None, face_up: bool = False) -> EventSpec:
    return ("card_dealt", {"to": "seat", "seat": seat, "card": value, "face_up": face_up})


def burn(value: str | None = None) -> EventSpec:
    return ("card_dealt", {"to": "burn", "card": value, "face_up": False})


def board(*values: str) -> list[EventSpec]:
    return [("card_dealt", {"to": "board", "card": v, "face_up": True}) for v in values]


def street(*values: str, burned: str | None = None) -> list[EventSpec]:
    """A burn, then the board cards of one street."""
    return [burn(burned), *board(*values)]


def exposed(seat: int | None, value: str, cause: str = "dealer_error") -> EventSpec:
    return ("card_exposed", {"seat": seat, "card": value, "cause": cause})


def moved(value: str, source: str, target: str) -> EventSpec:
    return ("card_moved", {"card": value, "from": source, "to": target})


def reshuffled(*values: str, reason: str = "correction") -> EventSpec:
    return ("stub_reshuffled", {"cards": list(values), "reason": reason})


def misdeal(reason: str = "dealer error") -> EventSpec:
    return ("misdeal", {"reason": reason})


def show(seat: int, cards: Sequence[str | None] | None) -> EventSpec:
    if cards is None:
        return ("showdown", {"seat": seat, "mucked": True})
    return ("showdown", {"seat": seat, "cards": list(cards)})


def payout(seat: int, amount: int, kind: str = "pot") -> EventSpec:
    return ("payout", {"seat": seat, "amount": amount, "source": "pot", "kind": kind})


def rake(seat: int | None, amount: int, source: str = "stack") -> EventSpec:
    """GEN-10 as house-v1 reads it: a fee from the payer's own stack (after the payouts);
    ``source="pot"`` for a fee or a pot rake taken from the pot."""
    return ("rake_collected", {"seat": seat, "amount": amount, "from": source})


def started(stacks: Mapping[int, int], button: int, deck: int = 52) -> EventSpec:
    return ("hand_started", {
        "button": button, "designated_player": None, "dealer_id": "dealer-1",
        "seats": [{"seat": s, "player_id": f"p{s}", "stack": stacks[s]} for s in sorted(stacks)],
        "deck": deck})


def flatten(parts: Iterable[Part]) -> list[EventSpec]:
    out: list[EventSpec] = []
    for part in parts:
        if isinstance(part, tuple) and len(part) == 2 and isinstance(part[0], str):
            out.append(part)
        else:
            out.extend(part)
    return out


def hand_input(stacks: Mapping[int, int], button: int, *parts: Part,
               cfg: dict[str, Any] | None = None, deck: int = 52) -> HandInput:
    events = [started(stacks, button, deck), *flatten(parts), ("hand_ended", {})]
    return build_hand(cfg if cfg is not None else config(), events)


def adjudicate(stacks: Mapping[int, int], button: int, *parts: Part,
               cfg: dict[str, Any] | None = None, deck: int = 52) -> AdjudicationRecord:
    return adjudicate_hand(hand_input(stacks, button, *parts, cfg=cfg, deck=deck), PROFILES)


def codes(record: AdjudicationRecord) -> list[tuple[str, str]]:
    """(code, rule) of every finding, in order."""
    return [(f.code, f.rule) for f in record.findings]
