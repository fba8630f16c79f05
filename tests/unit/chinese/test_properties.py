"""Invariants of the Chinese Poker settlement over random deals (hypothesis).

Random tables of 2 to 4 players, random stacks (often short, so caps and shortfalls
happen), point values, rake modes, buttons; hands set sensibly, set at random (often
fouled), or declared (truly or falsely) as automatic wins.
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from services.games.cards import STANDARD_DECK
from services.games.chinese import evaluation as cp_eval
from services.games.chinese.adjudicate import adjudicate
from services.games.chinese.reading import may_hold_auto_win
from services.games.chinese.scoring import score_pairs
from services.games.model import GameOutcome
from services.simulator.chinese import set_hand
from services.simulator.handbuilder import EventSpec, build_hand
from tests.profiles import HOUSE
from tests.unit.chinese.scenario import config

PROFILE = HOUSE
KINDS = ["dragon", "six_pairs", "three_flushes", "three_straights"]


def _deal(rng: random.Random, seats: list[int]) -> dict[int, list[str]]:
    deck = list(STANDARD_DECK)
    rng.shuffle(deck)
    return {seat: deck[13 * i:13 * (i + 1)] for i, seat in enumerate(seats)}


def _setting_events(rng: random.Random, deal: dict[int, list[str]]) -> list[EventSpec]:
    """Each seat: sensible setting, random split, or a declaration (true or false)."""
    out: list[EventSpec] = []
    for seat, cards in deal.items():
        choice = rng.random()
        if choice < 0.15:
            made = cp_eval.auto_wins(cards) if may_hold_auto_win(cards) else set()
            out.append(("auto_win_declared",
                        {"seat": seat, "kind": sorted(made)[0] if made else rng.choice(KINDS)}))
            continue
        shuffled = rng.sample(cards, 13) if choice < 0.5 else None
        front, middle, back = (shuffled[:3], shuffled[3:8], shuffled[8:]) if shuffled \
            else set_hand(cards)
        out.append(("hand_set", {"seat": seat, "front": front, "middle": middle, "back": back}))
    return out


def _events(deal: dict[int, list[str]], stacks: dict[int, int], button: int,
            setting: list[EventSpec]) -> list[EventSpec]:
    events: list[EventSpec] = [("hand_started", {
        "button": button, "designated_player": None, "dealer_id": "D1", "deck": 52,
        "seats": [{"seat": s, "player_id": f"P{s}", "stack": stacks[s]} for s in deal]})]
    for seat, cards in deal.items():
        events += [("card_dealt", {"to": "seat", "seat": seat, "card": c, "face_up": False})
                   for c in cards]
    events += setting
    events += [("showdown", {"seat": s, "cards": deal[s]}) for s in deal]
    events.append(("hand_ended", {}))
    return events


table = st.fixed_dictionaries({
    "seed": st.integers(0, 2**32 - 1),
    "players": st.integers(2, 4),
    "button": st.integers(1, 4),
    "point_value": st.sampled_from([1, 2, 5, 25]),
    "rake": st.sampled_from([("none", 0), ("all", 1), ("players", 2), ("designated", 1)]),
    "scoring": st.sampled_from(["mandarin", "standard"]),
    "stacks": st.lists(st.integers(0, 400), min_size=4, max_size=4),
})


def _play(params: dict[str, Any], permute: bool = False) -> tuple[GameOutcome, dict[int, int]]:
    rng = random.Random(params["seed"])
    seats = sorted(rng.sample([1, 2, 3, 4], params["players"]))
    deal = _deal(rng, seats)
    stacks = {seat: params["stacks"][i] for i, seat in enumerate(seats)}
    setting = _setting_events(rng, deal)
    if permute:
        setting = random.Random(params["seed"] + 1).sample(setting, len(setting))
    mode, fee = params["rake"]
    cfg = config(point_value=params["point_value"], scoring=params["scoring"],
                 rake_mode=mode, fee=fee)
    hand = build_hand(cfg, _events(deal, stacks, params["button"], setting))
    return adjudicate(hand, PROFILE), stacks


@settings(max_examples=60, deadline=None)
@given(table)
def test_chips_are_conserved_and_stakes_respected(params: dict[str, Any]) -> None:
    """GEN-8: nets and house sum to zero. CP-10: no seat loses more than it started with;
    rake never exceeds the fee schedule's total."""
    result, stacks = _play(params)
    assert sum(result.net.values()) + result.house == 0
    assert result.house == sum(result.rake.values())
    for seat, net in result.net.items():
        assert net >= -max(stacks[seat], result.rake.get(seat, 0)), (seat, net, stacks)
    _mode, fee = params["rake"]
    assert result.house <= fee * len(stacks)


