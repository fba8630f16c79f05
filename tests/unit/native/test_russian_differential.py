"""The core's Russian Poker rules give byte-identical records to the Python reference.

The Python rules (``services/games/russian``, ``services/adjudicator``) are the oracle: for
every Russian unit scenario (the plugin ``native_rules_plugin`` run over
``tests/unit/russian``), simulated logs with every fault kind under the house profile and
under profiles that flip every reading of ``russian.toml``, and hypothesis-built hands
(simulated hands taken apart and put together wrongly, and hands of arbitrary events:
late and foreign wagers, draws of every shape, fees, the dealer's game bought and
replaced, switched cards, payouts from anyone, posted paytables, limits and stacks), the
native record equals the reference's as ``encode_record`` writes it. The tests also check
that the native path really ran (the core's counters) and that a registry with other
Russian rules keeps the hands in Python.
"""

from __future__ import annotations

import itertools
import os
import random
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
from services.events.contract import encode_record
from services.games import registry
from services.games.cards import STANDARD_DECK
from services.games.profile import Profiles, RuleProfile
from services.simulator.handbuilder import EventSpec, build_hand, table_config
from services.simulator.run import available_faults
from services.simulator.russian import FAULTS, Box, HandRun
from tests.profiles import HOUSE, PROFILES
from tests.unit.native.rules_support import (
    assert_a_rules_panic_goes_to_the_python_rules,
    house_with,
    records,
    simulated_game,
    unit_suites_checked_natively,
)

# Every reading of russian.toml the other way from house-v1 (some together), every number
# moved, so that each branch of the port is compared at least once under simulated play.
READINGS: dict[str, dict[str, Any]] = {
    "house": {},
    "other_way": {"serving_order": "left_of_button", "wrong_bet_settlement": "excess_returned",
                  "insurance_when_game_bought": "final_dealer_hand",
                  "insurance_below_minimum": "as_placed", "insurance_above_maximum": "as_placed",
                  "pay_two_combinations": False, "late_wager_settlement": "kept_if_losing"},
    "floors": {"insurance_min_category": "one_pair", "dealer_min_category": "one_pair",
               "second_combination_min_category": "two_pair",
               "wrong_bet_settlement": "excess_returned",
               "late_wager_settlement": "kept_if_losing",
               "insurance_when_game_bought": "final_dealer_hand",
               "paytable": {"nothing": 1, "ace_king": 2, "royal_flush": 250, "straight": 5},
               "deal_error_severity": "critical", "draw_procedure_severity": "info",
               "fee_error_severity": "critical", "bet_error_severity": "info",
               "insurance_error_severity": "critical", "dealer_game_error_severity": "info",
               "late_wager_severity": "warning", "cards_after_bet_severity": "warning",
               "bonus_order_severity": "critical", "paytable_config_severity": "critical",
               "banker_error_severity": "warning", "insufficient_stake_severity": "critical"},
    "numbers": {"bet_antes": 3, "buy_card_price_antes": 2, "exchange_price_antes": 3,
                "exchange_min_cards": 1, "exchange_max_cards": 3, "draws_per_box": 2,
                "insurance_min_antes": 2, "insurance_max_royal_numerator": 2,
                "insurance_max_royal_denominator": 5, "insurance_odds": 2,
                "ante_odds_dealer_not_qualifying": 2, "buy_dealer_game_price_antes": 2,
                "cards_per_box": 6, "deck_size": 36, "insurance_min_category": "flush",
                "dealer_min_category": "two_pair", "serving_order": "left_of_button"},
}


def profile_with(change: dict[str, Any]) -> RuleProfile:
    return house_with("russian", change)


def profiles_for(reading: str) -> Profiles:
    return Profiles({HOUSE.name: profile_with(READINGS[reading])})


simulated = partial(simulated_game, "russian")


