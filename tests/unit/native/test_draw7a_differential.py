"""The core's Five Card Draw 7-A rules (with the betting engine) give byte-identical
records to the Python reference.

The Python rules (``services/games/draw7a``, ``services/games/betting``,
``services/adjudicator``) are the oracle: for every Draw 7-A unit scenario (the plugin
``native_rules_plugin`` run over ``tests/unit/draw7a`` and ``tests/unit/betting``),
simulated logs of the three betting structures with every fault kind under the house
profile and under profiles that flip every reading of ``draw7a.toml`` (its ``[rake]``,
``[rake.pot]``, severities and betting severities included), and hypothesis-built hands
(legal and illegal betting, blinds right and wrong, deals, draws and reshuffles right and
wrong, showdowns, walk-aways, dead hands, rake and payouts), the native record equals the
reference's as ``encode_record`` writes it. The tests also check that the native path
really ran (the core's counters) and that a registry with other Draw 7-A rules keeps the
hands in Python.
"""

from __future__ import annotations

import os
import random
from functools import partial
from pathlib import Path
from typing import Any

import msgspec
import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from services.adjudicator import adjudicate as adjudicate_module
from services.adjudicator.adjudicate import adjudicate_hand
from services.adjudicator.native_runner import NativeRunner, registry_native_games
from services.events.contract import TableConfigured, encode_record
from services.games import registry
from services.games.betting import BettingHand
from services.games.cards import SHORT_DECK_36, STANDARD_DECK
from services.games.draw7a.betting import betting_config
from services.games.draw7a.profile import Draw7aProfile
from services.games.model import HandRejected
from services.games.profile import Profiles, RuleProfile
from services.simulator.handbuilder import EventSpec, build_hand, table_config
from services.simulator.run import available_faults
from tests.profiles import HOUSE, PROFILES
from tests.unit.draw7a.builder import config as draw_config
from tests.unit.draw7a.builder import narrate
from tests.unit.native.rules_support import (
    action,
    assert_a_rules_panic_goes_to_the_python_rules,
    betting_round,
    house_with,
    records,
    simulated_game,
    unit_suites_checked_natively,
)

POT_SCHEDULE = {"rate_numerator": 5, "rate_denominator": 100, "unit": 1, "rounding": "down",
                "minimum_pot": 10, "no_flop_no_drop": True,
                "caps": [{"min_players": 4, "cap": 6}, {"min_players": 2, "cap": 3}]}

# Every reading of draw7a.toml the other way from house-v1 (some together), so that each
# branch of the port is compared at least once under simulated play.
READINGS: dict[str, dict[str, Any]] = {
    "house": {},
    "total_pot": {"pot_limit_reading": "total_at_most_pot_after_call",
                  "big_blind_counts_as_bet": False, "max_bets_per_round": 3,
                  "rank_with_deck": "required", "irregular_hand_dead": False,
                  "rake": {"designated_counts_button": False,
                           "all_charges_button": True}},
    "pot_fees": {"rake": {"fee_from": "pot",
                          "pot": {**POT_SCHEDULE, "rounding": "nearest"}},
                 "small_blind_numerator": 1, "small_blind_denominator": 3,
                 "big_bet_multiple": 3, "max_discard": 3},
    "pot_rake": {"rake": {"pot": {**POT_SCHEDULE, "rounding": "up", "no_flop_no_drop": False,
                                  "minimum_pot": 0, "unit": 2}},
                 "min_players": 3, "max_players": 4, "sixes_added_with_players": 4,
                 "deck_size": 32},
    "severities": {"severity": {"wrong_deck": "info", "deal_order": "critical",
                                "showdown_order": "warning", "draw_not_recorded": "info",
                                "unexpected_action": "critical"},
                   "betting_severity": {"out_of_turn": "info", "not_in_hand": "warning",
                                        "last_player_folded": "warning",
                                        "round_incomplete": "info", "blind_missing": "info"}},
}