@settings(max_examples=60, deadline=None)
@given(table)
def test_no_seat_wins_more_than_its_stack_from_any_opponent(params: dict[str, Any]) -> None:
    """CP-10: a seat's winnings are at most its starting stack from each opponent, so at
    most (opponents x stack) in all (plus nothing else: rake only reduces)."""
    result, stacks = _play(params)
    for seat, net in result.net.items():
        assert net <= stacks[seat] * (len(stacks) - 1)


@settings(max_examples=40, deadline=None)
@given(table)
def test_points_are_zero_sum_between_every_pair(params: dict[str, Any]) -> None:
    """CP-4: whatever one hand wins from another, the other loses: pair scores carry one
    winner and one loser, or push with no points."""
    rng = random.Random(params["seed"])
    seats = sorted(rng.sample([1, 2, 3, 4], params["players"]))
    deal = _deal(rng, seats)
    setting = _setting_events(rng, deal)
    hand = build_hand(config(), _events(deal, dict.fromkeys(seats, 1000), 1, setting))
    from services.games.chinese.profile import chinese_profile
    from services.games.chinese.reading import judge_hands, read_hand

    cp = chinese_profile(PROFILE)
    reading = read_hand(hand.events, cp)
    judge_hands(hand.events, reading, cp)
    pairs = score_pairs(reading.hands, cp, params["scoring"], [])
    assert len(pairs) == len(list(combinations(seats, 2)))
    for pair in pairs:
        assert pair.points >= 0
        assert (pair.winner is None) == (pair.loser is None) == (pair.points == 0)
        if pair.winner is not None:
            assert {pair.winner, pair.loser} == {pair.a, pair.b}


@settings(max_examples=50, deadline=None)
@given(table)
def test_result_does_not_depend_on_the_order_seats_set_in(params: dict[str, Any]) -> None:
    """The settings and declarations of different seats arrive in any order: same nets,
    rake, seat rules and findings."""
    first, _ = _play(params)
    second, _ = _play(params, permute=True)
    assert first.net == second.net
    assert first.rake == second.rake and first.house == second.house
    assert first.seat_rules == second.seat_rules

    def key(result: GameOutcome) -> list[tuple[str, str, int | None]]:
        return sorted((f.code, f.rule, f.seat) for f in result.findings)

    assert key(first) == key(second)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_auto_win_screen_never_hides_an_automatic_win(seed: int) -> None:
    """``may_hold_auto_win`` only skips hands that make no automatic win: checked on hands
    built to make one (a rank run split 3/5/5, a suit split 3/5/5, six pairs, a dragon)."""
    rng = random.Random(seed)
    ranks = "23456789TJQKA"
    suits = "cdhs"
    kind = rng.choice(KINDS)
    if kind == "dragon":
        cards = [r + rng.choice(suits) for r in ranks]
    elif kind == "six_pairs":
        pair_ranks = rng.sample(ranks, 6)
        cards = [r + s for r in pair_ranks for s in rng.sample(suits, 2)]
        spare = [r + s for r in ranks for s in suits if r + s not in cards]
        cards.append(rng.choice(spare))
    elif kind == "three_flushes":
        chosen = rng.sample(suits, 3)
        cards = []
        for suit, size in zip(chosen, (3, 5, 5), strict=True):
            cards += [r + suit for r in rng.sample(ranks, size)]
    else:
        cards = []
        for size in (3, 5, 5):
            low = rng.randint(0, 13 - size)
            window = ["A", *ranks][low:low + size]
            for r in window:
                free = [r + s for s in suits if r + s not in cards]
                cards.append(rng.choice(free))
    assert len(set(cards)) == 13
    assert kind in cp_eval.auto_wins(cards)
    assert may_hold_auto_win(cards)
