"""Property: every hand played with random legal actions, random cards and random draws,
recorded with the simulator's independent cashier (uncalled bet, side pots, rake, odd
chip), adjudicates with no finding and expected == recorded; chips are conserved."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from services.adjudicator.adjudicate import adjudicate_hand
from services.events.contract import TableConfigured
from services.games.betting import Structure, clockwise_after
from services.games.cards import SHORT_DECK_32, SHORT_DECK_36
from services.games.draw7a import evaluation as short_deck
from services.games.draw7a.betting import betting_config
from services.games.draw7a.profile import Draw7aProfile
from services.simulator.draw7a_settlement import PostedRake, plan_events, settle_as_table
from services.simulator.handbuilder import build_hand, table_config
from tests.profiles import HOUSE, PROFILES
from tests.unit.betting.generator import Choice, play_random_legal_hand

PROFILE = HOUSE
PROF = PROFILE.section("draw7a", Draw7aProfile)


def action_event(choice: Choice) -> tuple[str, dict[str, Any]]:
    data: dict[str, Any] = {"seat": choice.seat, "action": choice.kind}
    if choice.amount is not None:
        data["amount"] = choice.amount
    return "action", data


@settings(max_examples=150, deadline=None)
@given(
    structure=st.sampled_from(["fixed", "pot", "no"]),
    players=st.integers(2, 5),
    data=st.data(),
    mode=st.sampled_from(["all", "players", "designated", "none"]),
)
def test_random_legal_hands_adjudicate_clean(
    structure: Structure, players: int, data: st.DataObject, mode: str
) -> None:
    seats = sorted(data.draw(st.sets(st.integers(1, 8), min_size=players, max_size=players)))
    stacks = {s: data.draw(st.integers(1, 80)) for s in seats}
    button = data.draw(st.sampled_from(seats))
    fee = 0 if mode == "none" else 1
    cfg = table_config("draw7a", structure=structure,
                       limits={"min_wager": 2, "max_wager": 1000, "small_blind": 1,
                               "big_blind": 2, "small_bet": 2, "big_bet": 4},
                       rake={"mode": mode, "fee": fee})
    engine_cfg = betting_config(TableConfigured(**{k: v for k, v in cfg.items()
                                                   if k not in ("limits", "rake")},
                                                limits=_limits(cfg), rake=_rake(cfg)), PROF)
    hand, rounds = play_random_legal_hand(
        engine_cfg, stacks, button, lambda n: data.draw(st.integers(0, n - 1)))
    assert hand.violations == []
    deck_size = 36 if players == 5 else 32
    deck = data.draw(st.permutations(SHORT_DECK_36 if deck_size == 36 else SHORT_DECK_32))
    events: list[tuple[str, dict[str, Any]]] = [("hand_started", {
        "button": button, "designated_player": None, "dealer_id": "d",
        "seats": [{"seat": s, "player_id": f"p{s}", "stack": stacks[s]} for s in seats],
        "deck": deck_size})]
    posts = [c for c in rounds[0] if c.kind.startswith("post_")]
    events += [action_event(c) for c in posts]
    order = clockwise_after(seats, button)
    cards = {s: [] for s in seats}  # type: dict[int, list[str]]
    stub = list(deck)
    for _ in range(5):
        for seat in order:
            card = stub.pop()
            cards[seat].append(card)
            events.append(("card_dealt", {"to": "seat", "seat": seat, "card": card,
                                          "face_up": False}))
    events += [action_event(c) for c in rounds[0] if not c.kind.startswith("post_")]
    if len(rounds) > 1:
        folded_before = {c.seat for c in rounds[0] if c.kind == "fold"}
        drawers = [s for s in order if s not in folded_before]
        events += draw_events(data, drawers, cards, stub)
        events += [action_event(c) for c in rounds[1]]
    contenders = hand.active()
    shown: dict[int, int] = {}
    if len(contenders) > 1:
        for seat in hand.showdown_order():
            shown[seat] = short_deck.rank5(cards[seat], deck_size)
            events.append(("showdown", {"seat": seat, "cards": cards[seat]}))
    else:
        shown = {contenders[0]: 0}
    posted = PostedRake(mode, fee, PROF.rake.designated_counts_button, PROF.rake.fee_from,
                        PROF.rake.all_charges_button)
    behind = {seat: st.stack for seat, st in hand.seats.items()}
    plan = settle_as_table(hand.contributions(), contenders, shown, button, posted, behind)
    events += plan_events(plan)
    events.append(("hand_ended", {}))
    record = adjudicate_hand(build_hand(cfg, events), PROFILES)
    assert record.findings == []
    assert record.expected == record.recorded
    assert record.expected is not None and sum(record.expected.net.values()) == 0


def draw_events(data: st.DataObject, drawers: list[int], cards: dict[int, list[str]],
                stub: list[str]) -> list[tuple[str, dict[str, Any]]]:
    """Each player left of the button first discards 0-5 and draws as many; when the stub
    runs out the earlier discards are reshuffled (FCD-6)."""
    events: list[tuple[str, dict[str, Any]]] = []
    discards: list[str] = []
    for seat in drawers:
        count = data.draw(st.integers(0, min(5, len(stub) + len(discards))))
        thrown = cards[seat][:count]
        received = [stub.pop() for _ in range(min(count, len(stub)))]
        if len(received) < count:
            events.append(("stub_reshuffled", {"cards": list(discards), "reason": "empty"}))
            stub[:] = data.draw(st.permutations(discards))
            discards = []
            received += [stub.pop() for _ in range(count - len(received))]
        cards[seat] = cards[seat][count:] + received
        discards += thrown
        events.append(("draw", {"seat": seat, "discarded": thrown, "received": received}))
    return events


def _limits(cfg: dict[str, Any]) -> Any:
    from services.events.contract import Limits
    return Limits(**cfg["limits"])


def _rake(cfg: dict[str, Any]) -> Any:
    from services.events.contract import RakeConfig
    return RakeConfig(**cfg["rake"])