def profile_with(change: dict[str, Any]) -> RuleProfile:
    return house_with("draw7a", change)


def profiles_for(reading: str) -> Profiles:
    return Profiles({HOUSE.name: profile_with(READINGS[reading])})


simulated = partial(simulated_game, "draw7a")


def test_the_profiles_flip_what_they_say() -> None:
    prof = profiles_for("pot_fees").get(HOUSE.name).section("draw7a", Draw7aProfile)
    assert prof.rake.fee_from == "pot" and prof.rake.pot.rate_numerator == 5
    assert prof.rake.designated_counts_button is True  # the rest stays house-v1's
    prof = profiles_for("total_pot").get(HOUSE.name).section("draw7a", Draw7aProfile)
    assert prof.pot_limit_reading == "total_at_most_pot_after_call"
    assert not prof.irregular_hand_dead and prof.rank_with_deck == "required"


@pytest.mark.parametrize("fault", sorted(available_faults("draw7a")))
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
    by default, split over the readings), every fault kind at a high rate, three tables a
    run: fixed, pot and no limit."""
    faults = frozenset(available_faults("draw7a"))
    per_run = 3 * 50
    runs = max(1, -(-HANDS_IN_SUITE // (len(READINGS) * per_run)))  # rounded up
    statuses: set[str] = set()
    structures: set[str] = set()
    hands = 0
    for seed in range(runs):
        lines = simulated(3000 + seed, 3, 50, faults, 0.35)
        structures |= {e["data"]["structure"] for e in map(orjson.loads, lines)
                       if e["type"] == "table_configured"}
        ref, nat, (adjudicated, deferred, _, why) = records(lines, profiles_for(reading), False)
        assert nat == ref, (reading, seed)
        assert adjudicated == len(ref) and deferred == 0, why
        hands += len(ref)
        statuses |= {orjson.loads(r)["status"] for r in ref}
    assert hands >= runs * per_run * 0.9
    assert structures == {"fixed", "pot", "no"}
    # Under house-v1 the tables' clean hands are ok; a profile other than the tables'
    # (a pot rake they do not take, other player counts) finds fault with every hand.
    assert ({"ok", "discrepancy"} if reading == "house" else {"discrepancy"}) <= statuses


def test_a_registry_with_other_draw7a_rules_keeps_draw7a_hands_in_python(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Gating is per game: replacing the Draw 7-A rules leaves the other games native and
    Draw 7-A in Python (and the records are the replaced rules')."""
    assert {"hcf", "chinese", "draw7a", "holdem"} <= set(registry_native_games())
    games = dict(vars(adjudicate_module)["GAMES"])
    original = games["draw7a"]
    games["draw7a"] = registry.Game("draw7a", lambda h, p: original.adjudicate(h, p),
                                    original.rake_rule)
    monkeypatch.setattr(adjudicate_module, "GAMES", games)
    assert "draw7a" not in registry_native_games()
    assert {"hcf", "chinese", "holdem"} <= set(registry_native_games())
    lines = simulated(5, 2, 10, frozenset(), 0.0)
    ref, nat, (adjudicated, deferred, _, _) = records(lines, PROFILES, False)
    assert nat == ref and adjudicated == 0 and deferred == 0


def test_a_panic_in_the_rules_is_caught_and_the_hand_goes_to_the_python_rules() -> None:
    assert_a_rules_panic_goes_to_the_python_rules(simulated(22, 1, 6, frozenset(), 0.0), PROFILES)


# Equal hands at seats 2 and 3 (A K Q J 9, no flush), seat 1 lower (Q high).
TIED = {1: ["7s", "8h", "Ts", "Qh", "9s"], 2: ["As", "Ks", "Qd", "Jc", "9h"],
        3: ["Ah", "Kh", "Qc", "Jd", "9c"]}