def test_the_profiles_flip_what_they_say() -> None:
    rp = profiles_for("floors").get(HOUSE.name).sections["russian"]
    assert rp["paytable"]["nothing"] == 1 and rp["paytable"]["flush"] == 5
    assert rp["dealer_min_category"] == "one_pair"
    house = HOUSE.sections["russian"]
    for reading in READINGS.values():
        for key, value in reading.items():
            assert key in house and (value != house[key] or key == "paytable"), key
    flipped = {key for reading in READINGS.values() for key in reading}
    literals = {key for key, value in house.items() if isinstance(value, (str, bool))}
    assert literals - flipped == set()  # every reading and severity is flipped somewhere


@pytest.mark.parametrize("fault", sorted(available_faults("russian")))
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
    faults = frozenset(available_faults("russian"))
    per_run = 3 * 50
    runs = max(1, HANDS_IN_SUITE // len(READINGS) // per_run)
    statuses: set[str] = set()
    hands = 0
    for seed in range(runs):
        lines = simulated(3000 + seed, 3, 50, faults, 0.35)
        ref, nat, (adjudicated, deferred, _, why) = records(lines, profiles_for(reading), False)
        assert nat == ref, (reading, seed)
        assert adjudicated == len(ref) and deferred == 0, why
        hands += len(ref)
        statuses |= {orjson.loads(r)["status"] for r in ref}
    assert hands >= runs * per_run * 0.9
    # (the Russian simulator kills no hand: dead hands come from the hypothesis tests)
    assert {"ok", "discrepancy"} <= statuses or reading != "house", statuses
    assert "discrepancy" in statuses


def test_a_registry_with_other_russian_rules_keeps_russian_hands_in_python(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Gating is per game: replacing the Russian rules leaves HCF and Chinese native and
    Russian in Python (and the records are the replaced rules')."""
    games = dict(vars(adjudicate_module)["GAMES"])
    original = games["russian"]
    games["russian"] = registry.Game("russian", lambda h, p: original.adjudicate(h, p),
                                     original.rake_rule)
    monkeypatch.setattr(adjudicate_module, "GAMES", games)
    assert "russian" not in registry_native_games()
    assert {"hcf", "chinese"} <= set(registry_native_games())
    lines = simulated(5, 2, 10, frozenset(), 0.0)
    ref, nat, (adjudicated, deferred, _, _) = records(lines, PROFILES, False)
    assert nat == ref and adjudicated == 0 and deferred == 0


def test_russian_is_native_with_the_reference_registry() -> None:
    assert "russian" in registry_native_games()


def test_a_panic_in_the_rules_is_caught_and_the_hand_goes_to_the_python_rules() -> None:
    assert_a_rules_panic_goes_to_the_python_rules(simulated(22, 1, 6, frozenset(), 0.0), PROFILES)


# ------------------------------------------------------------------ every unit scenario


def test_every_russian_unit_scenario_is_adjudicated_natively_the_same(tmp_path: Path) -> None:
    """The game's whole unit suite runs with every hand it adjudicates also adjudicated by
    the core and compared (``native_rules_plugin``)."""
    seen = unit_suites_checked_natively(["tests/unit/russian"], tmp_path)
    russian = seen["games"]["russian"]
    assert russian["compared"] >= 400
    # What the core leaves to Python here: only profiles whose section does not load
    # (the reference words the error), never a hand it could decide.
    assert set(seen["not_native"]) <= {"a profile whose russian section did not load"}, \
        seen["not_native"]
    assert russian["native"] >= 0.9 * russian["compared"]


# ------------------------------------------------------------------ hypothesis hands

HYPOTHESIS = int(os.environ.get("PITWATCH_NATIVE_HYPOTHESIS", "400"))


def _compare(hand: Any, profiles: Profiles) -> None:
    reference = encode_record(adjudicate_hand(hand, profiles))
    native, why = NativeRunner(profiles).adjudicate_hand(hand)
    if native is None:  # a deferral: the Python rules decide (the reasons are bounded)
        assert why is not None and ("bound" in why or "duplicate card" in why), why
        return
    assert encode_record(native) == reference


def _config(draw: st.DrawFn) -> dict[str, Any]:
    limits: dict[str, Any] = {"min_wager": draw(st.sampled_from([1, 5, 10])),
                              "max_wager": draw(st.sampled_from([20, 1000]))}
    if draw(st.integers(0, 3)) == 0:
        limits["ante"] = draw(st.sampled_from([5, 10, 20]))
    cfg = table_config("russian", limits=limits)
    if draw(st.integers(0, 3)) == 0:
        rows = st.sampled_from(["royal_flush", "flush", "one_pair", "nothing", "ace_king",
                                "jackpot", "it's", "a\\b", "Flush"])
        cfg["paytables"] = {"bet": draw(st.dictionaries(rows, st.integers(0, 500),
                                                        max_size=4))}
    if draw(st.integers(0, 8)) == 0:
        cfg = {k: v for k, v in cfg.items() if k != "authorized_by"}
    if draw(st.integers(0, 6)) == 0:
        cfg["rake"] = {"mode": "players", "fee": draw(st.integers(1, 5))}
    return cfg


@st.composite
def simulated_hands(draw: st.DrawFn) -> tuple[dict[str, Any], list[EventSpec]]:
    """A hand the simulator's dealer runs (with or without a fault), then taken apart: an
    event dropped, repeated, moved or changed now and then."""
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    seats = sorted(rng.sample(range(1, 8), draw(st.integers(1, 6))))
    ante = draw(st.sampled_from([1, 5, 10, 25]))
    fault = draw(st.none() | st.sampled_from(sorted(FAULTS)))
    run = HandRun([Box(seat, f"P{seat}", ante) for seat in seats], rng, fault)
    run.run()
    stacks = draw(st.sampled_from([5000, 4 * ante, 4 * ante - 1, 0]))
    started: EventSpec = ("hand_started", {
        "button": draw(st.sampled_from(seats)), "designated_player": None, "dealer_id": "D1",
        "seats": [{"seat": s, "player_id": f"P{s}", "stack": stacks} for s in seats],
        "deck": draw(st.sampled_from([52, 52, 52, 36])),
    })
    events = list(run.events)
    for _ in range(draw(st.integers(0, 4))):
        if not events:
            break
        at = draw(st.integers(0, len(events) - 1))
        how = draw(st.sampled_from(["drop", "repeat", "move", "amount", "card"]))
        type_, data = events[at]
        if how == "drop":
            del events[at]
        elif how == "repeat":
            events.insert(draw(st.integers(0, len(events))), (type_, dict(data)))
        elif how == "move":
            del events[at]
            events.insert(draw(st.integers(0, len(events))), (type_, data))
        elif how == "amount" and "amount" in data:
            events[at] = (type_, {**data, "amount": max(1, data["amount"] + draw(
                st.integers(-3, 30)))})
        elif how == "card" and isinstance(data.get("card"), str):
            events[at] = (type_, {**data, "card": draw(st.sampled_from(
                [None, *STANDARD_DECK[:8]]))})
    if draw(st.integers(0, 25)) == 0:
        events.append((draw(st.sampled_from(["misdeal", "hand_dead"])), {"reason": "x"}))
    return _config(draw), [started, *events, ("hand_ended", {})]


@settings(max_examples=HYPOTHESIS, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(simulated_hands(), st.sampled_from(sorted(READINGS)))
def test_hypothesis_simulated_hands_taken_apart_equal_the_reference(
        spec: tuple[dict[str, Any], list[EventSpec]], reading: str) -> None:
    cfg, events = spec
    _compare(build_hand(cfg, events), profiles_for(reading))


ACTIONS = ["stand", "fold", "play", "buy_dealer_game", "decline_dealer_game"]


@st.composite
def arbitrary_hands(draw: st.DrawFn) -> tuple[dict[str, Any], list[EventSpec]]:
    """A Russian Poker hand of arbitrary (valid v1) events in an arbitrary order, the
    cards drawn from one shuffled deck (a card repeats only now and then)."""
    seats = sorted(draw(st.sets(st.integers(1, 7), min_size=1, max_size=4)))
    deck = list(draw(st.permutations(STANDARD_DECK)))
    if draw(st.integers(0, 10)) == 0:
        deck[draw(st.integers(0, 20))] = deck[draw(st.integers(21, 40))]  # a card twice
    cards = itertools.cycle(deck)  # enough cards for any hand (repeats now and then)
    ante = draw(st.sampled_from([1, 5, 10]))
    events: list[EventSpec] = []
    for seat in seats:
        if draw(st.integers(0, 6)):
            events.append(("wager", {"seat": seat, "kind": "ante", "amount": ante}))
    deal: list[EventSpec] = []
    for seat in seats:
        for _ in range(draw(st.sampled_from([5, 5, 5, 4, 6]))):
            card = next(cards)
            deal.append(("card_dealt", {"to": "seat", "seat": seat,
                                        "card": None if draw(st.integers(0, 40)) == 0 else card,
                                        "face_up": draw(st.integers(0, 30)) == 0}))
    dealer = [next(cards) for _ in range(draw(st.sampled_from([5, 5, 5, 5, 4])))]
    for n, card in enumerate(dealer):
        deal.append(("card_dealt", {"to": "dealer", "card": card,
                                    "face_up": n == len(dealer) - 1 or draw(st.integers(0, 30)) == 0}))
    events += deal if draw(st.integers(0, 10)) else []
    rest: list[EventSpec] = []
    for _ in range(draw(st.integers(0, 5 * len(seats)))):
        seat = draw(st.sampled_from([*seats, 9]))
        kind = draw(st.sampled_from(["action", "draw", "fee", "bet", "insurance", "foreign",
                                     "late_ante", "payout", "collected", "showdown"]))
        if kind == "action":
            rest.append(("action", {"seat": seat, "action": draw(st.sampled_from(ACTIONS))}))
        elif kind == "draw":
            give = draw(st.sampled_from([0, 0, 1, 2, 3, 5, 6]))
            take = draw(st.sampled_from([give, give, 1, 2]))
            rest.append(("draw", {"seat": seat, "discarded": [next(cards) if draw(
                st.integers(0, 3)) == 0 else deck[draw(st.integers(0, 40))] for _ in range(give)],
                "received": [next(cards) for _ in range(take)]}))
        elif kind == "fee":
            rest.append(("collection", {"seat": seat, "amount": draw(st.sampled_from(
                [ante, ante, 2 * ante, 1])), "to": draw(st.sampled_from(["house", "house",
                                                                           "seat:2"])),
                "kind": draw(st.sampled_from(["buy_card", "exchange", "buy_dealer_game"]))}))
        elif kind in ("bet", "insurance", "foreign", "late_ante"):
            wager = {"bet": "bet", "insurance": "insurance", "late_ante": "ante"}.get(
                kind, draw(st.sampled_from(["raise", "flush_bonus"])))
            amount = draw(st.sampled_from([2 * ante, 2 * ante, 3 * ante, ante, 200 * ante]))
            rest.append(("wager", {"seat": seat, "kind": wager, "amount": amount}))
        elif kind == "payout":
            rest.append(("payout", {"seat": seat, "amount": draw(st.integers(1, 40 * ante)),
                                    "source": draw(st.sampled_from(["house", "house", "seat:3"])),
                                    "kind": draw(st.sampled_from(["win", "bonus", "insurance",
                                                                  "refund"]))}))
        elif kind == "collected":
            rest.append(("wager_collected", {"seat": seat, "kind": draw(st.sampled_from(
                ["ante", "bet", "insurance"])), "amount": draw(st.integers(1, 3 * ante)),
                "to": draw(st.sampled_from(["house", "house", "designated"]))}))
        else:
            rest.append(("showdown", {"seat": seat, "cards": [next(cards) for _ in range(5)]}))
    turn: list[EventSpec] = [("showdown", {"seat": "dealer", "cards": draw(st.sampled_from(
        [dealer, dealer, dealer[::-1], [next(cards), *dealer[1:]], []]))})]
    if draw(st.booleans()):
        removed = draw(st.sampled_from([*dealer, next(cards)]))
        turn.append(("dealer_replaced_card", {"removed": removed, "received": next(cards),
                                              "burned": [next(cards) for _ in range(
                                                  draw(st.integers(0, 2)))]}))
    if draw(st.integers(0, 6)) == 0:
        gone = draw(st.sampled_from(seats))
        turn.append(("player_left", {"seat": gone, "player_id": f"P{gone}", "stack": 100}))
    split = draw(st.integers(0, len(rest)))
    events += rest[:split] + turn + rest[split:]
    if draw(st.integers(0, 30)) == 0:
        events.append(("misdeal", {"reason": "y"}))
    if draw(st.integers(0, 8)) == 0:
        events.append(("rake_collected", {"seat": seats[0], "amount": 1, "from": "stack"}))
    started: EventSpec = ("hand_started", {
        "button": draw(st.sampled_from(seats)), "designated_player": None, "dealer_id": "D1",
        "seats": [{"seat": s, "player_id": f"P{s}", "stack": draw(st.sampled_from(
            [5000, 4 * ante, 3 * ante, 0, 2**53 - 1]))} for s in seats
            if draw(st.integers(0, 12))],
        "deck": 52,
    })
    return _config(draw), [started, *events, ("hand_ended", {})]


@settings(max_examples=HYPOTHESIS, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(arbitrary_hands(), st.sampled_from(sorted(READINGS)))
def test_hypothesis_arbitrary_hands_equal_the_reference(
        spec: tuple[dict[str, Any], list[EventSpec]], reading: str) -> None:
    cfg, events = spec
    _compare(build_hand(cfg, events), profiles_for(reading))


# ------------------------------------------------------------------ the evaluator


@settings(max_examples=HYPOTHESIS * 2, deadline=None)
@given(st.permutations(STANDARD_DECK), st.booleans(), st.sampled_from(sorted(READINGS)),
       st.sampled_from(["none", "highest", "first", "twice", "missing"]),
       st.integers(0, 2), st.sampled_from([0, 5, 10, 40, 2000]))
def test_showdowns_and_dealer_games_are_the_references(
        deck: list[str], buys: bool, reading: str, game: str, burns: int,
        insurance: int) -> None:
    """Through whole hands: a box that stands on five cards or buys a sixth, against any
    dealer's hand, his game bought or not, the card replaced his highest or another, burns
    of his rank or not (RP-4..RP-8: insurance, qualification, comparison, paytable lines,
    the second combination, the replacement)."""
    box, dealer, spare = deck[:5], deck[5:10], deck[10:]
    events: list[EventSpec] = [
        ("hand_started", {"button": 1, "designated_player": None, "dealer_id": "D1",
                          "seats": [{"seat": 1, "player_id": "P1", "stack": 5000}],
                          "deck": 52}),
        ("wager", {"seat": 1, "kind": "ante", "amount": 10})]
    events += [("card_dealt", {"to": "seat", "seat": 1, "card": c, "face_up": False})
               for c in box]
    events += [("card_dealt", {"to": "dealer", "card": c, "face_up": n == 4})
               for n, c in enumerate(dealer)]
    if buys:
        events += [("collection", {"seat": 1, "amount": 10, "to": "house", "kind": "buy_card"}),
                   ("draw", {"seat": 1, "discarded": [], "received": [spare[0]]})]
    else:
        events.append(("action", {"seat": 1, "action": "stand"}))
    events += [("action", {"seat": 1, "action": "play"}),
               ("wager", {"seat": 1, "kind": "bet", "amount": 20})]
    if insurance:
        events.append(("wager", {"seat": 1, "kind": "insurance", "amount": insurance}))
    events.append(("showdown", {"seat": "dealer", "cards": dealer}))
    if game != "none":
        events.append(("action", {"seat": 1, "action": "buy_dealer_game"}))
        highest = max(dealer, key=lambda c: "23456789TJQKA".index(c[0]))
        same_rank = [c for c in spare[3:] if c[0] == highest[0]]
        burned = (same_rank + spare[3:])[:burns]
        replaced = {"removed": highest if game != "first" else dealer[0],
                    "received": spare[2], "burned": burned}
        if game != "missing":
            events.append(("dealer_replaced_card", replaced))
        if game == "twice":
            events.append(("dealer_replaced_card", {**replaced, "received": spare[1]}))
    events.append(("hand_ended", {}))
    _compare(build_hand(table_config("russian"), events), profiles_for(reading))
