"""The core's Chinese Poker rules give byte-identical records to the Python reference.

The Python rules (``services/games/chinese``, ``services/adjudicator``) are the oracle: for
every Chinese unit scenario (the plugin ``native_rules_plugin`` run over
``tests/unit/chinese``), simulated logs with every fault kind under the house profile and
under profiles that flip every reading of ``chinese.toml``, and hypothesis-built hands
(settings right and wrong, declarations true and false, exposures, misdeals, buys, routing,
rake, table context), the native record equals the reference's as ``encode_record`` writes
it. The tests also check that the native path really ran (the core's counters) and that a
registry with other Chinese rules keeps the hands in Python.
"""

from __future__ import annotations

import os
from functools import partial
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from services.adjudicator import adjudicate as adjudicate_module
from services.adjudicator.adjudicate import adjudicate_hand
from services.adjudicator.native_runner import NativeRunner, registry_native_games
from services.adjudicator.python_runner import ReferenceRunner
from services.events.contract import encode_record
from services.games import registry
from services.games.chinese import evaluation as cp_eval
from services.games.model import BuyRecord
from services.games.profile import Profiles, RuleProfile
from services.simulator.handbuilder import build_hand
from services.simulator.run import available_faults
from tests.profiles import HOUSE, PROFILES
from tests.unit.chinese import scenario as sc
from tests.unit.native.rules_support import (
    assert_a_rules_panic_goes_to_the_python_rules,
    house_with,
    records,
    simulated_game,
    unit_suites_checked_natively,
)

# Every reading of chinese.toml the other way from house-v1 (some together), so that each
# branch of the port is compared at least once under simulated play.
READINGS: dict[str, dict[str, Any]] = {
    "house": {},
    "standard": {"default_scoring": "standard", "fouls": {"unset_hand_is_foul": False},
                 "payments": {"order_starts": "button"}},
    "lenient": {"misdeal": {"exposed_cards": 3, "uncalled_misdeal_voids_hand": False},
                "rake": {"designated_counts_button": False},
                "buy_in": {"min_points": 40, "short_buys_per_full_buy": 0},
                "severity": {"foul": "warning", "payment_routing": "critical"}},
    "super": {"scoring": {"standard": {"super_bonus_points": 5, "super_bonus_players": 3,
                                       "bonus": {"front": {"three_of_a_kind": 2},
                                                 "middle": {"full_house": 1}, "back": {}}},
                          "mandarin": {"super_bonus_players": 3, "scoop_points": 3,
                                       "foul_points": 4}},
              "default_scoring": "standard", "segment_points": 2,
              "auto_win_points": {"six_pairs": 5, "three_flushes": 3}},
}


def profile_with(change: dict[str, Any]) -> RuleProfile:
    return house_with("chinese", change)


def profiles_for(reading: str) -> Profiles:
    return Profiles({HOUSE.name: profile_with(READINGS[reading])})


simulated = partial(simulated_game, "chinese")


def test_the_profiles_flip_what_they_say() -> None:
    cp = profiles_for("super").get(HOUSE.name).sections["chinese"]
    assert cp["scoring"]["standard"]["bonus"]["front"] == {"three_of_a_kind": 2}
    assert cp["scoring"]["mandarin"]["bonus"] == HOUSE.sections["chinese"]["scoring"][
        "mandarin"]["bonus"]
    assert cp["auto_win_points"]["dragon"] == 13 and cp["auto_win_points"]["six_pairs"] == 5


@pytest.mark.parametrize("fault", sorted(available_faults("chinese")))
def test_every_fault_kind_native_records_equal_the_reference(fault: str) -> None:
    lines = simulated(3, 3, 30, frozenset([fault]), 0.4)
    for closed_hands in (False, True):
        ref, nat, (adjudicated, deferred, panicked, why) = records(lines, PROFILES,
                                                                   closed_hands)
        assert nat == ref
        assert adjudicated == len(ref) and deferred == panicked == 0, why  # all native


HANDS_IN_SUITE = int(os.environ.get("PITWATCH_NATIVE_DIFF_HANDS", "20000"))