@pytest.mark.parametrize("button", [1, 2, 3])
def test_a_split_pot_gives_the_odd_chip_left_of_the_button(button: int) -> None:
    """FCD-11 at the chip: blinds 1 and 3, everyone in for 3, a pot of 9 shared by the
    two equal hands: 5 to the first of them left of the button, 4 to the other, recorded
    right and with the odd chip the wrong way round."""
    seats = [1, 2, 3]
    order = [s for s in seats if s > button] + [s for s in seats if s <= button]
    sb, bb, first = order[0], order[1], order[2]
    odd = next(s for s in order if s in (2, 3))
    other = 5 - odd
    for paid_odd in (odd, other):
        events = narrate({1: 50, 2: 50, 3: 50}, button, TIED,
                         blinds=[(sb, "post_small_blind", 1), (bb, "post_big_blind", 3)],
                         before=[(first, "call", 3), (sb, "call", 2), (bb, "check", None)],
                         draws=[(s, [], []) for s in order],
                         after=[(s, "check", None) for s in order],
                         showdown=[(s, TIED[s]) for s in order],
                         payouts=[(paid_odd, 5, "pot"), (5 - paid_odd, 4, "pot")])
        hand = build_hand(draw_config("no", small_blind=1, big_blind=3), events)
        native, why = NativeRunner(PROFILES).adjudicate_hand(hand)
        assert native is not None, why
        assert encode_record(native) == encode_record(adjudicate_hand(hand, PROFILES))
        assert native.expected is not None
        assert native.expected.net == {"1": -3, str(odd): 2, str(other): 1, "house": 0}


# ------------------------------------------------------------------ every unit scenario


def test_every_draw7a_unit_scenario_is_adjudicated_natively_the_same(tmp_path: Path) -> None:
    """The game's whole unit suite and the betting engine's run with every Draw 7-A hand
    they adjudicate also adjudicated by the core and compared (``native_rules_plugin``)."""
    seen = unit_suites_checked_natively(["tests/unit/draw7a", "tests/unit/betting"], tmp_path)
    draw = seen["games"]["draw7a"]
    assert draw["compared"] >= 200
    # What the core leaves to Python here: only profiles whose section does not load
    # (the reference words the error), never a hand it could decide.
    assert set(seen["not_native"]) <= {"a profile whose draw7a section did not load"}, \
        seen["not_native"]
    assert draw["native"] >= 0.9 * draw["compared"]


# ------------------------------------------------------------------ hypothesis hands

KINDS = ["fold", "check", "call", "bet", "raise", "all_in", "stand", "play",
         "post_small_blind", "post_big_blind", "post_ante"]
HOUSE_PROF = HOUSE.section("draw7a", Draw7aProfile)


def _betting(rng: random.Random, engine: BettingHand | None, seats: list[int],
             events: list[EventSpec]) -> None:
    betting_round(rng, engine, seats, events, kinds=KINDS, steps=40, stop_chance=0.8,
                  legal_chance=0.9)


