"""Build Chinese Poker hands for tests the way a dealer would narrate them.

A seat's hand is given as its setting, three strings of cards (front, middle, back); the
deal (13 ``card_dealt`` per seat), ``hand_set``, declarations, opening (``showdown``),
recorded rake and point payments are generated around it, so each test states only what
its rule is about.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from services.games.chinese.adjudicate import adjudicate
from services.games.model import GameOutcome, HandInput
from services.simulator.handbuilder import EventSpec, build_hand, table_config
from tests.profiles import HOUSE

Setting = tuple[str, str, str]


def cards(text: str) -> list[str]:
    return text.split()


def config(point_value: int = 1, scoring: str | None = None, rake_mode: str = "none",
           fee: int = 0) -> dict[str, Any]:
    extra: dict[str, Any] = {"limits": {"min_wager": 1, "max_wager": 1000,
                                        "point_value": point_value},
                             "rake": {"mode": rake_mode, "fee": fee}}
    if scoring is not None:
        extra["scoring"] = scoring
    return table_config("chinese", **extra)


def hand_events(
    settings: dict[int, Setting],
    button: int = 1,
    stacks: dict[int, int] | None = None,
    declarations: Sequence[tuple[int, str]] = (),
    unset: Sequence[int] = (),
    dealt: dict[int, str] | None = None,
    before_opening: Sequence[EventSpec] = (),
    after_opening: Sequence[EventSpec] = (),
    payments: Sequence[EventSpec] = (),
    open_hands: bool = True,
    set_order: Sequence[int] | None = None,
) -> list[EventSpec]:
    """``settings``: every participant's hand (also what it was dealt, unless ``dealt``
    overrides); seats in ``unset`` were dealt those cards but never set them."""
    stacks = stacks or {}
    seats = sorted(settings)
    events: list[EventSpec] = [("hand_started", {
        "button": button, "designated_player": None, "dealer_id": "D1", "deck": 52,
        "seats": [{"seat": s, "player_id": f"P{s}", "stack": stacks.get(s, 1000)}
                  for s in seats]})]
    for seat in seats:
        hand = dealt[seat].split() if dealt and seat in dealt else \
            [c for part in settings[seat] for c in part.split()]
        events += [("card_dealt", {"to": "seat", "seat": seat, "card": c, "face_up": False})
                   for c in hand]
    for seat in set_order or seats:
        if seat in unset:
            continue
        events.append(hand_set(seat, settings[seat]))
    events += [("auto_win_declared", {"seat": s, "kind": k}) for s, k in declarations]
    events += list(before_opening)
    if open_hands:
        events += [("showdown", {"seat": s, "cards": [c for p in settings[s] for c in p.split()]})
                   for s in seats]
    events += list(after_opening)
    events += list(payments)
    events.append(("hand_ended", {}))
    return events


def hand_set(seat: int, setting: Setting) -> EventSpec:
    front, middle, back = setting
    return ("hand_set", {"seat": seat, "front": cards(front), "middle": cards(middle),
                         "back": cards(back)})


def pay(payer: int, payee: int, amount: int) -> EventSpec:
    return ("collection", {"seat": payer, "amount": amount, "to": f"seat:{payee}",
                           "kind": "points"})


def rake(seat: int, amount: int) -> EventSpec:
    return ("rake_collected", {"seat": seat, "amount": amount, "from": "stack"})


def make_hand(settings: dict[int, Setting], cfg: dict[str, Any] | None = None,
              context: dict[str, Any] | None = None, **kwargs: Any) -> HandInput:
    return build_hand(cfg or config(), hand_events(settings, **kwargs), **(context or {}))


def outcome(settings: dict[int, Setting], cfg: dict[str, Any] | None = None,
            context: dict[str, Any] | None = None, **kwargs: Any) -> GameOutcome:
    return adjudicate(make_hand(settings, cfg, context, **kwargs), HOUSE)


def codes(result: GameOutcome) -> list[str]:
    return [f.code for f in result.findings]