@pytest.mark.parametrize("reading", sorted(READINGS))
def test_simulated_hands_with_every_fault_under_every_reading(reading: str) -> None:
    """Tens of thousands of simulated hands in all (``PITWATCH_NATIVE_DIFF_HANDS``, 20,000
    by default, split over the readings), every fault kind at a high rate."""
    faults = frozenset(available_faults("chinese"))
    per_run = 3 * 50
    runs = max(1, HANDS_IN_SUITE // len(READINGS) // per_run)
    statuses: set[str] = set()
    hands = 0
    for seed in range(runs):
        lines = simulated(2000 + seed, 3, 50, faults, 0.35)
        ref, nat, (adjudicated, deferred, _, why) = records(lines, profiles_for(reading), False)
        assert nat == ref, (reading, seed)
        assert adjudicated == len(ref) and deferred == 0, why
        hands += len(ref)
        statuses |= {orjson.loads(r)["status"] for r in ref}
    assert hands >= runs * per_run * 0.9
    assert {"ok", "discrepancy", "dead"} <= statuses


def test_the_native_runner_gives_the_hand_when_asked_and_not_otherwise() -> None:
    lines = simulated(4, 3, 10, frozenset(), 0.0)
    with_hands = [s for s in NativeRunner(PROFILES).feed_lines(lines) if s.records]
    without = [s for s in NativeRunner(PROFILES, closed_hands=False).feed_lines(lines)
               if s.records]
    reference = ReferenceRunner(PROFILES)
    ref_hands = [s.closed_hand for i, line in enumerate(lines)
                 if (s := reference.feed(line, f"line {i}")).records]
    assert [s.closed_hand for s in with_hands] == ref_hands
    assert all(s.closed_hand is None for s in without) and len(without) == len(ref_hands)


def test_a_registry_with_other_chinese_rules_keeps_chinese_hands_in_python(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Gating is per game: replacing the Chinese rules leaves HCF (and the other native
    games) native and Chinese in Python (and the records are the replaced rules')."""
    games = dict(vars(adjudicate_module)["GAMES"])
    original = games["chinese"]
    games["chinese"] = registry.Game("chinese", lambda h, p: original.adjudicate(h, p),
                                     original.rake_rule)
    monkeypatch.setattr(adjudicate_module, "GAMES", games)
    assert "chinese" not in registry_native_games()
    assert {"hcf", "draw7a", "russian", "holdem"} <= set(registry_native_games())
    lines = simulated(5, 2, 10, frozenset(), 0.0)
    ref, nat, (adjudicated, deferred, _, _) = records(lines, PROFILES, False)
    assert nat == ref and adjudicated == 0 and deferred == 0


def test_a_panic_in_the_rules_is_caught_and_the_hand_goes_to_the_python_rules() -> None:
    assert_a_rules_panic_goes_to_the_python_rules(simulated(22, 1, 6, frozenset(), 0.0), PROFILES)


SCOOPER = ("Ac Ad 2c", "Kc Kd Ks 3h 4h", "9s Ts Js Qs 2s")  # a scoop, no bonus (mandarin 6)
SCOOPED = ("3c 4d 6h", "5c 5d 7h 8h 9c", "6c 6d Th Jh 2d")


@pytest.mark.parametrize("point_value", [1, 3])
def test_the_table_stakes_cap_at_and_around_its_boundary(point_value: int) -> None:
    """CP-10 at the chip: the winner's starting stack one below, at and above the 6
    points x point value it wins (capped, exactly covered, not reached), recorded paid in
    full or as capped."""
    due = 6 * point_value
    for stack in (due - 1, due, due + 1, 0):
        for paid in {due, min(due, stack)} - {0}:
            hand = sc.make_hand({1: SCOOPER, 2: SCOOPED}, sc.config(point_value=point_value),
                                stacks={1: stack, 2: 1000}, payments=[sc.pay(2, 1, paid)])
            native, why = NativeRunner(PROFILES).adjudicate_hand(hand)
            assert native is not None, why
            assert encode_record(native) == encode_record(adjudicate_hand(hand, PROFILES))
            assert native.expected is not None and native.expected.net["1"] == min(due, stack)


# ------------------------------------------------------------------ every unit scenario


def test_every_chinese_unit_scenario_is_adjudicated_natively_the_same(tmp_path: Path) -> None:
    """The game's whole unit suite runs with every hand it adjudicates also adjudicated by
    the core and compared (``native_rules_plugin``)."""
    seen = unit_suites_checked_natively(["tests/unit/chinese"], tmp_path)
    chinese = seen["games"]["chinese"]
    assert chinese["compared"] >= 300
    # What the core leaves to Python here: only profiles whose section does not load
    # (the reference words the error), never a hand it could decide.
    assert set(seen["not_native"]) <= {"a profile whose chinese section did not load"}, \
        seen["not_native"]
    assert chinese["native"] >= 0.9 * chinese["compared"]


# ------------------------------------------------------------------ the evaluator

CARDS = [r + s for r in "23456789TJQKA" for s in "cdhs"]


@settings(max_examples=int(os.environ.get("PITWATCH_NATIVE_HYPOTHESIS", "400")) * 5,
          deadline=None)
@given(st.lists(st.sampled_from(CARDS), min_size=5, max_size=5, unique=True),
       st.lists(st.sampled_from(CARDS), min_size=5, max_size=5, unique=True))
def test_segment_order_is_the_references(a: list[str], b: list[str]) -> None:
    """Through whole hands: a setting whose middle is ``a`` and back ``b`` fouls natively
    exactly when it fouls in Python (and with the same words), for any two 5-card hands
    and fronts made of their cards."""
    if set(a) & set(b):
        return
    rest = [c for c in CARDS if c not in a and c not in b]
    front = rest[len(a[0]) + CARDS.index(b[0]) % 20:][:3]
    others = [c for c in rest if c not in front][:13]
    hand = sc.make_hand({1: (" ".join(front), " ".join(a), " ".join(b)),
                         2: _ordered(others)})
    native, why = NativeRunner(PROFILES).adjudicate_hand(hand)
    assert native is not None, why
    assert encode_record(native) == encode_record(adjudicate_hand(hand, PROFILES))
    rank = cp_eval.segment_rank
    fouled = rank(a) > rank(b) or rank(front) > rank(a)
    assert fouled == any(f.code == "FOULED_HAND" and f.seat == 1 for f in native.findings)


# ------------------------------------------------------------------ hypothesis hands

KINDS = ["dragon", "six_pairs", "three_flushes", "three_straights"]
DRAGON = ["Ac", "2d", "3h", "4s", "5c", "6d", "7h", "8s", "9c", "Td", "Jh", "Qs", "Kc"]


def _ordered(cards13: list[str]) -> tuple[str, str, str]:
    """A 3/5/5 setting of the cards with the two 5-card segments ordered (the front may
    still beat the middle: a foul now and then)."""
    front, m, b = cards13[:3], cards13[3:8], cards13[8:13]
    if cp_eval.segment_rank(m) > cp_eval.segment_rank(b):
        m, b = b, m
    return " ".join(front), " ".join(m), " ".join(b)


@st.composite
def chinese_hands(draw: st.DrawFn) -> tuple[dict[str, Any], list[Any], dict[str, Any]]:
    """One Chinese Poker hand as events, arbitrary but valid v1."""
    seats = sorted(draw(st.sets(st.integers(1, 4), min_size=2, max_size=4)))
    if len(seats) < 4 and draw(st.integers(0, 40)) == 0:
        seats.append(draw(st.sampled_from([5, seats[0]])))  # outside the table, or twice
    button = draw(st.sampled_from([*seats, *seats, 4, 1]))
    if draw(st.integers(0, 60)) == 0:
        button = 7
    stacks = {s: draw(st.one_of(st.integers(0, 60), st.integers(0, 5000),
                                st.integers(0, 2**53 - 1))) for s in seats}
    deck = list(draw(st.permutations(CARDS)))
    if draw(st.integers(0, 15)) == 0:  # the first seat holds a dragon (and three straights)
        deck = DRAGON + [c for c in deck if c not in DRAGON]
    hands = {seat: deck[13 * i:13 * i + 13] for i, seat in enumerate(dict.fromkeys(seats))}
    events: list[Any] = [("hand_started", {
        "button": button, "designated_player": None, "dealer_id": "D1", "deck": 52,
        "seats": [{"seat": s, "player_id": f"P{s}", "stack": stacks[s]} for s in seats]})]
    faulty_deal = draw(st.integers(0, 12)) == 0
    for seat in dict.fromkeys(seats):
        cards = list(hands[seat])
        if faulty_deal and draw(st.booleans()):
            cards = cards[:draw(st.integers(10, 13))]
        for card in cards:
            unread = draw(st.integers(0, 150)) == 0
            events.append(("card_dealt", {"to": "seat", "seat": seat,
                                          "card": None if unread else card,
                                          "face_up": draw(st.integers(0, 60)) == 0}))
    for _ in range(draw(st.integers(0, 2))):
        seat = draw(st.sampled_from(seats))
        events.append(("card_exposed", {"seat": draw(st.sampled_from([seat, None])),
                                        "card": hands[seat][draw(st.integers(0, 12))],
                                        "cause": draw(st.sampled_from(
                                            ["dealer_error", "player", "dealer_upcard"]))}))
    opened = draw(st.integers(0, 8)) != 0
    opening: list[Any] = [("showdown", {"seat": s, "cards": list(hands[s])}) for s in
                          dict.fromkeys(seats)] if opened else []
    if opened and draw(st.integers(0, 10)) == 0:
        opening.insert(0, ("showdown", {"seat": "dealer"}))
    actions: list[Any] = []
    for seat in dict.fromkeys(seats):
        choice = draw(st.sampled_from(["set", "set", "set", "set", "unset", "declare",
                                       "bad", "reset"]))
        cards = list(hands[seat])
        if choice == "bad":
            cards = cards[:12] + [deck[-1]] if draw(st.booleans()) else cards
            actions.append(("hand_set", {"seat": seat, "front": cards[:draw(
                st.integers(2, 4))], "middle": cards[4:9], "back": cards[9:]}))
        elif choice != "unset":
            setting = _ordered(draw(st.permutations(cards)))
            actions.append(sc.hand_set(seat, setting))
        if choice == "declare" or draw(st.integers(0, 15)) == 0:
            actions.append(("auto_win_declared", {"seat": seat,
                                                  "kind": draw(st.sampled_from(KINDS))}))
        if choice == "reset":
            actions.append(sc.hand_set(seat, _ordered(draw(st.permutations(cards)))))
    if draw(st.integers(0, 20)) == 0:
        actions.append(sc.hand_set(9, _ordered(deck[-13:])))
    split = draw(st.integers(0, len(actions)))
    events += actions[:split] if opened else actions
    events += opening
    events += actions[split:] if opened else []
    if draw(st.integers(0, 25)) == 0:
        kind = draw(st.sampled_from(["misdeal", "hand_dead"]))
        events.append((kind, {"reason": "y"}))
    for _ in range(draw(st.integers(0, 3))):
        seat = draw(st.sampled_from([*seats, 9]))
        events.append(draw(st.sampled_from([
            ("player_seated", {"seat": seat, "player_id": f"N{seat}",
                               "stack": draw(st.integers(0, 500))}),
            ("chips_changed", {"seat": seat, "amount": draw(st.integers(-50, 500)),
                               "kind": draw(st.sampled_from(["buy_in", "short_buy", "add"]))}),
        ])))
    for _ in range(draw(st.integers(0, 2 * len(seats)))):
        payer, payee = draw(st.sampled_from(seats)), draw(st.sampled_from([*seats, 9]))
        amount = draw(st.one_of(st.integers(1, 60), st.integers(1, 2**40)))
        if draw(st.integers(0, 4)) == 0:
            events.append(sc.rake(payer, draw(st.integers(1, 10))))
        elif draw(st.integers(0, 6)) == 0:
            events.append(("collection", {"seat": payer, "amount": amount, "to": "house",
                                          "kind": draw(st.sampled_from(["points", "other"]))}))
        else:
            events.append(sc.pay(payer, payee, amount))
    events.append(("hand_ended", {}))
    cfg = sc.config(point_value=draw(st.sampled_from([1, 1, 2, 5, 25, 10**6])),
                    scoring=draw(st.sampled_from([None, "standard", "mandarin"])),
                    rake_mode=draw(st.sampled_from(["all", "players", "designated", "none"])),
                    fee=draw(st.integers(0, 5)))
    if draw(st.integers(0, 30)) == 0:  # (copies: the builder's dicts may be shared)
        cfg = {**cfg, "limits": {k: v for k, v in cfg["limits"].items() if k != "point_value"}}
    if draw(st.integers(0, 8)) == 0:
        cfg = {k: v for k, v in cfg.items() if k != "authorized_by"}
    context: dict[str, Any] = {}
    if draw(st.booleans()):
        context["new_seats"] = frozenset(draw(st.sets(st.sampled_from([*seats, 9]),
                                                      max_size=3)))
        context["hands_played"] = draw(st.sampled_from([0, 1, 7]))
        context["buys"] = tuple(
            BuyRecord(draw(st.sampled_from(seats)),
                      draw(st.sampled_from(["seated", "buy_in", "short_buy"])),
                      draw(st.integers(-5, 600)), draw(st.integers(1, 50)),
                      since_previous_hand=draw(st.booleans()))
            for _ in range(draw(st.integers(0, 4))))
    return cfg, events, context


@settings(max_examples=int(os.environ.get("PITWATCH_NATIVE_HYPOTHESIS", "400")),
          deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(chinese_hands(), st.sampled_from(sorted(READINGS)))
def test_hypothesis_hands_native_records_equal_the_reference(
        spec: tuple[dict[str, Any], list[Any], dict[str, Any]], reading: str) -> None:
    cfg, events, context = spec
    hand = build_hand(cfg, events, **context)
    profiles = profiles_for(reading)
    reference = encode_record(adjudicate_hand(hand, profiles))
    native, why = NativeRunner(profiles).adjudicate_hand(hand)
    if native is None:  # a deferral: the Python rules decide (the reasons are bounded)
        assert why is not None and "bound" in why, why
        return
    assert encode_record(native) == reference