@st.composite
def draw_hands(draw: st.DrawFn) -> tuple[dict[str, Any], list[EventSpec]]:
    """One Five Card Draw 7-A hand as events, arbitrary but valid v1."""
    # A seeded generator (hypothesis chooses and shrinks the seed): its draws are uniform,
    # so each rare irregularity stays rare and the hands stay mostly playable.
    rng = random.Random(draw(st.integers(0, 2**64 - 1)))
    seats = sorted(rng.sample(range(1, 9), rng.choice([2, 2, 3, 3, 4, 5, 5, 6])))
    if rng.random() < 0.02:
        seats = seats[:1]
    button = rng.choice([*seats, *seats, rng.randint(1, 9)])
    stacks = {s: rng.choice([rng.randint(0, 15), rng.randint(5, 80), rng.randint(50, 5000),
                             2**53 - 1 if rng.random() < 0.05 else 100]) for s in seats}
    structure = rng.choice(["fixed", "pot", "no", "fixed", "pot", "no", None])
    limits: dict[str, Any] = {"min_wager": rng.choice([1, 2, 4]), "max_wager": 10_000}
    for name, values in (("small_blind", [1, 2, 3]), ("big_blind", [2, 4, 5]),
                         ("small_bet", [2, 4]), ("big_bet", [4, 8, 6])):
        if rng.random() < 0.6:
            limits[name] = rng.choice(values)
    mode = rng.choice(["all", "players", "designated", "none"])
    cfg = table_config("draw7a", structure=structure, limits=limits,
                       rake={"mode": mode, "fee": rng.choice([0, 1, 1, 2, 5])})
    if rng.random() < 0.05:
        cfg = {k: v for k, v in cfg.items() if k != "authorized_by"}
    players = len(seats)
    deck_size = rng.choice([36 if players == 5 else 32] * 6 + [32, 36, 52])
    events: list[EventSpec] = [("hand_started", {
        "button": button, "designated_player": None, "dealer_id": "d",
        "seats": [{"seat": s, "player_id": f"p{s}", "stack": stacks[s]} for s in seats],
        "deck": deck_size})]
    engine: BettingHand | None = None
    try:
        engine = BettingHand(betting_config(msgspec.convert(cfg, TableConfigured), HOUSE_PROF),
                             stacks, button)
    except (HandRejected, ValueError):
        engine = None
    # The blinds, as owed, or wrong now and then.
    if engine is not None:
        for owed in engine.owed_posts():
            if rng.random() < 0.08:
                continue
            amount = owed.amount if rng.random() < 0.92 else owed.amount + 1
            seat = owed.seat if rng.random() < 0.95 else rng.choice(seats)
            engine.apply(seat, owed.kind, amount)
            events.append(action(seat, owed.kind, amount))
    deck = list(SHORT_DECK_36 if rng.random() < 0.97 else STANDARD_DECK)
    rng.shuffle(deck)
    if deck_size == 32 and rng.random() < 0.8:
        deck = [c for c in deck if c[0] == "6"] + [c for c in deck if c[0] != "6"]  # popped last
    order = [s for s in seats if s > button] + [s for s in seats if s <= button]
    held: dict[int, list[str]] = {s: [] for s in seats}
    deal = [s for _ in range(5) for s in order]
    if rng.random() < 0.05:
        rng.shuffle(deal)
    if rng.random() < 0.05:
        deal = deal[:-1] if rng.random() < 0.5 else [*deal, rng.choice(seats)]
    for seat in deal:
        card = deck.pop()
        held[seat].append(card)
        unread = rng.random() < 0.01
        events.append(("card_dealt", {"to": "seat", "seat": seat,
                                      "card": None if unread else card, "face_up": False}))
    if rng.random() < 0.05:  # a blind after the deal
        events.append(action(rng.choice(seats), "post_small_blind", 1))
    _betting(rng, engine, seats, events)
    if rng.random() < 0.05:
        leaver = rng.choice(seats)
        events.append(("player_left", {"seat": leaver, "player_id": f"p{leaver}",
                                       "stack": 0}))
        if engine is not None:
            engine.walk_away(leaver)
    # The draw (each active player clockwise, with errors now and then).
    drawers = [s for s in order if engine is None or not engine.seats[s].folded]
    if rng.random() < 0.15:
        rng.shuffle(drawers)
    discards: list[str] = []
    if engine is None or not engine.hand_over() or rng.random() < 0.1:
        for seat in drawers:
            if rng.random() < 0.05:
                continue
            count = rng.randint(0, 5)
            if count == 0 and rng.random() < 0.5:
                events.append(action(seat, "stand", None))
                continue
            thrown = held[seat][:count]
            if rng.random() < 0.04 and deck:
                thrown = [*thrown[:-1], deck[0]] if thrown else [deck[0]]
            need = count + (1 if rng.random() < 0.04 else 0)
            if len(deck) < need or rng.random() < 0.03:
                events.append(("stub_reshuffled", {
                    "cards": list(discards) + ([held[seat][-1]] if rng.random() < 0.1
                                               else []), "reason": "empty"}))
                deck = [*deck, *discards]
                discards = []
            received = [deck.pop() for _ in range(min(need, len(deck)))]
            held[seat] = held[seat][count:] + received
            discards += thrown
            events.append(("draw", {"seat": seat, "discarded": thrown, "received": received}))
        if rng.random() < 0.03:
            events.append(("draw", {"seat": rng.choice([*seats, 9]), "discarded": [],
                                    "received": []}))
        if engine is not None and not engine.hand_over() and engine.round_index == 0:
            engine.close_round()
            engine.next_round()
        _betting(rng, engine, seats, events)
    # The showdown.
    contenders = engine.active() if engine is not None else seats
    if len(contenders) > 1 or rng.random() < 0.1:
        show = engine.showdown_order() if engine is not None else list(contenders)
        if rng.random() < 0.2:
            rng.shuffle(show)
        for seat in show:
            if rng.random() < 0.1:
                events.append(("showdown", {"seat": seat, "mucked": True}))
            elif rng.random() < 0.05:
                events.append(("showdown", {"seat": seat,
                                            "cards": rng.sample(SHORT_DECK_36, 5)}))
            else:
                events.append(("showdown", {"seat": seat, "cards": held[seat]}))
        if rng.random() < 0.05:
            events.append(("showdown", {"seat": "dealer"}))
    if rng.random() < 0.03:
        events.append((rng.choice(["misdeal", "hand_dead"]), {"reason": "r"}))
    # Payouts and rake as a table might record them (right or wrong).
    pot = sum(engine.contributions().values()) if engine is not None else 10
    winners = rng.sample(contenders, max(1, min(len(contenders), rng.choice([1, 1, 1, 2]))))
    fee = cfg["rake"]["fee"]
    if rng.random() < 0.3 and fee:
        events.append(("rake_collected", {"seat": rng.choice([None, *seats]),
                                          "amount": fee, "from": rng.choice(["pot", "stack"])}))
    for i, seat in enumerate(winners):
        share = pot // len(winners) + (pot % len(winners) if i == 0 else 0)
        share = min(share + rng.choice([0, 0, 0, 0, 1, -1]), 2**53 - 1)
        if share > 0:
            events.append(("payout", {"seat": seat, "amount": share, "source": "pot",
                                      "kind": "pot"}))
    if rng.random() < 0.4 and fee:
        events.append(("rake_collected", {"seat": rng.choice(seats), "amount": fee,
                                          "from": "stack"}))
    events.append(("hand_ended", {}))
    return cfg, events


_RUNNERS: dict[str, tuple[Profiles, NativeRunner]] = {}


def _runner_for(reading: str) -> tuple[Profiles, NativeRunner]:
    if reading not in _RUNNERS:
        profiles = profiles_for(reading)
        _RUNNERS[reading] = (profiles, NativeRunner(profiles))
    return _RUNNERS[reading]


@settings(max_examples=int(os.environ.get("PITWATCH_NATIVE_HYPOTHESIS", "400")) * 5,
          deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(draw_hands(), st.sampled_from(sorted(READINGS)))
def test_hypothesis_hands_native_records_equal_the_reference(
        spec: tuple[dict[str, Any], list[EventSpec]], reading: str) -> None:
    cfg, events = spec
    hand = build_hand(cfg, events)
    profiles, runner = _runner_for(reading)
    reference = encode_record(adjudicate_hand(hand, profiles))
    native, why = runner.adjudicate_hand(hand)
    if native is None:  # a deferral: the Python rules decide (the reasons are bounded)
        assert why is not None and ("bound" in why or "twice" in why), why
        return
    assert encode_record(native) == reference
