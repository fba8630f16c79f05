"""Narrate a Five Card Draw hand the way a dealer would, get a HandInput back."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from services.adjudicator.adjudicate import adjudicate_hand
from services.events.contract import AdjudicationRecord
from services.games.betting import clockwise_after
from services.simulator.handbuilder import EventSpec, build_hand, table_config
from tests.profiles import PROFILES

Step = tuple[int, str, int | None]
DrawSpec = tuple[int, Sequence[str], Sequence[str]]


def config(structure: str = "no", mode: str = "none", fee: int = 0,
           small_blind: int = 1, big_blind: int = 2, **limits: int) -> dict[str, Any]:
    return table_config(
        "draw7a", structure=structure,
        limits={"min_wager": big_blind, "max_wager": 10_000, "small_blind": small_blind,
                "big_blind": big_blind, **limits},
        rake={"mode": mode, "fee": fee})


def steps(items: Sequence[Step]) -> list[EventSpec]:
    out: list[EventSpec] = []
    for seat, action, amount in items:
        data: dict[str, Any] = {"seat": seat, "action": action}
        if amount is not None:
            data["amount"] = amount
        out.append(("action", data))
    return out


def narrate(
    stacks: Mapping[int, int],
    button: int,
    cards: Mapping[int, Sequence[str]],
    before: Sequence[Step] = (),
    draws: Sequence[DrawSpec] = (),
    after: Sequence[Step] = (),
    showdown: Sequence[tuple[int, Sequence[str] | None]] = (),
    payouts: Sequence[tuple[int, int, str]] = (),
    rake: Sequence[tuple[int | None, int]] = (),
    rake_from: str = "stack",
    deck: int | None = None,
    blinds: Sequence[Step] | None = None,
    extra: Sequence[EventSpec] = (),
) -> list[EventSpec]:
    """Events of a hand: hand_started, blinds (default: 1 and 2 by the right seats),
    the deal clockwise from the button's left, betting, draws, betting, showdown
    (``None`` cards = mucked), payouts from the pot, hand_ended. The rake is collected
    as house-v1 reads GEN-10: from each payer's stack after the payouts
    (``rake_from="pot"``: from the pot, before them)."""
    seats = sorted(stacks)
    players = len(seats)
    events: list[EventSpec] = [("hand_started", {
        "button": button, "designated_player": None, "dealer_id": "dealer-1",
        "seats": [{"seat": s, "player_id": f"p{s}", "stack": stacks[s]} for s in seats],
        "deck": deck if deck is not None else (36 if players == 5 else 32)})]
    if blinds is None:
        order = clockwise_after(seats, button)
        sb, bb = (button, order[0]) if players == 2 else (order[0], order[1])
        blinds = [(sb, "post_small_blind", 1), (bb, "post_big_blind", 2)]
    events += steps(blinds)
    for i in range(5):
        for seat in clockwise_after(seats, button):
            events.append(("card_dealt", {"to": "seat", "seat": seat,
                                          "card": cards[seat][i], "face_up": False}))
    events += steps(before)
    events += extra
    for seat, discarded, received in draws:
        events.append(("draw", {"seat": seat, "discarded": list(discarded),
                                "received": list(received)}))
    events += steps(after)
    for seat, shown in showdown:
        events.append(("showdown", {"seat": seat, "cards": list(shown)} if shown is not None
                       else {"seat": seat, "mucked": True}))
    fees: list[EventSpec] = [("rake_collected", {"seat": seat_or_none, "amount": amount,
                                                 "from": rake_from})
                             for seat_or_none, amount in rake]
    if rake_from == "pot":
        events += fees
    for seat, amount, kind in payouts:
        events.append(("payout", {"seat": seat, "amount": amount, "source": "pot",
                                  "kind": kind}))
    if rake_from != "pot":
        events += fees
    events.append(("hand_ended", {}))
    return events


def adjudicated(cfg: dict[str, Any], events: list[EventSpec]) -> AdjudicationRecord:
    return adjudicate_hand(build_hand(cfg, events), PROFILES)


def codes(record: AdjudicationRecord) -> list[str]:
    return [f.code for f in record.findings]


def stand_pat(*seats: int) -> list[DrawSpec]:
    return [(s, [], []) for s in seats]


def with_fillers(cards: Mapping[int, Sequence[str]], seats: Sequence[int],
                 deck: Sequence[str]) -> dict[int, list[str]]:
    """``cards`` plus five unused cards (deck order) for every other seat: hands of
    players who fold before they matter."""
    used = {c for hand in cards.values() for c in hand}
    spare = [c for c in deck if c not in used]
    out = {s: list(h) for s, h in cards.items()}
    for seat in seats:
        if seat not in out:
            out[seat], spare = spare[:5], spare[5:]
    return out
